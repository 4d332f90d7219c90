package io.rddp.sink;

/**
 * Coalesced half-open ranges [start, end) of unsigned 64-bit offsets, at most {@code capacity} of them. When one more
 * range would not fit, the two ranges closest to each other are merged (the gap between them counts as covered from
 * then on) and {@link #coarsened()} turns true: memory stays bounded, precision degrades, nothing is silently
 * pretended. Ends are exclusive; a caller whose range would pass 2^64 - 1 clamps it there (see {@link #clampedEnd}).
 */
final class RangeSet {

    private final int capacity;
    // one spare slot: a new range is inserted first, then the closest pair (the new one included) merges
    private final long[] starts;
    private final long[] ends;
    private int size;
    private boolean coarsened;

    RangeSet(int capacity) {
        if (capacity < 2) throw new IllegalArgumentException("capacity " + capacity);
        this.capacity = capacity;
        starts = new long[capacity + 1];
        ends = new long[capacity + 1];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    boolean coarsened() {
        return coarsened;
    }

    long start(int i) {
        return starts[i];
    }

    long end(int i) {
        return ends[i];
    }

    void clear() {
        size = 0;
        coarsened = false;
    }

    /** Octets of [start, end) already present; 0 for an empty range. */
    long overlap(long start, long end) {
        if (start == end) return 0;
        long total = 0;
        for (int i = 0; i < size; i++) {
            long s = max(start, starts[i]);
            long e = min(end, ends[i]);
            if (less(s, e)) total += e - s;
        }
        return total;
    }

    /** The exclusive end of [start, start + length), clamped to 2^64 - 1 when the sum wraps. */
    static long clampedEnd(long start, long length) {
        long end = start + length;
        return Long.compareUnsigned(end, start) < 0 ? -1L : end;
    }

    /** Adds [start, end) (start &lt;= end unsigned), merging with touching or overlapping ranges. */
    void add(long start, long end) {
        if (start == end) return;
        int i = 0;
        while (i < size && less(ends[i], start)) i++;
        int j = i;
        long s = start, e = end;
        while (j < size && !less(e, starts[j])) {
            s = min(s, starts[j]);
            e = max(e, ends[j]);
            j++;
        }
        // ranges [i, j) and the new one become one range at i
        System.arraycopy(starts, j, starts, i + 1, size - j);
        System.arraycopy(ends, j, ends, i + 1, size - j);
        starts[i] = s;
        ends[i] = e;
        size += 1 - (j - i);
        if (size > capacity) mergeClosest();
    }

    private void mergeClosest() {
        int best = 0;
        long bestGap = -1;
        for (int k = 0; k + 1 < size; k++) {
            long gap = starts[k + 1] - ends[k];
            if (bestGap == -1 || Long.compareUnsigned(gap, bestGap) < 0) {
                bestGap = gap;
                best = k;
            }
        }
        ends[best] = ends[best + 1];
        System.arraycopy(starts, best + 2, starts, best + 1, size - best - 2);
        System.arraycopy(ends, best + 2, ends, best + 1, size - best - 2);
        size--;
        coarsened = true;
    }

    /** True when exactly [start, end) is covered, nothing else. */
    boolean coversExactly(long start, long end) {
        return size == 1 && starts[0] == start && ends[0] == end;
    }

    /** Octets covered (saturating at Long.MAX_VALUE). */
    long covered() {
        long total = 0;
        for (int i = 0; i < size; i++) {
            long len = ends[i] - starts[i];
            total = len < 0 || total + len < 0 ? Long.MAX_VALUE : total + len;
        }
        return total;
    }

    private static boolean less(long a, long b) {
        return Long.compareUnsigned(a, b) < 0;
    }

    private static long min(long a, long b) {
        return less(a, b) ? a : b;
    }

    private static long max(long a, long b) {
        return less(a, b) ? b : a;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < size; i++) {
            if (i > 0) sb.append(", ");
            sb.append('[').append(Long.toUnsignedString(starts[i])).append(", ")
                    .append(Long.toUnsignedString(ends[i])).append(')');
        }
        return sb.append('}').toString();
    }
}
