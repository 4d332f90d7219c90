package io.rddp.testing;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import io.rddp.tcp.Direction;
import io.rddp.tcp.PacketDecoder;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpListener;
import io.rddp.tcp.TcpReassembler;
import io.rddp.tcp.TcpSegment;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Real traffic for live-capture tests: the TCP payload of the first connection of a
 * capture, sent again over a loopback socket pair in the capture's order (each chunk is read by the other end before
 * the next is written, so a capture of the loopback interface sees the two directions in the same order). The
 * bytes are the capture's, so the decoder sees the same MPA/DDP/RDMAP PDUs.
 */
public final class LoopbackReplay {
    /** One write: which side sends which bytes. */
    public record Chunk(Direction direction, byte[] bytes) {
    }

    private LoopbackReplay() {
    }

    /** The in-order payload of the capture's first TCP connection, as the two sides sent it. */
    public static List<Chunk> chunks(Path capture) throws IOException {
        List<Chunk> out = new ArrayList<>();
        TcpConnection[] first = {null};
        TcpReassembler tcp = new TcpReassembler(new TcpListener() {
            @Override
            public void onConnection(TcpConnection connection) {
                if (first[0] == null) first[0] = connection;
            }

            @Override
            public void onGap(TcpConnection c, Direction d, long offset, long length, long frame) {
                throw new IllegalStateException("the capture misses " + length + " bytes of " + d + ": cannot replay it");
            }

            @Override
            public void onClose(TcpConnection c, Direction d, long offset, boolean reset, long frame) {
            }

            @Override
            public void onData(TcpConnection c, Direction d, long offset, ByteBuffer data, long frame) {
                if (c != first[0]) return;
                byte[] b = new byte[data.remaining()];
                data.duplicate().get(b);
                Chunk last = out.isEmpty() ? null : out.get(out.size() - 1);
                if (last != null && last.direction == d) {
                    byte[] joined = new byte[last.bytes.length + b.length];
                    System.arraycopy(last.bytes, 0, joined, 0, last.bytes.length);
                    System.arraycopy(b, 0, joined, last.bytes.length, b.length);
                    out.set(out.size() - 1, new Chunk(d, joined));
                } else {
                    out.add(new Chunk(d, b));
                }
            }
        });
        PacketDecoder packets = new PacketDecoder(n -> { });
        Frame frame = new Frame();
        TcpSegment segment = new TcpSegment();
        try (CaptureReader reader = CaptureReaders.open(capture)) {
            while (reader.next(frame)) {
                if (packets.decode(frame, segment)) tcp.accept(segment);
            }
        }
        tcp.finish(0);
        return out;
    }

    /**
     * Connects a client to a server on 127.0.0.1:{@code port} (0: any free port) and sends the chunks; returns the
     * server's port. Both sockets are closed at the end (FIN both ways).
     */
    public static int replay(List<Chunk> chunks, int port) throws IOException {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                 Socket accepted = server.accept()) {
                client.setTcpNoDelay(true);
                accepted.setTcpNoDelay(true);
                for (Chunk c : chunks) {
                    Socket from = c.direction == Direction.CLIENT_TO_SERVER ? client : accepted;
                    Socket to = c.direction == Direction.CLIENT_TO_SERVER ? accepted : client;
                    from.getOutputStream().write(c.bytes);
                    from.getOutputStream().flush();
                    readFully(to.getInputStream(), c.bytes.length);
                }
            }
            return server.getLocalPort();
        }
    }

    private static void readFully(InputStream in, int n) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream(n);
        byte[] buf = new byte[8192];
        int left = n;
        while (left > 0) {
            int r = in.read(buf, 0, Math.min(buf.length, left));
            if (r < 0) throw new IOException("peer closed with " + left + " bytes still to come");
            sink.write(buf, 0, r);
            left -= r;
        }
    }
}
