package io.rddp.gui;

import io.rddp.gui.vm.MainViewModel;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;
import javafx.stage.Stage;
import io.rddp.gui.view.MainView;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Times how long the window takes to open a capture, without a window: {@code bench/gui-load} runs it with JavaFX
 * headless (Monocle). It starts the toolkit, shows the window (with {@code --window}) and lets it settle for a few
 * pulses, as it is when a user opens a file, then calls {@link MainViewModel#open} on the FX thread as the File menu does
 * and waits until the packet list model holds every row ({@code busy} false again), then prints one line of
 * {@code key=value}: seconds from the call to the complete list, rows, PDUs, violations, streams, field-file bytes,
 * and the JVM's peak resident set (VmHWM).
 * <p>
 * Usage: {@code LoadTiming FILE}; exit code 0 when the capture loaded, 1 when it reported an error, 2 on bad usage.
 */
public final class LoadTiming {
    /** Pulses the shown window runs before the capture is opened: its first layout and rendering done. */
    private static final int SETTLING_PULSES = 5;

    private LoadTiming() {
    }

    public static void main(String[] args) throws Exception {
        boolean window = args.length == 2 && args[0].equals("--window");
        if (args.length != 1 && !window) {
            System.err.println("usage: LoadTiming [--window] FILE");
            System.exit(2);
        }
        Path file = Path.of(args[args.length - 1]);
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();
        CountDownLatch done = new CountDownLatch(1);
        MainViewModel[] vm = new MainViewModel[1];
        long[] t0 = new long[1];
        // the window is up before the File menu opens a capture: its first layouts and renderings (CSS, fonts, the
        // first frames; a second or more of CPU) are not part of opening one
        CountDownLatch laidOut = new CountDownLatch(SETTLING_PULSES);
        Platform.runLater(() -> {
            vm[0] = new MainViewModel(false);
            if (window) {
                Stage stage = new Stage();
                stage.setScene(RddpApp.scene(new MainView(vm[0])));
                stage.getScene().addPostLayoutPulseListener(laidOut::countDown);
                stage.show();
            } else {
                for (int i = 0; i < SETTLING_PULSES; i++) laidOut.countDown();
            }
        });
        if (!laidOut.await(30, TimeUnit.SECONDS)) {
            System.err.println("LoadTiming: the window was not laid out in 30 s");
            System.exit(1);
        }
        Platform.runLater(() -> {
            // busy goes true in open() and false in finished(), after the last rows are published to the list
            ChangeListener<Boolean> idle = (o, was, now) -> {
                if (was && !now) done.countDown();
            };
            vm[0].busy.addListener(idle);
            t0[0] = System.nanoTime();
            vm[0].open(file);
        });
        if (!done.await(20, TimeUnit.MINUTES)) {
            System.err.println("LoadTiming: no end of loading in 20 minutes");
            System.exit(1);
        }
        double seconds = (System.nanoTime() - t0[0]) / 1e9;
        CountDownLatch read = new CountDownLatch(1);
        String[] line = new String[1];
        boolean[] failed = new boolean[1];
        Platform.runLater(() -> {
            MainViewModel m = vm[0];
            var s = m.session();
            failed[0] = s == null || s.error() != null || s.result() == null;
            line[0] = String.format("seconds=%.3f rows=%d pdus=%d violations=%d streams=%d fieldfile=%d vmhwm_kib=%d"
                            + " status=%s",
                    seconds, m.rows.size(), s == null ? 0 : s.pdus(), m.violations.size(), m.streams.size(),
                    s == null ? 0 : s.store().size(), vmHwmKib(), m.status.get().replace(' ', '_'));
            m.shutdown();
            read.countDown();
        });
        read.await();
        System.out.println(line[0]);
        Platform.exit();
        System.exit(failed[0] ? 1 : 0);
    }

    /** Peak resident set of this process (Linux), or -1. */
    private static long vmHwmKib() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: unknown
        }
        return -1;
    }
}
