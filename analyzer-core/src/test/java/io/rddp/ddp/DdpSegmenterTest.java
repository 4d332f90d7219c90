package io.rddp.ddp;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DdpSegmenterTest {

    @Test
    void untaggedExampleOfRfc5041Section5_2() {
        // 2048-octet message, MULPDU 1500: MO 0 with 1482 octets, MO 1482 with 566 octets
        List<DdpSegment> s = DdpSegmenter.untagged(0, 1, 0, ByteBuffer.allocate(2048), 1500);
        assertThat(s).hasSize(2);
        assertThat(s.get(0).header()).isEqualTo(UntaggedHeader.of(false, 0, 0, 1, 0));
        assertThat(s.get(0).payloadLength()).isEqualTo(1482);
        assertThat(s.get(0).length()).isEqualTo(1500);
        assertThat(s.get(1).header()).isEqualTo(UntaggedHeader.of(true, 0, 0, 1, 1482));
        assertThat(s.get(1).payloadLength()).isEqualTo(566);
    }

    @Test
    void taggedExampleOfRfc5041Section5_2() {
        // 2048-octet message at TO 16384, MULPDU 1500: TO 16384 with 1486 octets, TO 17870 with 562
        List<DdpSegment> s = DdpSegmenter.tagged(0x1234, 16384, 0, ByteBuffer.allocate(2048), 1500);
        assertThat(s).extracting(x -> x.header().offset()).containsExactly(16384L, 17870L);
        assertThat(s).extracting(DdpSegment::payloadLength).containsExactly(1486, 562);
        assertThat(s).extracting(x -> x.header().last()).containsExactly(false, true);
    }

    @Test
    void zeroLengthMessageIsOneSegmentWithL() {
        List<DdpSegment> s = DdpSegmenter.tagged(0, 0, 0, ByteBuffer.allocate(0), 100);
        assertThat(s).singleElement().satisfies(x -> {
            assertThat(x.header().last()).isTrue();
            assertThat(x.payloadLength()).isZero();
        });
    }

    @Test
    void templateFieldsAreRepeatedInEverySegment() {
        UntaggedHeader template = new UntaggedHeader(true, 5, 2, 0x43_1234_5678L, 7, 9, 0);
        List<DdpSegment> s = DdpSegmenter.segment(template, ByteBuffer.allocate(10), 18 + 4);
        assertThat(s).hasSize(3).allSatisfy(x -> {
            UntaggedHeader h = (UntaggedHeader) x.header();
            assertThat(h.reserved()).isEqualTo(5);
            assertThat(h.version()).isEqualTo(2);
            assertThat(h.rsvdUlp()).isEqualTo(0x43_1234_5678L);
            assertThat(h.qn()).isEqualTo(7);
            assertThat(h.msn()).isEqualTo(9);
        });
        // the template's L is ignored: only the last segment has it
        assertThat(s).extracting(x -> x.header().last()).containsExactly(false, false, true);
        assertThat(s).extracting(x -> x.header().offset()).containsExactly(0L, 4L, 8L);
    }

    @Test
    void offsetsWrapLikeTheWireFields() {
        List<DdpSegment> t = DdpSegmenter.tagged(1, -2L, 0, ByteBuffer.allocate(4), 14 + 2);
        assertThat(t).extracting(x -> x.header().offset()).containsExactly(-2L, 0L);
        List<DdpSegment> u = DdpSegmenter.segment(UntaggedHeader.of(false, 0, 0, 1, 0xFFFF_FFFFL),
                ByteBuffer.allocate(2), 18 + 1);
        assertThat(u).extracting(x -> x.header().offset()).containsExactly(0xFFFF_FFFFL, 0L);
    }

    @Test
    void payloadsAreViewsOfTheMessageNotCopies() {
        ByteBuffer message = ByteBuffer.wrap(new byte[]{1, 2, 3, 4, 5});
        message.position(1);
        List<DdpSegment> s = DdpSegmenter.tagged(1, 0, 0, message, 14 + 2);
        message.put(3, (byte) 99);
        assertThat(s).hasSize(2);
        assertThat(s.get(1).payload().get(0)).isEqualTo((byte) 99);
        assertThat(message.position()).isEqualTo(1);
    }

    @Test
    void mulpduMustLeaveRoomForPayload() {
        assertThatThrownBy(() -> DdpSegmenter.untagged(0, 1, 0, ByteBuffer.allocate(1), 18))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MULPDU 18");
    }
}
