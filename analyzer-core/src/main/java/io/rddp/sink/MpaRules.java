package io.rddp.sink;

import io.rddp.Plural;
import io.rddp.mpa.Fpdu;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.mpa.MpaStartFrame.Enhanced;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.tcp.Direction;

/**
 * MPA connection setup (RFC 5044 §7.1), enhanced connection establishment (RFC 6581) and the FPDU-level facts:
 * CRC (RFC 5044 §4.4, §8), Marker errors, who may send the first FPDU, RTR indications.
 */
final class MpaRules {

    /** RFC 6581 §6: the S bit, most significant of the five Res bits of RFC 5044 §7.1.1. */
    static final int ENHANCED_FLAG = 0x10;
    /** RFC 6581 §9.1: an all-ones IRD or ORD leaves the negotiation to the ULP. */
    static final int ULP_NEGOTIATED = 0x3FFF;
    /** RFC 5044 §7.1.1 */
    static final int MAX_PRIVATE_DATA = 512;

    private final Reporter reporter;

    MpaRules(Reporter reporter) {
        this.reporter = reporter;
    }

    void onStartFrame(StreamState s, Direction dir, MpaStartFrame f, long frame) {
        s.startSeen = true;
        String name = f.kind() == MpaStartFrame.Kind.REQUEST ? "MPA Request" : "MPA Reply";
        boolean malformed = false;
        if (!f.keyValid()) {
            // RFC 5044 §7.1.1 senders MUST set the key; §7.1.2 rule 5: a wrong key closes the connection
            reporter.report(s, dir, Check.MPA_KEY, frame, name + " key is not \"MPA ID "
                    + (f.kind() == MpaStartFrame.Kind.REQUEST ? "Req" : "Rep") + " Frame\"");
            malformed = true;
        }
        boolean enhancedFlag = (f.reserved() & ENHANCED_FLAG) != 0;
        if (f.revision() == 0) {
            // RFC 5044 §7.1.1: "senders MUST set this field to one" (RFC 6581: two). Rev 0 is the RDMA Consortium's
            // MPA (Appendix C, informative): a Reply that answers a Rev 0 Request in kind is the interoperation
            // Appendix C describes, so only a warning; starting with Rev 0 breaks the MUST
            boolean inKind = f.kind() == MpaStartFrame.Kind.REPLY && s.request != null && s.request.revision() == 0;
            reporter.report(s, dir, Check.MPA_REVISION, inKind ? Severity.WARNING : Severity.ERROR, frame, name
                    + " Rev 0: the RDMA Consortium's MPA (RFC 5044 Appendix C), not RFC 5044's Rev 1"
                    + (inKind ? ", answering the Rev 0 MPA Request in kind" : ""));
        } else if (f.revision() > 2) {
            reporter.report(s, dir, Check.MPA_REVISION, frame, name + " Rev " + f.revision()
                    + ": no RFC defines it (RFC 5044: 1, RFC 6581: 2)");
        }
        if (enhancedFlag && f.revision() < 2) {
            reporter.emit(s, dir, Check.MPA_REVISION, Severity.ERROR, null, "RFC 6581", "§6", frame, new long[0],
                    name + " sets the enhanced (S) flag with Rev " + f.revision()
                            + "; enhanced connection establishment needs Rev 2 or higher");
        }
        if (enhancedFlag && f.enhanced() == null) {
            reporter.report(s, dir, Check.MPA_ENHANCED, frame, name + " sets the enhanced (S) flag but its "
                    + Plural.of(f.privateData().length, "octet")
                    + " of Private Data cannot hold the 4 octets of IRD/ORD"
                    + " (RFC 6581 §6: Private Data MUST begin with them)");
            malformed = true;
        }
        if ((f.reserved() & ~ENHANCED_FLAG & 0x1F) != 0) {
            reporter.report(s, dir, Check.MPA_RESERVED, frame, name + " Res bits 0x"
                    + Integer.toHexString(f.reserved() & ~ENHANCED_FLAG) + " not zero");
        }
        if (f.kind() == MpaStartFrame.Kind.REQUEST && f.reject()) {
            reporter.report(s, dir, Check.MPA_RESERVED, frame, "MPA Request has the R bit set; it is zero in"
                    + " a Request");
        }
        if (f.pdLength() > MAX_PRIVATE_DATA) {
            reporter.report(s, dir, Check.MPA_PD_LENGTH, frame, name + " PD_Length " + f.pdLength()
                    + " exceeds " + MAX_PRIVATE_DATA + "; the receiver MUST close the connection");
            malformed = true;
        }
        if (f.enhanced() != null) checkFlags(s, dir, frame, name, f.enhanced());

        if (f.kind() == MpaStartFrame.Kind.REQUEST) {
            if (s.request != null) {
                String why = s.requestDirection != dir
                        ? "both sides sent an MPA Request (Initiator/Initiator startup, RFC 5044 §7.1.2 rule 8)"
                        : "second MPA Request from the Initiator (first in frame " + s.requestFrame + ")";
                reporter.report(s, dir, Check.MPA_SEQUENCE, frame, why, s.requestFrame);
            } else {
                s.request = f;
                s.requestDirection = dir;
                s.requestFrame = frame;
            }
        } else {
            if (s.requestDirection == dir) {
                reporter.report(s, dir, Check.MPA_SEQUENCE, frame, "MPA Reply sent by the side that sent the"
                        + " MPA Request (frame " + s.requestFrame + ")", s.requestFrame);
            } else if (s.reply != null) {
                reporter.report(s, dir, Check.MPA_SEQUENCE, frame, "second MPA Reply (first in frame "
                        + s.replyFrame + ")", s.replyFrame);
            } else {
                s.reply = f;
                s.replyDirection = dir;
                s.replyFrame = frame;
                if (s.request != null) replyAgainstRequest(s, dir, f, frame);
                if (f.reject() && s.exitFrame < 0) {
                    s.exitFrame = frame;
                    s.exitReason = "the MPA Reply of frame " + frame + " rejected the connection";
                }
            }
        }
        if (malformed && s.exitFrame < 0) {
            s.exitFrame = frame;
            s.exitReason = "the " + name + " of frame " + frame + " is improperly formatted";
        }
    }

    // RFC 6581 §9.2: "If Control Flag A is set to 0, then Control Flags B, C, and D MUST also be set to 0"
    private void checkFlags(StreamState s, Direction dir, long frame, String name, Enhanced e) {
        boolean anyRtr = e.zeroLengthSendRtr() || e.zeroLengthWriteRtr() || e.zeroLengthReadRtr();
        if (!e.peerToPeer() && anyRtr) {
            reporter.report(s, dir, Check.MPA_RTR_FLAGS, frame, name + " has A = 0 (client-server) but RTR flags "
                    + rtrFlags(e) + " set");
        }
    }

    private void replyAgainstRequest(StreamState s, Direction dir, MpaStartFrame reply, long frame) {
        MpaStartFrame req = s.request;
        // RFC 6581 §6: the S flag means enhanced data only with Rev 2 or higher; under Rev 1 it is a Res bit, "not
        // checked on reception" (RFC 5044 §7.1.1), so a Rev 1 Request with it set is answered unenhanced
        boolean reqEnhanced = (req.reserved() & ENHANCED_FLAG) != 0 && req.revision() >= 2;
        boolean repEnhanced = (reply.reserved() & ENHANCED_FLAG) != 0 && reply.revision() >= 2;
        // RFC 6581 §10: an enhanced responder answers in kind; an unenhanced one closes instead of replying
        if (reqEnhanced != repEnhanced) {
            reporter.emit(s, dir, Check.MPA_ENHANCED, Severity.ERROR, null, "RFC 6581", "§10", frame,
                    new long[]{s.requestFrame}, (reqEnhanced ? "enhanced MPA Request answered by an unenhanced"
                            : "unenhanced MPA Request answered by an enhanced") + " MPA Reply");
        }
        Enhanced ri = req.enhanced(), rr = reply.enhanced();
        if (ri == null || rr == null) return;

        // RFC 6581 §9.1
        if (ri.ird() == ULP_NEGOTIATED && rr.ord() != ULP_NEGOTIATED) {
            reporter.report(s, dir, Check.MPA_IRD_ORD, frame, "Initiator IRD 0x3FFF (left to the ULP) must be"
                    + " answered with responder ORD 0x3FFF, got " + rr.ord(), s.requestFrame);
        } else if (ri.ird() != ULP_NEGOTIATED && rr.ord() != ULP_NEGOTIATED && rr.ord() > ri.ird()) {
            reporter.report(s, dir, Check.MPA_IRD_ORD, frame, "responder ORD " + rr.ord() + " exceeds initiator"
                    + " IRD " + ri.ird() + " (\"The responder MUST set its ORD at most to the initiator IRD\")",
                    s.requestFrame);
        }
        if (ri.ord() == ULP_NEGOTIATED && rr.ird() != ULP_NEGOTIATED) {
            reporter.report(s, dir, Check.MPA_IRD_ORD, frame, "Initiator ORD 0x3FFF (left to the ULP) must be"
                    + " answered with responder IRD 0x3FFF, got " + rr.ird(), s.requestFrame);
        }
        // RFC 6581 §9.2
        if (ri.peerToPeer() != rr.peerToPeer()) {
            reporter.report(s, dir, Check.MPA_RTR_FLAGS, frame, "MPA Reply A flag " + (rr.peerToPeer() ? 1 : 0)
                    + " does not match the Request's " + (ri.peerToPeer() ? 1 : 0), s.requestFrame);
        } else if (rr.peerToPeer() && !reply.reject() && !(rr.zeroLengthSendRtr() || rr.zeroLengthWriteRtr()
                || rr.zeroLengthReadRtr())) {
            reporter.report(s, dir, Check.MPA_RTR_FLAGS, frame, "peer-to-peer MPA Reply names no RTR indication"
                    + " (the responder MUST set at least one)", s.requestFrame);
        }
        if (reply.reject()) return;
        // RFC 5040 §6.1, RFC 6581 §9.1: the Initiator's outbound Read Requests are limited by the responder IRD,
        // the responder's by its ORD, itself at most the initiator IRD
        Direction initiator = s.requestDirection;
        s.dir(initiator).outstandingLimit = rr.ird() == ULP_NEGOTIATED ? -1 : rr.ird();
        int responderLimit = -1;
        if (ri.ird() != ULP_NEGOTIATED) responderLimit = ri.ird();
        if (rr.ord() != ULP_NEGOTIATED) responderLimit = responderLimit < 0 ? rr.ord() : Math.min(responderLimit,
                rr.ord());
        s.dir(initiator.reverse()).outstandingLimit = responderLimit;
    }

    /** The FPDU facts that do not need DDP: exit, who may send first, RTR (called for every FPDU). */
    void onFpdu(StreamState s, DirectionState d, long frame, DdpSegment seg, RdmapPdu pdu) {
        boolean first = d.firstFpduFrame < 0;
        if (first) d.firstFpduFrame = frame;
        if (!s.startSeen) return;
        Direction dir = d.direction;
        if (s.exitFrame >= 0 && frame > s.exitFrame && !d.afterExitReported) {
            d.afterExitReported = true;
            // RFC 5044 §7.1.2 rules 2, 3: on a rejected or malformed startup the implementation MUST exit MPA
            reporter.report(s, dir, Check.MPA_AFTER_EXIT, frame, "FPDU after " + s.exitReason
                    + "; no FPDUs may follow", s.exitFrame);
        }
        if (!first || s.requestDirection == null) return;
        if (dir == s.requestDirection) {
            if (s.reply == null || s.replyFrame > frame) {
                // RFC 5044 §7.1.2 rule 3: the Initiator enters Full Operation only on a valid Reply
                reporter.report(s, dir, Check.MPA_INITIATOR_EARLY, frame, "Initiator's first FPDU comes before"
                        + " any MPA Reply", s.requestFrame);
            } else if (s.request.enhanced() != null && s.reply.enhanced() != null
                    && s.reply.enhanced().peerToPeer() && s.request.enhanced().peerToPeer() && !s.reply.reject()) {
                checkRtr(s, dir, frame, seg, pdu);
            }
        } else {
            long initiatorFirst = s.dir(s.requestDirection).firstFpduFrame;
            if (initiatorFirst < 0 || initiatorFirst > frame) {
                // RFC 5044 §7.1.2 rule 4: "MUST receive and validate at least one FPDU before sending any FPDUs"
                reporter.report(s, dir, Check.MPA_RESPONDER_FIRST, frame, "Responder sent its first FPDU before"
                        + " the Initiator's first FPDU", s.replyFrame);
            }
        }
    }

    // RFC 6581 §9.2: "the initiator MUST generate one of the negotiated RTR indications"; §5: no FULPDU before it
    private void checkRtr(StreamState s, Direction dir, long frame, DdpSegment seg, RdmapPdu pdu) {
        Enhanced rr = s.reply.enhanced();
        DdpHeader h = seg.header();
        Opcode op = RdmapControl.of(h).kind();
        boolean zero = seg.payloadLength() == 0 && h.last();
        String got;
        if (op == Opcode.SEND && !h.tagged() && zero) {
            if (rr.zeroLengthSendRtr()) return;
            got = "a zero-length Send";
        } else if (op == Opcode.RDMA_WRITE && h.tagged() && zero) {
            if (rr.zeroLengthWriteRtr()) return;
            got = "a zero-length RDMA Write";
        } else if (op == Opcode.RDMA_READ_REQUEST && !h.tagged() && pdu != null
                && pdu.body() instanceof ReadRequest r && r.size() == 0) {
            if (rr.zeroLengthReadRtr()) return;
            got = "a zero-length RDMA Read Request";
        } else if (op == Opcode.TERMINATE && pdu != null && pdu.body() instanceof Terminate t
                && ErrorType.of(t).equals(ErrorType.MPA_NO_MATCHING_RTR)) {
            return; // RFC 6581 §9.2: no usable RTR option, reported as such
        } else {
            got = (op != null ? op.rfcName() : "opcode " + RdmapControl.of(h).opcode()) + " with "
                    + seg.payloadLength() + " payload octets";
        }
        reporter.report(s, dir, Check.MPA_RTR, frame, "peer-to-peer connection: the Initiator's first FPDU must be"
                + " an RTR indication the MPA Reply (frame " + s.replyFrame + ") offers (" + rtrFlags(rr)
                + "), got " + got, s.replyFrame);
    }

    private static String rtrFlags(Enhanced e) {
        StringBuilder sb = new StringBuilder();
        if (e.zeroLengthSendRtr()) sb.append("B zero-length Send");
        if (e.zeroLengthWriteRtr()) sb.append(sb.length() > 0 ? ", " : "").append("C zero-length RDMA Write");
        if (e.zeroLengthReadRtr()) sb.append(sb.length() > 0 ? ", " : "").append("D zero-length RDMA Read");
        return sb.length() == 0 ? "none" : sb.toString();
    }

    /** An FPDU whose CRC did not match (RFC 5044 §4.4); its content is not trusted further. */
    void crcError(StreamState s, DirectionState d, long frame, DdpSegment seg) {
        d.segments++;
        d.lastFrame = frame;
        if (d.firstFpduFrame < 0) d.firstFpduFrame = frame; // it was sent, even if it cannot be trusted
        reporter.report(s, d.direction, Check.MPA_CRC, frame, "CRC of the FPDU with ULPDU_Length " + seg.length()
                + " does not match; the receiver delivers no further FPDUs on this half connection (RFC 5044 §8)");
        // RFC 5040 §6.2.1: a Terminate "SHOULD be invoked when ... an LLP error is surfaced"
        reporter.expect(s, d.direction, frame, Check.MPA_CRC, Expectation.Level.SHOULD, null, -1, null,
                Reporter.accept(ErrorType.MPA_CRC));
    }

    /**
     * RFC 5044 §4.1: the sender MUST zero the PAD octets, the receiver ignores them (they are covered by the CRC and
     * carry no data), so no Terminate is owed. An implementation that leaves them unzeroed does so on every FPDU of
     * that length: they are counted and reported once per direction, by {@link #padSummary}, with the first frames.
     */
    void pad(StreamState s, Direction dir, Fpdu f) {
        DirectionState d = s.dir(dir);
        if (d.padCount < DirectionState.PAD_FRAMES) d.padFrames[(int) d.padCount] = f.frame();
        if (d.padCount == 0) {
            d.padFirstOffset = f.offset();
            d.padFirstUlpduLength = f.ulpduLength();
        }
        d.padCount++;
    }

    /** The one mpa.pad violation of a direction, when its stream ends (see {@link #pad}). */
    void padSummary(StreamState s, DirectionState d) {
        if (d.padCount == 0) return;
        int listed = (int) Math.min(d.padCount, DirectionState.PAD_FRAMES);
        long[] others = java.util.Arrays.copyOfRange(d.padFrames, 1, listed);
        StringBuilder frames = new StringBuilder();
        for (int i = 0; i < listed; i++) frames.append(i == 0 ? "" : ", ").append(d.padFrames[i]);
        reporter.report(s, d.direction, Check.MPA_PAD, d.padFrames[0], d.padCount + " FPDU"
                + (d.padCount > 1 ? "s" : "") + " with PAD octets not all zero, the first at stream offset "
                + d.padFirstOffset + " (ULPDU_Length " + d.padFirstUlpduLength + "); frame" + (listed > 1 ? "s " : " ")
                + frames + (d.padCount > listed ? ", ..." : ""), others);
        d.padCount = 0;
    }

    /** A Marker that disagrees with the ULPDU_Length framing (RFC 5044 §8 code 3). */
    void framingError(StreamState s, DirectionState d, long frame, String detail) {
        reporter.report(s, d.direction, Check.MPA_FRAMING, frame, detail);
        reporter.expect(s, d.direction, frame, Check.MPA_FRAMING, Expectation.Level.SHOULD, null, -1, null,
                Reporter.accept(ErrorType.MPA_MARKER));
    }
}
