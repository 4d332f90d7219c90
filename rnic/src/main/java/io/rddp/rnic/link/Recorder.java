package io.rddp.rnic.link;

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
 *
 * <p>A recorder may be capped: it records at most so many octets of the peers (the side each connection reached),
 * over all its connections. Past the cap no data is written, of either side — the sequence numbers go on, so the
 * capture shows a gap —, but handshakes, FINs and RSTs still are, so the capture ends cleanly; the first frame after
 * the gap carries a comment saying so, and {@link #truncated()} turns true. A peer that floods cannot fill the disk.
 *
 * <p>What is recorded reaches the file within {@link #FLUSH_INTERVAL_MS} ms, and a connection's FIN or RST at once,
 * so a long-running {@code rddp peer --pcap} can be analysed (or followed) while it serves, each finished connection
 * whole, not only after it exits.
 */
public final class Recorder implements Closeable {

    /** Segment size of the recorded frames (Ethernet-sized, so tshark and Wireshark take them as they are). */
    public static final int MSS = 1460;

    /** At most this long between a frame being recorded and its reaching the file. */
    public static final long FLUSH_INTERVAL_MS = 500;

    /** No cap: everything is recorded. */
    public static final long UNCAPPED = Long.MAX_VALUE;

    private final Path path;
    /** null: nothing is written, octets are only counted against the cap */
    private final PcapngWriter out;
    private final long cap;
    private IOException failure;
    private long frames;
    private long peerOctets;
    private boolean truncated;
    /** said on the next frame written: the one after the gap */
    private String pendingComment;
    /** frames written since the last flush */
    private boolean dirty;
    private boolean closed;
    private final Thread flusher;

    private Recorder(Path path, PcapngWriter out, long cap) {
        if (cap < 0) throw new IllegalArgumentException("cap " + cap);
        this.path = path;
        this.out = out;
        this.cap = cap;
        this.flusher = out == null ? null : startFlusher();
    }

    /** A daemon thread that flushes what was recorded since its last turn; it ends with {@link #close()}. */
    private Thread startFlusher() {
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(FLUSH_INTERVAL_MS);
                    if (!flushIfDirty()) return;
                }
            } catch (InterruptedException e) {
                // closed
            }
        }, "recorder-flush");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Flushes recorded frames to the file; false once the recorder is closed or failed. */
    private synchronized boolean flushIfDirty() {
        if (closed || failure != null) return false;
        if (!dirty) return true;
        try {
            out.flush();
            dirty = false;
        } catch (IOException e) {
            failure = e;
            return false;
        }
        return true;
    }

    public static Recorder create(Path path) throws IOException {
        return create(path, UNCAPPED);
    }

    /** Records into {@code path} at most {@code peerCap} octets of the peers, over all connections. */
    public static Recorder create(Path path, long peerCap) throws IOException {
        return new Recorder(path, PcapngWriter.create(path, LinkType.ETHERNET), peerCap);
    }

    /** Writes nothing: only counts the peers' octets against {@code peerCap}, so {@link #truncated()} still tells. */
    public static Recorder counting(long peerCap) {
        return new Recorder(null, null, peerCap);
    }

    /** The file, or null when nothing is written. */
    public Path path() {
        return path;
    }

    /** Peer octets recorded at most, over all connections. */
    public long cap() {
        return cap;
    }

    /** Whether the peers sent more than the cap: the recording lacks what followed. */
    public synchronized boolean truncated() {
        return truncated;
    }

    /** Octets the peers sent over all connections, recorded or not. */
    public synchronized long peerOctets() {
        return peerOctets;
    }

    /**
     * Starts a connection: writes its SYN, SYN-ACK and ACK. {@code client} is the side that connected; {@code peer}
     * is the direction of the far side's octets, the ones the cap counts.
     */
    public synchronized Connection open(InetSocketAddress client, InetSocketAddress server, Direction peer) {
        Connection c = new Connection(endpoint(client), endpoint(server), peer);
        if (c.tcp != null) c.tcp.handshake();
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
    public void close() throws IOException {
        if (flusher != null) flusher.interrupt();
        synchronized (this) {
            if (closed) return;
            closed = true;
            if (out != null) out.close();
        }
    }

    private synchronized void frame(byte[] bytes, long nanos) {
        if (failure != null || closed) return;
        try {
            out.writePacket(nanos, ByteBuffer.wrap(bytes), bytes.length, pendingComment);
            pendingComment = null;
            frames++;
            dirty = true;
        } catch (IOException e) {
            failure = e;
        }
    }

    private static Endpoint endpoint(InetSocketAddress a) {
        return new Endpoint(a.getAddress().getAddress(), a.getPort());
    }

    private static long now() {
        return SocketConnection.now();
    }

    /** One recorded connection. */
    public final class Connection {
        /** null when the recorder writes nothing */
        private final TcpSessionWriter tcp;
        private final Direction peer;
        private boolean ended;

        private Connection(Endpoint client, Endpoint server, Direction peer) {
            this.peer = peer;
            this.tcp = out == null ? null : new TcpSessionWriter(client, server,
                    TcpSessionWriter.Options.defaults().withAckEvery(8), Recorder.this::frame).clock(Recorder::now);
        }

        /** Octets that went in direction {@code d}: recorded while the peers' octets are within the cap. */
        public void data(Direction d, byte[] bytes, int off, int len) {
            synchronized (Recorder.this) {
                if (ended || len == 0) return;
                int keep = truncated ? 0 : len;
                if (d == peer) {
                    long room = Math.max(0, cap - peerOctets);
                    peerOctets += len;
                    if (room < keep) keep = (int) room;
                }
                if (keep < len && !truncated) {
                    truncated = true;
                    pendingComment = "rddp: recording truncated here: the peer sent more than the recorder's cap of "
                            + cap + " octets; what the connections carried after it is not recorded (a gap), their"
                            + " FIN and RST still are";
                }
                if (tcp == null) return;
                if (keep > 0) tcp.send(d, ByteBuffer.wrap(bytes, off, keep), MSS);
                if (keep < len) tcp.skip(d, len - keep);
            }
        }

        /** FIN of direction {@code d}; the file holds it (and all before it) when this returns. */
        public void fin(Direction d) {
            synchronized (Recorder.this) {
                if (!ended && tcp != null) {
                    tcp.close(d);
                    flushIfDirty();
                }
            }
        }

        /** RST from direction {@code d}; nothing more is recorded for the connection, and the file holds it. */
        public void reset(Direction d) {
            synchronized (Recorder.this) {
                if (ended) return;
                if (tcp != null) {
                    tcp.reset(d);
                    flushIfDirty();
                }
                ended = true;
            }
        }
    }
}
