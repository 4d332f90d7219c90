package io.rddp.sink;

import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.Terminate;
import org.junit.jupiter.api.Test;

import static io.rddp.sink.Wire.C2S;
import static io.rddp.sink.Wire.S2C;
import static io.rddp.sink.Wire.data;
import static io.rddp.sink.Wire.read;
import static org.assertj.core.api.Assertions.assertThat;

/** RDMAP checks: RFC 5040 §4-§7 and RFC 7306. Data Sink STag 0x10, Data Source STag 0x20 throughout. */
class RdmapChecksTest {

    private static Wire wire() {
        return new Wire(Wire.registered(0x10, 0x20), false).started().hello();
    }

    @Test
    void rdmapVersionTwoIsAnError() {
        Recorder r = wire().send(C2S, RdmapEncoder.send(2, data(4), 1000).rdmaVersion(2))
                .terminate(S2C, Terminate.of(0, 2, 5)).end();
        assertThat(r.ids()).containsExactly("rdmap.version");
        assertThat(r.violations.get(0).errorType().name()).isEqualTo("RDMA Remote Operation Error: Invalid RDMAP"
                + " version");
    }

    @Test
    void versionZeroOnAnRfcConnectionIsAnInvalidVersionThatOwesATerminate() {
        // RFC 5040 §4.1: RV is one; §7.2 item 3 "the RDMA Version MUST be valid": 0/2/5. RV 0 is the RDMAC's RDMAP,
        // which a peer that opened with MPA Rev 1 or 2 does not speak
        Recorder r = wire().send(C2S, RdmapEncoder.send(2, data(4), 1000).rdmaVersion(0))
                .send(S2C, RdmapEncoder.send(1, data(4), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.version", "rdmap.terminate.missing");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.RDMA_INVALID_VERSION);
        assertThat(r.owed).extracting(OwedTerminate::primary).containsExactly(ErrorType.RDMA_INVALID_VERSION);
    }

    @Test
    void versionZeroBetweenRdmacPeersIsOnlyAWarning() {
        // both start frames say MPA Rev 0 (RFC 5044 Appendix C): the RDMA Consortium's protocols, RV 0 included
        MpaStartFrame req = new MpaStartFrame(MpaStartFrame.Kind.REQUEST, true, false, false, false, 0, 0, 0,
                new byte[0], null);
        MpaStartFrame rep = new MpaStartFrame(MpaStartFrame.Kind.REPLY, true, false, false, false, 0, 0, 0,
                new byte[0], null);
        Recorder r = new Wire().start(C2S, req).start(S2C, rep)
                .send(C2S, RdmapEncoder.send(1, data(4), 1000).rdmaVersion(0)).end();
        assertThat(r.ids()).containsExactly("mpa.start.rev", "mpa.start.rev", "rdmap.version");
        assertThat(r.violations).extracting(Violation::severity)
                .containsExactly(Severity.ERROR, Severity.WARNING, Severity.WARNING);
        assertThat(r.owed).isEmpty();
    }

    @Test
    void reservedControlBitsAndANonZeroInvalidateFieldAreErrorsThatOweNoTerminate() {
        // RFC 5040 §4.1: "MUST be set to zero on transmit", not checked on receive
        Recorder r = wire().send(C2S, RdmapEncoder.send(2, data(4), 1000).rdmapReserved(1))
                .send(C2S, RdmapEncoder.send(3, data(4), 1000).invalidateStag(0x99)).end();
        assertThat(r.ids()).containsExactly("rdmap.reserved", "rdmap.reserved");
        assertThat(r.violations).allMatch(v -> v.severity() == Severity.ERROR && v.errorType() == null);
        assertThat(r.violations.get(1).message()).contains("Invalidate STag field 0x99");
        assertThat(r.owed).isEmpty();
    }

    @Test
    void reservedOpcodeIsAnUnexpectedOpcode() {
        Recorder r = wire().send(C2S, RdmapEncoder.send(2, data(4), 1000).opcode(13))
                .terminate(S2C, Terminate.of(0, 2, 6)).end();
        assertThat(r.ids()).containsExactly("rdmap.opcode");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.RDMA_UNEXPECTED_OPCODE);
    }

    @Test
    void sendOnTheTaggedModelIsMisplaced() {
        Recorder r = wire().send(C2S, RdmapEncoder.send(2, data(4), 1000).tagged(true).stag(0x10))
                .terminate(S2C, Terminate.of(0, 2, 6)).end();
        assertThat(r.ids()).containsExactly("rdmap.opcode-placement");
    }

    @Test
    void sendOnTheReadRequestQueueIsMisplaced() {
        Recorder r = wire().send(C2S, RdmapEncoder.send(1, data(4), 1000).qn(1))
                .terminate(S2C, Terminate.of(0, 2, 6)).end();
        assertThat(r.ids()).containsExactly("rdmap.opcode-placement");
        assertThat(r.violations.get(0).message()).contains("belongs on QN 0").contains("sent on QN 1");
    }

    @Test
    void readRequestTooShortForItsHeaderIsAnError() {
        long ulp = (long) RdmapControl.of(Opcode.RDMA_READ_REQUEST).toByte() << 32;
        DdpSegment cut = new DdpSegment(UntaggedHeader.of(true, ulp, 1, 1, 0), data(10));
        Recorder r = wire().seg(C2S, cut).end();
        assertThat(r.ids()).containsExactly("rdmap.header");
        assertThat(r.violations.get(0).message()).contains("28 bytes");
    }

    @Test
    void readRequestCarryingPayloadIsAnError() {
        Recorder r = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)).data(data(4)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.payload-not-allowed");
        assertThat(r.violations.get(0).message()).contains("32 octets");
    }

    @Test
    void immediateDataMustBeExactlyEightOctets() {
        Recorder ok = wire().send(C2S, RdmapEncoder.immediateData(2, 7)).end();
        assertThat(ok.violations).isEmpty();
        Recorder r = wire().send(C2S, RdmapEncoder.immediateData(2, 7).data(data(4))).end();
        assertThat(r.ids()).containsExactly("rdmap.immediate-data.length");
        assertThat(r.violations.get(0).rfc()).isEqualTo("RFC 7306");
        long ulp = (long) RdmapControl.of(Opcode.IMMEDIATE_DATA).toByte() << 32;
        Recorder cut = wire().seg(C2S, new DdpSegment(UntaggedHeader.of(true, ulp, 0, 2, 0), data(5))).end();
        assertThat(cut.ids()).containsExactly("rdmap.header");
        assertThat(cut.violations.get(0).section()).isEqualTo("§6.2");
    }

    @Test
    void completeReadExchangeInOrderIsClean() {
        Recorder r = wire()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 100, 3000, 0x20, 0)))
                .send(C2S, RdmapEncoder.readRequest(2, read(0x10, 5000, 10, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 100, data(3000), 1400))
                .send(S2C, RdmapEncoder.readResponse(0x10, 5000, data(10), 1400)).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void readResponseToAnotherStagIsAnError() {
        Recorder r = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x11, 0, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.read-response.stag");
        assertThat(r.violations.get(0).frames()).containsExactly(4L, 5L);
    }

    @Test
    void readResponseAtAnotherToIsAnError() {
        DdpSegment response = RdmapEncoder.readResponse(0x10, 64, data(8), 1000).segments().get(0);
        Recorder r = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .seg(S2C, response)
                .terminate(C2S, Terminate.of(1, 1, 1, response.length(), response.header(), null)).end();
        // siw answers a wrong TO with DDP Base or bounds violation: the expectation explains the Terminate
        assertThat(r.ids()).containsExactly("rdmap.read-response.to");
    }

    @Test
    void readResponseOfAnotherSizeIsAnError() {
        Recorder shorter = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 100, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(60), 1000)).end();
        assertThat(shorter.ids()).containsExactly("rdmap.read-response.size");
        assertThat(shorter.violations.get(0).message()).contains("is 60 octets, 100 were requested");
        Recorder longer = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 100, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(150), 60)).end();
        assertThat(longer.ids()).containsExactly("rdmap.read-response.size");
        assertThat(longer.violations.get(0).message()).contains("carries more than the 100 octets");
    }

    @Test
    void zeroLengthReadIsAnsweredByAZeroLengthResponse() {
        Recorder ok = wire().send(C2S, RdmapEncoder.readRequest(1, read(0, 0, 0, 0xBAD, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x77, 99, data(0), 1000)).end();
        assertThat(ok.violations).isEmpty();
        Recorder r = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 0, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(4), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.read-response.size");
    }

    @Test
    void readResponsesOutOfRequestOrderAreAnError() {
        Recorder r = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .send(C2S, RdmapEncoder.readRequest(2, read(0x10, 64, 8, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 64, data(8), 1000))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.read-response.order");
        assertThat(r.violations.get(0).frames()).containsExactly(4L, 5L, 6L);
    }

    @Test
    void moreOutstandingReadsThanTheNegotiatedIrdIsAnError() {
        Recorder r = new Wire(Wire.registered(0x10, 0x20), false)
                .startup(StartFrames.irdOrd(1, 1), StartFrames.irdOrd(1, 1)).hello()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .send(C2S, RdmapEncoder.readRequest(2, read(0x10, 8, 8, 0x20, 8)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000))
                .send(S2C, RdmapEncoder.readResponse(0x10, 8, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.read.outstanding");
        Violation v = r.violations.get(0);
        assertThat(v.frame()).isEqualTo(5);
        assertThat(v.message()).contains("2 Read/Atomic Requests outstanding").contains("allows 1");
        assertThat(v.frames()).containsExactly(2L, 5L);
    }

    @Test
    void withoutNegotiatedIrdAnEndpointsOwnIrdIsTheLimitAndExceedingItOwesTheTerminate() {
        // MPA Rev 1 carries no IRD/ORD (RFC 5044): a live endpoint gives its own IRD (RFC 5040 §6.1)
        Wire w = new Wire(Wire.registered(0x10, 0x20), false).startup(null, null);
        w.model.knownInboundLimit(0, C2S, 1);
        Recorder r = w.hello()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .send(C2S, RdmapEncoder.readRequest(2, read(0x10, 8, 8, 0x20, 8)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000))
                .send(S2C, RdmapEncoder.readResponse(0x10, 8, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.read.outstanding");
        Violation v = r.violations.get(0);
        assertThat(v.severity()).isEqualTo(Severity.ERROR);
        assertThat(v.message()).contains("2 Read/Atomic Requests outstanding").contains("own IRD allows 1");
        assertThat(r.owed).hasSize(1);
        assertThat(r.owed.get(0).primary()).isEqualTo(ErrorType.DDP_U_MSN_RANGE);
    }

    @Test
    void aNegotiatedIrdStaysWhenAnEndpointGivesItsOwn() {
        Wire w = new Wire(Wire.registered(0x10, 0x20), false)
                .startup(StartFrames.irdOrd(1, 1), StartFrames.irdOrd(1, 1));
        w.model.knownInboundLimit(0, C2S, 8);
        Recorder r = w.hello()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .send(C2S, RdmapEncoder.readRequest(2, read(0x10, 8, 8, 0x20, 8)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000))
                .send(S2C, RdmapEncoder.readResponse(0x10, 8, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.read.outstanding");
        assertThat(r.violations.get(0).message()).contains("allows 1").contains("RFC 6581 §9.1");
    }

    @Test
    void readsWithinTheIrdWhenEachIsAnsweredBeforeTheNextAreClean() {
        Wire w = new Wire(Wire.registered(0x10, 0x20), false)
                .startup(StartFrames.irdOrd(1, 1), StartFrames.irdOrd(1, 1)).hello();
        for (int i = 1; i <= 5; i++) {
            w.send(C2S, RdmapEncoder.readRequest(i, read(0x10, 0, 64, 0x20, 0)))
                    .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(64), 40));
        }
        assertThat(w.end().violations).isEmpty();
    }

    @Test
    void withoutNegotiatedIrdTheOutstandingCountIsUnverifiable() {
        Recorder r = new Wire(Wire.registered(0x10, 0x20), false).startup(null, null).hello()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.read.outstanding");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void readNeverAnsweredWhileTheResponderKeepsSendingIsAWarning() {
        Recorder r = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .send(S2C, RdmapEncoder.send(1, data(4), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.read.unanswered");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void sourceTaggedOffsetPlusSizeWrappingIsAnError() {
        Recorder r = new Wire().started().hello()
                .send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 16, 0x20, -8)))
                .terminate(S2C, Terminate.of(0, 1, 4)).end();
        assertThat(r.ids()).containsExactly("rdmap.read-request.to-wrap", "rdmap.remote-access.stag");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.RDMA_TO_WRAP);
        assertThat(r.violations.get(1).severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void fetchAddAndItsResponseAreClean() {
        Recorder r = wire()
                .send(C2S, RdmapEncoder.atomicRequest(1, AtomicRequest.fetchAdd(77, 0x20, 64, 1, 0)))
                .send(S2C, RdmapEncoder.atomicResponse(1, new AtomicResponse(77, 5))).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void reservedAtomicOpcodeIsAnError() {
        Recorder r = wire().send(C2S, RdmapEncoder.atomicRequest(1, new AtomicRequest(0, 1, 77, 0x20, 64, 1, 0, 0, -1)))
                .send(S2C, RdmapEncoder.atomicResponse(1, new AtomicResponse(77, 5))).end();
        assertThat(r.ids()).containsExactly("rdmap.atomic.opcode");
        assertThat(r.violations.get(0).message()).contains("AOpCode 1 (Reserved)");
    }

    @Test
    void misalignedAtomicTargetIsAWarning() {
        Recorder r = wire().send(C2S, RdmapEncoder.atomicRequest(1, AtomicRequest.fetchAdd(77, 0x20, 68, 1, 0)))
                .send(S2C, RdmapEncoder.atomicResponse(1, new AtomicResponse(77, 5))).end();
        assertThat(r.ids()).containsExactly("rdmap.atomic.alignment");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void atomicResponseMustCarryTheRequestIdentifier() {
        Recorder r = wire().send(C2S, RdmapEncoder.atomicRequest(1, AtomicRequest.fetchAdd(77, 0x20, 64, 1, 0)))
                .send(S2C, RdmapEncoder.atomicResponse(1, new AtomicResponse(78, 5))).end();
        assertThat(r.ids()).containsExactly("rdmap.atomic-response.match");
        assertThat(r.violations.get(0).message()).contains("Original Request Identifier 78");
    }

    @Test
    void atomicResponseWithoutRequestIsAnError() {
        Recorder r = wire().send(S2C, RdmapEncoder.atomicResponse(1, new AtomicResponse(1, 5))).end();
        assertThat(r.ids()).containsExactly("rdmap.atomic-response.match");
    }

    @Test
    void atomicResponseBeforeTheOlderReadResponseIsOutOfOrder() {
        Recorder r = wire().send(C2S, RdmapEncoder.readRequest(1, read(0x10, 0, 8, 0x20, 0)))
                .send(C2S, RdmapEncoder.atomicRequest(2, AtomicRequest.fetchAdd(77, 0x20, 64, 1, 0)))
                .send(S2C, RdmapEncoder.atomicResponse(1, new AtomicResponse(77, 5)))
                .send(S2C, RdmapEncoder.readResponse(0x10, 0, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("rdmap.atomic-response.match");
        assertThat(r.violations.get(0).message()).contains("while the older Read Request of frame 4");
    }

    @Test
    void invalidatingAnStagTwiceIsAnError() {
        Recorder r = wire().send(C2S, RdmapEncoder.sendWithInvalidate(2, data(4), 1000, 0x20))
                .send(C2S, RdmapEncoder.sendWithInvalidate(3, data(4), 1000, 0x20))
                .terminate(S2C, Terminate.of(0, 1, 9)).end();
        assertThat(r.ids()).containsExactly("rdmap.send-invalidate");
        assertThat(r.violations.get(0).message()).contains("already invalidated in frame 4");
    }

    @Test
    void deliveriesFollowCompletionOrderWithSequenceNumbers() {
        Recorder r = wire().send(C2S, RdmapEncoder.write(0x20, 0, data(3000), 1000))
                .send(C2S, RdmapEncoder.send(2, data(10), 1000)).end();
        assertThat(r.deliveries).extracting(Delivery::sequence).containsExactly(0L, 1L, 2L);
        assertThat(r.deliveries).extracting(d -> d.kind()).containsExactly(Opcode.SEND, Opcode.RDMA_WRITE,
                Opcode.SEND);
        Delivery write = r.deliveries.get(1);
        assertThat(write.segments()).isEqualTo(4);
        assertThat(write.firstFrame()).isEqualTo(4);
        assertThat(write.lastFrame()).isEqualTo(7);
    }
}
