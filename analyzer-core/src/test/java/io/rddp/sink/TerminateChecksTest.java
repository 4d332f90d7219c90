package io.rddp.sink;

import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static io.rddp.sink.Wire.C2S;
import static io.rddp.sink.Wire.S2C;
import static io.rddp.sink.Wire.data;
import static io.rddp.sink.Wire.read;
import static org.assertj.core.api.Assertions.assertThat;

/** The Terminate: RFC 5040 §4.8, §5.4, §6.2.1, §7.1. */
class TerminateChecksTest {

    private static final Terminate CATASTROPHIC = Terminate.of(0, 0, 0);

    /** The client's second Send, sent with MSN 3 instead of 2. */
    private static DdpSegment badMsn() {
        return RdmapEncoder.send(3, data(8), 1000).segments().get(0);
    }

    private static Terminate reporting(int layer, int etype, int code, DdpSegment s) {
        return Terminate.of(layer, etype, code, s.length(), s.header(), null);
    }

    @Test
    void theRightTerminateWithTheOffendingHeaderSettlesTheError() {
        DdpSegment bad = badMsn();
        Recorder r = new Wire().started().hello().seg(C2S, bad).terminate(S2C, reporting(1, 2, 3, bad))
                .close(S2C).close(C2S).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn");
        assertThat(r.summaries).singleElement().satisfies(s ->
                assertThat(s.serverToClient().terminateFrame()).isEqualTo(5));
    }

    @Test
    void terminateWithAnotherErrorTypeIsAMismatch() {
        DdpSegment bad = badMsn();
        Recorder r = new Wire().started().hello().seg(C2S, bad).terminate(S2C, reporting(0, 2, 6, bad)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.mismatch");
        Violation v = r.violations.get(1);
        assertThat(v.severity()).isEqualTo(Severity.ERROR);
        assertThat(v.direction()).isEqualTo(S2C);
        assertThat(v.message()).contains("expected Terminate 1/2/3 (DDP Untagged Buffer Error: Invalid MSN - MSN range"
                + " is not valid) or 1/2/2").contains("in frame 4, got 0/2/6 (RDMA Remote Operation Error: Unexpected"
                + " OpCode)");
        assertThat(v.errorType()).isEqualTo(ErrorType.DDP_U_MSN_RANGE);
    }

    @Test
    void terminateReportingALaterErrorThanTheFirstIsAWarning() {
        DdpSegment bad = badMsn();
        DdpSegment reserved = RdmapEncoder.send(4, data(8), 1000).opcode(14).segments().get(0);
        Recorder r = new Wire().started().hello().seg(C2S, bad).seg(C2S, reserved)
                .terminate(S2C, reporting(0, 2, 6, reserved)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.opcode", "rdmap.terminate.mismatch");
        assertThat(r.violations.get(2).severity()).isEqualTo(Severity.WARNING);
        assertThat(r.violations.get(2).message()).contains("frame 4 erred first");
    }

    @Test
    void terminatedHeaderThatIsNotTheOffendingOneIsAWarning() {
        DdpSegment bad = badMsn();
        Terminate wrongHeader = Terminate.of(1, 2, 3, bad.length(), UntaggedHeader.of(true, 0, 0, 9, 0), null);
        Recorder r = new Wire().started().hello().seg(C2S, bad).terminate(S2C, wrongHeader).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.terminated-header");
    }

    @Test
    void peerThatGoesOnSendingWithoutATerminateIsAnError() {
        Recorder r = new Wire().started().hello().seg(C2S, badMsn())
                .send(S2C, RdmapEncoder.send(1, data(4), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.missing");
        Violation v = r.violations.get(1);
        assertThat(v.severity()).isEqualTo(Severity.ERROR);
        assertThat(v.direction()).isEqualTo(S2C);
        assertThat(v.frames()).containsExactly(4L, 5L);
        assertThat(v.message()).contains("expected Terminate 1/2/3").contains("got none");
    }

    @Test
    void peerThatClosesWithoutATerminateIsAnError() {
        Recorder r = new Wire().started().hello().seg(C2S, badMsn()).close(S2C).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.missing");
        assertThat(r.violations.get(1).severity()).isEqualTo(Severity.ERROR);
        assertThat(r.violations.get(1).message()).contains("closed the connection");
    }

    @Test
    void captureEndingRightAfterTheErrorLeavesTheMissingTerminateAWarning() {
        Recorder r = new Wire().started().hello().seg(C2S, badMsn()).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.missing");
        assertThat(r.violations.get(1).severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void afterTheOffendersOwnTerminateThePeerOwesNothing() {
        // RFC 5040 §5.4: after receiving a Terminate the peer MAY stop sending
        Recorder r = new Wire().started().hello().seg(C2S, badMsn()).terminate(C2S, CATASTROPHIC).close(S2C).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.unexplained");
    }

    @Test
    void secondTerminateIsAnError() {
        Recorder r = new Wire().started().hello().terminate(S2C, CATASTROPHIC)
                .send(S2C, RdmapEncoder.terminate(2, CATASTROPHIC)).end();
        assertThat(r.ids()).containsExactly("rdmap.terminate.unexplained", "rdmap.terminate.repeated");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.INFO);
        assertThat(r.violations.get(1).frames()).containsExactly(4L, 5L);
    }

    @Test
    void anythingSentAfterTheTerminateIsAnError() {
        Recorder r = new Wire().started().hello().terminate(S2C, CATASTROPHIC)
                .send(S2C, RdmapEncoder.send(1, data(4), 1000))
                .send(S2C, RdmapEncoder.send(2, data(4), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.terminate.unexplained", "rdmap.terminate.after");
        assertThat(r.violations.get(1).frame()).isEqualTo(5);
    }

    @Test
    void terminateSplitOverSegmentsIsAWarning() {
        long ulp = (long) RdmapControl.of(Opcode.TERMINATE).toByte() << 32;
        Recorder r = new Wire().started().hello()
                .send(S2C, RdmapEncoder.terminate(1, CATASTROPHIC).lastFlag(false))
                .seg(S2C, new DdpSegment(UntaggedHeader.of(true, ulp, 2, 1, 4), data(0))).end();
        assertThat(r.ids()).containsExactly("rdmap.terminate.segments", "rdmap.terminate.unexplained");
    }

    @Test
    void errorCodeOutsideTheTablesIsAnError() {
        Recorder r = new Wire().started().hello().terminate(S2C, Terminate.of(0, 2, 0x33)).end();
        assertThat(r.ids()).containsExactly("rdmap.terminate.code", "rdmap.terminate.unexplained");
        assertThat(r.violations.get(0).message()).contains("0/2/51");
    }

    @Test
    void llpErrorCarryingADdpHeaderBreaksFigureTen() {
        DdpSegment any = RdmapEncoder.send(1, data(8), 1000).segments().get(0);
        Recorder r = new Wire().started().hello().terminate(S2C, reporting(2, 0, 1, any)).end();
        assertThat(r.ids()).containsExactly("rdmap.terminate.header-control", "rdmap.terminate.unexplained");
        assertThat(r.violations.get(0).message()).contains("an LLP error includes no DDP or RDMA header");
    }

    @Test
    void terminateBlamingAConformingPduIsAWarning() {
        DdpSegment hello = RdmapEncoder.send(1, data(8), 1000).segments().get(0);
        Recorder r = new Wire().started().hello().terminate(S2C, reporting(1, 2, 3, hello)).end();
        assertThat(r.ids()).containsExactly("rdmap.terminate.unexplained");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.WARNING);
        assertThat(r.violations.get(0).frames()).containsExactly(3L, 4L);
    }

    @Test
    void terminatedHeaderMatchingNothingTheClientSentIsAWarning() {
        Terminate t = Terminate.of(1, 2, 3, 30, UntaggedHeader.of(true, 0, 0, 77, 0), null);
        Recorder r = new Wire().started().hello().terminate(S2C, t).end();
        assertThat(r.ids()).containsExactly("rdmap.terminate.terminated-header");
    }

    @Test
    void readRequestOutsideItsSourceBufferTerminatedWithTheUpdatedReadHeader() {
        StagRegistry reg = StagRegistry.empty()
                .add(StagRegistration.of(0x10, 0, 1 << 20, Wire.ALL))
                .add(StagRegistration.of(0x20, 0, 64, Set.of(StagRegistration.Access.READ)));
        ReadRequest rr = read(0x10, 0, 128, 0x20, 0);
        DdpSegment req = RdmapEncoder.readRequest(1, rr).segments().get(0);
        // 64 octets were read before the error: §4.8 lets the Terminate carry the header moved on by 64
        ReadRequest progressed = read(0x10, 64, 64, 0x20, 64);
        Terminate t = Terminate.of(0, 1, 1, req.length(), req.header(), progressed);
        Recorder r = new Wire(reg, false).started().hello().seg(C2S, req).terminate(S2C, t).end();
        assertThat(r.ids()).containsExactly("rdmap.remote-access.bounds");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.RDMA_BASE_BOUNDS);

        Terminate wrongRead = Terminate.of(0, 1, 1, req.length(), req.header(), read(0x10, 64, 60, 0x20, 64));
        Recorder r2 = new Wire(reg, false).started().hello().seg(C2S, req).terminate(S2C, wrongRead).end();
        assertThat(r2.ids()).containsExactly("rdmap.remote-access.bounds", "rdmap.terminate.terminated-header");
    }

    @Test
    void rBitOnATerminateAboutASendBreaksFigureTen() {
        // the R bit only for Read Requests (§4.8): a Send's DDP header with R set is a Figure 10 warning
        DdpSegment bad = badMsn();
        Terminate t = new Terminate(1, 2, 3, true, true, true, 0, bad.length(), bad.header(),
                read(1, 0, 1, 2, 0));
        Recorder r = new Wire().started().hello().seg(C2S, bad).terminate(S2C, t).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.header-control");
    }
}
