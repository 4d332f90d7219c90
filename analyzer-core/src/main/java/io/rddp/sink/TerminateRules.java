package io.rddp.sink;

import io.rddp.Plural;
import io.rddp.ddp.DdpSegment;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.tcp.Direction;

import java.util.ArrayList;
import java.util.List;

/**
 * The Terminate (RFC 5040 §4.8, §5.4, §7.1), for {@link RdmapRules}: its own form, which headers it carries, whether
 * it reports the error the peer's PDUs showed (the {@link Expectation}s booked in {@link DirectionState#owed}), and
 * whether a side that owed one never sent it.
 */
final class TerminateRules {

    private final Reporter reporter;

    TerminateRules(Reporter reporter) {
        this.reporter = reporter;
    }

    void onTerminate(StreamState s, DirectionState d, long frame, Terminate t, DdpSegment seg) {
        Direction dir = d.direction;
        if (d.terminateFrame >= 0) {
            reporter.report(s, dir, Check.RDMAP_TERMINATE_REPEATED, frame, "second Terminate (the first was frame "
                    + d.terminateFrame + "); one Terminate per stream, and nothing after it", d.terminateFrame);
            return;
        }
        d.terminateFrame = frame;
        // RFC 5040 §5.4: "After receiving a Terminate Message ... the Remote Peer MAY stop sending": whatever the
        // peer owed this side is void now
        s.dir(dir.reverse()).owed.clear();
        if (!seg.header().last()) {
            reporter.report(s, dir, Check.RDMAP_TERMINATE_SEGMENTS, frame, "Terminate header is not in a single"
                    + " segment with L set (Appendix A.6)");
        }
        ErrorType et = ErrorType.of(t);
        if (!et.isDefined()) {
            reporter.report(s, dir, Check.RDMAP_TERMINATE_CODE, frame, "Terminate " + et.triple()
                    + " is not in RFC 5040 Figure 9, RFC 5041 §7.2, RFC 5044 §8 or RFC 6581 §8 (" + et.name() + ")");
        }
        if (t.reserved() != 0) {
            reporter.emit(s, dir, Check.RDMAP_RESERVED, Severity.ERROR, null, "RFC 5040", "§4.8", frame,
                    new long[0], "Terminate Reserved bits 0x" + Integer.toHexString(t.reserved()) + " not zero");
        }
        headerControl(s, dir, frame, t, et);
        judge(s, d, frame, t, et);
    }

    // RFC 5040 §4.8 Figure 10: which headers a Terminate of each error type "SHOULD" include
    private void headerControl(StreamState s, Direction dir, long frame, Terminate t, ErrorType et) {
        List<String> problems = new ArrayList<>();
        boolean d = t.ddpHeaderIncluded(), r = t.rdmaHeaderIncluded();
        if (t.segmentLengthValid() && !d) problems.add("M set without D, so no DDP Segment Length follows");
        if (et.layer() == Terminate.LAYER_LLP && (d || r)) problems.add("an LLP error includes no DDP or RDMA header");
        if (et.isCatastrophic() && (d || r)) problems.add("a Local Catastrophic Error includes no headers");
        if (et.layer() == Terminate.LAYER_DDP && !et.isCatastrophic() && !d) {
            problems.add("a DDP error includes the DDP header and segment length");
        }
        if (r && (!d || RdmapControl.of(t.terminatedDdpHeader()).kind() != Opcode.RDMA_READ_REQUEST)) {
            problems.add("the RDMA header is only sent back for an RDMA Read Request (D set, opcode 1)");
        }
        if (!problems.isEmpty()) {
            reporter.report(s, dir, Check.RDMAP_TERMINATE_HEADER_CONTROL, frame, "Terminate " + et.triple()
                    + " with M=" + bit(t.segmentLengthValid()) + " D=" + bit(d) + " R=" + bit(r) + ": "
                    + String.join("; ", problems));
        }
    }

    private static int bit(boolean b) {
        return b ? 1 : 0;
    }

    /** Holds the Terminate against what the peer actually sent (RFC 5040 §4.8, §7.1). */
    private void judge(StreamState s, DirectionState d, long frame, Terminate t, ErrorType et) {
        Direction dir = d.direction;
        DirectionState peer = s.dir(dir.reverse());
        List<Expectation> owed = d.owed;
        if (owed.isEmpty()) {
            explainless(s, d, peer, frame, t, et);
            return;
        }
        Expectation first = owed.get(0);
        Expectation match = null;
        for (Expectation e : owed) {
            if (e.accepts(et)) {
                match = e;
                break;
            }
        }
        if (match == null) {
            Expectation firstOwed = null;
            for (Expectation e : owed) {
                if (e.level() != Expectation.Level.MAY) {
                    firstOwed = e;
                    break;
                }
            }
            Expectation shown = firstOwed != null ? firstOwed : first;
            Severity sev = firstOwed != null && firstOwed.level() == Expectation.Level.MUST ? Severity.ERROR
                    : Severity.WARNING;
            reporter.emit(s, dir, Check.RDMAP_TERMINATE_MISMATCH, sev, shown.primary(),
                    Check.RDMAP_TERMINATE_MISMATCH.rfc(), Check.RDMAP_TERMINATE_MISMATCH.section(), frame,
                    new long[]{shown.frame()}, "expected Terminate " + shown.acceptedText() + " for the "
                            + shown.cause().title().toLowerCase() + " in frame " + shown.frame() + ", got "
                            + et);
        } else {
            if (match != first && first.level() == Expectation.Level.MUST && first.frame() < match.frame()) {
                // RFC 5040 §7.1 rule 4: "the first RDMA Message ... that experienced an error MUST be captured"
                reporter.report(s, dir, Check.RDMAP_TERMINATE_MISMATCH, Severity.WARNING, frame, "Terminate " + et
                        + " reports the error of frame " + match.frame() + ", but frame " + first.frame()
                        + " erred first (" + first.cause().title().toLowerCase() + ", expected "
                        + first.acceptedText() + ")", first.frame(), match.frame());
            }
            compareHeaders(s, dir, frame, t, match);
        }
        owed.clear();
    }

    private void compareHeaders(StreamState s, Direction dir, long frame, Terminate t, Expectation e) {
        List<String> problems = new ArrayList<>();
        if (t.ddpHeaderIncluded() && e.header() != null && !t.terminatedDdpHeader().equals(e.header())) {
            problems.add("terminated DDP header [" + t.terminatedDdpHeader() + "] is not the header of frame "
                    + e.frame() + " [" + e.header() + "]");
        }
        if (t.ddpHeaderIncluded() && t.segmentLengthValid() && e.segmentLength() >= 0 && e.header() != null) {
            int seg = e.segmentLength(), payload = seg - e.header().headerLength();
            if (t.ddpSegmentLength() != seg && t.ddpSegmentLength() != payload) {
                problems.add("DDP Segment Length " + t.ddpSegmentLength() + ", the segment of frame " + e.frame()
                        + " was " + Plural.of(seg, "octet") + " (" + payload + " of payload)");
            }
        }
        if (t.rdmaHeaderIncluded() && e.readRequest() != null && !sameRead(t.terminatedRdmaHeader(),
                e.readRequest())) {
            problems.add("terminated RDMA header [" + t.terminatedRdmaHeader() + "] is not the Read Request of frame "
                    + e.frame() + " [" + e.readRequest() + "] nor an update of it (§4.8)");
        }
        if (!problems.isEmpty()) {
            reporter.report(s, dir, Check.RDMAP_TERMINATE_TERMINATED_HEADER, frame, String.join("; ", problems),
                    e.frame());
        }
    }

    // RFC 5040 §4.8: after partial progress the header is updated: TOs advanced and size reduced by the same amount
    private static boolean sameRead(ReadRequest got, ReadRequest sent) {
        if (got.equals(sent)) return true;
        long done = got.sinkTo() - sent.sinkTo();
        return got.sinkStag() == sent.sinkStag() && got.sourceStag() == sent.sourceStag()
                && got.sourceTo() - sent.sourceTo() == done && sent.size() - got.size() == done
                && Long.compareUnsigned(done, sent.size()) <= 0;
    }

    private void explainless(StreamState s, DirectionState d, DirectionState peer, long frame, Terminate t,
                             ErrorType et) {
        Direction dir = d.direction;
        boolean local = et.isCatastrophic() || et.layer() == Terminate.LAYER_LLP
                || et.equals(ErrorType.RDMA_CATASTROPHIC_STREAM) || et.layer() == Terminate.LAYER_RDMA
                && et.etype() == 2 && et.code() == 0x08;
        if (t.ddpHeaderIncluded() && !local) {
            long blamed = peer.findRecent(t.terminatedDdpHeader());
            if (blamed > 0) {
                // the model found nothing wrong with that PDU: either the peer knows more (STag registrations,
                // receive buffers) or the Terminate is wrong
                reporter.report(s, dir, Check.RDMAP_TERMINATE_UNEXPLAINED, Severity.WARNING, frame, "Terminate " + et
                        + " blames the PDU of frame " + blamed + ", which the model found conforming (it may depend on"
                        + " state the capture does not show, like STag registrations or posted receive buffers)",
                        blamed);
            } else {
                reporter.report(s, dir, Check.RDMAP_TERMINATE_TERMINATED_HEADER, frame, "terminated DDP header ["
                        + t.terminatedDdpHeader() + "] matches none of the last "
                        + Plural.of(peer.recentCount(), "segment") + " the peer sent");
            }
            return;
        }
        reporter.report(s, dir, Check.RDMAP_TERMINATE_UNEXPLAINED, frame, "Terminate " + et + ": no PDU in the"
                + " capture explains it" + (local ? " (a local error)" : ""));
    }

    /**
     * The side of {@code d} can no longer send a Terminate (it closed, or the capture ended): report what it owed
     * (RFC 5040 §7.1 "MUST send a Terminate Message"; §6.2.1 "SHOULD" for LLP errors).
     */
    void settleOwed(StreamState s, DirectionState d, String how) {
        if (d.terminateFrame >= 0 || d.owed.isEmpty()) {
            d.owed.clear();
            return;
        }
        Expectation e = null;
        for (Expectation x : d.owed) {
            if (x.level() == Expectation.Level.MUST) {
                e = x;
                break;
            }
        }
        if (e == null) {
            for (Expectation x : d.owed) {
                if (x.level() == Expectation.Level.SHOULD) {
                    e = x;
                    break;
                }
            }
        }
        d.owed.clear();
        if (e == null) return;
        boolean sentAfter = d.lastFrame > e.frame();
        Severity sev = e.level() == Expectation.Level.MUST && (sentAfter || d.closed) ? Severity.ERROR
                : Severity.WARNING;
        String rfc = "RFC 5040";
        String section = e.level() == Expectation.Level.MUST ? "§7.1" : "§6.2.1";
        String went = sentAfter ? "went on sending (frame " + d.lastFrame + ") and " + how : how;
        reporter.emit(s, d.direction, Check.RDMAP_TERMINATE_MISSING, sev, e.primary(), rfc, section,
                sentAfter ? d.lastFrame : e.frame(), new long[]{e.frame()}, "received a PDU in error in frame "
                        + e.frame() + " (" + e.cause().id() + ": " + e.cause().title() + ") and " + went
                        + " without a Terminate: expected Terminate " + e.acceptedText() + ", got none");
    }
}
