package io.rddp.tcp;

import io.rddp.Notice;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns TCP segments into one ordered byte stream per direction of each connection and hands it to a
 * {@link TcpListener}.
 * <ul>
 * <li>Connections are keyed by their 4-tuple and numbered from 0 in order of first appearance like tshark's
 * tcp.stream (Wireshark 4.0, checked against tshark 4.0.17): a SYN without ACK whose sequence number differs from
 * the base sequence number of its direction starts a new stream on the same 4-tuple, whether or not the old one was
 * closed. The base is the sequence number of the direction's latest SYN or SYN-ACK, else one below its first
 * sequence number or one below the first acknowledgment number the peer sent, whichever came first.</li>
 * <li>In-order bytes are delivered at once as a view of the segment (no copy). Out-of-order bytes are copied into an
 * ordered buffer and released when the hole before them fills. Bytes are delivered once: where copies overlap, the
 * first one captured wins, and a later copy whose bytes differ is reported (for bytes already delivered this needs
 * the last {@link Limits#retransmitCheckBytes()} bytes of history, kept per direction).</li>
 * <li>Bytes that never appear become a gap ({@link TcpListener#onGap}), declared as soon as it is certain: when the
 * peer acknowledges past the hole, when a FIN or RST arrives with the hole still open, when the out-of-order buffer
 * exceeds its limits, when the connection is evicted or replaced, at {@link #finish}; and at once for the bytes a
 * snaplen cut off. Delivery resumes after the gap. Bytes of a declared gap that turn up later are dropped with a
 * notice.</li>
 * <li>Offsets are longs counted from the byte after the SYN (or, when the SYN was not captured, from the first byte
 * seen), so sequence numbers may wrap any number of times.</li>
 * </ul>
 * Memory grows with open connections only, each bounded by the {@link Limits}. Not thread-safe.
 */
public final class TcpReassembler {

    /**
     * Resource limits.
     *
     * @param maxConnections        connections tracked at once; beyond it the least recently active one is evicted
     *                              (its buffered bytes released after gaps, a notice unless it had closed), and a later
     *                              segment of its 4-tuple starts a new stream (unlike tshark, which never forgets)
     * @param maxBufferedBytes      out-of-order bytes buffered per direction before the first hole is declared a gap
     * @param maxBufferedSegments   out-of-order chunks buffered per direction, likewise
     * @param retransmitCheckBytes  delivered bytes remembered per direction to compare retransmissions with (0: do not
     *                              compare with delivered bytes; overlaps within the out-of-order buffer are always
     *                              compared). Rounded down to a power of two. Costs one copy of every delivered byte.
     */
    public record Limits(int maxConnections, long maxBufferedBytes, int maxBufferedSegments,
                         int retransmitCheckBytes) {
        public Limits {
            if (maxConnections < 1 || maxBufferedBytes < 1 || maxBufferedSegments < 1 || retransmitCheckBytes < 0) {
                throw new IllegalArgumentException("limits must be positive: " + maxConnections + ", "
                        + maxBufferedBytes + ", " + maxBufferedSegments + ", " + retransmitCheckBytes);
            }
        }

        /** 10000 connections, 8 MiB and 4096 chunks of out-of-order data and 64 KiB of history per direction. */
        public static Limits defaults() {
            return new Limits(10_000, 8L << 20, 4096, 64 << 10);
        }

        public Limits withMaxConnections(int n) {
            return new Limits(n, maxBufferedBytes, maxBufferedSegments, retransmitCheckBytes);
        }

        public Limits withMaxBufferedBytes(long n) {
            return new Limits(maxConnections, n, maxBufferedSegments, retransmitCheckBytes);
        }

        public Limits withMaxBufferedSegments(int n) {
            return new Limits(maxConnections, maxBufferedBytes, n, retransmitCheckBytes);
        }

        public Limits withRetransmitCheckBytes(int n) {
            return new Limits(maxConnections, maxBufferedBytes, maxBufferedSegments, n);
        }
    }

    private static final long SEQ_MASK = 0xffffffffL;
    // RFC 7323 §2.3: the window scale is at most 14, so no sender can have more than 2^30 bytes in flight
    private static final long MAX_WINDOW = 1L << 30;

    private final TcpListener listener;
    private final Limits limits;
    private final int historySize;
    private final LinkedHashMap<Key, Conn> connections = new LinkedHashMap<>(64, 0.75f, true);
    private final Key probe = new Key();
    private int nextIndex;

    // the segment being processed, for comparing overlaps (curView == null: none)
    private ByteBuffer curView;
    private int curIndex;        // index in curView of the byte at offset curStart
    private int curLimit;        // limit of curView covering the captured payload
    private long curStart;
    private long curCapturedEnd;
    private long conflictBytes;
    private long conflictCompared;
    private long conflictFirst;
    private long conflictFirstFrame;

    public TcpReassembler(TcpListener listener) {
        this(listener, Limits.defaults());
    }

    public TcpReassembler(TcpListener listener, Limits limits) {
        this.listener = listener;
        this.limits = limits;
        int check = limits.retransmitCheckBytes();
        this.historySize = check == 0 ? 0 : Integer.highestOneBit(check);
    }

    /** Connections currently tracked. */
    public int connectionCount() {
        return connections.size();
    }

    /** Streams numbered so far (the next stream gets this index). */
    public int streamCount() {
        return nextIndex;
    }

    /**
     * Processes one segment. The segment and its payload view are not kept.
     *
     * @return the connection the segment belongs to (its index is the frame's tcp.stream)
     */
    public TcpConnection accept(TcpSegment seg) {
        Endpoint src = seg.source();
        long frame = seg.frame();
        Conn c = connections.get(probe.set(src, seg.destination()));
        if (c != null && seg.syn() && !seg.ack()) {
            Half h = c.half(c.directionFrom(src));
            if (h.tsharkBase >= 0 && seg.sequence() != h.tsharkBase) {
                notice(Notice.Severity.INFO, c, frame, -1, "4-tuple reused: a SYN from " + src
                        + " with sequence number " + seg.sequence() + " (base sequence number of stream " + c.index
                        + " in that direction: " + h.tsharkBase + ") starts stream " + nextIndex);
                connections.remove(c.key);
                end(c, frame);
                c = null;
            }
        }
        if (c == null) {
            c = open(seg);
        }
        Direction d = c.directionFrom(src);
        Half h = c.half(d);
        Half r = c.half(d.reverse());
        // tshark's base sequence numbers, for its stream numbering rule only: every SYN (SYN-ACK too) sets its
        // direction's; otherwise the first of one below the direction's first sequence number or the peer's
        // first acknowledgment number sticks
        if (seg.syn()) h.tsharkBase = seg.sequence();
        else if (h.tsharkBase < 0) h.tsharkBase = (seg.sequence() - 1) & SEQ_MASK;
        if (seg.ack() && r.tsharkBase < 0) r.tsharkBase = (seg.acknowledgment() - 1) & SEQ_MASK;

        segment(c, d, h, r, seg);
        if (seg.ack() && !seg.rst()) {
            acknowledge(c, d.reverse(), r, seg.acknowledgment(), frame);
        }
        h.windowZero = seg.ack() && !seg.syn() && !seg.rst() && seg.window() == 0;
        return c;
    }

    /**
     * End of capture: every connection's remaining holes become gaps and its buffered bytes are delivered.
     *
     * @param lastFrame number of the last frame of the capture, reported as the frame that proved those gaps
     */
    public void finish(long lastFrame) {
        for (Conn c : new ArrayList<>(connections.values())) {
            end(c, lastFrame);
        }
        connections.clear();
    }

    // ------------------------------------------------------------------------------------------------------------

    private Conn open(TcpSegment seg) {
        Endpoint client = seg.source();
        Endpoint server = seg.destination();
        if (seg.syn() && seg.ack()) { // the SYN went the other way
            client = seg.destination();
            server = seg.source();
        }
        if (connections.size() >= limits.maxConnections()) {
            evictEldest(seg.frame());
        }
        Conn c = new Conn(nextIndex++, client, server);
        connections.put(c.key, c);
        listener.onConnection(c);
        return c;
    }

    private void evictEldest(long frame) {
        Iterator<Conn> it = connections.values().iterator();
        Conn old = it.next();
        it.remove();
        long bytes = old.c2s.pendingBytes + old.s2c.pendingBytes;
        int chunks = old.c2s.pendingChunks() + old.s2c.pendingChunks();
        if (!old.closed() || bytes > 0) {
            notice(Notice.Severity.WARNING, old, frame, -1, "evicted, being the least recently active of "
                    + limits.maxConnections() + " tracked connections; " + bytes + " out-of-order bytes in " + chunks
                    + " chunks were still buffered and are released after gaps; later segments of its 4-tuple "
                    + "start a new stream");
        }
        end(old, frame);
    }

    /** The connection leaves the table: holes become gaps, buffered bytes are delivered, memory is released. */
    private void end(Conn c, long frame) {
        for (Direction d : Direction.values()) {
            Half h = c.half(d);
            if (h.started && !h.reset) {
                advanceTo(c, d, h, h.knownEnd(), frame);
            }
            h.release();
        }
        listener.onConnectionEnd(c, frame);
    }

    private void segment(Conn c, Direction d, Half h, Half r, TcpSegment seg) {
        long seq = seg.sequence();
        long frame = seg.frame();
        if (seg.syn()) {
            if (!h.started) {
                h.start(seq + 1, true);
            } else if (((seq + 1) & SEQ_MASK) == h.initialSeq) {
                h.synSeen = true; // a retransmitted SYN, or the SYN of a capture that began with later segments
            } else {
                notice(Notice.Severity.INFO, c, frame, h.next, c.describe(d) + " SYN with sequence number " + seq
                        + " does not match the direction's initial sequence number; ignored");
                return;
            }
        } else if (!h.started) {
            h.start(seq, false); // capture started mid-connection: offset 0 is the first byte seen
        }
        int len = seg.payloadLength();
        if (h.reset) {
            if (len > 0 || seg.fin()) {
                notice(Notice.Severity.INFO, c, frame, -1, c.describe(d)
                        + " segment after this direction's RST; ignored");
            }
            return;
        }
        if (seg.rst()) {
            reset(c, d, h, r, frame);
            return;
        }
        // SYN and FIN occupy one sequence number each (RFC 9293 §3.4)
        long start = offsetOf(h, seg.syn() ? seq + 1 : seq);
        if (r.windowZero && !seg.syn() && !seg.fin()
                && ((len == 1 && (start == h.next || start == h.next - 1)) || (len == 0 && start == h.next - 1))) {
            // RFC 9293 §3.8.6.1: the sender probes a zero window with one new byte (BSD, Windows; repeated until
            // the window opens) or, like Linux, with an old sequence number and no data
            notice(Notice.Severity.INFO, c, frame, h.next, c.describe(d) + " zero-window probe");
        }
        if (len == 0 && !seg.fin()) {
            return; // pure ACK, window update or probe: nothing for this direction's stream
        }
        if (start - h.next > MAX_WINDOW) {
            notice(Notice.Severity.WARNING, c, frame, h.next, c.describe(d) + " segment with sequence number " + seq
                    + " lies " + (start - h.next)
                    + " bytes beyond the next expected byte, outside any TCP window; ignored");
            return;
        }
        if (!seg.syn() && !seg.fin() && len == 1 && start == h.next - 1) {
            return; // keep-alive (RFC 9293 §3.8.4): SND.NXT - 1 with one garbage byte, not a retransmission
        }
        if (len > 0) {
            data(c, d, h, seg, start, len);
        }
        if (seg.fin()) {
            fin(c, d, h, start + len, frame);
        }
    }

    private void data(Conn c, Direction d, Half h, TcpSegment seg, long start, int len) {
        long frame = seg.frame();
        long end = start + len;
        h.highestEnd = Math.max(h.highestEnd, end);
        long capturedEnd = start + seg.capturedPayloadLength();
        if (h.finOffset >= 0 && end > h.finOffset) {
            notice(Notice.Severity.WARNING, c, frame, h.finOffset, c.describe(d) + " "
                    + (end - Math.max(start, h.finOffset)) + " bytes after the direction's FIN; ignored");
            end = h.finOffset;
            capturedEnd = Math.min(capturedEnd, end);
            if (start >= end) return;
        }
        ByteBuffer view = seg.payload();
        curView = view;
        curIndex = view.position();
        curLimit = view.limit();
        curStart = start;
        curCapturedEnd = capturedEnd;
        conflictBytes = 0;
        conflictCompared = 0;
        conflictFirst = -1;
        conflictFirstFrame = -1;
        try {
            if (start < h.next) {
                // retransmission of delivered bytes: compare what history holds, then forget them
                compareWithHistory(h, Math.max(start, 0), Math.min(capturedEnd, h.next));
                long lateEnd = Math.min(end, h.next);
                if (h.gapEnd > 0 && h.gapEnd > start && h.gapStart < lateEnd) {
                    long a = Math.max(start, h.gapStart);
                    long b = Math.min(lateEnd, h.gapEnd);
                    notice(Notice.Severity.INFO, c, frame, a, c.describe(d) + " " + (b - a) + " bytes at offsets ["
                            + a + ", " + b + ") arrived after they had been declared a gap; dropped");
                }
            }
            if (end > h.next) {
                if (start <= h.next) {
                    deliverInOrder(c, d, h, capturedEnd, end, frame);
                } else if (capturedEnd > start) {
                    buffer(h, start, capturedEnd, end, frame);
                }
            }
            if (conflictBytes > 0) {
                notice(Notice.Severity.WARNING, c, frame, conflictFirst, c.describe(d)
                        + " retransmitted bytes differ from the first copy: " + conflictBytes + " of "
                        + conflictCompared + " overlapping bytes differ, "
                        + "the first at offset " + conflictFirst + (conflictFirstFrame > 0 ? " (first copy in frame "
                        + conflictFirstFrame + ")" : " (first copy already delivered)")
                        + "; the first copy was kept");
            }
        } finally {
            curView = null;
        }
        if (h.pending != null && !h.pending.isEmpty()) {
            enforceLimits(c, d, h, frame);
        }
    }

    /** The segment holds the next byte: deliver it and whatever buffered chunks it joins. */
    private void deliverInOrder(Conn c, Direction d, Half h, long capturedEnd, long end, long frame) {
        while (true) {
            Chunk first = h.first();
            if (first != null && first.start <= h.next) {
                release(c, d, h, first);
                continue;
            }
            long stop = first != null ? first.start : Long.MAX_VALUE;
            if (h.next < capturedEnd) {
                long to = Math.min(capturedEnd, stop);
                deliver(c, d, h, curView, curIndex + (int) (h.next - curStart), (int) (to - h.next), frame);
            } else if (h.next < end) {
                gap(c, d, h, Math.min(end, stop) - h.next, frame); // cut off by snaplen: these bytes are lost
            } else {
                return;
            }
        }
    }

    /**
     * Copies the bytes of [from, to) that no buffered chunk holds yet into new chunks, comparing the rest.
     * wireEnd > to: the segment's bytes from to on were cut off by snaplen.
     */
    private void buffer(Half h, long from, long to, long wireEnd, long frame) {
        if (h.pending == null) h.pending = new TreeMap<>();
        Map.Entry<Long, Chunk> e = h.pending.floorEntry(from);
        if (e == null || e.getValue().end() <= from) e = h.pending.higherEntry(from);
        long pos = from;
        while (pos < to) {
            Chunk k = e == null ? null : e.getValue();
            if (k == null || k.start >= to) {
                addChunk(h, pos, to, frame, wireEnd);
                break;
            }
            if (pos < k.start) {
                addChunk(h, pos, k.start, frame, k.start);
            }
            compareWithChunk(k, Math.max(pos, k.start), Math.min(to, k.end()));
            pos = Math.max(pos, k.end());
            e = h.pending.higherEntry(k.start);
        }
    }

    private void addChunk(Half h, long from, long to, long frame, long wireEnd) {
        byte[] bytes = new byte[(int) (to - from)];
        curView.get(curIndex + (int) (from - curStart), bytes);
        h.pending.put(from, new Chunk(from, bytes, frame, wireEnd));
        h.pendingBytes += bytes.length;
    }

    private void enforceLimits(Conn c, Direction d, Half h, long frame) {
        while (!h.pending.isEmpty() && (h.pendingBytes > limits.maxBufferedBytes()
                || h.pending.size() > limits.maxBufferedSegments())) {
            long holeEnd = h.pending.firstKey();
            notice(Notice.Severity.WARNING, c, frame, h.next, c.describe(d)
                    + " out-of-order data exceeds the buffer limits ("
                    + h.pendingBytes + " bytes in " + h.pending.size() + " chunks; limits "
                    + limits.maxBufferedBytes() + " bytes, " + limits.maxBufferedSegments()
                    + " chunks): the missing bytes at [" + h.next + ", " + holeEnd + ") are declared a gap");
            advanceTo(c, d, h, holeEnd, frame);
        }
    }

    private void fin(Conn c, Direction d, Half h, long finOffset, long frame) {
        if (h.finOffset >= 0) {
            if (finOffset != h.finOffset) {
                notice(Notice.Severity.INFO, c, frame, finOffset, c.describe(d) + " FIN at offset " + finOffset
                        + " after a FIN at offset " + h.finOffset + "; ignored");
            }
            return; // a retransmitted FIN
        }
        if (finOffset < h.next) {
            notice(Notice.Severity.INFO, c, frame, finOffset, c.describe(d) + " FIN at offset " + finOffset
                    + " below bytes already delivered up to " + h.next + "; ignored");
            return;
        }
        h.finOffset = finOffset;
        if (h.pending != null && !h.pending.isEmpty() && h.pending.lastEntry().getValue().end() > finOffset) {
            long dropped = dropFrom(h, finOffset);
            notice(Notice.Severity.WARNING, c, frame, finOffset, c.describe(d) + " " + dropped
                    + " buffered bytes lie beyond the FIN; dropped");
        }
        // the sender sent everything below its FIN: holes still open now were lost by the capture
        advanceTo(c, d, h, finOffset, frame);
        h.finDelivered = true;
        listener.onClose(c, d, finOffset, false, frame);
        if (c.closed()) c.releaseBoth();
    }

    private void reset(Conn c, Direction d, Half h, Half r, long frame) {
        // the connection is aborted (RFC 9293 §3.10.7.4): nothing will fill its holes any more, in either direction.
        // The RST's own sequence number is not trusted for more than that: a RST answering a segment without ACK
        // carries sequence number 0
        advanceTo(c, d, h, h.knownEnd(), frame);
        if (r.started && !r.reset) {
            advanceTo(c, d.reverse(), r, r.knownEnd(), frame);
        }
        h.reset = true;
        listener.onClose(c, d, h.next, true, frame);
        c.releaseBoth();
    }

    private void acknowledge(Conn c, Direction d, Half h, long ack, long frame) {
        if (!h.started || h.reset) return;
        long target = offsetOf(h, ack);
        if (h.finOffset >= 0 && target > h.finOffset) target = h.finOffset; // the FIN's own sequence number
        if (target > h.next && target - h.next <= MAX_WINDOW) {
            // the peer received bytes the capture did not show
            advanceTo(c, d, h, target, frame);
        }
    }

    /** Delivers buffered chunks and declares gaps until the direction has reached {@code target}. */
    private void advanceTo(Conn c, Direction d, Half h, long target, long frame) {
        while (true) {
            Chunk first = h.first();
            if (first != null && first.start <= h.next) {
                release(c, d, h, first);
                continue;
            }
            if (h.next >= target) return;
            long to = first != null ? Math.min(first.start, target) : target;
            gap(c, d, h, to - h.next, frame);
        }
    }

    /** Delivers the part of a buffered chunk at or after the next offset, then forgets the chunk. */
    private void release(Conn c, Direction d, Half h, Chunk k) {
        h.pending.remove(k.start);
        h.pendingBytes -= k.bytes.length;
        if (curView != null) { // the current segment, being later, lost the overlap to the chunk
            compareWithChunk(k, Math.max(k.start, curStart), Math.min(k.end(), curCapturedEnd));
        }
        if (k.end() > h.next) {
            int skip = (int) (h.next - k.start);
            deliver(c, d, h, ByteBuffer.wrap(k.bytes), skip, k.bytes.length - skip, k.frame);
        }
        if (k.wireEnd > h.next) {
            // snaplen cut this chunk's frame short: its missing bytes are lost unless another copy holds them
            Chunk next = h.first();
            long to = next != null ? Math.min(next.start, k.wireEnd) : k.wireEnd;
            if (curView != null && curCapturedEnd > h.next) to = h.next; // the current segment has them
            if (to > h.next) gap(c, d, h, to - h.next, k.frame);
        }
    }

    private void deliver(Conn c, Direction d, Half h, ByteBuffer buf, int index, int length, long frame) {
        if (historySize > 0) remember(h, buf, index, length);
        buf.limit(index + length).position(index);
        long offset = h.next;
        h.next += length;
        listener.onData(c, d, offset, buf, frame);
        if (buf == curView) {
            curView.limit(curLimit); // absolute reads of the rest of the segment follow
        }
    }

    private void gap(Conn c, Direction d, Half h, long length, long frame) {
        long offset = h.next;
        h.gapStart = offset;
        h.gapEnd = offset + length;
        h.next = h.gapEnd;
        h.historyStart = h.next; // history must stay contiguous
        listener.onGap(c, d, offset, length, frame);
    }

    // --- history of delivered bytes, for comparing retransmissions ---

    private void remember(Half h, ByteBuffer buf, int index, int length) {
        if (h.history == null) h.history = new byte[historySize];
        long offset = h.next;
        if (length > historySize) {
            index += length - historySize;
            offset += length - historySize;
            length = historySize;
        }
        int at = (int) (offset & (historySize - 1));
        int first = Math.min(length, historySize - at);
        buf.get(index, h.history, at, first);
        buf.get(index + first, h.history, 0, length - first);
    }

    private void compareWithHistory(Half h, long from, long to) {
        if (h.history == null) return;
        from = Math.max(from, Math.max(h.historyStart, h.next - historySize));
        int mask = historySize - 1;
        for (long o = from; o < to; o++) {
            byte seen = h.history[(int) (o & mask)];
            countConflict(o, seen != curView.get(curIndex + (int) (o - curStart)), -1);
        }
    }

    private void compareWithChunk(Chunk k, long from, long to) {
        for (long o = from; o < to; o++) {
            countConflict(o, k.bytes[(int) (o - k.start)] != curView.get(curIndex + (int) (o - curStart)), k.frame);
        }
    }

    private void countConflict(long offset, boolean differs, long firstFrame) {
        conflictCompared++;
        if (differs) {
            if (conflictBytes++ == 0) {
                conflictFirst = offset;
                conflictFirstFrame = firstFrame;
            }
        }
    }

    // ------------------------------------------------------------------------------------------------------------

    /** Stream offset of a sequence number: the one nearest the next expected byte, so any number of wraps works. */
    private static long offsetOf(Half h, long seq) {
        int rel = (int) (seq - (h.initialSeq + h.next));
        return h.next + rel;
    }

    private static long dropFrom(Half h, long offset) {
        long dropped = 0;
        while (!h.pending.isEmpty() && h.pending.lastEntry().getValue().end() > offset) {
            Chunk k = h.pending.pollLastEntry().getValue();
            h.pendingBytes -= k.bytes.length;
            if (k.start >= offset) {
                dropped += k.bytes.length;
            } else {
                int keep = (int) (offset - k.start);
                dropped += k.bytes.length - keep;
                byte[] head = new byte[keep];
                System.arraycopy(k.bytes, 0, head, 0, keep);
                h.pending.put(k.start, new Chunk(k.start, head, k.frame, k.start + keep));
                h.pendingBytes += keep;
            }
        }
        return dropped;
    }

    private void notice(Notice.Severity severity, Conn c, long frame, long offset, String message) {
        listener.onNotice(new Notice(severity, "tcp", frame, c.index, offset, message));
    }

    // ------------------------------------------------------------------------------------------------------------

    /** Connection-table key matching a 4-tuple in either direction. Mutable only for the lookup probe. */
    private static final class Key {
        private Endpoint a;
        private Endpoint b;
        private int hash;

        Key set(Endpoint a, Endpoint b) {
            this.a = a;
            this.b = b;
            this.hash = a.hashCode() + b.hashCode(); // symmetric
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && ((same(a, k.a) && same(b, k.b)) || (same(a, k.b) && same(b, k.a)));
        }

        @Override
        public int hashCode() {
            return hash;
        }

        private static boolean same(Endpoint x, Endpoint y) {
            return x == y || x.equals(y);
        }
    }

    /** Out-of-order bytes; wireEnd > end when the frame was cut by snaplen and had bytes after these. */
    private record Chunk(long start, byte[] bytes, long frame, long wireEnd) {
        long end() {
            return start + bytes.length;
        }
    }

    /** One direction's stream state. */
    private static final class Half {
        boolean started;
        boolean synSeen;
        boolean reset;
        boolean finDelivered;
        boolean windowZero;      // the last ACK this direction's sender sent advertised a zero window
        long initialSeq;         // sequence number of offset 0
        long next;               // next offset to deliver
        long finOffset = -1;
        long tsharkBase = -1;
        TreeMap<Long, Chunk> pending; // out-of-order chunks by start offset, never overlapping
        long pendingBytes;
        byte[] history;          // ring of the last delivered bytes, indexed by offset
        long historyStart;       // lowest offset the history may hold
        long gapStart = -1;      // the last gap declared
        long gapEnd = -1;
        long highestEnd;         // end of the highest segment seen, the bytes a snaplen cut off included

        void start(long initialSequence, boolean syn) {
            started = true;
            synSeen = syn;
            initialSeq = initialSequence & SEQ_MASK;
        }

        Chunk first() {
            return pending == null || pending.isEmpty() ? null : pending.firstEntry().getValue();
        }

        int pendingChunks() {
            return pending == null ? 0 : pending.size();
        }

        /** End of the bytes known to exist: buffered or seen on the wire (a FIN ends them). */
        long knownEnd() {
            long end = Math.max(next, highestEnd);
            if (pending != null && !pending.isEmpty()) end = Math.max(end, pending.lastEntry().getValue().end());
            return finOffset >= 0 ? Math.min(end, Math.max(next, finOffset)) : end;
        }

        void release() {
            pending = null;
            pendingBytes = 0;
            history = null;
        }
    }

    private static final class Conn implements TcpConnection {
        final int index;
        final Endpoint client;
        final Endpoint server;
        final Key key;
        final Half c2s = new Half();
        final Half s2c = new Half();

        Conn(int index, Endpoint client, Endpoint server) {
            this.index = index;
            this.client = client;
            this.server = server;
            this.key = new Key().set(client, server);
        }

        Direction directionFrom(Endpoint source) {
            return source == client || source.equals(client) ? Direction.CLIENT_TO_SERVER
                    : Direction.SERVER_TO_CLIENT;
        }

        Half half(Direction d) {
            return d == Direction.CLIENT_TO_SERVER ? c2s : s2c;
        }

        boolean closed() {
            return c2s.reset || s2c.reset || (c2s.finDelivered && s2c.finDelivered);
        }

        void releaseBoth() {
            if (c2s.pendingBytes == 0 && s2c.pendingBytes == 0) {
                c2s.history = null;
                s2c.history = null;
            }
        }

        @Override
        public int index() {
            return index;
        }

        @Override
        public Endpoint client() {
            return client;
        }

        @Override
        public Endpoint server() {
            return server;
        }

        @Override
        public boolean synSeen(Direction d) {
            return half(d).synSeen;
        }

        /** {@inheritDoc} -1 while nothing was seen in that direction. */
        @Override
        public long initialSequence(Direction d) {
            Half h = half(d);
            return h.started ? h.initialSeq : -1;
        }

        /** "10.0.0.1:40000 -> 10.0.0.2:4420:", the direction's endpoints, to start a notice with. */
        String describe(Direction d) {
            return source(d) + " -> " + destination(d) + ":";
        }

        @Override
        public String toString() {
            return "stream " + index + " (" + client + " -> " + server + ")";
        }
    }
}
