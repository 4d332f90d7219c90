package io.rddp.stats;

import java.util.Arrays;

/**
 * A streaming accumulator of latencies in nanoseconds whose memory does not grow with the number of samples.
 * <p>
 * How percentiles are computed: count, sum, min and max are exact. Percentiles use the nearest-rank definition (the
 * p-th percentile of n samples is the sample of rank ceil(p·n) in ascending order; the median is rank ceil(n/2)).
 * While at most {@link #EXACT} samples were added they are kept and the percentiles are exact. Beyond that the
 * samples live only in log-linear buckets (as HdrHistogram does): values below 128 ns each have their own bucket,
 * above that every power of two is cut into 64 buckets, so a bucket spans at most 1/64 of its lower bound. A
 * percentile is then the middle of the bucket holding that rank (or min or max, exactly, when that bucket holds the
 * smallest or largest sample): within 0.8 % of the true sample. At most 3712 buckets exist (2^63 ns); the array
 * grows only to the largest bucket used.
 */
public final class LatencyHistogram {
    /** Samples kept exactly before only the buckets count. */
    public static final int EXACT = 256;
    private static final int SUB_BITS = 6;
    private static final int SUB = 1 << SUB_BITS;

    private long count;
    private long sum;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private long[] samples = new long[0];
    private boolean exact = true;
    private long[] buckets = new long[0];

    /** Adds one latency; a negative one (the capture's clock stepped back) counts as 0. */
    public void add(long nanos) {
        long v = Math.max(0, nanos);
        count++;
        sum += v;
        min = Math.min(min, v);
        max = Math.max(max, v);
        if (exact) {
            if (count <= EXACT) {
                if (samples.length < count) samples = Arrays.copyOf(samples, (int) Math.min(EXACT, Math.max(8, 2 * count)));
                samples[(int) count - 1] = v;
            } else {
                exact = false;
                samples = new long[0];
            }
        }
        int i = bucket(v);
        if (buckets.length <= i) buckets = Arrays.copyOf(buckets, i + 1);
        buckets[i]++;
    }

    /** Adds every sample of {@code other} (streams merged into a capture-wide figure). */
    public void addAll(LatencyHistogram other) {
        if (other.count == 0) return;
        if (exact && other.exact && count + other.count <= EXACT) {
            for (int k = 0; k < other.count; k++) add(other.samples[k]);
            return;
        }
        exact = false;
        samples = new long[0];
        count += other.count;
        sum += other.sum;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        if (buckets.length < other.buckets.length) buckets = Arrays.copyOf(buckets, other.buckets.length);
        for (int k = 0; k < other.buckets.length; k++) buckets[k] += other.buckets[k];
    }

    public long count() {
        return count;
    }

    /** The summary of what was added so far. */
    public Latency summary() {
        if (count == 0) return Latency.NONE;
        return new Latency(count, min, percentile(0.5), percentile(0.99), max, sum / count, exact);
    }

    /** Nearest-rank percentile, {@code p} in (0, 1]. */
    long percentile(double p) {
        long rank = Math.max(1, (long) Math.ceil(p * count));
        if (exact) {
            long[] sorted = Arrays.copyOf(samples, (int) count);
            Arrays.sort(sorted);
            return sorted[(int) rank - 1];
        }
        long seen = 0;
        for (int i = 0; i < buckets.length; i++) {
            seen += buckets[i];
            if (seen >= rank) {
                // the smallest and largest samples are known exactly: their buckets give them
                if (i == bucket(min)) return min;
                if (i == bucket(max)) return max;
                return middle(i);
            }
        }
        return max;
    }

    static int bucket(long v) {
        if (v < 2 * SUB) return (int) v;
        int e = 63 - Long.numberOfLeadingZeros(v);
        int shift = e - SUB_BITS;
        return (shift + 1) * SUB + (int) ((v >>> shift) & (SUB - 1));
    }

    /** The middle of bucket {@code i}. */
    static long middle(int i) {
        if (i < 2 * SUB) return i;
        int shift = i / SUB - 1;
        long low = ((long) SUB + (i % SUB)) << shift;
        return low + ((1L << shift) >>> 1);
    }

    /**
     * What a latency histogram says.
     *
     * @param count    samples
     * @param minNs    smallest, exact
     * @param medianNs nearest-rank median (see {@link LatencyHistogram})
     * @param p99Ns    nearest-rank 99th percentile
     * @param maxNs    largest, exact
     * @param meanNs   sum / count, rounded down
     * @param exact    whether the percentiles are exact (at most {@link #EXACT} samples) or from the buckets
     */
    public record Latency(long count, long minNs, long medianNs, long p99Ns, long maxNs, long meanNs,
                          boolean exact) {
        public static final Latency NONE = new Latency(0, -1, -1, -1, -1, -1, true);
    }
}
