package io.rddp.sink;

import io.rddp.mpa.MpaStartFrame;
import io.rddp.mpa.MpaStartFrame.Enhanced;
import io.rddp.mpa.MpaStartFrame.Kind;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.Terminate;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.rddp.sink.Wire.C2S;
import static io.rddp.sink.Wire.S2C;
import static io.rddp.sink.Wire.data;
import static io.rddp.sink.Wire.read;
import static org.assertj.core.api.Assertions.assertThat;

/** MPA checks: RFC 5044 §4.4, §7.1, §8 and RFC 6581. */
class MpaChecksTest {

    private static Enhanced p2p(boolean send, boolean write, boolean read) {
        return new Enhanced(4, 4, true, send, write, read);
    }

    @Test
    void crcMismatchIsAnErrorAndThePeerOwesAnMpaCrcTerminate() {
        // RFC 5044 §4.4, §8 code 2; RFC 5040 §6.2.1: the Terminate SHOULD follow
        Recorder r = new Wire().started().badCrc(C2S, RdmapEncoder.send(1, data(10), 1000)).end();
        assertThat(r.ids()).containsExactly("mpa.crc", "rdmap.terminate.missing");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.MPA_CRC);
        assertThat(r.violations.get(0).rfc() + " " + r.violations.get(0).section()).isEqualTo("RFC 5044 §4.4");
        Violation missing = r.violations.get(1);
        assertThat(missing.severity()).isEqualTo(Severity.WARNING);
        assertThat(missing.section()).isEqualTo("§6.2.1");
        assertThat(missing.message()).contains("expected Terminate 2/0/2 (LLP MPA Error: MPA CRC Error)");
    }

    @Test
    void crcMismatchAnsweredByTheRightTerminateLeavesOnlyTheCrcError() {
        Recorder r = new Wire().started().badCrc(C2S, RdmapEncoder.send(1, data(10), 1000))
                .terminate(S2C, Terminate.of(2, 0, 2)).end();
        assertThat(r.ids()).containsExactly("mpa.crc");
    }

    @Test
    void markerErrorReportedByTheMpaLayerIsAFramingViolation() {
        Wire w = new Wire().started().hello();
        w.model.onFramingError(0, C2S, ++w.frame, "Marker at offset 512 points 40 octets before the FPDU start");
        Recorder r = w.terminate(S2C, Terminate.of(2, 0, 3)).end();
        assertThat(r.ids()).containsExactly("mpa.marker");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.MPA_MARKER);
    }

    @Test
    void wrongKeyIsAnError() {
        MpaStartFrame bad = new MpaStartFrame(Kind.REQUEST, false, false, false, false, 0, 1, 0, new byte[0], null);
        Recorder r = new Wire().start(C2S, bad).start(S2C, StartFrames.reply(null)).end();
        assertThat(r.ids()).containsExactly("mpa.start.key");
        assertThat(r.violations.get(0).frame()).isEqualTo(1);
    }

    @Test
    void enhancedFlagWithRevisionOneIsAnError() {
        byte[] pd = StartFrames.enhanced(StartFrames.irdOrd(1, 1));
        MpaStartFrame req = new MpaStartFrame(Kind.REQUEST, true, false, false, false, 0x10, 1, 4, pd,
                StartFrames.irdOrd(1, 1));
        // RFC 6581 §6: under Rev 1 the S bit is a Res bit, so the right answer is an unenhanced Rev 1 Reply
        Recorder r = new Wire().start(C2S, req).start(S2C, StartFrames.reply(null)).end();
        assertThat(r.ids()).containsExactly("mpa.start.rev");
        assertThat(r.violations.get(0).rfc()).isEqualTo("RFC 6581");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.ERROR);
    }

    @Test
    void revisionOneRequestWithTheEnhancedFlagAnsweredEnhancedBreaksSection10() {
        byte[] pd = StartFrames.enhanced(StartFrames.irdOrd(1, 1));
        MpaStartFrame req = new MpaStartFrame(Kind.REQUEST, true, false, false, false, 0x10, 1, 4, pd,
                StartFrames.irdOrd(1, 1));
        Recorder r = new Wire().start(C2S, req).start(S2C, StartFrames.reply(StartFrames.irdOrd(1, 1))).end();
        assertThat(r.ids()).containsExactly("mpa.start.rev", "mpa.enhanced");
        assertThat(r.violations.get(1).message()).contains("unenhanced MPA Request answered by an enhanced");
    }

    @Test
    void revisionZeroAndThreeBreakTheSendersMust() {
        // RFC 5044 §7.1.1: "senders MUST set this field to one" (RFC 6581: two)
        MpaStartFrame rev0 = new MpaStartFrame(Kind.REQUEST, true, false, false, false, 0, 0, 0, new byte[0], null);
        MpaStartFrame rev3 = new MpaStartFrame(Kind.REPLY, true, false, false, false, 0, 3, 0, new byte[0], null);
        Recorder r = new Wire().start(C2S, rev0).start(S2C, rev3).end();
        assertThat(r.ids()).containsExactly("mpa.start.rev", "mpa.start.rev");
        assertThat(r.violations).allMatch(v -> v.severity() == Severity.ERROR);
        assertThat(r.violations.get(1).message()).contains("Rev 3");
    }

    @Test
    void aRev0ReplyToARev0RequestIsRdmacInteroperationAndOnlyAWarning() {
        // RFC 5044 Appendix C: a responder may answer an RDMA Consortium MPA peer in kind
        MpaStartFrame rev0 = new MpaStartFrame(Kind.REQUEST, true, false, false, false, 0, 0, 0, new byte[0], null);
        MpaStartFrame rep0 = new MpaStartFrame(Kind.REPLY, true, false, false, false, 0, 0, 0, new byte[0], null);
        Recorder r = new Wire().start(C2S, rev0).start(S2C, rep0).end();
        assertThat(r.violations).extracting(Violation::severity).containsExactly(Severity.ERROR, Severity.WARNING);
        assertThat(r.violations.get(1).message()).contains("in kind");
    }

    @Test
    void unzeroedPadIsOneErrorPerDirectionWithTheCountAndTheFirstFrames() {
        // RFC 5044 §4.1: PAD "MUST be set to zero by the sender and ignored by the receiver": an implementation that
        // leaves it unzeroed does so on every FPDU of that length, so one report per direction, no Terminate
        Wire w = new Wire().started();
        for (int i = 0; i < 10; i++) w.unzeroedPad(C2S, RdmapEncoder.send(1 + i, data(2), 1000));
        w.unzeroedPad(S2C, RdmapEncoder.send(1, data(3), 1000));
        Recorder r = w.end();
        assertThat(r.ids()).containsExactly("mpa.pad", "mpa.pad");
        Violation c2s = r.violations.get(0);
        assertThat(c2s.severity()).isEqualTo(Severity.ERROR);
        assertThat(c2s.errorType()).isNull();
        assertThat(c2s.frame()).isEqualTo(3);
        assertThat(c2s.frames()).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(c2s.message()).startsWith("10 FPDUs with PAD octets not all zero").contains("frames 3, 4, 5")
                .endsWith(", ...");
        assertThat(r.violations.get(1).message()).startsWith("1 FPDU with PAD octets not all zero")
                .contains("frame 13");
        assertThat(r.owed).isEmpty();
    }

    @Test
    void privateDataLongerThan512IsAnErrorAndNoFpduMayFollow() {
        byte[] pd = new byte[600];
        MpaStartFrame req = new MpaStartFrame(Kind.REQUEST, true, false, false, false, 0, 1, 600, pd, null);
        Recorder r = new Wire().start(C2S, req).start(S2C, StartFrames.reply(null)).hello().end();
        assertThat(r.ids()).containsExactly("mpa.start.pd-length", "mpa.fpdu-after-exit");
        assertThat(r.violations.get(0).message()).contains("PD_Length 600");
    }

    @Test
    void reservedBitsAndRejectInARequestAreErrors() {
        // RFC 5044 §7.1.1: Res "MUST be set to zero when sending, and not checked on reception"
        MpaStartFrame req = new MpaStartFrame(Kind.REQUEST, true, false, false, true, 0x01, 1, 0, new byte[0], null);
        Recorder r = new Wire().start(C2S, req).start(S2C, StartFrames.reply(null)).end();
        assertThat(r.ids()).containsExactly("mpa.start.reserved", "mpa.start.reserved");
        assertThat(r.violations).allMatch(v -> v.severity() == Severity.ERROR && v.errorType() == null);
    }

    @Test
    void requestsFromBothSidesAreAnInitiatorInitiatorStartup() {
        Recorder r = new Wire().start(C2S, StartFrames.request(null)).start(S2C, StartFrames.request(null)).end();
        assertThat(r.ids()).containsExactly("mpa.start.sequence");
        assertThat(r.violations.get(0).message()).contains("Initiator/Initiator");
        assertThat(r.violations.get(0).frames()).containsExactly(1L, 2L);
    }

    @Test
    void replyFromTheInitiatorIsOutOfSequence() {
        Recorder r = new Wire().start(C2S, StartFrames.request(null)).start(C2S, StartFrames.reply(null)).end();
        assertThat(r.ids()).containsExactly("mpa.start.sequence");
    }

    @Test
    void rejectingReplyEndsMpaSoAnFpduAfterItIsAnError() {
        MpaStartFrame reject = new MpaStartFrame(Kind.REPLY, true, false, false, true, 0, 1, 0, new byte[0], null);
        Recorder r = new Wire().start(C2S, StartFrames.request(null)).start(S2C, reject).hello().end();
        assertThat(r.ids()).containsExactly("mpa.fpdu-after-exit");
        assertThat(r.violations.get(0).frames()).containsExactly(2L, 3L);
    }

    @Test
    void initiatorMustNotSendBeforeTheReply() {
        Wire w = new Wire().start(C2S, StartFrames.request(null)).hello();
        Recorder r = w.start(S2C, StartFrames.reply(null)).end();
        assertThat(r.ids()).containsExactly("mpa.initiator-early");
        assertThat(r.violations.get(0).frame()).isEqualTo(2);
    }

    @Test
    void responderMustWaitForTheInitiatorsFirstFpdu() {
        Recorder r = new Wire().started().send(S2C, RdmapEncoder.send(1, data(4), 1000)).hello().end();
        assertThat(r.ids()).containsExactly("mpa.responder-first");
        assertThat(r.violations.get(0).direction()).isEqualTo(S2C);
    }

    @Test
    void enhancedFlagWithoutRoomForIrdOrdIsAnError() {
        MpaStartFrame req = new MpaStartFrame(Kind.REQUEST, true, false, false, false, 0x10, 2, 2, new byte[2], null);
        Recorder r = new Wire().start(C2S, req).end();
        assertThat(r.ids()).containsExactly("mpa.enhanced");
    }

    @Test
    void enhancedRequestAnsweredUnenhancedIsAnError() {
        Recorder r = new Wire().start(C2S, StartFrames.request(StartFrames.irdOrd(1, 1)))
                .start(S2C, StartFrames.reply(null)).end();
        assertThat(r.ids()).containsExactly("mpa.enhanced");
        assertThat(r.violations.get(0).section()).isEqualTo("§10");
    }

    @Test
    void responderOrdAboveInitiatorIrdIsAnError() {
        Recorder r = new Wire().startup(StartFrames.irdOrd(2, 4), StartFrames.irdOrd(4, 8)).end();
        assertThat(r.ids()).containsExactly("mpa.enhanced.ird-ord");
        assertThat(r.violations.get(0).message()).contains("responder ORD 8 exceeds initiator IRD 2");
    }

    @Test
    void allOnesIrdMustBeAnsweredWithAllOnesOrd() {
        Recorder r = new Wire().startup(StartFrames.irdOrd(0x3FFF, 4), StartFrames.irdOrd(4, 2)).end();
        assertThat(r.ids()).containsExactly("mpa.enhanced.ird-ord");
        assertThat(r.violations.get(0).message()).contains("0x3FFF");
    }

    @Test
    void rtrFlagsWithoutPeerToPeerAreAnError() {
        Enhanced bad = new Enhanced(1, 1, false, true, false, false);
        Recorder r = new Wire().startup(bad, StartFrames.irdOrd(1, 1)).end();
        assertThat(r.ids()).containsExactly("mpa.enhanced.rtr-flags");
    }

    @Test
    void peerToPeerReplyMustMatchTheRequestAndNameAnRtr() {
        Recorder mismatch = new Wire().startup(p2p(true, true, false), StartFrames.irdOrd(4, 4)).end();
        assertThat(mismatch.ids()).containsExactly("mpa.enhanced.rtr-flags");
        Recorder none = new Wire().startup(p2p(true, true, false), p2p(false, false, false)).end();
        assertThat(none.ids()).containsExactly("mpa.enhanced.rtr-flags");
        assertThat(none.violations.get(0).message()).contains("names no RTR");
    }

    @Test
    void peerToPeerInitiatorMustStartWithANegotiatedRtr() {
        Recorder r = new Wire().startup(p2p(true, true, false), p2p(false, true, false)).hello().end();
        assertThat(r.ids()).containsExactly("mpa.rtr");
        assertThat(r.violations.get(0).message()).contains("C zero-length RDMA Write").contains("Send with 8");
    }

    @Test
    void peerToPeerWithTheNegotiatedZeroLengthWriteIsClean() {
        // as siw's host-to-siw-mpa-rev2-p2p-write capture does: RFC 6581 §9.2
        Recorder r = new Wire().startup(p2p(false, true, false), p2p(false, true, false))
                .send(C2S, RdmapEncoder.write(0, 0, data(0), 1000))
                .send(C2S, RdmapEncoder.send(1, data(8), 1000))
                .send(S2C, RdmapEncoder.send(1, data(8), 1000)).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void zeroLengthReadAsRtrIsAcceptedWhenOffered() {
        Recorder r = new Wire().startup(p2p(false, false, true), p2p(false, false, true))
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 0, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0, 0, data(0), 1000)).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void zeroLengthSendNotOfferedIsNotAnRtr() {
        Recorder r = new Wire().startup(p2p(true, false, true), p2p(false, false, true))
                .send(C2S, RdmapEncoder.send(1, data(0), 1000)).end();
        assertThat(r.ids()).containsExactly("mpa.rtr");
        assertThat(r.violations.get(0).message()).contains("got a zero-length Send");
    }

    @Test
    void catalogueEntriesOfMpaChecksCiteRfc5044Or6581() {
        List<Check> mpa = SinkModel.checks().stream().filter(c -> c.layer() == Layer.MPA).toList();
        assertThat(mpa).isNotEmpty().allMatch(c -> c.rfc().equals("RFC 5044") || c.rfc().equals("RFC 6581"));
    }
}
