package io.rddp.mpa;

import io.rddp.MalformedException;
import io.rddp.Notice.Severity;
import io.rddp.mpa.MpaSide.State;

import java.nio.ByteBuffer;
import java.util.HexFormat;

import static io.rddp.mpa.MpaFraming.u8;

/**
 * MPA connection start-up (RFC 5044 §7.1): the MPA Request and Reply that open each direction, and the FPDU rules
 * they settle. A direction's rules come from the frame the <em>other</em> side sent: Markers when that frame's M bit
 * is set (M declares what its sender wants to receive), CRCs when the C bit is set in the Request or the Reply.
 * Wireshark 4.0 applies the M bit the other way round; this follows the RFC. Private data, including the enhanced
 * (RFC 6581) parameters, is parsed by {@link MpaStartFrame} and passed on as it is.
 */
final class MpaStartup {
    private final MpaListener listener;
    private final MpaDecoder.Options options;
    private final FpduSearch search;

    MpaStartup(MpaListener listener, MpaDecoder.Options options, FpduSearch search) {
        this.listener = listener;
        this.options = options;
        this.search = search;
    }

    /**
     * START: takes the MPA Request or Reply at the start of the window, or finds there is none.
     *
     * @return octets consumed (> 0); 0 when only the state changed; -n when at least n window octets are needed
     */
    int step(MpaConn c, MpaSide s, ByteBuffer w, int wp, int wl) {
        if (wl < MpaStartFrame.KEY_LENGTH) return -MpaStartFrame.KEY_LENGTH;
        int match = MpaStartFrame.matchKey(w, wp);
        if (match == 0) {
            startUnseen(c, s, s.frameAt(s.next), "the direction does not start with an MPA key");
            return 0;
        }
        if (wl < MpaStartFrame.HEADER_LENGTH) return -MpaStartFrame.HEADER_LENGTH;
        int total = MpaStartFrame.HEADER_LENGTH + (w.getShort(wp + 18) & 0xFFFF);   // RFC 5044 §7.1.1 PD_Length
        if (wl < total) return -total;
        MpaStartFrame f;
        try {
            f = MpaStartFrame.parse(w.slice(wp, total));
        } catch (MalformedException e) {
            startUnseen(c, s, s.frameAt(s.next), e.getMessage());
            return 0;
        }
        MpaSide peer = c.peer(s);
        // a damaged key read as a Request, sent in answer to a Request, can only be the Reply
        if (!f.keyValid() && f.kind() == MpaStartFrame.Kind.REQUEST && peer.sent != null
                && peer.sent.kind() == MpaStartFrame.Kind.REQUEST) {
            f = new MpaStartFrame(MpaStartFrame.Kind.REPLY, false, f.markers(), f.crc(), f.reject(), f.reserved(),
                    f.revision(), f.pdLength(), f.privateData(), f.enhanced());
        }
        long at = s.next;
        long first = s.frameAt(at), last = s.frameAt(at + total - 1);
        s.sent = f;
        s.fpduStart = at + total;
        s.state = State.HOLD;
        listener.onStartFrame(c.tcp, s.dir, f, at, first, last);
        if (!f.keyValid()) {
            c.notice(listener, Severity.WARNING, first, at, "MPA key \"" + ascii(w, wp, MpaStartFrame.KEY_LENGTH)
                    + "\" is not the exact " + f.kind().name().toLowerCase() + " key (RFC 5044 §7.1.1)");
        }
        if (f.pdLength() > MpaStartFrame.MAX_PRIVATE_DATA) {
            c.notice(listener, Severity.WARNING, first, at, "PD_Length " + f.pdLength() + " exceeds "
                    + MpaStartFrame.MAX_PRIVATE_DATA + " (RFC 5044 §7.1.1)");
        }
        if (f.kind() == MpaStartFrame.Kind.REPLY && f.reject()) {
            c.notice(listener, Severity.INFO, last, at, "MPA Reply rejects the connection (R bit)");
        }
        resolve(c);
        return total;
    }

    /** Settles the FPDU rules of each side whose start frame is known, once the other side's frame is known too. */
    void resolve(MpaConn c) {
        resolveSide(c, c.c2s);
        resolveSide(c, c.s2c);
    }

    private void resolveSide(MpaConn c, MpaSide x) {
        if (x.sent == null || x.paramsKnown || (x.state != State.HOLD && x.state != State.SEARCH)) return;
        MpaSide y = c.peer(x);
        if (y.sent != null) {
            if (y.sent.kind() == x.sent.kind()) {
                if (!c.pairNoticed) {
                    c.pairNoticed = true;
                    c.notice(listener, Severity.WARNING, x.lastFrame, -1, "both directions sent an MPA "
                            + (x.sent.kind() == MpaStartFrame.Kind.REQUEST ? "Request" : "Reply"));
                }
                if (x.state == State.HOLD) {
                    search.enter(c, x, true, "FPDU parameters of this direction cannot be negotiated; inferring");
                }
                return;
            }
            MpaStartFrame req = x.sent.kind() == MpaStartFrame.Kind.REQUEST ? x.sent : y.sent;
            MpaStartFrame rep = req == x.sent ? y.sent : x.sent;
            if (rep.reject()) {
                x.state = State.IDLE;
                return;
            }
            // RFC 5044 §7.1.1: M in the frame the peer sent asks for Markers on what this side sends; C in either
            // frame switches CRCs on for both directions. §4.3: first Marker right before the first FPDU.
            x.markers = y.sent.markers();
            x.markerBase = x.fpduStart;
            x.crc = req.crc() || rep.crc();
            x.crcKnown = true;
            x.paramsKnown = true;
            x.inferred = false;
            if (x.state == State.HOLD) {
                x.state = State.FRAMING;
                x.kick = true;
            }
            return;
        }
        if (x.state == State.HOLD && (y.closed || y.state == State.SEARCH || y.state == State.FRAMING
                || y.state == State.IDLE)) {
            search.enter(c, x, true, "the other direction has no MPA start frame; inferring this direction's FPDU "
                    + "parameters");
        }
    }

    /** The direction has no start frame to read (not captured, or not MPA's): its FPDU rules must be inferred. */
    void startUnseen(MpaConn c, MpaSide s, long frame, String why) {
        s.state = State.SEARCH;
        s.knownStart = false;
        s.scanFrom = s.next;
        c.notice(listener, Severity.INFO, frame, s.next, why
                + ": no MPA handshake, inferring MPA parameters from the FPDUs");
        resolve(c);
    }

    /**
     * HOLD: this direction's start frame was taken, its FPDU rules wait for the peer's (RFC 5044 §7.1.1: the Marker
     * rule of a direction is in the frame the other side sent). Holding is bounded by one search window.
     */
    int hold(MpaConn c, MpaSide s, int wl) {
        if (wl >= options.searchWindow()) {
            search.enter(c, s, true, "no MPA start frame from the other side after " + wl
                    + " octets of this one; inferring its FPDU parameters");
            return 0;
        }
        return -options.searchWindow();
    }

    private static String ascii(ByteBuffer w, int p, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int ch = u8(w, p + i);
            sb.append(ch >= 0x20 && ch < 0x7F ? String.valueOf((char) ch) : "\\x" + HexFormat.of().toHexDigits((byte) ch));
        }
        return sb.toString();
    }
}
