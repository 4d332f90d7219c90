package io.rddp.count;

import java.util.ArrayList;
import java.util.List;

/**
 * Counts what one side of a stream sends, per RDMAP opcode, into {@link DirectionCounts} snapshots. Mutable and
 * not thread-safe: the counting thread owns it and hands out {@link #snapshot()}s. One flat array, allocated at the
 * first count: it is touched for every PDU, and a SYN flood makes a million streams that never count anything.
 */
public final class DirectionCounter {

    private static final int ROWS = 17; // opcodes 0..15, then UNDECODED
    private static final int WIDTH = 4; // segments, messages, payload, wire
    private long[] counts;

    /**
     * Adds to the counts of {@code code} (0..15 or {@link OpcodeCounts#UNDECODED}).
     */
    public void add(int code, long segments, long messages, long payloadBytes, long wireBytes) {
        if (counts == null) counts = new long[ROWS * WIDTH];
        int at = (code < 0 ? ROWS - 1 : code) * WIDTH;
        counts[at] += segments;
        counts[at + 1] += messages;
        counts[at + 2] += payloadBytes;
        counts[at + 3] += wireBytes;
    }

    /** The counts so far. */
    public DirectionCounts snapshot() {
        if (counts == null) return DirectionCounts.NONE;
        List<OpcodeCounts> list = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            int at = i * WIDTH;
            long s = counts[at], m = counts[at + 1], p = counts[at + 2], w = counts[at + 3];
            if (s == 0 && m == 0 && p == 0 && w == 0) continue;
            list.add(new OpcodeCounts(i == ROWS - 1 ? OpcodeCounts.UNDECODED : i, s, m, p, w));
        }
        return list.isEmpty() ? DirectionCounts.NONE : new DirectionCounts(list);
    }
}
