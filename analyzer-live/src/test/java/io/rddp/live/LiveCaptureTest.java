package io.rddp.live;

import io.rddp.testing.LoopbackReplay;
import io.rddp.testing.RepoPaths;
import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Live capture on the loopback interface while the siw rping capture's bytes are sent over a loopback socket. Skipped
 * (with the reason) where libpcap is missing or capturing is not permitted; CI runs as root, so it runs there.
 */
class LiveCaptureTest {

    static Path root() {
        return RepoPaths.root();
    }

    /** Opens lo with a filter for one port, or skips the test saying why capture is impossible here. */
    static LiveCapture openLoopback(int port, long maxFrames, long durationMillis) {
        try {
            return LiveCapture.open(new LiveCapture.Options("lo", "tcp port " + port, maxFrames, durationMillis));
        } catch (LiveCaptureException e) {
            org.junit.jupiter.api.Assumptions.abort("live capture on lo not possible here: " + e.getMessage());
            return null;
        }
    }

    @Test
    void analysesReplayedRpingTrafficAsItArrives() throws Exception {
        List<LoopbackReplay.Chunk> chunks = LoopbackReplay.chunks(root().resolve("pcaps/siw/siw-rping-lo.pcap"));
        int port = freePort();
        // Loopback capture is timing-dependent only in when the first packet is seen; three tries at most.
        Analysis a = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try (LiveCapture capture = openLoopback(port, 0, 20_000)) {
                Future<Analysis> analysis = pool.submit(() ->
                        new Analyzer(SinkModel.Options.defaults(), StagRegistry.empty()).run(capture, () -> { }));
                Thread.sleep(200); // the handle is open already; give the reader a moment to block in libpcap
                LoopbackReplay.replay(chunks, port);
                Thread.sleep(300);
                capture.stop();
                a = analysis.get(5, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            if (a.pdus() >= 70) break;
            System.err.println("LiveCaptureTest: attempt " + attempt + " saw only " + a.pdus() + " PDUs, retrying");
        }
        // rping -C 10: MPA Request and Reply, then 7 messages per round
        assertThat(a.pdus()).isGreaterThanOrEqualTo(72);
        assertThat(a.streams()).hasSize(1);
        assertThat(a.streams().get(0).server().port()).isEqualTo(port);
        assertThat(a.violations()).noneMatch(v -> v.severity() == io.rddp.sink.Severity.ERROR);
    }

    @Test
    void stopsOnAnIdleInterfaceWithinItsPollInterval() throws Exception {
        try (LiveCapture capture = openLoopback(freePort(), 0, 0)) {
            Thread stopper = new Thread(() -> {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                }
                capture.stop();
            });
            long t0 = System.nanoTime();
            stopper.start();
            assertThat(capture.next(new io.rddp.capture.Frame())).isFalse();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).isLessThan(300 + 10L * LiveCapture.POLL_MILLIS); // generous: the machine may be busy
            stopper.join();
        }
    }

    @Test
    void durationEndsTheCapture() throws Exception {
        try (LiveCapture capture = openLoopback(freePort(), 0, 300)) {
            long t0 = System.nanoTime();
            assertThat(capture.next(new io.rddp.capture.Frame())).isFalse();
            assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(250L, 5000L);
        }
    }

    @Test
    void badFilterAndDeviceAreSaidPlainly() {
        openLoopback(freePort(), 1, 1).close(); // skips when capture is impossible here
        assertThatThrownBy(() -> LiveCapture.open(new LiveCapture.Options("lo", "tcp port banana", 0, 0)))
                .isInstanceOf(LiveCaptureException.class).hasMessageContaining("'tcp port banana' is not valid BPF");
        assertThatThrownBy(() -> LiveCapture.open(new LiveCapture.Options("nosuchif0", null, 0, 0)))
                .isInstanceOf(LiveCaptureException.class).hasMessageContaining("nosuchif0");
    }

    @Test
    void permissionErrorTellsWhatToDo() {
        LiveCaptureException e = LiveCapture.explain("eth0", new org.pcap4j.core.PcapNativeException(
                "eth0: You don't have permission to perform this capture on that device (socket: Operation not permitted)"));
        assertThat(e.getMessage()).contains("no permission to capture on eth0", "CAP_NET_RAW", "dumpcap -i eth0 -w -",
                "Never setcap the java binary");
    }

    static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
