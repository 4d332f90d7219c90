package io.rddp.rdmap;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.SiwFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** RDMAP fields of real siw traffic (Send, RDMA Read Request/Response, RDMA Write) against tshark's decode. */
class RdmapDecoderCaptureTest {

    static final List<String> CAPTURES = SiwFixtures.ALL;

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void everyCapturedSegmentDecodesToTsharksRdmapFields(String capture) throws MalformedException {
        for (SiwFixtures.Row row : SiwFixtures.load(capture)) {
            RdmapPdu pdu = RdmapDecoder.decode(row.ulpdu());
            assertThat((long) pdu.control().opcode()).as("%s opcode", row).isEqualTo(row.number("iwarp_rdma.opcode"));
            assertThat((long) pdu.control().version()).as("%s RV", row).isEqualTo(row.number("iwarp_rdma.version"));
            assertThat((long) pdu.control().reserved() << 4).as("%s Rsv", row)
                    .isEqualTo(row.number("iwarp_rdma.rsv"));
            assertThat(pdu.opcode()).as("%s", row).isNotNull();
            assertThat(pdu.ddp().tagged()).as("%s model", row).isEqualTo(pdu.opcode().tagged());
            if (pdu.opcode() == Opcode.RDMA_READ_REQUEST) {
                ReadRequest rr = (ReadRequest) pdu.body();
                assertThat(rr.sinkStag()).isEqualTo(row.number("iwarp_rdma.sinkstag"));
                assertThat(rr.sinkTo()).isEqualTo(row.number("iwarp_rdma.sinkto"));
                assertThat(rr.size()).isEqualTo(row.number("iwarp_rdma.rdmardsz"));
                assertThat(rr.sourceStag()).isEqualTo(row.number("iwarp_rdma.srcstag"));
                assertThat(rr.sourceTo()).isEqualTo(row.number("iwarp_rdma.srcto"));
                assertThat(pdu.payload().remaining()).isZero();
            } else {
                assertThat(pdu.body()).as("%s body", row).isNull();
                assertThat(pdu.payload().remaining()).isEqualTo(row.ulpduLength() - pdu.ddp().headerLength());
            }
            assertThat(pdu.invalidateStag()).as("%s RsvdULP[8:39]", row).isEqualTo(pdu.ddp().tagged() ? -1 : 0);
        }
    }

    @Test
    void rpingReadResponseAnswersItsReadRequest() throws MalformedException {
        List<SiwFixtures.Row> rows = SiwFixtures.load(SiwFixtures.RPING);
        RdmapPdu request = RdmapDecoder.decode(rows.stream().filter(r -> r.frame() == 9).findFirst().orElseThrow()
                .ulpdu());
        RdmapPdu response = RdmapDecoder.decode(rows.stream().filter(r -> r.frame() == 10).findFirst().orElseThrow()
                .ulpdu());
        assertThat(request.opcode()).isEqualTo(Opcode.RDMA_READ_REQUEST);
        assertThat(request.ddp().offset()).isZero();
        assertThat(request.body()).isEqualTo(new ReadRequest(0x5fb74500L, 0x5555a6e24550L, 64, 0x2e281c00L,
                0x562fd6d96370L));
        assertThat(((io.rddp.ddp.UntaggedHeader) request.ddp()).qn()).isEqualTo(Opcode.RDMA_READ_REQUEST.queueNumber());
        assertThat(response.opcode()).isEqualTo(Opcode.RDMA_READ_RESPONSE);
        io.rddp.ddp.TaggedHeader t = (io.rddp.ddp.TaggedHeader) response.ddp();
        ReadRequest rr = (ReadRequest) request.body();
        assertThat(t.stag()).isEqualTo(rr.sinkStag());
        assertThat(t.to()).isEqualTo(rr.sinkTo());
        assertThat((long) response.payload().remaining()).isEqualTo(rr.size());
    }

    @Test
    void writeOfTheP2pCaptureIsAZeroLengthRdmaWrite() throws MalformedException {
        SiwFixtures.Row row = SiwFixtures.load(SiwFixtures.P2P_WRITE).get(0);
        RdmapPdu pdu = RdmapDecoder.decode(DdpSegment.parse(row.ulpdu()));
        assertThat(pdu.opcode()).isEqualTo(Opcode.RDMA_WRITE);
        assertThat(pdu.opcode().shortName()).isEqualTo("Write");
        assertThat(pdu.payload().remaining()).isZero();
        assertThat(pdu.control()).isEqualTo(new RdmapControl(1, 0, 0));
    }
}
