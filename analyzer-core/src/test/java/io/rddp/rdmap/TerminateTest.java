package io.rddp.rdmap;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TerminateTest {

    private static ByteBuffer hex(String s) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(s.replace(" ", "")));
    }

    @Test
    void ddpUntaggedErrorCarriesTheUntaggedHeaderInError() throws MalformedException {
        // Layer 1 DDP, EType 2 untagged, code 3; M and D set; length 0x0022; an untagged Send header follows
        Terminate t = Terminate.parse(hex("12 03 c0 00  0022  414300000000 00000000 00000007 00000000"));
        assertThat(t.layer()).isEqualTo(1);
        assertThat(t.errorType()).isEqualTo(2);
        assertThat(t.errorCode()).isEqualTo(3);
        assertThat(t.segmentLengthValid()).isTrue();
        assertThat(t.ddpHeaderIncluded()).isTrue();
        assertThat(t.rdmaHeaderIncluded()).isFalse();
        assertThat(t.ddpSegmentLength()).isEqualTo(0x22);
        assertThat(t.terminatedDdpHeader()).isEqualTo(UntaggedHeader.of(true, 0x43_0000_0000L, 0, 7, 0));
        assertThat(t.length()).isEqualTo(4 + 2 + 18);
        assertThat(t.describe()).isEqualTo("DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid");
    }

    @Test
    void theTerminatedHeadersOwnTBitDecidesItsFormatNotTheErrorType() throws MalformedException {
        // RDMA layer Remote Operation Error (EType 2) about a tagged RDMA Write: tshark would read 18 bytes here
        Terminate t = Terminate.parse(hex("02 06 c0 00  0040  c140 0000abcd 0000000000001000"));
        assertThat(t.terminatedDdpHeader()).isEqualTo(TaggedHeader.of(true, 0x40, 0xabcd, 0x1000));
        assertThat(t.length()).isEqualTo(4 + 2 + 14);
        assertThat(t.describe()).isEqualTo("RDMA Remote Operation Error: Unexpected OpCode");
    }

    @Test
    void readRequestInErrorFollowsItsDdpHeaderWhenRIsSet() throws MalformedException {
        ReadRequest rr = new ReadRequest(0x11, 0x22, 0x33, 0x44, 0x55);
        DdpHeader ddp = UntaggedHeader.of(true, 0x41_0000_0000L, 1, 9, 0);
        Terminate t = Terminate.of(0, 1, 0x00, 46, ddp, rr);
        ByteBuffer bytes = ByteBuffer.allocate(t.length());
        t.writeTo(bytes);
        assertThat(bytes.position()).isEqualTo(4 + 2 + 18 + 28);
        assertThat(HexFormat.of().formatHex(bytes.array(), 0, 6)).isEqualTo("0100e000002e");
        Terminate back = Terminate.parse(bytes.flip());
        assertThat(back).isEqualTo(t);
        assertThat(back.terminatedRdmaHeader()).isEqualTo(rr);
        assertThat(back.describe()).isEqualTo("RDMA Remote Protection Error: Invalid STag");
    }

    @Test
    void withoutDTheSegmentLengthIsAbsentEvenWhenMSaysValid() throws MalformedException {
        // M set, D clear: RFC 5040 §4.8 makes the length present only with D
        Terminate t = Terminate.parse(hex("20 00 80 00"));
        assertThat(t.segmentLengthValid()).isTrue();
        assertThat(t.ddpHeaderIncluded()).isFalse();
        assertThat(t.ddpSegmentLength()).isEqualTo(-1);
        assertThat(t.terminatedDdpHeader()).isNull();
        assertThat(t.length()).isEqualTo(4);
        assertThat(t.describe()).isEqualTo("LLP MPA Error: Error Code 0x00");
    }

    @Test
    void reservedBitsAreKept() throws MalformedException {
        Terminate t = Terminate.parse(hex("00 00 1f ff"));
        assertThat(t.reserved()).isEqualTo(0x1FFF);
        assertThat(t.describe()).isEqualTo("RDMA Local Catastrophic Error");
    }

    @Test
    void namesComeFromTheRfcTables() {
        assertThat(TerminateCodes.describe(1, 1, 3)).isEqualTo("DDP Tagged Buffer Error: TO wrap");
        assertThat(TerminateCodes.describe(1, 0, 0)).isEqualTo("DDP Local Catastrophic");
        assertThat(TerminateCodes.describe(0, 2, 0x07))
                .isEqualTo("RDMA Remote Operation Error: Catastrophic error, localized to RDMAP Stream");
        assertThat(TerminateCodes.describe(0, 1, 0xFF)).isEqualTo("RDMA Remote Protection Error: Unspecified Error");
        assertThat(TerminateCodes.describe(2, 0, 2)).isEqualTo("LLP MPA Error: MPA CRC Error");
        assertThat(TerminateCodes.describe(2, 0, 7)).isEqualTo("LLP MPA Error: No Matching RTR Option");
        assertThat(TerminateCodes.describe(0, 1, 0x05)).isEqualTo("RDMA Remote Protection Error: Error Code 0x05");
        assertThat(TerminateCodes.describe(9, 4, 0x10)).isEqualTo("Layer 9 EType 4: Error Code 0x10");
        assertThat(TerminateCodes.errorCodeName(1, 2, 0)).isNull();
    }

    @Test
    void cutShortTerminatesAreMalformed() {
        assertThatThrownBy(() -> Terminate.parse(hex("1203c0")))
                .isInstanceOf(MalformedException.class).hasMessageContaining("at least 4 bytes");
        assertThatThrownBy(() -> Terminate.parse(hex("1203c000 00")))
                .isInstanceOf(MalformedException.class).hasMessageContaining("DDP Segment Length");
        assertThatThrownBy(() -> Terminate.parse(hex("1203c000 0022 4143000000")))
                .isInstanceOf(MalformedException.class).hasMessageContaining("terminated DDP header is cut short");
        assertThatThrownBy(() -> Terminate.parse(hex("00012000 0000")))
                .isInstanceOf(MalformedException.class).hasMessageContaining("terminated RDMA header is cut short");
    }

    @Test
    void terminateMessageDecodesFromItsUlpdu() throws MalformedException {
        Terminate t = Terminate.of(1, 2, 1, 34, UntaggedHeader.of(true, 0x43_0000_0000L, 5, 1, 0), null);
        ByteBuffer ulpdu = RdmapEncoder.terminate(1, t).ulpdus().get(0);
        RdmapPdu pdu = RdmapDecoder.decode(DdpSegment.parse(ulpdu));
        assertThat(pdu.opcode()).isEqualTo(Opcode.TERMINATE);
        assertThat(((UntaggedHeader) pdu.ddp()).qn()).isEqualTo(2);
        assertThat(pdu.body()).isEqualTo(t);
        assertThat(((Terminate) pdu.body()).errorCodeName()).isEqualTo("Invalid QN");
    }
}
