package io.rddp.sink;

import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.RdmapEncoder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static io.rddp.sink.Wire.C2S;
import static io.rddp.sink.Wire.S2C;
import static io.rddp.sink.Wire.data;
import static org.assertj.core.api.Assertions.assertThat;

/** RFC 5041 §7.1 untagged checks 2-4, made only when the receiver's posted buffers are known. */
class ReceiveBufferChecksTest {

    /** Receive buffers of the server per Send MSN; absent MSNs have none. */
    private static ReceiveBuffers serverPosted(Map<Long, Long> byMsn) {
        return (stream, receiver, qn, msn) -> receiver == Side.SERVER && qn == 0
                ? byMsn.getOrDefault(msn, ReceiveBuffers.NONE) : ReceiveBuffers.UNKNOWN;
    }

    @Test
    void sendWithNoPostedBufferOwesTheNoBufferTerminate() {
        Wire w = new Wire();
        w.model.receiveBuffers(serverPosted(Map.of()));
        Recorder r = w.started().send(C2S, RdmapEncoder.send(1, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.no-buffer", "rdmap.terminate.missing");
        assertThat(r.owed).hasSize(1);
        OwedTerminate o = r.owed.get(0);
        assertThat(o.primary()).isEqualTo(ErrorType.DDP_U_NO_BUFFER);
        assertThat(o.offender()).isEqualTo(C2S);
        assertThat(o.cause()).isEqualTo(Check.DDP_NO_BUFFER);
        assertThat(o.level()).isEqualTo(OwedTerminate.Level.MUST);
        assertThat(o.header()).isInstanceOf(UntaggedHeader.class);
        assertThat(o.segmentLength()).isEqualTo(18 + 8);
    }

    @Test
    void messageLongerThanItsBufferOwesMessageTooLong() {
        Map<Long, Long> posted = new HashMap<>();
        posted.put(1L, 100L);
        Wire w = new Wire();
        w.model.receiveBuffers(serverPosted(posted));
        // 250 octets in segments of 82 payload octets: the second segment crosses the 100-octet buffer
        Recorder r = w.started().send(C2S, RdmapEncoder.send(1, data(250), 100)).end();
        assertThat(r.ids()).contains("ddp.untagged.too-long");
        assertThat(r.ids()).filteredOn("ddp.untagged.too-long"::equals).hasSize(1);
        OwedTerminate o = r.owed.get(0);
        assertThat(o.primary()).isEqualTo(ErrorType.DDP_U_TOO_LONG);
        assertThat(o.accepts(ErrorType.DDP_U_INVALID_MO)).isTrue();
        assertThat(o.accepts(ErrorType.DDP_U_NO_BUFFER)).isFalse();
        assertThat(((UntaggedHeader) o.header()).mo()).isEqualTo(82);
    }

    @Test
    void messagesThatFitTheirBuffersAreClean() {
        Wire w = new Wire();
        w.model.receiveBuffers(serverPosted(Map.of(1L, 8L, 2L, 4096L)));
        Recorder r = w.started().send(C2S, RdmapEncoder.send(1, data(8), 1000))
                .send(C2S, RdmapEncoder.send(2, data(3000), 1000)).end();
        assertThat(r.problems()).isEmpty();
        assertThat(r.owed).isEmpty();
    }

    @Test
    void zeroLengthSendIsNotCheckedAgainstBuffers() {
        // RFC 5041 §7.1: the checks are "for non-zero-length Untagged DDP Segments"
        Wire w = new Wire();
        w.model.receiveBuffers(serverPosted(Map.of()));
        Recorder r = w.started().send(C2S, RdmapEncoder.send(1, data(0), 1000)).end();
        assertThat(r.problems()).isEmpty();
    }

    @Test
    void withoutKnowledgeOfBuffersNothingIsReported() {
        Recorder r = new Wire().started().send(C2S, RdmapEncoder.send(1, data(5000), 1000)).end();
        assertThat(r.problems()).isEmpty();
    }

    @Test
    void theOwedTerminateIsAnsweredByTheRightOne() {
        Wire w = new Wire();
        w.model.receiveBuffers(serverPosted(Map.of()));
        var seg = RdmapEncoder.send(1, data(8), 1000).segments().get(0);
        Recorder r = w.started().seg(C2S, seg)
                .terminate(S2C, io.rddp.rdmap.Terminate.of(1, 2, 2, seg.length(), seg.header(), null)).end();
        assertThat(r.problems()).extracting(Violation::id).containsExactly("ddp.untagged.no-buffer");
    }
}
