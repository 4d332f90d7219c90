package io.rddp.sink;

import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.Terminate;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import static io.rddp.sink.Wire.C2S;
import static io.rddp.sink.Wire.S2C;
import static io.rddp.sink.Wire.data;
import static org.assertj.core.api.Assertions.assertThat;

/** DDP checks: RFC 5041 §4, §5, §7. */
class DdpChecksTest {

    private static final long SEND_ULP = (long) RdmapControl.of(Opcode.SEND).toByte() << 32;
    private static final int WRITE_ULP = RdmapControl.of(Opcode.RDMA_WRITE).toByte();

    /** A Send segment by hand: QN 0, any MSN, MO and L. */
    private static DdpSegment send(long msn, long mo, int len, boolean last) {
        return new DdpSegment(UntaggedHeader.of(last, SEND_ULP, 0, msn, mo), data(len));
    }

    private static DdpSegment write(long stag, long to, int len, boolean last) {
        return new DdpSegment(TaggedHeader.of(last, WRITE_ULP, stag, to), data(len));
    }

    @Test
    void ulpduWithoutRoomForTheDdpHeaderIsAnError() {
        Wire w = new Wire().started();
        w.model.onMalformed(0, C2S, ++w.frame, null, 10, "untagged DDP header needs 18 bytes, 10 remain");
        Recorder r = w.end();
        assertThat(r.ids()).containsExactly("ddp.header");
        assertThat(r.violations.get(0).section()).isEqualTo("§4.4");
    }

    @Test
    void versionOtherThanOneIsAnErrorWithTheUntaggedVersionCode() {
        DdpSegment dv2 = RdmapEncoder.send(1, data(8), 1000).ddpVersion(2).segments().get(0);
        Recorder r = new Wire().started().seg(C2S, dv2)
                .terminate(S2C, Terminate.of(1, 2, 6, dv2.length(), dv2.header(), null)).end();
        assertThat(r.ids()).containsExactly("ddp.version");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.DDP_U_INVALID_VERSION);
        assertThat(r.violations.get(0).message()).contains("DV 2");
    }

    @Test
    void terminateNamingAnotherHeaderThanTheOffendingOneIsFlagged() {
        DdpSegment dv2 = RdmapEncoder.send(1, data(8), 1000).ddpVersion(2).segments().get(0);
        Recorder r = new Wire().started().seg(C2S, dv2)
                .terminate(S2C, Terminate.of(1, 2, 6, dv2.length(), UntaggedHeader.of(true, SEND_ULP, 0, 1, 0),
                        null)).end();
        assertThat(r.ids()).containsExactly("ddp.version", "rdmap.terminate.terminated-header");
    }

    @Test
    void versionErrorOnATaggedSegmentNamesTheTaggedCode() {
        Recorder r = new Wire(Wire.registered(0x42), false).started().hello()
                .send(C2S, RdmapEncoder.write(0x42, 0, data(8), 1000).ddpVersion(0)).end();
        assertThat(r.ids()).containsExactly("ddp.version", "rdmap.terminate.missing");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.DDP_T_INVALID_VERSION);
        assertThat(r.violations.get(1).errorType()).isEqualTo(ErrorType.DDP_T_INVALID_VERSION);
    }

    @Test
    void reservedBitsAreAnErrorOfTheSenderThatOwesNoTerminate() {
        // RFC 5041 §4.1: Rsvd "MUST be set to zero on transmit, and not checked on receive"
        Recorder r = new Wire().started().send(C2S, RdmapEncoder.send(1, data(8), 1000).ddpReserved(5)).end();
        assertThat(r.ids()).containsExactly("ddp.reserved");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(r.violations.get(0).errorType()).isNull();
        assertThat(r.owed).isEmpty();
    }

    @Test
    void queueNumberOutsideRdmapsQueuesIsInvalid() {
        Recorder r = new Wire().started().send(C2S, RdmapEncoder.send(1, data(8), 1000).qn(7))
                .terminate(S2C, Terminate.of(1, 2, 1)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.qn", "rdmap.terminate.header-control");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.DDP_U_INVALID_QN);
    }

    @Test
    void msnMustStartAtOne() {
        Wire w = new Wire().started().send(C2S, RdmapEncoder.send(2, data(8), 1000));
        DdpSegment offending = RdmapEncoder.send(2, data(8), 1000).segments().get(0);
        Recorder r = w.terminate(S2C, Terminate.of(1, 2, 3, offending.length(), offending.header(), null)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn");
        Violation v = r.violations.get(0);
        assertThat(v.errorType()).isEqualTo(ErrorType.DDP_U_MSN_RANGE);
        assertThat(v.errorType().name()).isEqualTo("DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid");
        assertThat(v.errorType().triple()).isEqualTo("1/2/3");
        assertThat(v.message()).contains("MSN 2 on QN 0 (Send), expected 1");
    }

    @Test
    void msnMustIncreaseByOnePerMessageOnEachQueue() {
        Recorder r = new Wire().started().hello()
                .send(C2S, RdmapEncoder.send(2, data(8), 1000))
                .send(C2S, RdmapEncoder.send(4, data(8), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.missing");
        assertThat(r.violations.get(0).frame()).isEqualTo(5);
        assertThat(r.violations.get(0).message()).contains("expected 3").contains("messages are missing");
    }

    @Property
    void msnWrapsFromTwoToThe32MinusOneToZeroWithoutViolation(
            @ForAll @LongRange(min = 0xFFFF_FFF0L, max = 0xFFFF_FFFFL) long first,
            @ForAll @IntRange(min = 1, max = 40) int messages) {
        // joined mid-stream (no start frames): the first MSN seen sets the sequence
        Wire w = new Wire();
        for (int i = 0; i < messages; i++) w.send(C2S, RdmapEncoder.send((first + i) & 0xFFFF_FFFFL, data(4), 1000));
        assertThat(w.end().violations).isEmpty();
    }

    @Property
    void oneSkippedMsnAnywhereGivesExactlyOneViolation(@ForAll @IntRange(min = 1, max = 30) int messages,
                                                        @ForAll @IntRange(min = 0, max = 29) int skipAt) {
        int at = skipAt % messages;
        Wire w = new Wire().started();
        long msn = 1;
        for (int i = 0; i < messages; i++) {
            if (i == at && i > 0) msn++;
            w.send(C2S, RdmapEncoder.send(msn++, data(4), 1000));
        }
        Recorder r = w.end();
        if (at == 0) {
            assertThat(r.violations).isEmpty();
        } else {
            assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.missing");
        }
    }

    @Test
    void terminateMsnOtherThanOneIsAnErrorEvenInACaptureJoinedMidStream() {
        Recorder r = new Wire().send(Wire.S2C, RdmapEncoder.terminate(2, Terminate.of(0, 0, 0))).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.msn", "rdmap.terminate.unexplained");
        assertThat(r.violations.get(0).message()).contains("a Terminate carries MSN 1");
    }

    @Test
    void msnChangingInsideAMessageIsAnError() {
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, send(2, 10, 10, true)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.qn-msn-changed");
        assertThat(r.deliveries).singleElement().satisfies(d -> {
            assertThat(d.msn()).isEqualTo(1);
            assertThat(d.length()).isEqualTo(20);
        });
    }

    @Test
    void anInvalidQnInsideAMessageOwesInvalidQnFirst() {
        DdpSegment second = new DdpSegment(UntaggedHeader.of(false, SEND_ULP, 5, 1, 10), data(10));
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, second).end();
        assertThat(r.ids()).startsWith("ddp.untagged.qn", "ddp.untagged.qn-msn-changed");
        assertThat(r.owed.get(0).primary()).isEqualTo(ErrorType.DDP_U_INVALID_QN);
        assertThat(r.owed.get(0).level()).isEqualTo(OwedTerminate.Level.MUST);
    }

    @Test
    void qnChangingInsideAMessageIsAnError() {
        DdpSegment second = new DdpSegment(UntaggedHeader.of(true, SEND_ULP, 1, 1, 10), data(10));
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, second).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.qn-msn-changed");
        assertThat(r.violations.get(0).message()).contains("carries QN 1 MSN 1");
    }

    @Test
    void segmentsOutOfMoOrderButCompleteAreOnlyAWarning() {
        Recorder r = new Wire().started()
                .seg(C2S, send(1, 10, 10, false)).seg(C2S, send(1, 0, 10, false)).seg(C2S, send(1, 20, 10, true))
                .end();
        assertThat(r.ids()).containsExactly("ddp.untagged.mo-order");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void holeInAnUntaggedMessageIsAnError() {
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, send(1, 20, 10, true)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.mo-order", "ddp.untagged.mo-coverage");
        assertThat(r.violations.get(1).message()).contains("[0, 10), [20, 30)").contains("30 octets");
    }

    @Test
    void aHoleMayBeAnsweredWithInvalidMoButOwesNoTerminate() {
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, send(1, 20, 10, true)).end();
        assertThat(r.owed).hasSize(1);
        assertThat(r.owed.get(0).level()).isEqualTo(OwedTerminate.Level.MAY);
        assertThat(r.owed.get(0).primary()).isEqualTo(ErrorType.DDP_U_INVALID_MO);
        io.rddp.ddp.DdpSegment last = send(1, 8, 8, true);
        Recorder answered = new Wire().started().seg(C2S, last).terminate(S2C,
                io.rddp.rdmap.Terminate.of(1, 2, 4, last.length(), last.header(), null)).end();
        assertThat(answered.ids()).containsExactly("ddp.untagged.mo-order", "ddp.untagged.mo-coverage");
        Recorder silent = new Wire().started().seg(C2S, last).close(S2C).end();
        assertThat(silent.ids()).doesNotContain("rdmap.terminate.missing");
    }

    @Test
    void overlappingSegmentsOfOneMessageAreAnError() {
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, send(1, 5, 10, true)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.mo-order", "ddp.untagged.mo-coverage");
        assertThat(r.violations.get(1).message()).contains("overlaps 5 octets");
        assertThat(r.violations.get(1).errorType()).isEqualTo(ErrorType.DDP_U_INVALID_MO);
    }

    @Test
    void anOverlapFeedsTheTerminateCrossCheckAsAMayInvalidMo() {
        // RFC 5041 §5.2: every octet once; §7.1 names no check for it, a receiver that tracks what it placed reports
        // Invalid MO (§7.2): the Terminate is MAY, so another type is only a warning and none is owed
        io.rddp.ddp.DdpSegment again = send(1, 5, 10, true);
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, again).end();
        assertThat(r.owed).extracting(OwedTerminate::level, OwedTerminate::primary)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(OwedTerminate.Level.MAY,
                        ErrorType.DDP_U_INVALID_MO));
        Recorder wrong = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, again)
                .terminate(S2C, Terminate.of(1, 2, 3, again.length(), again.header(), null)).end();
        Violation mismatch = wrong.violations.stream().filter(v -> v.id().equals("rdmap.terminate.mismatch"))
                .findFirst().orElseThrow();
        assertThat(mismatch.severity()).isEqualTo(Severity.WARNING);
        assertThat(mismatch.errorType()).isEqualTo(ErrorType.DDP_U_INVALID_MO);
        Recorder right = new Wire().started().seg(C2S, send(1, 0, 10, false)).seg(C2S, again)
                .terminate(S2C, Terminate.of(1, 2, 4, again.length(), again.header(), null)).end();
        assertThat(right.ids()).doesNotContain("rdmap.terminate.mismatch", "rdmap.terminate.unexplained");
    }

    @Test
    void untaggedMessageReachingTwoToThe32IsAnError() {
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 16, false))
                .seg(C2S, send(1, 0xFFFF_FFF8L, 16, true))
                .terminate(S2C, Terminate.of(1, 2, 4)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.mo-order", "ddp.untagged.message-length",
                "ddp.untagged.mo-coverage", "rdmap.terminate.header-control");
        assertThat(r.violations.get(1).errorType()).isEqualTo(ErrorType.DDP_U_INVALID_MO);
    }

    @Test
    void lastFlagMustBeOnTheSegmentWithTheHighestMo() {
        Recorder r = new Wire().started().seg(C2S, send(1, 16, 16, false)).seg(C2S, send(1, 0, 16, true)).end();
        assertThat(r.ids()).containsExactly("ddp.untagged.mo-order", "ddp.last-flag");
        assertThat(r.violations.get(1).frame()).isEqualTo(4);
    }

    @Test
    void rsvdUlpChangingWithinAnUntaggedMessageIsAnError() {
        DdpSegment a = new DdpSegment(UntaggedHeader.of(false, SEND_ULP, 0, 1, 0), data(10));
        DdpSegment b = new DdpSegment(UntaggedHeader.of(true, SEND_ULP | 0x55, 0, 1, 10), data(10));
        Recorder r = new Wire().started().seg(C2S, a).seg(C2S, b).end();
        assertThat(r.ids()).containsExactly("ddp.rsvdulp-changed");
        assertThat(r.violations.get(0).errorType()).isNull();
    }

    @Test
    void rsvdUlpChangingWithinATaggedMessageIsAnError() {
        Recorder r = new Wire(Wire.registered(0x42), false).started().hello()
                .seg(C2S, write(0x42, 0, 10, false))
                .seg(C2S, new DdpSegment(TaggedHeader.of(true, WRITE_ULP | 0x10, 0x42, 10), data(10))).end();
        assertThat(r.ids()).containsExactly("ddp.rsvdulp-changed");
        assertThat(r.violations.get(0).section()).isEqualTo("§4.2");
    }

    @Test
    void secondUntaggedMessageStartingBeforeTheFirstEndsIsInterleaved() {
        Recorder r = new Wire().started()
                .seg(C2S, send(1, 0, 10, false)).seg(C2S, send(2, 0, 10, true)).seg(C2S, send(1, 10, 10, true))
                .end();
        assertThat(r.ids()).containsExactly("ddp.message-interleaved");
        assertThat(r.deliveries).extracting(Delivery::msn).containsExactly(2L, 1L);
    }

    @Test
    void sendBetweenTheSegmentsOfAWriteIsNotReported() {
        Recorder r = new Wire(Wire.registered(0x42), false).started().hello()
                .seg(C2S, write(0x42, 0, 10, false)).seg(C2S, send(2, 0, 10, true))
                .seg(C2S, write(0x42, 10, 10, true)).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void taggedSegmentsOutOfToOrderAreAWarning() {
        Recorder r = new Wire(Wire.registered(0x42), false).started().hello()
                .seg(C2S, write(0x42, 100, 10, false)).seg(C2S, write(0x42, 90, 10, true)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.to-order");
    }

    @Test
    void stagChangingWithinATaggedMessageIsAnError() {
        Recorder r = new Wire(Wire.registered(0x42, 0x43), false).started().hello()
                .seg(C2S, write(0x42, 0, 10, false)).seg(C2S, write(0x43, 10, 10, true)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.stag-changed");
        assertThat(r.deliveries).filteredOn(Delivery::tagged).singleElement()
                .satisfies(d -> assertThat(d.length()).isEqualTo(20));
    }

    @Test
    void toPlusLengthWrappingIsAnError() {
        Recorder r = new Wire().started().hello()
                .send(C2S, RdmapEncoder.write(0x42, -8, data(16), 1000))
                .terminate(S2C, Terminate.of(1, 1, 3, 14 + 16, TaggedHeader.of(true, WRITE_ULP, 0x42, -8), null))
                .end();
        assertThat(r.ids()).containsExactly("ddp.tagged.to-wrap", "ddp.tagged.stag");
        assertThat(r.violations.get(0).errorType()).isEqualTo(ErrorType.DDP_T_TO_WRAP);
        assertThat(r.violations.get(1).severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void zeroLengthTaggedMessageIsNotCheckedForStagOrTo() {
        // RFC 5041 §5.2: "The STag and TO fields MUST NOT be checked for a zero-length Tagged DDP Message"
        Recorder r = new Wire(StagRegistry.empty(), true).started().hello()
                .send(C2S, RdmapEncoder.write(0xDEAD, -1, data(0), 1000)).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void writesPlacedTwiceBeforeASendAreReportedOnce() {
        Recorder r = new Wire(Wire.registered(0x42), false).started().hello()
                .send(C2S, RdmapEncoder.write(0x42, 0, data(100), 1000))
                .send(C2S, RdmapEncoder.write(0x42, 50, data(100), 1000))
                .send(C2S, RdmapEncoder.write(0x42, 0, data(100), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.overlap");
        assertThat(r.violations.get(0).message()).startsWith("50 octets of STag 0x42");
        assertThat(r.violations.get(0).severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void oneOctetPlacedAgainIsCountedInTheSingular() {
        Recorder r = new Wire(Wire.registered(0x42), false).started().hello()
                .send(C2S, RdmapEncoder.write(0x42, 0, data(100), 1000))
                .send(C2S, RdmapEncoder.write(0x42, 99, data(10), 1000)).end();
        assertThat(r.ids()).containsExactly("ddp.tagged.overlap");
        assertThat(r.violations.get(0).message()).startsWith("1 octet of STag 0x42 at [99, +10)");
    }

    @Test
    void byteMapShowsWhatWasPlacedSinceTheLastSend() {
        Wire w = new Wire(Wire.registered(0x42, 0x43), false).started().hello()
                .send(C2S, RdmapEncoder.write(0x42, 0, data(100), 40))
                .send(C2S, RdmapEncoder.write(0x42, 200, data(50), 40))
                .send(C2S, RdmapEncoder.write(0x42, 100, data(100), 40))
                .send(C2S, RdmapEncoder.write(0x43, 1000, data(8), 40));
        assertThat(w.model.placements(0, C2S)).containsExactlyInAnyOrder(new Placement(0x42, 0, 250),
                new Placement(0x43, 1000, 8));
        w.send(C2S, RdmapEncoder.send(2, data(4), 1000));
        assertThat(w.model.placements(0, C2S)).isEmpty();
        assertThat(w.end().violations).isEmpty();
    }

    @Test
    void aSendBetweenWritesEndsTheEpochSoRewritingIsNormalBufferReuse() {
        Recorder r = new Wire(Wire.registered(0x42), false).started().hello()
                .send(C2S, RdmapEncoder.write(0x42, 0, data(100), 1000))
                .send(C2S, RdmapEncoder.send(2, data(4), 1000))
                .send(C2S, RdmapEncoder.write(0x42, 0, data(100), 1000)).end();
        assertThat(r.violations).isEmpty();
    }

    @Test
    void messageWithoutItsLastSegmentAtTheEndIsReportedIncomplete() {
        Recorder r = new Wire().started().seg(C2S, send(1, 0, 10, false)).end();
        assertThat(r.ids()).containsExactly("ddp.message-incomplete");
        assertThat(r.violations.get(0).message()).contains("the capture ended");
    }

    @Test
    void segmentationAtAnyMulpduIsClean() {
        for (int mulpdu = 19; mulpdu < 200; mulpdu += 7) {
            Recorder r = new Wire(Wire.registered(0x42), false).started()
                    .send(C2S, RdmapEncoder.send(1, data(1000), mulpdu))
                    .send(C2S, RdmapEncoder.write(0x42, 4096, data(1000), mulpdu))
                    .send(C2S, RdmapEncoder.send(2, data(0), mulpdu)).end();
            assertThat(r.violations).as("MULPDU %d", mulpdu).isEmpty();
            assertThat(r.deliveries).extracting(Delivery::length).containsExactly(1000L, 1000L, 0L);
        }
    }
}
