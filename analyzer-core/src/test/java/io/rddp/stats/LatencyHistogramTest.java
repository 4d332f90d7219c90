package io.rddp.stats;

import io.rddp.stats.LatencyHistogram.Latency;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencyHistogramTest {

    /** Nearest rank: the sample of rank ceil(p·n), 1-based, in ascending order. */
    private static long nearestRank(long[] sorted, double p) {
        return sorted[(int) Math.max(1, Math.ceil(p * sorted.length)) - 1];
    }

    @Test
    void upToTheExactLimitPercentilesAreTheNearestRankSamples() {
        LatencyHistogram h = new LatencyHistogram();
        long[] v = new Random(1).longs(LatencyHistogram.EXACT, 0, 5_000_000_000L).toArray();
        for (long x : v) h.add(x);
        long[] sorted = v.clone();
        Arrays.sort(sorted);
        Latency l = h.summary();
        assertThat(l.exact()).isTrue();
        assertThat(l.count()).isEqualTo(LatencyHistogram.EXACT);
        assertThat(l.minNs()).isEqualTo(sorted[0]);
        assertThat(l.medianNs()).isEqualTo(nearestRank(sorted, 0.5));
        assertThat(l.p99Ns()).isEqualTo(nearestRank(sorted, 0.99));
        assertThat(l.maxNs()).isEqualTo(sorted[sorted.length - 1]);
        assertThat(l.meanNs()).isEqualTo(Arrays.stream(v).sum() / v.length);
    }

    @Test
    void beyondTheExactLimitPercentilesStayWithinOneBucketOfTheTrueSample() {
        LatencyHistogram h = new LatencyHistogram();
        Random r = new Random(7);
        long[] v = new long[200_000];
        for (int i = 0; i < v.length; i++) v[i] = (long) Math.exp(r.nextDouble() * 25); // 1 ns to 72 s, log-spread
        for (long x : v) h.add(x);
        long[] sorted = v.clone();
        Arrays.sort(sorted);
        Latency l = h.summary();
        assertThat(l.exact()).isFalse();
        assertThat(l.minNs()).isEqualTo(sorted[0]);
        assertThat(l.maxNs()).isEqualTo(sorted[sorted.length - 1]);
        long median = nearestRank(sorted, 0.5), p99 = nearestRank(sorted, 0.99);
        assertThat((double) l.medianNs()).isCloseTo(median, within(median / 64.0 + 1));
        assertThat((double) l.p99Ns()).isCloseTo(p99, within(p99 / 64.0 + 1));
    }

    @Test
    void smallValuesHaveABucketEachAndLargeOnesABucketOfAtMostOneSixtyFourth() {
        for (long v = 0; v < 128; v++) assertThat(LatencyHistogram.middle(LatencyHistogram.bucket(v))).isEqualTo(v);
        long prev = -1;
        for (long v : new long[]{128, 130, 1000, 123_456, 9_999_999_999L, Long.MAX_VALUE}) {
            int b = LatencyHistogram.bucket(v);
            assertThat(b).isGreaterThan((int) prev);
            prev = b;
            assertThat((double) LatencyHistogram.middle(b)).isCloseTo((double) v, within(v / 64.0));
        }
        assertThat(LatencyHistogram.bucket(Long.MAX_VALUE)).isLessThan(3712);
    }

    @Test
    void aPercentileInTheBucketOfTheSmallestOrLargestSampleIsThatSample() {
        // half the samples 2000 ns, half 14000 ns: beyond the exact limit the buckets still give both exactly
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < 1000; i++) h.add(i % 2 == 0 ? 2_000 : 14_000);
        Latency l = h.summary();
        assertThat(l.exact()).isFalse();
        assertThat(l.medianNs()).isEqualTo(2_000);
        assertThat(l.p99Ns()).isEqualTo(14_000);
    }

    @Test
    void mergingHistogramsEqualsAddingEverySampleToOne() {
        Random r = new Random(3);
        for (int n : new int[]{10, 200, 5000}) {
            LatencyHistogram a = new LatencyHistogram(), b = new LatencyHistogram(), both = new LatencyHistogram();
            for (int i = 0; i < n; i++) {
                long x = r.nextInt(1_000_000);
                (i % 3 == 0 ? a : b).add(x);
                both.add(x);
            }
            a.addAll(b);
            assertThat(a.summary()).as("n=" + n).isEqualTo(both.summary());
        }
    }

    @Test
    void aNegativeLatencyFromAClockStepCountsAsZeroAndNoSampleGivesNone() {
        LatencyHistogram h = new LatencyHistogram();
        assertThat(h.summary()).isEqualTo(Latency.NONE);
        h.add(-5);
        assertThat(h.summary()).isEqualTo(new Latency(1, 0, 0, 0, 0, 0, true));
    }
}
