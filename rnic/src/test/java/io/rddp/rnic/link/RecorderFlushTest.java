package io.rddp.rnic.link;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import io.rddp.tcp.Direction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A recording is readable while the recorder still runs: what {@code rddp peer --pcap} serves shows up as it goes. */
class RecorderFlushTest {

    @Test
    void framesReachTheFileWithinTheFlushIntervalWhileTheRecorderIsOpen(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("live.pcapng");
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (Recorder rec = Recorder.create(pcap)) {
            Recorder.Connection c = rec.open(new InetSocketAddress(lo, 40000), new InetSocketAddress(lo, 7777),
                    Direction.SERVER_TO_CLIENT);
            c.data(Direction.CLIENT_TO_SERVER, new byte[100], 0, 100);
            c.data(Direction.SERVER_TO_CLIENT, new byte[3000], 0, 3000);
            long written = rec.frames();
            assertThat(written).as("handshake, data and ACKs recorded").isGreaterThanOrEqualTo(6);
            // the flusher runs every FLUSH_INTERVAL_MS; allow a few turns on a loaded machine
            long deadline = System.nanoTime() + 20 * Recorder.FLUSH_INTERVAL_MS * 1_000_000L;
            long seen = 0;
            while ((seen = framesIn(pcap)) < written && System.nanoTime() < deadline) {
                Thread.sleep(Recorder.FLUSH_INTERVAL_MS / 5);
            }
            assertThat(seen).as("frames in the file before the recorder closed").isEqualTo(written);
        }
    }

    @Test
    void aFinishedConnectionIsInTheFileWhenItsFinIsRecorded(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("served.pcapng");
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (Recorder rec = Recorder.create(pcap)) {
            Recorder.Connection c = rec.open(new InetSocketAddress(lo, 40001), new InetSocketAddress(lo, 7777),
                    Direction.SERVER_TO_CLIENT);
            c.data(Direction.CLIENT_TO_SERVER, new byte[64], 0, 64);
            c.fin(Direction.CLIENT_TO_SERVER);
            c.fin(Direction.SERVER_TO_CLIENT);
            // no wait: the connection's end is flushed as it is recorded, the recorder still open
            assertThat(framesIn(pcap)).isEqualTo(rec.frames());
            Recorder.Connection reset = rec.open(new InetSocketAddress(lo, 40002), new InetSocketAddress(lo, 7777),
                    Direction.SERVER_TO_CLIENT);
            reset.data(Direction.SERVER_TO_CLIENT, new byte[10], 0, 10);
            reset.reset(Direction.CLIENT_TO_SERVER);
            assertThat(framesIn(pcap)).isEqualTo(rec.frames());
        }
    }

    private static long framesIn(Path pcap) {
        long n = 0;
        try (CaptureReader r = CaptureReaders.open(pcap)) {
            Frame f = new Frame();
            while (r.next(f)) n++;
        } catch (Exception e) {
            // a block cut short by a flush in progress: count what came before it
        }
        return n;
    }
}
