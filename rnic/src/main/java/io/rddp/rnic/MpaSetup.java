package io.rddp.rnic;

import io.rddp.mpa.MpaStartFrame;
import io.rddp.mpa.MpaStartFrame.Enhanced;

import java.util.EnumSet;
import java.util.Set;

/**
 * How this RNIC sets up MPA (the part of Linux siw's siw_cm.c that builds and judges start frames): the Request it
 * sends, the Reply it gives to a peer's Request, and what a Reply means for it. The sink model judges both frames;
 * this class decides what to do.
 */
public final class MpaSetup {

    /** RFC 6581 §9.1: IRD or ORD of all ones leaves the value to the ULP. */
    static final int ULP_NEGOTIATED = 0x3FFF;

    private MpaSetup() {
    }

    /**
     * Parameters of a running connection.
     *
     * @param revision   MPA revision in use
     * @param crc        CRC32c on FPDUs both ways (RFC 5044 §7.1.1: when either side set C)
     * @param markersTx  Markers on what this side sends (the peer's M bit)
     * @param markersRx  Markers on what this side receives (its own M bit)
     * @param ird        inbound Read/Atomic Requests allowed at once (what this side advertised)
     * @param ord        outbound Read/Atomic Requests at once
     * @param rtr        the RTR indication of a peer-to-peer connection (RFC 6581 §9.2), or null: the one the
     *                   Initiator sends, the one the Responder prefers
     * @param rtrAccepted a Responder's: every RTR type its Reply named (the Initiator may send any of them)
     */
    public record Params(int revision, boolean crc, boolean markersTx, boolean markersRx, int ird, int ord,
                  RnicConfig.Rtr rtr, Set<RnicConfig.Rtr> rtrAccepted) {
        public Params {
            rtrAccepted = rtrAccepted == null ? Set.of() : Set.copyOf(rtrAccepted);
        }
    }

    /**
     * What the Initiator makes of a Reply: the parameters to run with, or null with {@code why} when it closes; with
     * {@code terminate} set, the connection enters Full Operation only to send that Terminate (RFC 6581 §9.1, §9.2).
     */
    record ReplyOutcome(Params params, io.rddp.sink.ErrorType terminate, String why) {
    }

    /** What an accept asks for beyond the RNIC's configuration. */
    record AcceptSettings(int ird, int ord, byte[] privateData, boolean reject) {
    }

    /** The outcome of a peer's Request: a Reply to send (maybe rejecting), or a reason to close without one. */
    record Answer(MpaStartFrame reply, Params params, String closeReason) {
        boolean accepted() {
            return reply != null && !reply.reject();
        }
    }

    /** The MPA Request an Initiator sends (RFC 5044 §7.1.1, RFC 6581 §6). */
    static MpaStartFrame request(RnicConfig config, int ird, int ord, byte[] privateData) {
        int rev = config.has(Bug.INITIATOR_ALWAYS_ENHANCED) ? 2 : config.highestRevision();
        // knob mpa-ird-ord-swapped: each number in the other's field (the flags stay where they belong)
        boolean swap = config.has(Bug.MPA_IRD_ORD_SWAPPED);
        Enhanced e = rev >= 2 ? new Enhanced(swap ? ord : ird, swap ? ird : ord, config.peerToPeer(),
                config.peerToPeer() && config.rtr().contains(RnicConfig.Rtr.SEND),
                config.peerToPeer() && config.rtr().contains(RnicConfig.Rtr.WRITE),
                config.peerToPeer() && config.rtr().contains(RnicConfig.Rtr.READ)) : null;
        return MpaStartFrame.request(config.markers(), config.crc(), rev, e, privateData);
    }

    /**
     * The peer's start frame as this side reads it: under Rev 1 the S bit is a Res bit and the four octets are the
     * ULP's (RFC 6581 §6); knobs mpa-enhanced-by-rev and mpa-pd-buffer-256 read it wrongly.
     */
    static MpaStartFrame asRead(RnicConfig config, MpaStartFrame f) {
        Enhanced e = f.enhanced();
        if (f.revision() < 2) {
            // RFC 6581 §6: enhanced data need Rev 2; under Rev 1 the S bit is a Res bit "not checked on reception"
            // (RFC 5044 §7.1.1) and the four octets are the ULP's Private Data
            e = null;
        } else if (e == null && !f.enhancedFlag() && config.has(Bug.MPA_ENHANCED_BY_REV)
                && f.privateData().length >= Enhanced.LENGTH) {
            try {
                e = Enhanced.parse(java.nio.ByteBuffer.wrap(f.privateData()));
            } catch (io.rddp.MalformedException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        byte[] pd = f.privateData();
        if (config.has(Bug.MPA_PD_BUFFER_256) && pd.length > PD_BUFFER_256) {
            pd = java.util.Arrays.copyOf(pd, PD_BUFFER_256);
        }
        if (e == f.enhanced() && pd == f.privateData()) return f;
        return new MpaStartFrame(f.kind(), f.keyValid(), f.markers(), f.crc(), f.reject(), f.reserved(),
                f.revision(), f.pdLength(), pd, e);
    }

    /** Knob mpa-pd-buffer-256: the size of the Private Data buffer. */
    static final int PD_BUFFER_256 = 256;

    /**
     * Why the knobs that judge a start frame more strictly or more loosely than RFC 5044 §7.1 refuse {@code f}
     * (knobs mpa-res-checked, mpa-enhanced-by-rev), or null.
     */
    private static String knobRefusal(RnicConfig config, MpaStartFrame f, int revision) {
        if (config.has(Bug.MPA_RES_CHECKED)) {
            int res = f.reserved() & (revision >= 2 ? ~MpaStartFrame.ENHANCED_FLAG & 0x1F : 0x1F);
            if (res != 0) return "Res bits 0x" + Integer.toHexString(res) + " set (knob mpa-res-checked)";
            if (f.kind() == MpaStartFrame.Kind.REQUEST && f.reject()) {
                return "R set in a Request (knob mpa-res-checked)";
            }
        }
        if (config.has(Bug.MPA_ENHANCED_BY_REV) && revision >= 2 && f.enhanced() == null) {
            return "a Rev " + revision + " frame without IRD/ORD (knob mpa-enhanced-by-rev)";
        }
        return null;
    }

    /** RFC 6581 §9.1: 0x3FFF leaves the local value unchanged, unless knob mpa-3fff-as-number reads it as 16383. */
    private static boolean ulpNegotiated(RnicConfig config, int value) {
        return value == ULP_NEGOTIATED && !config.has(Bug.MPA_3FFF_AS_NUMBER);
    }

    /** Knob mpa-pd-buffer-256: PD_Length is not validated. */
    private static boolean pdLengthTooLong(RnicConfig config, MpaStartFrame f) {
        return f.pdLength() > MpaStartFrame.MAX_PRIVATE_DATA && !config.has(Bug.MPA_PD_BUFFER_256);
    }

    /** Knob mpa-lax-key (and accept-all): a frame with the other frame's key is taken as the one expected. */
    static boolean laxKey(RnicConfig config) {
        return config.has(Bug.MPA_LAX_KEY) || config.has(Bug.ACCEPT_ALL);
    }

    /** The Responder's answer to {@code req}; {@code malformed} says the sink model found the frame improper. */
    static Answer answer(RnicConfig config, MpaStartFrame req, boolean malformed, AcceptSettings accept) {
        // RFC 5044 §7.1.1: a receiver that "cannot interoperate with the received version ... MUST close the
        // connection"; a key or PD_Length that is wrong makes the frame improperly formatted (§7.1.2 rules 2, 5)
        boolean keyValid = req.keyValid() || laxKey(config);
        if (malformed || !keyValid || pdLengthTooLong(config, req)
                || req.kind() != MpaStartFrame.Kind.REQUEST && !laxKey(config)) {
            return new Answer(null, null, "the MPA Request is improperly formatted (RFC 5044 §7.1.2)");
        }
        int revision = req.revision();
        if (!config.revisions().contains(revision)) {
            if (!config.has(Bug.MPA_ANY_REV)) {
                return new Answer(null, null, "MPA revision " + revision + " is not supported (supported: "
                        + config.revisions() + "; RFC 5044 §7.1.1)");
            }
            revision = config.highestRevision(); // knob mpa-any-rev: taken as one of this side's own
        }
        String refused = knobRefusal(config, req, revision);
        if (refused != null) {
            return new Answer(null, null, "the MPA Request is improperly formatted: " + refused);
        }
        boolean crc = config.crc() || req.crc();
        // knob markers-by-own-m: Markers on what this side sends follow its own M bit, not the peer's
        boolean markersTx = config.has(Bug.MARKERS_BY_OWN_M) ? config.markers() : req.markers();
        boolean reject = accept.reject() && !config.has(Bug.ULP_REJECT_IGNORED);
        String why = null;
        if (req.markers() && !config.acceptMarkers()) {
            reject = true; // a peer asking for Markers this side will not send is refused, as siw does
            why = "Markers refused";
        }
        Enhanced mine = null;
        int ird = accept.ird(), ord = accept.ord();
        RnicConfig.Rtr rtr = null;
        Set<RnicConfig.Rtr> rtrs = EnumSet.noneOf(RnicConfig.Rtr.class);
        // RFC 6581 §6: the enhanced data are only there with Rev 2 or higher; for Rev 1 the S bit is a Res bit, "not
        // checked on reception" (RFC 5044 §7.1.1), and the four octets are the ULP's
        // knob mpa-reply-unenhanced: an enhanced Request is answered as a Rev 1 one would be, without IRD/ORD
        if (revision >= 2 && req.enhanced() != null && !config.has(Bug.MPA_REPLY_UNENHANCED)) {
            Enhanced theirs = req.enhanced();
            // RFC 6581 §9.1: the responder's ORD is at most the initiator's IRD; its IRD should cover the
            // initiator's ORD as far as its resources go
            if (!ulpNegotiated(config, theirs.ird()) && !config.has(Bug.MPA_ORD_OVER_PEER_IRD)) {
                ord = Math.min(ord, theirs.ird());
            }
            if (!ulpNegotiated(config, theirs.ord())) {
                ird = Math.min(config.limits().maxIrdOrd(), Math.max(ird, theirs.ord()));
            }
            int irdField = ulpNegotiated(config, theirs.ord()) ? ULP_NEGOTIATED : ird;
            int ordField = ulpNegotiated(config, theirs.ird()) ? ULP_NEGOTIATED : ord;
            // RFC 6581 §9.2: "If Control Flag A is set to 0, then Control Flags B, C, and D MUST be ignored"
            // knob mpa-p2p-unsupported: A = 1 is not taken up
            boolean p2p = theirs.peerToPeer() && !config.has(Bug.MPA_P2P_UNSUPPORTED);
            if (p2p) {
                Set<RnicConfig.Rtr> offered = EnumSet.noneOf(RnicConfig.Rtr.class);
                if (theirs.zeroLengthSendRtr()) offered.add(RnicConfig.Rtr.SEND);
                if (theirs.zeroLengthWriteRtr()) offered.add(RnicConfig.Rtr.WRITE);
                if (theirs.zeroLengthReadRtr()) offered.add(RnicConfig.Rtr.READ);
                // §9.2: "For each initiator-supported RTR indication option, the responder SHOULD set the
                // corresponding Control Flag if the responder can support that option"; "If the responder does not
                // support any of the initiator-specified RTR indication options, then the responder MUST set at least
                // one RTR indication type option it supports" (the Initiator then terminates with 2/0/7)
                for (RnicConfig.Rtr r : RnicConfig.Rtr.values()) {
                    if (offered.contains(r) && config.rtr().contains(r)) rtrs.add(r);
                }
                if (rtrs.isEmpty()) rtrs.addAll(config.rtr());
                for (RnicConfig.Rtr r : RnicConfig.Rtr.values()) {
                    if (rtrs.contains(r)) {
                        rtr = r;
                        break;
                    }
                }
            }
            // knob mpa-rtr-flags-without-a: a client-server Reply copies the Request's B, C and D
            boolean copy = !p2p && config.has(Bug.MPA_RTR_FLAGS_WITHOUT_A);
            mine = new Enhanced(irdField, ordField, p2p,
                    copy ? theirs.zeroLengthSendRtr() : rtrs.contains(RnicConfig.Rtr.SEND),
                    copy ? theirs.zeroLengthWriteRtr() : rtrs.contains(RnicConfig.Rtr.WRITE),
                    copy ? theirs.zeroLengthReadRtr() : rtrs.contains(RnicConfig.Rtr.READ));
        } else {
            // Rev 1 (RFC 5044) carries no IRD/ORD: limits are the ULP's business; this side keeps its own
            ird = accept.ird();
            ord = accept.ord();
        }
        byte[] pd = accept.privateData() == null ? new byte[0] : accept.privateData();
        MpaStartFrame reply = MpaStartFrame.reply(config.markers(), crc, reject, revision, mine, pd);
        Params params = new Params(revision, crc, markersTx, config.markers(), ird, ord, rtr, rtrs);
        return new Answer(reply, params, reject ? (why != null ? why : "rejected by the ULP") : null);
    }

    /**
     * What the Initiator makes of the Reply to its {@code req}: the parameters, or the reason it closes (rejected,
     * or a Reply this side cannot work with), or a Terminate to send (RFC 6581 §9.1 insufficient IRD, §9.2 no
     * usable RTR type).
     */
    static ReplyOutcome onReply(RnicConfig config, MpaStartFrame req, MpaStartFrame reply, boolean malformed) {
        // RFC 5044 §7.1.2: "If the MPA Reply Frame is improperly formatted, the implementation MUST close the TCP
        // connection and exit MPA"; rule 8: a Request answering a Request is an Initiator/Initiator startup
        boolean keyValid = reply.keyValid() || laxKey(config);
        if (malformed || !keyValid || pdLengthTooLong(config, reply)
                || reply.kind() != MpaStartFrame.Kind.REPLY && !laxKey(config)) {
            return new ReplyOutcome(null, null, "the MPA Reply is improperly formatted (RFC 5044 §7.1.2)");
        }
        // knob mpa-reject-ignored: R is not looked at
        if (reply.reject() && !config.has(Bug.MPA_REJECT_IGNORED)) {
            return new ReplyOutcome(null, null, "the peer rejected the connection (R = 1)");
        }
        // RFC 5044 §7.1.1: a receiver that "cannot interoperate with the received version ... MUST close"
        int revision = reply.revision();
        if (!config.revisions().contains(revision) || revision > req.revision()) {
            if (!config.has(Bug.MPA_ANY_REV)) {
                return new ReplyOutcome(null, null, "the MPA Reply has revision " + revision
                        + ", this side asked for " + req.revision());
            }
            revision = req.revision(); // knob mpa-any-rev: taken as the one asked for
        }
        String refused = knobRefusal(config, reply, revision);
        if (refused != null) {
            return new ReplyOutcome(null, null, "the MPA Reply is improperly formatted: " + refused);
        }
        boolean crc = req.crc() || reply.crc();
        // knob mpa-ird-ord-swapped swapped them on the wire only
        boolean swapped = config.has(Bug.MPA_IRD_ORD_SWAPPED);
        int ird = req.enhanced() != null ? (swapped ? req.enhanced().ord() : req.enhanced().ird()) : config.ird();
        int ord = req.enhanced() != null ? (swapped ? req.enhanced().ird() : req.enhanced().ord()) : config.ord();
        RnicConfig.Rtr rtr = null;
        io.rddp.sink.ErrorType terminate = null;
        String why = null;
        if (req.enhanced() != null) {
            Enhanced theirs = revision >= 2 ? reply.enhanced() : null;
            if (theirs == null) {
                return new ReplyOutcome(null, null, "the MPA Reply to an enhanced Request carries no IRD/ORD (RFC 6581"
                        + " §10: an enhanced responder responds with an enhanced MPA message)");
            }
            // RFC 6581 §9.1: "the initiator MUST set its IRD at least to the responder ORD and its ORD at most to the
            // responder IRD"; 0x3FFF leaves the local value unchanged
            if (!ulpNegotiated(config, theirs.ird()) && !config.has(Bug.MPA_ORD_OVER_PEER_IRD)) {
                ord = Math.min(ord, theirs.ird());
            }
            if (!ulpNegotiated(config, theirs.ord())) {
                if (theirs.ord() > config.limits().maxIrdOrd()) {
                    // "If the initiator does not have sufficient resources for the required IRD, it MUST send a
                    // TERM message ... Layer 2, Error Type 0, Error Code 6"
                    terminate = io.rddp.sink.ErrorType.MPA_INSUFFICIENT_IRD;
                    why = "the responder's ORD " + theirs.ord() + " exceeds the IRD this side can have ("
                            + config.limits().maxIrdOrd() + "; RFC 6581 §9.1)";
                } else {
                    ird = Math.max(ird, theirs.ord());
                }
            }
            if (terminate == null && req.enhanced().peerToPeer()) {
                if (!theirs.peerToPeer()) {
                    return new ReplyOutcome(null, null, "the MPA Reply does not accept the peer-to-peer model"
                            + " (RFC 6581 §9.2: the responder MUST set A when the Request did)");
                }
                if (theirs.zeroLengthWriteRtr() && req.enhanced().zeroLengthWriteRtr()) rtr = RnicConfig.Rtr.WRITE;
                else if (theirs.zeroLengthSendRtr() && req.enhanced().zeroLengthSendRtr()) rtr = RnicConfig.Rtr.SEND;
                else if (theirs.zeroLengthReadRtr() && req.enhanced().zeroLengthReadRtr()) rtr = RnicConfig.Rtr.READ;
                else {
                    // "If the initiator is not able to generate any of the responder-supported RTR indications,
                    // then it MUST send a TERM message ... Layer 2, Error Type 0, Error Code 7"
                    terminate = io.rddp.sink.ErrorType.MPA_NO_MATCHING_RTR;
                    why = "the MPA Reply names no RTR type this side offered (RFC 6581 §9.2)";
                }
            }
        }
        boolean markersTx = config.has(Bug.MARKERS_BY_OWN_M) ? req.markers() : reply.markers();
        Params p = new Params(revision, crc, markersTx, req.markers(), ird, ord, rtr,
                rtr == null ? Set.of() : Set.of(rtr));
        if (terminate != null && config.has(Bug.MPA_NO_STARTUP_TERMINATE)) return new ReplyOutcome(null, null, why);
        return new ReplyOutcome(p, terminate, why);
    }
}
