package io.rddp.ddp;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpMessage.End;
import io.rddp.ddp.DdpMessage.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DdpMessageAssemblerTest {

    final List<DdpMessage> out = new ArrayList<>();

    /**
     * Expected messages computed from tshark's fields alone: a message is every segment up to and including one
     * with L set; its length is the sum of payloads, and for untagged ones also MO + payload of the last segment
     * (RFC 5041 §5.4).
     */
    record Expected(boolean tagged, long key, long baseOffset, long length, int segments, long firstFrame,
                    long lastFrame) {
    }

    @ParameterizedTest
    @ValueSource(strings = {SiwFixtures.RPING, SiwFixtures.SEND_BW, SiwFixtures.WRITE_BW, SiwFixtures.READ_BW})
    void siwMessagesReassembleToWhatTsharksFieldsAdd(String capture) throws MalformedException {
        Map<String, List<SiwFixtures.Row>> byDirection = new LinkedHashMap<>();
        for (SiwFixtures.Row r : SiwFixtures.load(capture)) {
            byDirection.computeIfAbsent(r.direction(), k -> new ArrayList<>()).add(r);
        }
        int multiSegment = 0;
        for (List<SiwFixtures.Row> rows : byDirection.values()) {
            List<Expected> expected = expect(rows);
            out.clear();
            DdpMessageAssembler a = new DdpMessageAssembler(out::add);
            for (SiwFixtures.Row r : rows) a.accept(DdpSegment.parse(r.ulpdu()), r.frame());
            assertThat(a.openMessages()).isZero();
            List<Expected> actual = out.stream().map(m -> new Expected(m.tagged(), m.tagged() ? m.stag() : m.msn(),
                    m.baseOffset(), m.length(), m.segments(), m.firstFrame(), m.lastFrame())).toList();
            assertThat(actual).isEqualTo(expected);
            assertThat(out).allSatisfy(m -> {
                assertThat(m.end()).isEqualTo(End.COMPLETE);
                assertThat(m.problems()).isEmpty();
            });
            multiSegment += (int) out.stream().filter(m -> m.segments() > 1).count();
        }
        if (!capture.equals(SiwFixtures.RPING)) assertThat(multiSegment).isGreaterThan(10);
    }

    private static List<Expected> expect(List<SiwFixtures.Row> rows) {
        List<Expected> expected = new ArrayList<>();
        List<SiwFixtures.Row> current = new ArrayList<>();
        for (SiwFixtures.Row r : rows) {
            current.add(r);
            if (!r.get("iwarp_ddp.last_flag").equals("1")) continue;
            SiwFixtures.Row first = current.get(0);
            boolean tagged = first.get("iwarp_ddp.tagged_flag").equals("1");
            int header = tagged ? 14 : 18;
            long sum = current.stream().mapToLong(x -> x.ulpduLength() - header).sum();
            if (!tagged) assertThat(r.number("iwarp_ddp.mo") + r.ulpduLength() - header).isEqualTo(sum);
            expected.add(new Expected(tagged, tagged ? first.number("iwarp_ddp.stag") : first.number("iwarp_ddp.msn"),
                    tagged ? first.number("iwarp_ddp.tagged_offset") : 0, sum, current.size(), first.frame(),
                    r.frame()));
            current.clear();
        }
        assertThat(current).as("segments after the last L").isEmpty();
        return expected;
    }

    @Test
    void untaggedSegmentsJoinByQnAndMsnAndRecordAnMoGap() {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        a.accept(UntaggedHeader.of(false, 0, 0, 5, 0), 100, 1);
        a.accept(UntaggedHeader.of(false, 0, 0, 5, 150), 100, 2);
        a.accept(UntaggedHeader.of(true, 0, 0, 5, 250), 10, 3);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.end()).isEqualTo(End.COMPLETE);
            assertThat(m.qn()).isZero();
            assertThat(m.msn()).isEqualTo(5);
            assertThat(m.stag()).isEqualTo(-1);
            assertThat(m.length()).isEqualTo(210);
            assertThat(m.segments()).isEqualTo(3);
            assertThat(m.firstFrame()).isEqualTo(1);
            assertThat(m.lastFrame()).isEqualTo(3);
            assertThat(m.problems()).singleElement().satisfies(p -> {
                assertThat(p.kind()).isEqualTo(Kind.MO_NOT_CONTIGUOUS);
                assertThat(p.frame()).isEqualTo(2);
                assertThat(p.detail()).isEqualTo("expected MO 100, got 150");
            });
        });
    }

    @Test
    void messageFirstSeenInTheMiddleIsReportedWithItsFirstMo() {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        a.accept(UntaggedHeader.of(true, 0, 1, 2, 4096), 10, 7);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.baseOffset()).isEqualTo(4096);
            assertThat(m.problems()).extracting(DdpMessage.Problem::kind).containsExactly(Kind.FIRST_MO_NOT_ZERO);
        });
    }

    @Test
    void changesOfRsvdUlpAndVersionMidMessageAreRecorded() {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        a.accept(UntaggedHeader.of(false, 0x43_0000_0000L, 0, 1, 0), 8, 1);
        a.accept(new UntaggedHeader(true, 0, 2, 0x45_0000_0000L, 0, 1, 8), 8, 2);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.rsvdUlpFirstOctet()).isEqualTo(0x43);
            assertThat(m.problems()).extracting(DdpMessage.Problem::kind)
                    .containsExactly(Kind.RSVD_ULP_CHANGED, Kind.VERSION_CHANGED);
        });
    }

    @Test
    void interleavedMessagesAreBothFollowedAndTheInterruptionRecorded() {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        a.accept(UntaggedHeader.of(false, 0, 0, 1, 0), 10, 1);
        a.accept(TaggedHeader.of(false, 0, 0x99, 0), 10, 2);
        a.accept(UntaggedHeader.of(true, 0, 0, 1, 10), 10, 3);
        a.accept(TaggedHeader.of(true, 0, 0x99, 10), 10, 4);
        assertThat(out).hasSize(2);
        DdpMessage send = out.get(0), write = out.get(1);
        assertThat(send.tagged()).isFalse();
        assertThat(send.length()).isEqualTo(20);
        assertThat(send.problems()).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(Kind.INTERLEAVED);
            assertThat(p.frame()).isEqualTo(2);
            assertThat(p.detail()).contains("STag 0x99");
        });
        assertThat(write.stag()).isEqualTo(0x99);
        assertThat(write.length()).isEqualTo(20);
        assertThat(write.problems()).extracting(DdpMessage.Problem::kind).containsExactly(Kind.INTERLEAVED);
    }

    @Test
    void taggedSegmentsFollowTheToAndRecordAJumpWithinTheSameStag() {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        a.accept(TaggedHeader.of(false, 0x40, 7, 1000), 100, 1);
        a.accept(TaggedHeader.of(true, 0x40, 7, 5000), 100, 2);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.baseOffset()).isEqualTo(1000);
            assertThat(m.segments()).isEqualTo(2);
            assertThat(m.problems()).singleElement().satisfies(p -> {
                assertThat(p.kind()).isEqualTo(Kind.TO_NOT_CONTIGUOUS);
                assertThat(p.detail()).isEqualTo("expected TO 1100, got 5000");
            });
        });
    }

    @Test
    void zeroLengthTaggedMessageStandsAloneBesideAnOpenOneWithTheSameStag() {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        a.accept(TaggedHeader.of(false, 0, 3, 0), 100, 1);
        a.accept(TaggedHeader.of(true, 0, 3, 777), 0, 2);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.length()).isZero();
            assertThat(m.segments()).isEqualTo(1);
            assertThat(m.firstFrame()).isEqualTo(2);
        });
        assertThat(a.openMessages()).isEqualTo(1);
    }

    @Test
    void theCapEvictsTheOldestOpenMessage() {
        DdpMessageAssembler a = new DdpMessageAssembler(2, out::add);
        a.accept(UntaggedHeader.of(false, 0, 0, 1, 0), 1, 1);
        a.accept(UntaggedHeader.of(false, 0, 0, 2, 0), 1, 2);
        a.accept(UntaggedHeader.of(false, 0, 0, 3, 0), 1, 3);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.msn()).isEqualTo(1);
            assertThat(m.end()).isEqualTo(End.EVICTED);
        });
        assertThat(a.evicted()).isEqualTo(1);
        assertThat(a.openMessages()).isEqualTo(2);
        a.abandonAll();
        assertThat(out).extracting(DdpMessage::msn).containsExactly(1L, 2L, 3L);
        assertThat(out.subList(1, 3)).extracting(DdpMessage::end).containsOnly(End.ABANDONED);
        assertThat(a.openMessages()).isZero();
    }

    @Test
    void wrapsOfTheOffsetsAreRecorded() {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        a.accept(TaggedHeader.of(true, 0, 1, -10L), 20, 1);
        a.accept(UntaggedHeader.of(true, 0, 0, 1, 0xFFFF_FFF0L), 16, 2);
        assertThat(out).hasSize(2);
        assertThat(out.get(0).problems()).extracting(DdpMessage.Problem::kind).containsExactly(Kind.TO_WRAP);
        assertThat(out.get(1).problems()).extracting(DdpMessage.Problem::kind)
                .containsExactly(Kind.FIRST_MO_NOT_ZERO, Kind.LENGTH_OVERFLOW);
    }

    @Test
    void problemsAreCappedButCounted() {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        for (int i = 0; i < 40; i++) a.accept(UntaggedHeader.of(false, 0, 0, 1, i * 100L), 1, i);
        a.accept(UntaggedHeader.of(true, 0, 0, 1, 99_999), 1, 40);
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.problems()).hasSize(DdpMessageAssembler.MAX_PROBLEMS);
            assertThat(m.problemCount()).isEqualTo(40);
        });
    }

    @Test
    void segmentsOfAParsedSegmentCountTheirPayload() throws MalformedException {
        DdpMessageAssembler a = new DdpMessageAssembler(out::add);
        for (DdpSegment s : DdpSegmenter.untagged(1, 4, 0x41_0000_0000L, ByteBuffer.allocate(100), 48)) {
            a.accept(DdpSegment.parse(s.toByteBuffer()), 9);
        }
        assertThat(out).singleElement().satisfies(m -> {
            assertThat(m.length()).isEqualTo(100);
            assertThat(m.segments()).isEqualTo(4);
            assertThat(m.qn()).isEqualTo(1);
            assertThat(m.rsvdUlpFirstOctet()).isEqualTo(0x41);
        });
    }
}
