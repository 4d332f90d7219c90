package io.rddp.count;

import io.rddp.rdmap.Opcode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Counts per opcode in opcode order, undecoded last; reserved opcodes counted but left out of the named views. */
class DirectionCounterTest {

    @Test
    void snapshotsAreInOpcodeOrderAndTheViewsAgree() {
        DirectionCounter c = new DirectionCounter();
        c.add(OpcodeCounts.UNDECODED, 1, 0, 0, 30);
        c.add(Opcode.SEND.code(), 2, 1, 100, 140);
        c.add(Opcode.RDMA_WRITE.code(), 1, 1, 64, 90);
        c.add(12, 1, 1, 8, 40);
        DirectionCounts d = c.snapshot();
        assertThat(d.opcodes()).extracting(OpcodeCounts::code)
                .containsExactly(Opcode.RDMA_WRITE.code(), Opcode.SEND.code(), 12, OpcodeCounts.UNDECODED);
        assertThat(d.opcodes()).extracting(OpcodeCounts::name).endsWith("Reserved (12)", "(not DDP/RDMAP)");
        assertThat(d.messagesText()).isEqualTo("Write 1, Send 1");
        assertThat(d.messages()).isEqualTo(3);
        assertThat(d.reservedMessages()).isEqualTo(1);
        assertThat(d.payloadBytes()).isEqualTo(172);
        c.add(Opcode.SEND.code(), 1, 1, 1, 1);
        assertThat(d.messagesByOpcode()).containsEntry(Opcode.SEND, 1L); // a snapshot does not move
        assertThat(new DirectionCounter().snapshot()).isSameAs(DirectionCounts.NONE);
    }
}
