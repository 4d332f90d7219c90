package io.rddp.rdmap;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RdmapEncoderTest {

    private static String hex(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return HexFormat.of().formatHex(a);
    }

    @Test
    void sendWithInvalidatePutsTheStagInRsvdUlpAfterTheControlField() {
        List<ByteBuffer> u = RdmapEncoder.sendWithInvalidate(7, ByteBuffer.wrap("hi".getBytes(StandardCharsets.US_ASCII)),
                100, 0xdeadbeefL).ulpdus();
        // RFC 5040 §4.1 Figure 3 / Appendix A.5: |T L Rsvd DV|RV Rsv Opcode|Invalidate STag|QN|MSN|MO|payload
        assertThat(u).singleElement().extracting(RdmapEncoderTest::hex)
                .isEqualTo("41" + "44" + "deadbeef" + "00000000" + "00000007" + "00000000" + "6869");
    }

    @Test
    void readRequestIsOneSegmentOnQueueOne() {
        ReadRequest rr = new ReadRequest(0x5fb74500L, 0x5555a6e24550L, 64, 0x2e281c00L, 0x562fd6d96370L);
        List<ByteBuffer> u = RdmapEncoder.readRequest(1, rr).ulpdus();
        // the very bytes siw sent in frame 9 of siw-rping-lo.pcap
        assertThat(u).singleElement().extracting(RdmapEncoderTest::hex).isEqualTo(
                "4141000000000000000100000001000000005fb7450000005555a6e24550000000402e281c000000562fd6d96370");
    }

    @Test
    void writeIsSegmentedAlongTheTaggedOffset() {
        List<DdpSegment> s = RdmapEncoder.write(0x99, 1000, ByteBuffer.allocate(40), 14 + 16).segments();
        assertThat(s).extracting(x -> x.header().offset()).containsExactly(1000L, 1016L, 1032L);
        assertThat(s).allSatisfy(x -> assertThat(x.header().rsvdUlpFirstOctet()).isEqualTo(0x40));
        assertThat(s).extracting(x -> x.header().last()).containsExactly(false, false, true);
    }

    @Test
    void everyFieldCanBeSetWrongOnPurpose() throws MalformedException {
        List<DdpSegment> s = RdmapEncoder.send(3, ByteBuffer.allocate(4), 100)
                .rdmaVersion(2).rdmapReserved(3).opcode(13).ddpVersion(0).ddpReserved(9).qn(5).mo(8)
                .invalidateStag(0x1234).lastFlag(false).segments();
        UntaggedHeader h = (UntaggedHeader) s.get(0).header();
        assertThat(h).isEqualTo(new UntaggedHeader(false, 9, 0, 0xBD_0000_1234L, 5, 3, 8));
        RdmapPdu pdu = RdmapDecoder.decode(DdpSegment.parse(s.get(0).toByteBuffer()));
        assertThat(pdu.control()).isEqualTo(new RdmapControl(2, 3, 13));
        assertThat(pdu.opcode()).isNull();
        assertThat(pdu.invalidateStag()).isEqualTo(0x1234);
        assertThat(pdu.body()).isNull();
        assertThat(pdu.payload().remaining()).isEqualTo(4);
    }

    @Test
    void modelCanBeSwappedToProduceATaggedSend() {
        List<DdpSegment> s = RdmapEncoder.send(1, ByteBuffer.allocate(3), 100).tagged(true).stag(6).to(2)
                .segments();
        assertThat(s.get(0).header()).isEqualTo(TaggedHeader.of(true, 0x43, 6, 2));
    }

    @Test
    void opcodeHeaderSplitByATinyMulpduMakesTheFirstSegmentMalformed() {
        List<DdpSegment> s = RdmapEncoder.readRequest(1, new ReadRequest(1, 2, 3, 4, 5)).mulpdu(18 + 10).segments();
        assertThat(s).hasSize(3);
        assertThatThrownBy(() -> RdmapDecoder.decode(s.get(0)))
                .isInstanceOf(MalformedException.class)
                .hasMessage("RDMA Read Request: RDMA Read Request header needs 28 bytes (RFC 5040 §4.4), 10 remain");
    }

    @Test
    void nonFirstSegmentsCarryOnlyTheControlField() throws MalformedException {
        List<DdpSegment> s = RdmapEncoder.of(Opcode.ATOMIC_REQUEST)
                .header(AtomicRequest.fetchAdd(1, 2, 8, 5, 0)).mulpdu(18 + 40).segments();
        assertThat(s).hasSize(2);
        RdmapPdu second = RdmapDecoder.decode(s.get(1));
        assertThat(second.opcode()).isEqualTo(Opcode.ATOMIC_REQUEST);
        assertThat(second.body()).isNull();
        assertThat(second.payload().remaining()).isEqualTo(12);
    }

    @Test
    void immediateDataLongerThanEightBytesKeepsTheRestAsPayload() throws MalformedException {
        List<DdpSegment> s = RdmapEncoder.immediateData(4, 0x0102030405060708L)
                .data(ByteBuffer.wrap(new byte[]{9, 9})).segments();
        RdmapPdu pdu = RdmapDecoder.decode(s.get(0));
        assertThat(pdu.body()).isEqualTo(new ImmediateData(0x0102030405060708L));
        assertThat(pdu.payload().remaining()).isEqualTo(2);
        assertThatThrownBy(() -> RdmapDecoder.decode(RdmapEncoder.of(Opcode.IMMEDIATE_DATA)
                .data(ByteBuffer.allocate(7)).segments().get(0)))
                .isInstanceOf(MalformedException.class).hasMessageContaining("Immediate Data is 8 bytes");
    }

    @Test
    void atomicHeadersHaveTheirFigureLayouts() {
        AtomicRequest req = AtomicRequest.cmpSwap(0xa1, 0xb2, 0x10, 0x11, 0x12, 0x13, 0x14);
        assertThat(hex(RdmapEncoder.atomicRequest(1, req).segments().get(0).payload())).isEqualTo(
                "00000002" + "000000a1" + "000000b2" + "0000000000000010" + "0000000000000011" + "0000000000000012"
                        + "0000000000000013" + "0000000000000014");
        assertThat(req.operationName()).isEqualTo("CmpSwap");
        assertThat(hex(RdmapEncoder.atomicResponse(1, new AtomicResponse(0xa1, -1L)).segments().get(0).payload()))
                .isEqualTo("000000a1" + "ffffffffffffffff");
        assertThat(RdmapEncoder.atomicResponse(1, new AtomicResponse(0, 0)).segments().get(0).header())
                .isEqualTo(UntaggedHeader.of(true, 0x4b_0000_0000L, 3, 1, 0));
    }
}
