package io.rddp.tcp;

import io.rddp.Notice;
import io.rddp.tcp.DirectionState.Chunk;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;

import static io.rddp.tcp.DirectionState.SEQ_MASK;

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
 *
 * <p>This class holds the TCP rules (sequence numbers, SYN, FIN, RST, ACK, delivery and gaps); its state lives in
 * {@link ConnectionTable} (connections by 4-tuple, stream numbers), {@link TrackedConnection} and
 * {@link DirectionState} (per direction, with its out-of-order chunks), and overlapping copies are compared by
 * {@link RetransmitCheck}.
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

    // RFC 7323 §2.3: the window scale is at most 14, so no sender can have more than 2^30 bytes in flight
    private static final long MAX_WINDOW = 1L << 30;

    private final TcpListener listener;
    private final Limits limits;
    private final int historySize;
    private final ConnectionTable connections = new ConnectionTable();
    private final RetransmitCheck check;

    // the segment being processed, for comparing overlaps (curView == null: none)
    private ByteBuffer curView;
    private int curIndex;        // index in curView of the byte at offset curStart
    private int curLimit;        // limit of curView covering the captured payload
    private long curStart;
    private long curCapturedEnd;

    public TcpReassembler(TcpListener listener) {
        this(listener, Limits.defaults());
    }

    public TcpReassembler(TcpListener listener, Limits limits) {
        this.listener = listener;
        this.limits = limits;
        this.check = new RetransmitCheck(limits.retransmitCheckBytes());
        this.historySize = check.historySize;
    }

    /** Connections currently tracked. */
    public int connectionCount() {
        return connections.size();
    }

    /** Streams numbered so far (the next stream gets this index). */
    public int streamCount() {
        return connections.streamCount();
    }

    /**
     * The base sequence number tshark counts {@code direction}'s relative sequence numbers from (its latest SYN's
     * sequence number, else one below its first sequence number or the peer's first acknowledgment number), or -1
     * when not known yet or the connection is not one of a reassembler.
     */
    public static long sequenceBase(TcpConnection connection, Direction direction) {
        return connection instanceof TrackedConnection t ? t.half(direction).tsharkBase : -1;
    }

    /**
     * Processes one segment. The segment and its payload view are not kept.
     *
     * @return the connection the segment belongs to (its index is the frame's tcp.stream)
     */
    public TcpConnection accept(TcpSegment seg) {
        Endpoint src = seg.source();
        long frame = seg.frame();
        TrackedConnection c = connections.get(src, seg.destination());
        if (c != null && seg.syn() && !seg.ack()) {
            DirectionState h = c.half(c.directionFrom(src));
            if (h.tsharkBase >= 0 && seg.sequence() != h.tsharkBase) {
                notice(Notice.Severity.INFO, c, frame, -1, "4-tuple reused: a SYN from " + src
                        + " with sequence number " + seg.sequence() + " (base sequence number of stream " + c.index
                        + " in that direction: " + h.tsharkBase + ") starts stream " + connections.streamCount());
                connections.remove(c);
                end(c, frame);
                c = null;
            }
        }
        if (c == null) {
            c = open(seg);
        }
        Direction d = c.directionFrom(src);
        DirectionState h = c.half(d);
        DirectionState r = c.half(d.reverse());
        // tshark's base sequence numbers, for its stream numbering rule and relative sequence numbers: every SYN
        // (SYN-ACK too) sets its
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
        for (TrackedConnection c : connections.snapshot()) {
            end(c, lastFrame);
        }
        connections.clear();
    }

    // ------------------------------------------------------------------------------------------------------------

    private TrackedConnection open(TcpSegment seg) {
        Endpoint client = seg.source();
        Endpoint server = seg.destination();
        if (seg.syn() && seg.ack()) { // the SYN went the other way
            client = seg.destination();
            server = seg.source();
        }
        if (connections.size() >= limits.maxConnections()) {
            evictEldest(seg.frame());
        }
        TrackedConnection c = connections.add(client, server);
        listener.onConnection(c);
        return c;
    }

    private void evictEldest(long frame) {
        TrackedConnection old = connections.removeEldest();
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
    private void end(TrackedConnection c, long frame) {
        for (Direction d : Direction.values()) {
            DirectionState h = c.half(d);
            if (h.started && !h.reset) {
                advanceTo(c, d, h, h.knownEnd(), frame);
            }
            h.release();
        }
        listener.onConnectionEnd(c, frame);
    }

    private void segment(TrackedConnection c, Direction d, DirectionState h, DirectionState r, TcpSegment seg) {
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
        long start = h.offsetOf(seg.syn() ? seq + 1 : seq);
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

    private void data(TrackedConnection c, Direction d, DirectionState h, TcpSegment seg, long start, int len) {
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
        check.begin();
        try {
            if (start < h.next) {
                // retransmission of delivered bytes: compare what history holds, then forget them
                check.compareWithHistory(h, Math.max(start, 0), Math.min(capturedEnd, h.next), curView, curIndex,
                        curStart);
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
            if (check.conflictBytes > 0) {
                notice(Notice.Severity.WARNING, c, frame, check.conflictFirst, c.describe(d)
                        + " retransmitted bytes differ from the first copy: " + check.conflictBytes + " of "
                        + check.conflictCompared + " overlapping bytes differ, "
                        + "the first at offset " + check.conflictFirst + (check.conflictFirstFrame > 0
                        ? " (first copy in frame " + check.conflictFirstFrame + ")" : " (first copy already delivered)")
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
    private void deliverInOrder(TrackedConnection c, Direction d, DirectionState h, long capturedEnd, long end,
                                long frame) {
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
    private void buffer(DirectionState h, long from, long to, long wireEnd, long frame) {
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
            check.compareWithChunk(k, Math.max(pos, k.start), Math.min(to, k.end()), curView, curIndex, curStart);
            pos = Math.max(pos, k.end());
            e = h.pending.higherEntry(k.start);
        }
    }

    private void addChunk(DirectionState h, long from, long to, long frame, long wireEnd) {
        byte[] bytes = new byte[(int) (to - from)];
        curView.get(curIndex + (int) (from - curStart), bytes);
        h.addChunk(from, bytes, frame, wireEnd);
    }

    private void enforceLimits(TrackedConnection c, Direction d, DirectionState h, long frame) {
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

    private void fin(TrackedConnection c, Direction d, DirectionState h, long finOffset, long frame) {
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
            long dropped = h.dropFrom(finOffset);
            notice(Notice.Severity.WARNING, c, frame, finOffset, c.describe(d) + " " + dropped
                    + " buffered bytes lie beyond the FIN; dropped");
        }
        // the sender sent everything below its FIN: holes still open now were lost by the capture
        advanceTo(c, d, h, finOffset, frame);
        h.finDelivered = true;
        listener.onClose(c, d, finOffset, false, frame);
        if (c.closed()) c.releaseBoth();
    }

    private void reset(TrackedConnection c, Direction d, DirectionState h, DirectionState r, long frame) {
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

    private void acknowledge(TrackedConnection c, Direction d, DirectionState h, long ack, long frame) {
        if (!h.started || h.reset) return;
        long target = h.offsetOf(ack);
        if (h.finOffset >= 0 && target > h.finOffset) target = h.finOffset; // the FIN's own sequence number
        if (target > h.next && target - h.next <= MAX_WINDOW) {
            // the peer received bytes the capture did not show
            advanceTo(c, d, h, target, frame);
        }
    }

    /** Delivers buffered chunks and declares gaps until the direction has reached {@code target}. */
    private void advanceTo(TrackedConnection c, Direction d, DirectionState h, long target, long frame) {
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
    private void release(TrackedConnection c, Direction d, DirectionState h, Chunk k) {
        h.removeChunk(k);
        if (curView != null) { // the current segment, being later, lost the overlap to the chunk
            check.compareWithChunk(k, Math.max(k.start, curStart), Math.min(k.end(), curCapturedEnd), curView, curIndex,
                    curStart);
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

    private void deliver(TrackedConnection c, Direction d, DirectionState h, ByteBuffer buf, int index, int length,
                         long frame) {
        if (historySize > 0) check.remember(h, buf, index, length);
        buf.limit(index + length).position(index);
        long offset = h.next;
        h.next += length;
        listener.onData(c, d, offset, buf, frame);
        if (buf == curView) {
            curView.limit(curLimit); // absolute reads of the rest of the segment follow
        }
    }

    private void gap(TrackedConnection c, Direction d, DirectionState h, long length, long frame) {
        long offset = h.next;
        h.gapStart = offset;
        h.gapEnd = offset + length;
        h.next = h.gapEnd;
        h.historyStart = h.next; // history must stay contiguous
        listener.onGap(c, d, offset, length, frame);
    }

    private void notice(Notice.Severity severity, TrackedConnection c, long frame, long offset, String message) {
        listener.onNotice(new Notice(severity, "tcp", frame, c.index, offset, message));
    }
}
