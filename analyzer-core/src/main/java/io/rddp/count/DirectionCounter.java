package io.rddp.count;

import java.util.ArrayList;
import java.util.List;

/**
 * Counts what one side of a stream sends, per RDMAP opcode, into {@link DirectionCounts} snapshots. Mutable and
 * not thread-safe: the counting thread owns it and hands out {@link #snapshot()}s. A flat array rather than a map:
 * it is touched for every PDU.
 */
public final class DirectionCounter {

    private static final int ROWS = 17; // opcodes 0..15, then UNDECODED
    private final long[][] rows = new long[ROWS][4]; // segments, messages, payload, wire

    /**
     * Adds to the counts of {@code code} (0..15 or {@link OpcodeCounts#UNDECODED}).
     */
    public void add(int code, long segments, long messages, long payloadBytes, long wireBytes) {
        long[] r = rows[code < 0 ? ROWS - 1 : code];
        r[0] += segments;
        r[1] += messages;
        r[2] += payloadBytes;
        r[3] += wireBytes;
    }

    /** The counts so far. */
    public DirectionCounts snapshot() {
        List<OpcodeCounts> list = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            long[] r = rows[i];
            if (r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0) continue;
            list.add(new OpcodeCounts(i == ROWS - 1 ? OpcodeCounts.UNDECODED : i, r[0], r[1], r[2], r[3]));
        }
        return list.isEmpty() ? DirectionCounts.NONE : new DirectionCounts(list);
    }
}
