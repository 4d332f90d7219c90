package io.rddp.cli;

import io.rddp.capture.CaptureReader;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** A progress bar on stderr for long captures, shown only when stderr is a terminal. */
final class Progress implements AutoCloseable {
    enum Mode { AUTO, OFF }

    private static final long MIN_SIZE = 64L << 20; // small files finish before a bar is worth drawing
    private final CaptureReader reader;
    private final ProgressBar bar;
    private long nextUpdate;

    private Progress(CaptureReader reader, ProgressBar bar) {
        this.reader = reader;
        this.bar = bar;
    }

    static Progress start(CaptureReader reader, Mode mode) {
        long size = reader.size();
        if (mode == Mode.OFF || size < MIN_SIZE || !stderrIsTerminal()) return new Progress(reader, null);
        ProgressBar bar = new ProgressBarBuilder()
                .setTaskName("decode")
                .setInitialMax(size >> 20)
                .setUnit(" MiB", 1)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .setConsumer(new ConsoleProgressBarConsumer(new PrintStream(System.err, true)))
                .build();
        return new Progress(reader, bar);
    }

    /** Called once per frame; cheap unless a MiB boundary was crossed. */
    void update() {
        if (bar == null) return;
        long read = reader.bytesRead();
        if (read >= nextUpdate) {
            bar.stepTo(read >> 20);
            nextUpdate = read + (1 << 20);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.stepTo(reader.bytesRead() >> 20);
            bar.close();
        }
    }

    // Java 17 has no isatty for stderr alone; System.console() needs stdin and stdout too (stdout is often a pipe).
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (Exception e) {
            return System.console() != null;
        }
    }
}
