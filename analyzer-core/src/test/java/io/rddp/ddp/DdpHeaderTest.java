package io.rddp.ddp;

import io.rddp.MalformedException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DdpHeaderTest {

    @Test
    void tBitChoosesTheHeaderFormat() throws MalformedException {
        ByteBuffer tagged = ByteBuffer.wrap(HexFormat.of().parseHex("c1aa11223344" + "0102030405060708"));
        ByteBuffer untagged = ByteBuffer.wrap(HexFormat.of().parseHex(
                "01" + "ab" + "cdef0123" + "00000002" + "00000003" + "00000004"));
        assertThat(DdpHeader.parse(tagged)).isEqualTo(
                new TaggedHeader(true, 0, 1, 0xaa, 0x11223344L, 0x0102030405060708L));
        assertThat(DdpHeader.parse(untagged)).isEqualTo(
                new UntaggedHeader(false, 0, 1, 0xab_cdef_0123L, 2, 3, 4));
    }

    @Test
    void reservedBitsAndOddVersionsAreKeptAsFacts() throws MalformedException {
        // T=1 L=0 Rsvd=1111 DV=10
        DdpHeader h = DdpHeader.parse(ByteBuffer.wrap(HexFormat.of().parseHex("be00ffffffffffffffffffffffff")));
        assertThat(h.reserved()).isEqualTo(15);
        assertThat(h.version()).isEqualTo(2);
        assertThat(((TaggedHeader) h).stag()).isEqualTo(0xFFFF_FFFFL);
        assertThat(Long.toUnsignedString(h.offset())).isEqualTo("18446744073709551615");
        assertThat(h.controlByte()).isEqualTo(0xbe);
    }

    @Test
    void parseReadsAtThePositionAndLeavesItThere() throws MalformedException {
        ByteBuffer buf = ByteBuffer.wrap(HexFormat.of().parseHex("ffff" + "c1000000000700000000000000ff"));
        buf.position(2);
        TaggedHeader h = (TaggedHeader) DdpHeader.parse(buf);
        assertThat(h.stag()).isEqualTo(7);
        assertThat(h.to()).isEqualTo(255);
        assertThat(buf.position()).isEqualTo(2);
    }

    @Test
    void littleEndianBuffersStillReadAndWriteNetworkOrder() throws MalformedException {
        ByteBuffer in = ByteBuffer.wrap(HexFormat.of().parseHex("41" + "0000000000" + "00000000" + "00000001" + "00000002"))
                .order(ByteOrder.LITTLE_ENDIAN);
        UntaggedHeader h = (UntaggedHeader) DdpHeader.parse(in);
        assertThat(h.qn()).isZero();
        assertThat(h.msn()).isEqualTo(1);
        ByteBuffer out = ByteBuffer.allocate(18).order(ByteOrder.LITTLE_ENDIAN);
        h.writeTo(out);
        assertThat(out.order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
        assertThat(HexFormat.of().formatHex(out.array())).isEqualTo("41" + "0000000000" + "00000000" + "00000001" + "00000002");
    }

    @Test
    void tooShortForTheAnnouncedHeaderIsMalformed() {
        assertThatThrownBy(() -> DdpHeader.parse(ByteBuffer.allocate(0)))
                .isInstanceOf(MalformedException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> DdpHeader.parse(ByteBuffer.wrap(new byte[]{(byte) 0x80, 0, 0, 0, 0, 0, 0, 0})))
                .isInstanceOf(MalformedException.class).hasMessageContaining("tagged DDP header needs 14 bytes")
                .hasMessageContaining("8 remain");
        // 14 bytes are enough for a tagged header but not for the untagged one a 0 T bit announces
        assertThatThrownBy(() -> DdpSegment.parse(ByteBuffer.allocate(14)))
                .isInstanceOf(MalformedException.class).hasMessageContaining("untagged DDP header needs 18 bytes");
    }

    @Test
    void specificParsersRefuseTheOtherModel() {
        assertThatThrownBy(() -> TaggedHeader.parse(ByteBuffer.allocate(18)))
                .isInstanceOf(MalformedException.class).hasMessageContaining("T bit is 0");
        ByteBuffer t = ByteBuffer.allocate(18).put(0, (byte) 0x80);
        assertThatThrownBy(() -> UntaggedHeader.parse(t))
                .isInstanceOf(MalformedException.class).hasMessageContaining("T bit is 1");
    }

    @Test
    void recordsRefuseValuesTheirWireFieldsCannotHold() {
        assertThatThrownBy(() -> new TaggedHeader(false, 16, 1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TaggedHeader(false, 0, 4, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TaggedHeader(false, 0, 1, 256, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TaggedHeader(false, 0, 1, 0, 1L << 32, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UntaggedHeader(false, 0, 1, 1L << 40, 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UntaggedHeader(false, 0, 1, 0, -1, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withOffsetWrapsTheMessageOffsetAtTwoToThe32() {
        assertThat(UntaggedHeader.of(false, 0, 0, 1, 0).withOffset(0x1_0000_0005L).offset()).isEqualTo(5);
        assertThat(TaggedHeader.of(false, 0, 1, 0).withOffset(-1L).offset()).isEqualTo(-1L);
    }

    @Test
    void segmentPayloadIsAViewOfTheUlpdu() throws MalformedException {
        byte[] bytes = HexFormat.of().parseHex("c1000000000100000000000000104142");
        DdpSegment s = DdpSegment.parse(ByteBuffer.wrap(bytes));
        bytes[14] = 0x5a;
        assertThat(s.payload().get(0)).isEqualTo((byte) 0x5a);
        assertThat(s.length()).isEqualTo(16);
        assertThat(HexFormat.of().formatHex(s.toByteBuffer().array())).isEqualTo("c10000000001000000000000001" + "05a42");
    }
}
