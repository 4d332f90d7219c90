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
     * @param rtr        the RTR indication of a peer-to-peer connection (RFC 6581 §9.2), or null
     */
    public record Params(int revision, boolean crc, boolean markersTx, boolean markersRx, int ird, int ord,
                  RnicConfig.Rtr rtr) {
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
        int rev = config.highestRevision();
        Enhanced e = rev >= 2 ? new Enhanced(ird, ord, config.peerToPeer(),
                config.peerToPeer() && config.rtr().contains(RnicConfig.Rtr.SEND),
                config.peerToPeer() && config.rtr().contains(RnicConfig.Rtr.WRITE),
                config.peerToPeer() && config.rtr().contains(RnicConfig.Rtr.READ)) : null;
        return MpaStartFrame.request(config.markers(), config.crc(), rev, e, privateData);
    }

    /** The Responder's answer to {@code req}; {@code malformed} says the sink model found the frame improper. */
    static Answer answer(RnicConfig config, MpaStartFrame req, boolean malformed, AcceptSettings accept) {
        // RFC 5044 §7.1.1: a receiver that "cannot interoperate with the received version ... MUST close the
        // connection"; a key or PD_Length that is wrong makes the frame improperly formatted (§7.1.2 rules 2, 5)
        if (malformed || !req.keyValid() || req.pdLength() > MpaStartFrame.MAX_PRIVATE_DATA
                || req.kind() != MpaStartFrame.Kind.REQUEST) {
            return new Answer(null, null, "the MPA Request is improperly formatted (RFC 5044 §7.1.2)");
        }
        if (!config.revisions().contains(req.revision())) {
            return new Answer(null, null, "MPA revision " + req.revision() + " is not supported (supported: "
                    + config.revisions() + "; RFC 5044 §7.1.1)");
        }
        boolean crc = config.crc() || req.crc();
        boolean markersTx = req.markers();
        boolean reject = accept.reject();
        String why = null;
        if (markersTx && !config.acceptMarkers()) {
            reject = true; // a peer asking for Markers this side will not send is refused, as siw does
            why = "Markers refused";
        }
        Enhanced mine = null;
        int ird = accept.ird(), ord = accept.ord();
        RnicConfig.Rtr rtr = null;
        if (req.revision() >= 2 && req.enhanced() != null) {
            Enhanced theirs = req.enhanced();
            // RFC 6581 §9.1: the responder's ORD is at most the initiator's IRD; its IRD should cover the
            // initiator's ORD as far as its resources go
            if (theirs.ird() != ULP_NEGOTIATED) ord = Math.min(ord, theirs.ird());
            if (theirs.ord() != ULP_NEGOTIATED) ird = Math.min(config.limits().maxIrdOrd(), Math.max(ird, theirs.ord()));
            int irdField = theirs.ord() == ULP_NEGOTIATED ? ULP_NEGOTIATED : ird;
            int ordField = theirs.ird() == ULP_NEGOTIATED ? ULP_NEGOTIATED : ord;
            boolean p2p = theirs.peerToPeer();
            if (p2p) {
                Set<RnicConfig.Rtr> offered = EnumSet.noneOf(RnicConfig.Rtr.class);
                if (theirs.zeroLengthSendRtr()) offered.add(RnicConfig.Rtr.SEND);
                if (theirs.zeroLengthWriteRtr()) offered.add(RnicConfig.Rtr.WRITE);
                if (theirs.zeroLengthReadRtr()) offered.add(RnicConfig.Rtr.READ);
                for (RnicConfig.Rtr r : RnicConfig.Rtr.values()) {
                    if (offered.contains(r) && config.rtr().contains(r)) {
                        rtr = r;
                        break;
                    }
                }
                if (rtr == null) {
                    reject = true; // RFC 6581 §9.2: no RTR type in common
                    why = "no RTR type in common";
                }
            }
            mine = new Enhanced(irdField, ordField, p2p, rtr == RnicConfig.Rtr.SEND, rtr == RnicConfig.Rtr.WRITE,
                    rtr == RnicConfig.Rtr.READ);
        } else {
            // Rev 1 (RFC 5044) carries no IRD/ORD: limits are the ULP's business; this side keeps its own
            ird = accept.ird();
            ord = accept.ord();
        }
        byte[] pd = accept.privateData() == null ? new byte[0] : accept.privateData();
        MpaStartFrame reply = MpaStartFrame.reply(config.markers(), crc, reject, req.revision(), mine, pd);
        Params params = new Params(req.revision(), crc, markersTx, config.markers(), ird, ord, rtr);
        return new Answer(reply, params, reject ? (why != null ? why : "rejected by the ULP") : null);
    }

    /**
     * What the Initiator makes of the Reply to its {@code req}: the parameters, or null with the reason in
     * {@code why[0]} when the connection cannot go on (rejected, or a Reply this side cannot work with).
     */
    static Params onReply(RnicConfig config, MpaStartFrame req, MpaStartFrame reply, boolean malformed,
                          String[] why) {
        if (malformed || !reply.keyValid() || reply.pdLength() > MpaStartFrame.MAX_PRIVATE_DATA
                || reply.kind() != MpaStartFrame.Kind.REPLY) {
            why[0] = "the MPA Reply is improperly formatted (RFC 5044 §7.1.2)";
            return null;
        }
        if (reply.reject()) {
            why[0] = "the peer rejected the connection (R = 1)";
            return null;
        }
        if (!config.revisions().contains(reply.revision()) || reply.revision() > req.revision()) {
            why[0] = "the MPA Reply has revision " + reply.revision() + ", this side asked for " + req.revision();
            return null;
        }
        boolean crc = req.crc() || reply.crc();
        int ird = req.enhanced() != null ? req.enhanced().ird() : config.ird();
        int ord = req.enhanced() != null ? req.enhanced().ord() : config.ord();
        RnicConfig.Rtr rtr = null;
        if (req.enhanced() != null) {
            Enhanced theirs = reply.enhanced();
            if (theirs == null) {
                why[0] = "the MPA Reply to an enhanced Request carries no IRD/ORD (RFC 6581 §10)";
                return null;
            }
            // RFC 6581 §9.1: this side's outbound requests are limited by the responder's IRD
            if (theirs.ird() != ULP_NEGOTIATED) ord = Math.min(ord, theirs.ird());
            if (req.enhanced().peerToPeer()) {
                if (!theirs.peerToPeer()) {
                    why[0] = "the MPA Reply does not accept the peer-to-peer model (RFC 6581 §9.2)";
                    return null;
                }
                if (theirs.zeroLengthWriteRtr() && req.enhanced().zeroLengthWriteRtr()) rtr = RnicConfig.Rtr.WRITE;
                else if (theirs.zeroLengthSendRtr() && req.enhanced().zeroLengthSendRtr()) rtr = RnicConfig.Rtr.SEND;
                else if (theirs.zeroLengthReadRtr() && req.enhanced().zeroLengthReadRtr()) rtr = RnicConfig.Rtr.READ;
                else {
                    why[0] = "the MPA Reply names no RTR type this side offered (RFC 6581 §9.2)";
                    return null;
                }
            }
        }
        return new Params(reply.revision(), crc, reply.markers(), req.markers(), ird, ord, rtr);
    }
}
