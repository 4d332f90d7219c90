package io.rddp.ddp;

import io.rddp.MalformedException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

class DdpPropertiesTest {

    /** 32-bit fields with their edges: 0, 1, 2^31, 2^32-1 turn up often. */
    static Arbitrary<Long> u32() {
        return Arbitraries.oneOf(Arbitraries.of(0L, 1L, 2L, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFEL, 0xFFFF_FFFFL),
                Arbitraries.longs().between(0, 0xFFFF_FFFFL));
    }

    /** 64-bit unsigned TO: 0 and the top of the unsigned range (negative longs) included. */
    static Arbitrary<Long> u64() {
        return Arbitraries.oneOf(Arbitraries.of(0L, 1L, Long.MAX_VALUE, Long.MIN_VALUE, -2L, -1L),
                Arbitraries.longs());
    }

    @Provide
    Arbitrary<DdpHeader> headers() {
        Arbitrary<TaggedHeader> tagged = Combinators.combine(Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 15), Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 255), u32(), u64()).as(TaggedHeader::new);
        Arbitrary<UntaggedHeader> untagged = Combinators.combine(Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 15), Arbitraries.integers().between(0, 3),
                Arbitraries.oneOf(Arbitraries.of(0L, UntaggedHeader.RSVD_ULP_MASK),
                        Arbitraries.longs().between(0, UntaggedHeader.RSVD_ULP_MASK)),
                u32(), u32(), u32()).as(UntaggedHeader::new);
        return Arbitraries.oneOf(tagged, untagged);
    }

    @Property
    void everyHeaderSurvivesWriteThenParse(@ForAll("headers") DdpHeader h) throws MalformedException {
        ByteBuffer buf = ByteBuffer.allocate(h.headerLength() + 3);
        h.writeTo(buf);
        assertThat(buf.position()).isEqualTo(h.headerLength());
        buf.flip();
        assertThat(DdpHeader.parse(buf)).isEqualTo(h);
        assertThat(buf.get(0) & 0xFF).isEqualTo(h.controlByte());
    }

    @Property
    void segmentedMessagesReassembleToTheSameLengthAndCount(
            @ForAll @IntRange(min = 0, max = 6000) int length, @ForAll @IntRange(min = 19, max = 2000) int mulpdu,
            @ForAll boolean tagged, @ForAll("u32s") long id, @ForAll("u64s") long base) throws MalformedException {
        ByteBuffer message = ByteBuffer.allocate(length);
        List<DdpSegment> segments = tagged ? DdpSegmenter.tagged(id, base, 0x40, message, mulpdu)
                : DdpSegmenter.untagged(1, id, 0x41_0000_0000L, message, mulpdu);
        int room = mulpdu - (tagged ? 14 : 18);
        assertThat(segments).hasSize(Math.max(1, (length + room - 1) / room));
        assertThat(segments).allSatisfy(s -> assertThat(s.length()).isLessThanOrEqualTo(mulpdu));
        List<DdpMessage> out = new ArrayList<>();
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        long frame = 1;
        for (DdpSegment s : segments) a.accept(DdpSegment.parse(s.toByteBuffer()), frame++);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.end()).isEqualTo(DdpMessage.End.COMPLETE);
            assertThat(m.length()).isEqualTo(length);
            assertThat(m.segments()).isEqualTo(segments.size());
            assertThat(m.lastFrame()).isEqualTo(segments.size());
            assertThat(m.tagged()).isEqualTo(tagged);
            if (tagged) {
                assertThat(m.stag()).isEqualTo(id);
                assertThat(m.baseOffset()).isEqualTo(base);
            } else {
                assertThat(m.msn()).isEqualTo(id);
            }
            // a TO that passes 2^64 is the only thing a conforming segmentation can show
            if (!tagged || Long.compareUnsigned(base + length, base) >= 0 || length == 0) {
                assertThat(m.problems()).isEmpty();
            } else {
                assertThat(m.problems()).extracting(DdpMessage.Problem::kind).containsOnly(DdpMessage.Kind.TO_WRAP);
            }
        });
    }

    @Provide
    Arbitrary<Long> u32s() {
        return u32();
    }

    @Provide
    Arbitrary<Long> u64s() {
        return u64();
    }

    @Property(tries = 2000)
    void randomBytesParseOrAreMalformedNothingElse(@ForAll @Size(max = 40) byte[] bytes) {
        try {
            DdpSegment s = DdpSegment.parse(ByteBuffer.wrap(bytes));
            assertThat(s.length()).isEqualTo(bytes.length);
        } catch (MalformedException e) {
            int needed = bytes.length == 0 ? 1 : (bytes[0] & 0x80) != 0 ? 14 : 18;
            assertThat(bytes.length).isLessThan(needed);
            assertThat(e.getMessage()).isNotBlank();
        } catch (RuntimeException e) {
            fail("parse threw " + e);
        }
    }

    /** Headers drawn from a few values so that segments often continue, interleave and collide. */
    @Provide
    Arbitrary<List<DdpHeader>> streams() {
        Arbitrary<Long> small = Arbitraries.longs().between(0, 2);
        Arbitrary<Long> offsets = Arbitraries.of(0L, 7L, 14L, 21L, -7L, 0xFFFF_FFF9L);
        Arbitrary<DdpHeader> tagged = Combinators.combine(Arbitraries.of(true, false), small, offsets,
                Arbitraries.of(0x40, 0x42)).as((l, stag, to, ulp) -> TaggedHeader.of(l, ulp, stag, to));
        Arbitrary<DdpHeader> untagged = Combinators.combine(Arbitraries.of(true, false), small, small,
                offsets.map(o -> o & 0xFFFF_FFFFL), Arbitraries.of(1, 2)).as((l, qn, msn, mo, dv) ->
                new UntaggedHeader(l, 0, dv, 0x43_0000_0000L, qn, msn, mo));
        return Arbitraries.oneOf(tagged, untagged).list().ofMaxSize(60);
    }

    @Property(tries = 500)
    void randomSegmentStreamsNeverBreakTheAssembler(@ForAll("streams") List<DdpHeader> headers,
                                                   @ForAll @IntRange(min = 1, max = 4) int cap) {
        List<DdpMessage> out = new ArrayList<>();
        DdpMessageAssembler a = new DdpMessageAssembler(cap, out::add);
        long frame = 0;
        for (DdpHeader h : headers) {
            a.accept(h, (int) (frame % 3) * 7, ++frame);
            assertThat(a.openMessages()).isLessThanOrEqualTo(cap);
        }
        a.abandonAll();
        assertThat(out.stream().mapToInt(DdpMessage::segments).sum()).isEqualTo(headers.size());
        assertThat(out).allSatisfy(m -> assertThat(m.problems().size()).isLessThanOrEqualTo(
                DdpMessageAssembler.MAX_PROBLEMS));
    }
}
