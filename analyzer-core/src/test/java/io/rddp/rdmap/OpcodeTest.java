package io.rddp.rdmap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OpcodeTest {

    @Test
    void codesModelsAndQueuesFollowRfc5040Figure4AndRfc7306Figure2() {
        assertThat(Opcode.values()).extracting(Opcode::code)
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertThat(Opcode.values()).extracting(Opcode::queueNumber)
                .containsExactly(-1, 1, -1, 0, 0, 0, 0, 2, 0, 0, 1, 3);
        assertThat(Opcode.values()).filteredOn(Opcode::tagged)
                .containsExactly(Opcode.RDMA_WRITE, Opcode.RDMA_READ_RESPONSE);
        assertThat(Opcode.values()).filteredOn(Opcode::carriesInvalidateStag)
                .containsExactly(Opcode.SEND_WITH_INVALIDATE, Opcode.SEND_WITH_SE_AND_INVALIDATE);
        assertThat(Opcode.values()).filteredOn(Opcode::solicitedEvent).containsExactly(Opcode.SEND_WITH_SE,
                Opcode.SEND_WITH_SE_AND_INVALIDATE, Opcode.IMMEDIATE_DATA_WITH_SE);
    }

    @Test
    void namesAreTheRfcsAndTsharks() {
        assertThat(Opcode.RDMA_READ_REQUEST.rfcName()).isEqualTo("RDMA Read Request");
        assertThat(Opcode.RDMA_READ_REQUEST.shortName()).isEqualTo("Read Request");
        assertThat(Opcode.SEND_WITH_SE_AND_INVALIDATE.shortName()).isEqualTo("Send with SE and Invalidate");
        assertThat(Opcode.IMMEDIATE_DATA_WITH_SE.rfcName()).isEqualTo("Immediate Data with SE");
        assertThat(Opcode.ATOMIC_RESPONSE.rfc()).isEqualTo("RFC 7306");
        assertThat(Opcode.TERMINATE.rfc()).isEqualTo("RFC 5040");
    }

    @Test
    void reservedCodesHaveNoOpcodeButStayInTheControlField() {
        for (int code = 12; code < 16; code++) assertThat(Opcode.of(code)).isNull();
        assertThat(Opcode.of(16)).isNull();
        assertThat(Opcode.of(-1)).isNull();
        RdmapControl c = RdmapControl.fromByte(0x4d);
        assertThat(c.kind()).isNull();
        assertThat(c.opcode()).isEqualTo(13);
        assertThat(c.toByte()).isEqualTo(0x4d);
        assertThat(c).hasToString("reserved opcode 13 RV 1");
    }

    @Test
    void controlFieldSplitsIntoRvRsvAndOpcode() {
        // RV 01b, Rsv 10b, Opcode 0110b (RFC 5040 §4.1 Figure 3)
        RdmapControl c = RdmapControl.fromByte(0x66);
        assertThat(c).isEqualTo(new RdmapControl(1, 2, 6));
        assertThat(c.kind()).isEqualTo(Opcode.SEND_WITH_SE_AND_INVALIDATE);
        assertThat(RdmapControl.of(Opcode.ATOMIC_RESPONSE).toByte()).isEqualTo(0x4b);
    }

    @Test
    void headerLengthsAreThoseOfTheFigures() {
        assertThat(Opcode.RDMA_READ_REQUEST.headerLength()).isEqualTo(28);
        assertThat(Opcode.TERMINATE.headerLength()).isEqualTo(4);
        assertThat(Opcode.IMMEDIATE_DATA.headerLength()).isEqualTo(8);
        assertThat(Opcode.ATOMIC_REQUEST.headerLength()).isEqualTo(52);
        assertThat(Opcode.ATOMIC_RESPONSE.headerLength()).isEqualTo(12);
        assertThat(Opcode.SEND.headerLength()).isZero();
    }
}
