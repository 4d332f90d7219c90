package io.rddp.cli;

import io.rddp.Plural;
import io.rddp.capture.CaptureWriter;
import io.rddp.live.LiveCapture;
import io.rddp.live.LiveCaptureException;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code -i IFACE [-f BPF] [--duration S | -c N]}, {@code -D}: the live source shared by decode and analyze. */
final class LiveOptions {

    @Option(names = {"-i", "--interface"}, paramLabel = "IFACE",
            description = "Capture live on IFACE (e.g. lo) instead of reading a file; Ctrl-C, --duration or -c stop it. Needs libpcap and the capture capabilities (root).")
    String device;

    @Option(names = {"-f", "--capture-filter"}, paramLabel = "BPF", description = "libpcap capture filter for -i, e.g. 'tcp port 4791'.")
    String bpf;

    @Option(names = "--duration", paramLabel = "S", description = "With -i: stop after S seconds.")
    double durationSeconds;

    @Option(names = {"-c", "--count"}, paramLabel = "N", description = "Read only the first N frames (of each file, or live with -i), as tshark -c.")
    long count;

    @Option(names = {"-D", "--list-interfaces"}, description = "List the interfaces -i can capture on, and exit.")
    boolean list;

    boolean live() {
        return device != null;
    }

    /** Prints the interfaces; returns the exit code. */
    int listInterfaces(PrintWriter out, PrintWriter err) {
        try {
            int i = 1;
            for (LiveCapture.Device d : LiveCapture.devices()) out.println((i++) + ". " + d);
            out.flush();
            return Main.EXIT_OK;
        } catch (LiveCaptureException e) {
            err.println("rddp: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
    }

    /** Checks the options; returns null when they are fine, else the message. */
    String problem() {
        if (!live() && (bpf != null || durationSeconds != 0)) return "-f and --duration go with -i";
        if (durationSeconds < 0) return "--duration: must be 0 (no limit) or more seconds (got " + durationSeconds + ")";
        if (count < 0) return "-c: must be 0 (all frames) or more (got " + count + ")";
        return null;
    }

    /**
     * Opens the capture, tells on stderr what is captured, and arranges for Ctrl-C to stop it (the report is then
     * still written); null after printing why it cannot capture.
     */
    LiveCapture open(PrintWriter err, CaptureWriter tee) {
        try {
            LiveCapture c = LiveCapture.open(new LiveCapture.Options(device, bpf, count,
                    (long) (durationSeconds * 1000)));
            if (tee != null) c.tee(tee);
            err.println("rddp: capturing on " + device + (bpf != null ? " with filter '" + bpf + "'" : "")
                    + (count > 0 ? ", " + Plural.of(count, "frame") : "") + (durationSeconds > 0 ? ", " + durationSeconds + " s" : "")
                    + "; Ctrl-C stops");
            err.flush();
            return c;
        } catch (LiveCaptureException e) {
            err.println("rddp: " + e.getMessage());
            return null;
        }
    }

    /** A shutdown hook that stops the capture on Ctrl-C and gives the command time to finish its report. */
    static Thread stopOnInterrupt(LiveCapture capture, CountDownLatch done) {
        Thread hook = new Thread(() -> {
            capture.stop();
            try {
                done.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rddp-stop-capture");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    static void release(Thread hook, CountDownLatch done) {
        done.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already: the hook is running and waits for done
        }
    }
}
