package io.rddp.conformance.rpcrdma;

import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.rpcrdma.Proc;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replies may come in any order (RFC 8166 §4.1: a reply is its call's by XID). Linux's svcrdma answered a burst of 64
 * NULL calls with XIDs 1, 2, 3, 5, 6, 4, 7...: the tester, which let an answer that came early go, counted 3 of 64
 * answered (pcaps/siw-conform/6.1/rpcrdma/rpcrdma.credits.grant-honoured.pcapng holds all 64).
 */
class SetAsideTest {

    private static Answer reply(long xid) {
        return Answer.of(RpcRdmaHeader.message(xid, 64, Proc.RDMA_MSG, List.of(), List.of(), null).toBytes(),
                null);
    }

    @Test
    void anAnswerThatCameBeforeItsTurnIsTakenWhenItsXidIsWaitedFor() {
        SetAside early = new SetAside();
        early.add(reply(5));
        early.add(reply(6));
        assertThat(early.take(6).header().xid()).isEqualTo(6);
        assertThat(early.take(6)).as("taken once").isNull();
        assertThat(early.take(4)).isNull();
        assertThat(early.all()).extracting(a -> a.header().xid()).containsExactly(5L);
    }

    @Test
    void anUndecodableMessageStaysSetAside() {
        SetAside early = new SetAside();
        early.add(Answer.of(new byte[]{1, 2, 3}, null));
        assertThat(early.take(0x01020300L)).isNull();
        assertThat(early.all()).hasSize(1);
        assertThat(early.all().get(0).header()).isNull();
    }
}
