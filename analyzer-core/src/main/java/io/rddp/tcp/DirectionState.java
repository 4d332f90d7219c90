package io.rddp.tcp;

import java.util.TreeMap;

/**
 * One direction's stream state in {@link TcpReassembler}: where delivery stands, how sequence numbers map to offsets,
 * the out-of-order chunks waiting for the hole before them, and the ring of delivered bytes kept for comparing
 * retransmissions ({@link RetransmitCheck}).
 */
final class DirectionState {
    static final long SEQ_MASK = 0xffffffffL;

    /**
     * Out-of-order bytes; wireEnd > end when the frame was cut by snaplen and had bytes after these. A class with
     * plain fields rather than a record so that the reassembler reads them directly.
     */
    static final class Chunk {
        final long start;
        final byte[] bytes;
        final long frame;
        final long wireEnd;

        Chunk(long start, byte[] bytes, long frame, long wireEnd) {
            this.start = start;
            this.bytes = bytes;
            this.frame = frame;
            this.wireEnd = wireEnd;
        }

        long end() {
            return start + bytes.length;
        }
    }

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

    /** Stream offset of a sequence number: the one nearest the next expected byte, so any number of wraps works. */
    long offsetOf(long seq) {
        int rel = (int) (seq - (initialSeq + next));
        return next + rel;
    }

    /** Adds a chunk of out-of-order bytes that no chunk holds yet ({@link #pending} exists by then). */
    void addChunk(long from, byte[] bytes, long frame, long wireEnd) {
        pending.put(from, new Chunk(from, bytes, frame, wireEnd));
        pendingBytes += bytes.length;
    }

    /** Forgets a chunk (delivered or given up). */
    void removeChunk(Chunk k) {
        pending.remove(k.start);
        pendingBytes -= k.bytes.length;
    }

    /** Drops the buffered bytes at or beyond {@code offset} (they lie past the FIN); returns how many. */
    long dropFrom(long offset) {
        long dropped = 0;
        while (!pending.isEmpty() && pending.lastEntry().getValue().end() > offset) {
            Chunk k = pending.pollLastEntry().getValue();
            pendingBytes -= k.bytes.length;
            if (k.start >= offset) {
                dropped += k.bytes.length;
            } else {
                int keep = (int) (offset - k.start);
                dropped += k.bytes.length - keep;
                byte[] head = new byte[keep];
                System.arraycopy(k.bytes, 0, head, 0, keep);
                pending.put(k.start, new Chunk(k.start, head, k.frame, k.start + keep));
                pendingBytes += keep;
            }
        }
        return dropped;
    }
}
