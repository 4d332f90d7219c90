package io.rddp.rnic.link;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import io.rddp.tcp.Direction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A capped recorder stops writing at its cap and says so; a write to a peer that reads nothing gives up. */
class BoundedLinkTest {

    private static final InetSocketAddress CLIENT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000);
    private static final InetSocketAddress SERVER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 4791);

    private static List<Frame> frames(Path pcap) throws IOException {
        List<Frame> out = new ArrayList<>();
        try (CaptureReader r = CaptureReaders.open(pcap)) {
            Frame f = new Frame();
            while (r.next(f)) {
                Frame copy = new Frame();
                copy.comment = f.comment;
                copy.number = f.number;
                out.add(copy);
            }
        }
        return out;
    }

    @Test
    void aCappedRecorderWritesThePeersOctetsUpToItsCapThenOnlyTheCloseMarkedAsTruncated(@TempDir Path dir)
            throws IOException {
        Path pcap = dir.resolve("r.pcapng");
        byte[] chunk = new byte[64 * 1024];
        try (Recorder rec = Recorder.create(pcap, 256 * 1024)) {
            Recorder.Connection c = rec.open(CLIENT, SERVER, Direction.SERVER_TO_CLIENT);
            c.data(Direction.CLIENT_TO_SERVER, new byte[100], 0, 100); // the tester's own octets do not count
            for (int i = 0; i < 64; i++) c.data(Direction.SERVER_TO_CLIENT, chunk, 0, chunk.length); // 4 MiB
            assertThat(rec.truncated()).isTrue();
            assertThat(rec.peerOctets()).isEqualTo(64L * chunk.length);
            c.fin(Direction.SERVER_TO_CLIENT);
            c.fin(Direction.CLIENT_TO_SERVER);
        }
        // 256 KiB of data in 1460-octet frames, with their headers and the recorder's ACKs
        assertThat(Files.size(pcap)).isBetween(256L * 1024, 256L * 1024 * 110 / 100);
        List<Frame> fs = frames(pcap);
        List<Frame> marked = fs.stream().filter(f -> f.comment != null).toList();
        assertThat(marked).hasSize(1);
        assertThat(marked.get(0).comment).contains("recording truncated").contains("262144 octets");
        // the mark sits on the first frame after the gap, the FIN; the other FIN follows
        assertThat(marked.get(0).number).isEqualTo(fs.size() - 1);
    }

    @Test
    void anUncappedRecorderNeverTruncatesAndACountingOneWritesNothing(@TempDir Path dir) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        try (Recorder rec = Recorder.create(dir.resolve("u.pcapng"));
             Recorder counting = Recorder.counting(100_000)) {
            for (Recorder r : List.of(rec, counting)) {
                Recorder.Connection c = r.open(CLIENT, SERVER, Direction.SERVER_TO_CLIENT);
                for (int i = 0; i < 4; i++) c.data(Direction.SERVER_TO_CLIENT, chunk, 0, chunk.length);
                c.reset(Direction.SERVER_TO_CLIENT);
            }
            assertThat(rec.truncated()).isFalse();
            assertThat(counting.truncated()).isTrue();
            assertThat(counting.frames()).isZero();
            assertThat(counting.path()).isNull();
        }
    }

    @Test
    void aWriteToAPeerThatReadsNothingFailsAfterTheWriteTimeoutInsteadOfBlocking() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Link link = Link.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()),
                     2000, null).writeTimeout(300);
             Socket peer = server.accept()) {
            assertThat(peer.isConnected()).isTrue(); // accepted, and never read
            byte[] chunk = new byte[1 << 20];
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> {
                for (int i = 0; i < 1024; i++) link.write(chunk); // far beyond any socket buffer
            }).isInstanceOf(IOException.class).hasMessageContaining("the peer read nothing for 300 ms");
            assertThat((System.nanoTime() - t0) / 1_000_000L).isLessThan(10_000);
            assertThat(link.isClosed()).isTrue();
        }
    }
}
