package io.rddp.live;

import io.rddp.capture.LinkType;
import io.rddp.capture.PcapngWriter;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Records live TCP connections into one pcapng file: the real bytes of both directions inside synthetic Ethernet,
 * IP and TCP headers (correct sequence numbers and checksums), stamped with the wall clock, so that {@code rddp
 * analyze} judges whatever a live connection carried. A socket shows byte streams, not segments: each read or write
 * becomes segments of at most {@link #MSS} octets. Thread-safe; a failure to write is remembered and ends recording,
 * never the connection.
 */
public final class Recorder implements Closeable {

    /** Segment size of the recorded frames (Ethernet-sized, so tshark and Wireshark take them as they are). */
    public static final int MSS = 1460;

    private final Path path;
    private final PcapngWriter out;
    private IOException failure;
    private long frames;

    private Recorder(Path path, PcapngWriter out) {
        this.path = path;
        this.out = out;
    }

    public static Recorder create(Path path) throws IOException {
        return new Recorder(path, PcapngWriter.create(path, LinkType.ETHERNET));
    }

    public Path path() {
        return path;
    }

    /** Starts a connection: writes its SYN, SYN-ACK and ACK. {@code client} is the side that connected. */
    public synchronized Connection open(InetSocketAddress client, InetSocketAddress server) {
        Connection c = new Connection(endpoint(client), endpoint(server));
        c.tcp.handshake();
        return c;
    }

    /** Frames written so far. */
    public synchronized long frames() {
        return frames;
    }

    /** The first write failure, or null. */
    public synchronized IOException failure() {
        return failure;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    private synchronized void frame(byte[] bytes, long nanos) {
        if (failure != null) return;
        try {
            out.writePacket(nanos, ByteBuffer.wrap(bytes), bytes.length, null);
            frames++;
        } catch (IOException e) {
            failure = e;
        }
    }

    private static Endpoint endpoint(InetSocketAddress a) {
        return new Endpoint(a.getAddress().getAddress(), a.getPort());
    }

    private static long now() {
        java.time.Instant t = java.time.Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** One recorded connection. */
    public final class Connection {
        private final TcpSessionWriter tcp;
        private boolean ended;

        private Connection(Endpoint client, Endpoint server) {
            this.tcp = new TcpSessionWriter(client, server, TcpSessionWriter.Options.defaults().withAckEvery(8),
                    Recorder.this::frame).clock(Recorder::now);
        }

        /** Octets that went in direction {@code d}. */
        public void data(Direction d, byte[] bytes, int off, int len) {
            synchronized (Recorder.this) {
                if (ended || len == 0) return;
                tcp.send(d, ByteBuffer.wrap(bytes, off, len), MSS);
            }
        }

        /** FIN of direction {@code d}. */
        public void fin(Direction d) {
            synchronized (Recorder.this) {
                if (!ended) tcp.close(d);
            }
        }

        /** RST from direction {@code d}; nothing more is recorded for the connection. */
        public void reset(Direction d) {
            synchronized (Recorder.this) {
                if (ended) return;
                tcp.reset(d);
                ended = true;
            }
        }
    }
}
