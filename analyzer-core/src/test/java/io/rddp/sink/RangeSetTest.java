package io.rddp.sink;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RangeSetTest {

    @Test
    void touchingRangesCoalesceIntoOne() {
        RangeSet r = new RangeSet(8);
        r.add(10, 20);
        r.add(30, 40);
        r.add(20, 30);
        assertThat(r.size()).isEqualTo(1);
        assertThat(r.coversExactly(10, 40)).isTrue();
    }

    @Test
    void overlapCountsOctetsAlreadyPresent() {
        RangeSet r = new RangeSet(8);
        r.add(0, 100);
        r.add(200, 300);
        assertThat(r.overlap(50, 250)).isEqualTo(50 + 50);
        assertThat(r.overlap(100, 200)).isZero();
    }

    @Test
    void unsignedOffsetsAboveTwoToThe63Order() {
        RangeSet r = new RangeSet(4);
        r.add(0x8000_0000_0000_0000L, 0x8000_0000_0000_0010L);
        r.add(0x10, 0x20);
        assertThat(r.start(0)).isEqualTo(0x10);
        assertThat(r.start(1)).isEqualTo(0x8000_0000_0000_0000L);
        assertThat(RangeSet.clampedEnd(-8, 16)).isEqualTo(-1L);
    }

    @Test
    void atCapacityTheClosestRangesMergeAndTheSetSaysSo() {
        RangeSet r = new RangeSet(2);
        r.add(0, 10);
        r.add(100, 110);
        r.add(20, 30); // closest to [0, 10)
        assertThat(r.size()).isEqualTo(2);
        assertThat(r.coarsened()).isTrue();
        assertThat(r.start(0)).isEqualTo(0);
        assertThat(r.end(0)).isEqualTo(30);
        assertThat(r.start(1)).isEqualTo(100);
    }

    @Property
    void withRoomItCoversExactlyTheOctetsAdded(@ForAll @Size(max = 20) List<@IntRange(max = 500) Integer> starts,
                                                 @ForAll @Size(max = 20) List<@IntRange(max = 40) Integer> lengths) {
        RangeSet r = new RangeSet(64);
        BitSet truth = new BitSet();
        for (int i = 0; i < Math.min(starts.size(), lengths.size()); i++) {
            int s = starts.get(i), e = s + lengths.get(i);
            long before = 0;
            for (int k = s; k < e; k++) if (truth.get(k)) before++;
            assertThat(r.overlap(s, e)).isEqualTo(before);
            r.add(s, e);
            truth.set(s, e);
        }
        assertThat(r.covered()).isEqualTo(truth.cardinality());
        for (int i = 0; i + 1 < r.size(); i++) {
            assertThat(Long.compareUnsigned(r.end(i), r.start(i + 1))).isNegative();
        }
    }
}
