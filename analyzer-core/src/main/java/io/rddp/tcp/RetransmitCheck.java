package io.rddp.tcp;

import io.rddp.tcp.DirectionState.Chunk;

import java.nio.ByteBuffer;

/**
 * Compares the bytes of a segment with earlier copies of the same stream offsets, for {@link TcpReassembler}: the
 * first copy captured is the one delivered, and a later copy whose bytes differ is reported once per segment. Earlier
 * copies are out-of-order chunks still buffered or, for bytes already delivered, the ring of the last
 * {@link #historySize} delivered bytes each direction keeps ({@link DirectionState#history}).
 */
final class RetransmitCheck {
    /** Delivered bytes remembered per direction: a power of two, or 0 for none. */
    final int historySize;
    // the segment being processed: bytes compared, how many differ, the first that does and the frame of its copy
    long conflictBytes;
    long conflictCompared;
    long conflictFirst;
    long conflictFirstFrame;

    RetransmitCheck(int retransmitCheckBytes) {
        this.historySize = retransmitCheckBytes == 0 ? 0 : Integer.highestOneBit(retransmitCheckBytes);
    }

    /** A new segment: nothing compared yet. */
    void begin() {
        conflictBytes = 0;
        conflictCompared = 0;
        conflictFirst = -1;
        conflictFirstFrame = -1;
    }

    /** Keeps bytes about to be delivered at {@code h.next} in the direction's history ring. */
    void remember(DirectionState h, ByteBuffer buf, int index, int length) {
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

    /**
     * Compares the delivered bytes [from, to) with the segment {@code seg}, whose byte at offset {@code segStart} is
     * at index {@code segIndex}, as far as the history still holds them.
     */
    void compareWithHistory(DirectionState h, long from, long to, ByteBuffer seg, int segIndex, long segStart) {
        if (h.history == null) return;
        from = Math.max(from, Math.max(h.historyStart, h.next - historySize));
        int mask = historySize - 1;
        for (long o = from; o < to; o++) {
            byte seen = h.history[(int) (o & mask)];
            countConflict(o, seen != seg.get(segIndex + (int) (o - segStart)), -1);
        }
    }

    /** Compares the bytes [from, to) of a buffered chunk with the segment, as {@link #compareWithHistory}. */
    void compareWithChunk(Chunk k, long from, long to, ByteBuffer seg, int segIndex, long segStart) {
        for (long o = from; o < to; o++) {
            countConflict(o, k.bytes[(int) (o - k.start)] != seg.get(segIndex + (int) (o - segStart)), k.frame);
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
}
