package io.rddp.tcp;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Writes the frames of one synthetic TCP connection (Ethernet + IPv4/IPv6 + TCP, correct checksums) to a
 * {@link FrameSink}: handshake, data split into segments with correct sequence and acknowledgment numbers, ACKs,
 * FIN or RST. Faults for tests: segments reordered, duplicated or dropped (the peer got them, the capture did not),
 * retransmissions at any offset with any bytes, keep-alives, any initial sequence numbers (to force wraps).
 * Skipping {@link #handshake()} gives a capture that starts mid-connection.
 * <p>
 * Stream offsets here mean what they mean to {@link TcpReassembler}: offset 0 is the byte after the SYN.
 */
public final class TcpSessionWriter {

    /** Receives each frame as it is written. */
    @FunctionalInterface
    public interface FrameSink {
        void frame(byte[] bytes, long timestampNanos);
    }

    /**
     * @param clientIsn     initial sequence number of the client's SYN
     * @param serverIsn     initial sequence number of the server's SYN
     * @param window        window advertised by both sides (unscaled)
     * @param startNanos    timestamp of the first frame
     * @param nanosPerFrame timestamp step between frames
     * @param ackEvery      in {@link #send}, the receiver acknowledges after every this many data frames and at the
     *                      end (0: no ACK frames; call {@link #ack} yourself)
     */
    public record Options(long clientIsn, long serverIsn, int window, long startNanos, long nanosPerFrame,
                          int ackEvery) {
        public static Options defaults() {
            return new Options(0x1000_0000L, 0x8000_0000L, 65535, 1_700_000_000_000_000_000L, 10_000, 0);
        }

        public Options withIsn(Direction d, long isn) {
            return d == Direction.CLIENT_TO_SERVER
                    ? new Options(isn & 0xffffffffL, serverIsn, window, startNanos, nanosPerFrame, ackEvery)
                    : new Options(clientIsn, isn & 0xffffffffL, window, startNanos, nanosPerFrame, ackEvery);
        }

        public Options withAckEvery(int n) {
            return new Options(clientIsn, serverIsn, window, startNanos, nanosPerFrame, n);
        }
    }

    /**
     * Which of the segments of one {@link #send} are written, and in what order. Segments are numbered from 0 in
     * stream order. Immutable.
     */
    public static final class Faults {
        private static final Faults NONE = new Faults(null, new int[0], new int[0], false);
        private final int[] sequence;
        private final int[] drops;
        private final int[] duplicates;
        private final boolean reversed;

        private Faults(int[] sequence, int[] drops, int[] duplicates, boolean reversed) {
            this.sequence = sequence;
            this.drops = drops;
            this.duplicates = duplicates;
            this.reversed = reversed;
        }

        public static Faults none() {
            return NONE;
        }

        /**
         * Exactly these segments in this order: a segment left out is dropped (sent, not captured), one named twice
         * is duplicated.
         */
        public static Faults sequence(int... segments) {
            return new Faults(segments.clone(), new int[0], new int[0], false);
        }

        /** These segments are sent but not captured: a gap the peer's ACK can prove. */
        public Faults drop(int... segments) {
            return new Faults(sequence, concat(drops, segments), duplicates, reversed);
        }

        /** These segments are captured twice in a row. */
        public Faults duplicate(int... segments) {
            return new Faults(sequence, drops, concat(duplicates, segments), reversed);
        }

        /** Segments in reverse stream order. */
        public Faults reversed() {
            return new Faults(sequence, drops, duplicates, true);
        }

        /** Segment indexes in writing order. */
        int[] plan(int n) {
            int[] base = sequence != null ? sequence : new int[n];
            if (sequence == null) {
                for (int i = 0; i < n; i++) base[i] = reversed ? n - 1 - i : i;
            }
            int[] out = new int[base.length * 2];
            int k = 0;
            for (int i : base) {
                if (i < 0 || i >= n) {
                    throw new IllegalArgumentException("segment " + i + " of " + n + " does not exist");
                }
                if (contains(drops, i)) continue;
                out[k++] = i;
                if (contains(duplicates, i)) out[k++] = i;
            }
            return Arrays.copyOf(out, k);
        }

        private static boolean contains(int[] a, int v) {
            for (int x : a) if (x == v) return true;
            return false;
        }

        private static int[] concat(int[] a, int[] b) {
            int[] r = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, r, a.length, b.length);
            return r;
        }
    }

    private final Endpoint client;
    private final Endpoint server;
    private final Options options;
    private final FrameSink sink;
    private final PacketEncoder encoder = new PacketEncoder();
    private final long[] isn = new long[2];
    private final long[] next = new long[2];        // next stream offset each side sends
    private final boolean[] finSent = new boolean[2];
    private final int[] window = new int[2];
    private long frames;
    private java.util.function.LongSupplier clock;

    public TcpSessionWriter(Endpoint client, Endpoint server, FrameSink sink) {
        this(client, server, Options.defaults(), sink);
    }

    public TcpSessionWriter(Endpoint client, Endpoint server, Options options, FrameSink sink) {
        if (client.isIpv6() != server.isIpv6()) {
            throw new IllegalArgumentException("mixed IPv4/IPv6 endpoints " + client + ", " + server);
        }
        this.client = client;
        this.server = server;
        this.options = options;
        this.sink = sink;
        isn[0] = options.clientIsn() & 0xffffffffL;
        isn[1] = options.serverIsn() & 0xffffffffL;
        window[0] = options.window();
        window[1] = options.window();
    }

    /**
     * Stamps frames with the times {@code nanos} gives (e.g. the wall clock, for recording live connections) instead
     * of {@link Options#startNanos()} plus a fixed step per frame.
     */
    public TcpSessionWriter clock(java.util.function.LongSupplier nanos) {
        this.clock = nanos;
        return this;
    }

    /** SYN, SYN-ACK, ACK. */
    public void handshake() {
        emit(Direction.CLIENT_TO_SERVER, isn[0], 0, TcpHeader.SYN, empty());
        emit(Direction.SERVER_TO_CLIENT, isn[1], (isn[0] + 1) & 0xffffffffL, TcpHeader.SYN | TcpHeader.ACK,
                empty());
        ack(Direction.CLIENT_TO_SERVER);
    }

    /** Sends the bytes between position and limit (not moved) in segments of at most {@code mss} bytes. */
    public int send(Direction d, ByteBuffer bytes, int mss) {
        return send(d, bytes, mss, Faults.none());
    }

    /**
     * Sends the bytes between position and limit (not moved) in segments of at most {@code mss} bytes, written as
     * {@code faults} says; the receiver's ACKs (see {@link Options#ackEvery()}) cover dropped segments.
     *
     * @return frames written
     */
    public int send(Direction d, ByteBuffer bytes, int mss, Faults faults) {
        if (mss < 1) throw new IllegalArgumentException("mss " + mss);
        int total = bytes.remaining();
        if (total == 0) return 0;
        int n = (total + mss - 1) / mss;
        int[] plan = faults.plan(n);
        long base = next[d.ordinal()];
        boolean[] received = new boolean[n];
        for (int i = 0; i < n; i++) received[i] = true;
        for (int i : plan) received[i] = false;
        int written = 0;
        int sinceAck = 0;
        long acked = -1;
        for (int i : plan) {
            int from = i * mss;
            int len = Math.min(mss, total - from);
            ByteBuffer part = bytes.duplicate();
            part.position(bytes.position() + from).limit(bytes.position() + from + len);
            int flags = TcpHeader.ACK | (i == n - 1 ? TcpHeader.PSH : 0);
            emit(d, sequenceAt(d, base + from), ackFor(d), flags, part);
            written++;
            received[i] = true;
            if (options.ackEvery() > 0 && ++sinceAck == options.ackEvery()) {
                sinceAck = 0;
                acked = receiverAck(d, base, received, mss, total, acked);
            }
        }
        next[d.ordinal()] = base + total;
        if (options.ackEvery() > 0) {
            receiverAck(d, base, received, mss, total, acked);
        }
        return written;
    }

    private long receiverAck(Direction d, long base, boolean[] received, int mss, int total, long acked) {
        int k = 0;
        while (k < received.length && received[k]) k++;
        long upTo = base + Math.min(total, (long) k * mss);
        if (upTo > acked) {
            emit(d.reverse(), nextSequence(d.reverse()), sequenceAt(d, upTo), TcpHeader.ACK, empty());
        }
        return upTo;
    }

    /** A pure ACK from {@code d} acknowledging everything the peer sent. */
    public void ack(Direction d) {
        emit(d, nextSequence(d), ackFor(d), TcpHeader.ACK, empty());
    }

    /** Sets the window {@code d} advertises from now on and sends a pure ACK carrying it (0: a zero window). */
    public void advertiseWindow(Direction d, int newWindow) {
        window[d.ordinal()] = newWindow;
        ack(d);
    }

    /** A keep-alive from {@code d}: sequence number one below the next, with no or one (zero) byte. */
    public void keepAlive(Direction d, boolean withByte) {
        emit(d, (nextSequence(d) - 1) & 0xffffffffL, ackFor(d), TcpHeader.ACK,
                withByte ? ByteBuffer.wrap(new byte[1]) : empty());
    }

    /**
     * A data segment from {@code d} carrying {@code bytes} at stream offset {@code offset}, whatever was sent there
     * before: an exact, partial or overlapping retransmission, possibly with different bytes. Changes no state.
     */
    public void retransmit(Direction d, long offset, ByteBuffer bytes) {
        emit(d, sequenceAt(d, offset), ackFor(d), TcpHeader.ACK | TcpHeader.PSH, bytes);
    }

    /** Any segment from {@code d}, raw; changes no state. */
    public void segment(Direction d, long sequence, long acknowledgment, int flags, ByteBuffer payload) {
        emit(d, sequence, acknowledgment, flags, payload);
    }

    /** FIN from {@code d} after everything it sent. */
    public void close(Direction d) {
        emit(d, nextSequence(d), ackFor(d), TcpHeader.FIN | TcpHeader.ACK, empty());
        finSent[d.ordinal()] = true;
    }

    /** RST from {@code d} at its next sequence number. */
    public void reset(Direction d) {
        emit(d, nextSequence(d), ackFor(d), TcpHeader.RST | TcpHeader.ACK, empty());
    }

    /**
     * Advances {@code d}'s stream by {@code n} octets without writing them: the capture shows a gap there (e.g. a
     * recording past its size cap), and what follows keeps its true sequence numbers.
     */
    public void skip(Direction d, long n) {
        if (n < 0) throw new IllegalArgumentException("skip " + n);
        next[d.ordinal()] += n;
    }

    /** Sequence number of stream offset {@code offset} in direction {@code d}. */
    public long sequenceAt(Direction d, long offset) {
        return (isn[d.ordinal()] + 1 + offset) & 0xffffffffL;
    }

    /** Stream offset of the next byte {@code d} will send. */
    public long nextOffset(Direction d) {
        return next[d.ordinal()];
    }

    public long framesWritten() {
        return frames;
    }

    private long nextSequence(Direction d) {
        return (sequenceAt(d, next[d.ordinal()]) + (finSent[d.ordinal()] ? 1 : 0)) & 0xffffffffL;
    }

    /** The peer's next sequence number, its FIN counted: everything it sent is acknowledged. */
    private long ackFor(Direction d) {
        return nextSequence(d.reverse());
    }

    private void emit(Direction d, long seq, long ack, int flags, ByteBuffer payload) {
        Endpoint src = d == Direction.CLIENT_TO_SERVER ? client : server;
        Endpoint dst = d == Direction.CLIENT_TO_SERVER ? server : client;
        byte[] frame = encoder.frame(src, dst, seq, ack, flags, window[d.ordinal()], payload);
        sink.frame(frame, clock != null ? clock.getAsLong() : options.startNanos() + frames * options.nanosPerFrame());
        frames++;
    }

    private static ByteBuffer empty() {
        return ByteBuffer.allocate(0);
    }
}
