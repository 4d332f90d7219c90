package io.rddp.mpa;

import io.rddp.Plural;
import io.rddp.Notice.Severity;
import io.rddp.mpa.MpaSide.State;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static io.rddp.mpa.MpaFraming.CRC_LENGTH;
import static io.rddp.mpa.MpaFraming.MARKER_INTERVAL;
import static io.rddp.mpa.MpaFraming.MARKER_LENGTH;
import static io.rddp.mpa.MpaFraming.MARKER_SPAN;
import static io.rddp.mpa.MpaFraming.MAX_WIRE;
import static io.rddp.mpa.MpaFraming.NO_MARKERS;
import static io.rddp.mpa.MpaFraming.crcField;
import static io.rddp.mpa.MpaFraming.logicalLength;
import static io.rddp.mpa.MpaFraming.markerCount;
import static io.rddp.mpa.MpaFraming.markerDistance;
import static io.rddp.mpa.MpaFraming.u8;
import static io.rddp.mpa.MpaFraming.wireIndex;

/**
 * Finds FPDU boundaries where they are not known (state SEARCH): when the MPA handshake was not captured, and after
 * framing was lost (a TCP gap, an FPDU that fails its CRC or Markers and carries no DDP header).
 *
 * <p>A candidate boundary must hold a ULPDU_Length followed by a DDP/RDMAP header DDP could send, and several
 * consecutive FPDUs must agree (Markers pointing where they should, CRCs matching) before the decoder locks on. With
 * the parameters unknown, both "no Markers" and every Marker phase the window's Markers show are tried (RFC 5044
 * §4.2, §4.3), and what locks is reported as inferred. A chain is strong enough to lock on when Markers or CRCs
 * confirmed it, or when it is long enough that Markers would have broken it; with weaker evidence the search waits
 * for more octets, up to a full window or the end of the direction.
 */
final class FpduSearch {
    /** Longest chain followed from one candidate boundary. */
    static final int MAX_CHAIN = 16;
    private static final int NO_PHASE = -1;
    private static final int SKIP = -2;
    /** A Marker-free chain this long crosses two Marker positions, so Markers would have broken it. */
    private static final int STRONG_SPAN = 2 * MARKER_INTERVAL + 76;
    /** Smallest DDP header: tagged, RFC 5041 §4.2. */
    private static final int MIN_ULPDU = 14;
    private static final int MAX_SEARCH = MpaDecoder.MAX_SEARCH;

    private static final int FAIL = 0, INCOMPLETE = 1, TILED = 2, ENOUGH = 3;

    private final MpaListener listener;
    private final MpaDecoder.Options options;
    private final CRC32C crc32c = new CRC32C();
    private final Chain chain = new Chain();
    private final Chain best = new Chain();
    private final Chain weak = new Chain();

    FpduSearch(MpaListener listener, MpaDecoder.Options options) {
        this.listener = listener;
        this.options = options;
    }

    /**
     * Starts searching for FPDU boundaries at {@code s.next}.
     *
     * @param knownStart an FPDU should start right there (after a start frame): tried first, before any offset
     * @param why        info notice to give, or null
     */
    void enter(MpaConn c, MpaSide s, boolean knownStart, String why) {
        s.state = State.SEARCH;
        s.knownStart = knownStart;
        s.scanFrom = s.next;
        s.kick = true;
        if (!s.paramsKnown && !s.crcKnown && s.sent != null && s.sent.crc()) {
            s.crcKnown = true;      // C = 1 in either frame means CRCs in both directions (RFC 5044 §7.1.1)
            s.crc = true;
        }
        if (why != null) {
            c.notice(listener, Severity.INFO, s.lastFrame, s.next, why);
        }
    }

    /**
     * Looks for the first FPDU boundary in the window {@code w[wp, wp+wl)}, which starts at stream offset
     * {@code s.next}; locks on (state FRAMING) when the evidence suffices.
     *
     * @return octets to skip (> 0); 0 when only the state changed; -n when at least n window octets are needed
     */
    int step(MpaConn c, MpaSide s, ByteBuffer w, int wp, int wl) {
        int cap = options.searchWindow();
        boolean full = wl >= cap, fin = s.finishing;
        long ws = s.next;
        if (s.knownStart) {
            boolean open = false;
            for (int h = 0; h < 2; h++) {
                int phase = knownStartPhase(s, ws, h);
                if (phase == SKIP) continue;
                runChain(w, wp, wl, ws, 0, phase, null, chain);
                if (chain.count >= 1) {
                    lock(c, s, ws, 0, phase, chain, false);
                    return 0;
                }
                open |= chain.status == INCOMPLETE;
            }
            if (open && !full && !fin) return -cap;
            c.notice(listener, Severity.WARNING, s.frameAt(ws), ws, "no plausible FPDU at offset " + ws
                    + " where the first one should start; searching");
            s.knownStart = false;
            s.scanFrom = ws;
            return 0;
        }

        Boolean crcRule = s.crcKnown ? Boolean.valueOf(s.crc) : options.crc();
        int foundRel = -1, foundPhase = NO_PHASE, weakRel = -1, weakPhase = NO_PHASE, undecided = -1;

        // Boundaries under "no Markers" or under the Marker phase already known, tried at every offset.
        int linPhase = s.paramsKnown ? (s.markers ? phaseOf(s.markerBase) : NO_PHASE)
                : Boolean.TRUE.equals(options.markers()) ? SKIP : NO_PHASE;
        if (linPhase != SKIP) {
            boolean advancing = true;
            for (int rel = (int) Math.max(0, s.scanFrom - ws); rel < wl; rel++) {
                if (linPhase != NO_PHASE) {
                    int d = markerDistance(ws + rel, linPhase);
                    if (d >= MARKER_SPAN) {   // inside a Marker or right after it: no FPDU extent starts there
                        if (advancing) s.scanFrom = ws + rel + 1;
                        continue;
                    }
                }
                runChain(w, wp, wl, ws, rel, linPhase, crcRule, chain);
                if (strong(chain, linPhase, s.paramsKnown)) {
                    foundRel = rel;
                    foundPhase = linPhase;
                    best.copy(chain);
                    break;
                }
                boolean open = chain.status == INCOMPLETE || chain.status == TILED;
                if (open) {
                    if (chain.count >= 1 && weakRel < 0) {
                        weakRel = rel;
                        weakPhase = linPhase;
                        weak.copy(chain);
                    }
                    if (undecided < 0) undecided = rel;
                    advancing = false;
                    if (!full && !fin) break;     // an earlier boundary may still prove itself
                } else if (advancing) {
                    s.scanFrom = ws + rel + 1;
                }
            }
        }

        // Unknown Marker phase: Markers show themselves as zero reserved halves every 512 octets, and their
        // FPDUPTRs name FPDU starts (RFC 5044 §4.2, §4.3).
        if (!s.paramsKnown && !Boolean.FALSE.equals(options.markers())
                && wl >= MARKER_INTERVAL + MARKER_LENGTH) {
            for (int phase = 0; phase < MARKER_INTERVAL; phase++) {
                int r0 = markerDistance(ws, phase);
                if (r0 + MARKER_INTERVAL + MARKER_LENGTH > wl || !markerSignature(w, wp, wl, r0)) continue;
                int tried = 0;
                for (int m = r0; m + MARKER_LENGTH <= wl && tried < 4; m += MARKER_INTERVAL) {
                    int ptr = w.getShort(wp + m + 2) & 0xFFFF;
                    int rel;
                    if (ptr == 0) {
                        rel = m;
                    } else {
                        int hdr = m - ptr;
                        if (hdr < 0) continue;
                        rel = hdr >= MARKER_LENGTH && markerDistance(ws + hdr - MARKER_LENGTH, phase) == 0
                                ? hdr - MARKER_LENGTH : hdr;
                    }
                    if (foundRel >= 0 && rel >= foundRel) break;
                    tried++;
                    runChain(w, wp, wl, ws, rel, phase, crcRule, chain);
                    if (strong(chain, phase, false)) {
                        foundRel = rel;
                        foundPhase = phase;
                        best.copy(chain);
                        break;
                    }
                    if (chain.status == INCOMPLETE || chain.status == TILED) {
                        if (chain.count >= 1 && (weakRel < 0 || rel < weakRel)) {
                            weakRel = rel;
                            weakPhase = phase;
                            weak.copy(chain);
                        }
                        if (undecided < 0 || rel < undecided) undecided = rel;
                    }
                }
            }
        }

        if (foundRel >= 0 && (undecided < 0 || foundRel <= undecided || full || fin)) {
            lock(c, s, ws, foundRel, foundPhase, best, false);
            return foundRel;
        }
        if (!full && !fin) return -cap;
        if (weakRel >= 0) {
            lock(c, s, ws, weakRel, weakPhase, weak, true);
            return weakRel;
        }
        int drop = fin ? wl : undecided > 0 ? undecided : Math.max(1, wl - MAX_WIRE);
        s.skipped += drop;
        if (!fin && s.skipped > MAX_SEARCH) {
            // Not MPA (or MPA lost beyond recovery): searching every offset of endless non-FPDU bytes would cost
            // far more than decoding, so the direction is let go, as after a rejected connection.
            c.notice(listener, Severity.WARNING, s.frameAt(ws), ws, "no FPDU framing found in "
                    + Plural.of(s.skipped, "octet")
                    + " (search cap " + MAX_SEARCH + "): the rest of this direction is not decoded as MPA");
            s.skipped = 0;
            s.state = State.IDLE;
            s.idleNoticed = true;
        }
        if (fin) {
            c.notice(listener, Severity.WARNING, s.frameAt(ws), ws,
                    Plural.of(s.skipped, "octet") + " could not be framed as FPDUs");
            s.skipped = 0;
        }
        return drop;
    }

    private int knownStartPhase(MpaSide s, long ws, int h) {
        if (s.paramsKnown) {
            return h == 0 ? (s.markers ? phaseOf(s.markerBase) : NO_PHASE) : SKIP;
        }
        if (h == 0) return Boolean.TRUE.equals(options.markers()) ? SKIP : NO_PHASE;
        return Boolean.FALSE.equals(options.markers()) ? SKIP : phaseOf(ws);
    }

    private static int phaseOf(long markerBase) {
        return (int) Math.floorMod(markerBase, (long) MARKER_INTERVAL);
    }

    private boolean strong(Chain ch, int phase, boolean paramsKnown) {
        if (ch.count >= MAX_CHAIN || ch.validCrc >= 2) return true;
        if (ch.count < options.lockFpdus()) return false;
        if (paramsKnown) return true;
        return phase != NO_PHASE ? ch.markersVerified >= 1 : ch.span >= STRONG_SPAN;
    }

    /** Every 4-octet word at a candidate Marker position in the window has a zero reserved half, FPDUPTR % 4 == 0. */
    private static boolean markerSignature(ByteBuffer w, int wp, int wl, int r0) {
        for (int m = r0; m + MARKER_LENGTH <= wl; m += MARKER_INTERVAL) {
            if (w.getShort(wp + m) != 0 || (w.get(wp + m + 3) & 3) != 0) return false;
        }
        return true;
    }

    private void lock(MpaConn c, MpaSide s, long ws, int rel, int phase, Chain ch, boolean weakEvidence) {
        long at = ws + rel;
        boolean guessed = !s.paramsKnown;
        if (guessed) {
            s.markers = phase != NO_PHASE;
            s.markerBase = s.markers ? at + markerDistance(at, phase) : -1;
            if (!s.crcKnown) {
                s.crc = options.crc() != null ? options.crc() : 2 * ch.validCrc > ch.count;
                s.crcKnown = true;
            }
            s.paramsKnown = true;
            s.inferred = true;
        }
        s.state = State.FRAMING;
        s.knownStart = false;
        long skipped = s.skipped + rel;
        s.skipped = 0;
        StringBuilder msg = new StringBuilder();
        if (guessed) {
            msg.append("MPA parameters inferred from ").append(ch.count).append(" FPDU(s)")
                    .append(weakEvidence ? " (weak evidence)" : "").append(": markers ")
                    .append(s.markers ? "on, first at offset " + s.markerBase : "off")
                    .append(", CRC ").append(s.crc ? "on" : "off");
        } else {
            msg.append("FPDU framing regained");
        }
        msg.append("; first FPDU at offset ").append(at);
        if (skipped > 0) msg.append(", ").append(skipped).append(" octets skipped");
        c.notice(listener, Severity.INFO, s.frameAt(at), at, msg.toString());
    }

    /**
     * Follows FPDUs from window offset {@code rel} under one hypothesis (Marker phase or none) while each looks like
     * an FPDU DDP could have sent, up to {@link #MAX_CHAIN}.
     *
     * @param crcRule TRUE: a bad CRC ends the chain; FALSE: CRCs not looked at; null: counted only
     */
    private void runChain(ByteBuffer w, int wp, int wl, long ws, int rel, int phase, Boolean crcRule, Chain ch) {
        ch.reset();
        while (true) {
            int avail = wl - rel;
            int d0 = phase == NO_PHASE ? NO_MARKERS : markerDistance(ws + rel, phase);
            int base = wp + rel;
            if (avail <= wireIndex(11, d0)) {        // ULPDU_Length and DDP header up to the QN
                ch.status = INCOMPLETE;
                return;
            }
            int ulpduLength = (u8(w, base + wireIndex(0, d0)) << 8) | u8(w, base + wireIndex(1, d0));
            if (ulpduLength < MIN_ULPDU) {
                ch.status = FAIL;
                return;
            }
            long qn = 0;
            for (int k = 8; k < 12; k++) qn = (qn << 8) | u8(w, base + wireIndex(k, d0));
            if (!plausibleDdp(u8(w, base + wireIndex(2, d0)), u8(w, base + wireIndex(3, d0)), ulpduLength, qn)) {
                ch.status = FAIL;
                return;
            }
            int logical = logicalLength(ulpduLength);
            int markers = markerCount(logical, d0);
            int wire = logical + MARKER_LENGTH * markers;
            int hdr = wireIndex(0, d0);
            for (int j = 0; j < markers; j++) {
                int m = d0 + j * MARKER_INTERVAL;
                if (m + MARKER_LENGTH > avail) break;
                int ptr = w.getShort(base + m + 2) & 0xFFFF;
                if (w.getShort(base + m) != 0 || (ptr & ~3) != (m == 0 ? 0 : m - hdr)) {
                    ch.status = FAIL;
                    return;
                }
                ch.markersVerified++;
            }
            if (wire > avail) {
                ch.status = INCOMPLETE;
                return;
            }
            if (!Boolean.FALSE.equals(crcRule)) {
                int crcAt = wireIndex(logical - CRC_LENGTH, d0);
                boolean ok = MpaFraming.crc32c(crc32c, w, base, crcAt) == crcField(w, base, logical, d0);
                if (ok) {
                    ch.validCrc++;
                } else if (Boolean.TRUE.equals(crcRule)) {
                    ch.status = FAIL;
                    return;
                }
            }
            ch.count++;
            ch.span += wire;
            rel += wire;
            if (rel == wl) {
                ch.status = TILED;
                return;
            }
            if (ch.count >= MAX_CHAIN) {
                ch.status = ENOUGH;
                return;
            }
        }
    }

    static boolean plausibleHeader(ByteBuffer w, int wp, int d0, int ulpduLength) {
        if (ulpduLength < MIN_ULPDU) return false;
        long qn = 0;
        for (int k = 8; k < 12; k++) qn = (qn << 8) | u8(w, wp + wireIndex(k, d0));
        return plausibleDdp(u8(w, wp + wireIndex(2, d0)), u8(w, wp + wireIndex(3, d0)), ulpduLength, qn);
    }

    /**
     * Whether a ULPDU could start with this DDP/RDMAP header. RFC 5041 §4.1: DV = 1, Rsvd zero; RFC 5040 §4 (RDMAP
     * control, carried in DDP's RsvdULP): RV = 1, RSV zero, opcode 0..11 (RFC 5040, RFC 7306). Tagged (RFC 5041
     * §4.2, 14-octet header): RDMA Write or Read Response; untagged (§4.3, 18 octets): the rest, QN 0..3.
     */
    static boolean plausibleDdp(int ddpControl, int rdmapControl, int ulpduLength, long qn) {
        if ((ddpControl & 0x03) != 1 || (ddpControl & 0x3C) != 0) return false;
        if ((rdmapControl & 0xC0) != 0x40 || (rdmapControl & 0x30) != 0) return false;
        int opcode = rdmapControl & 0x0F;
        if ((ddpControl & 0x80) != 0) {
            return (opcode == 0 || opcode == 2) && ulpduLength >= 14;
        }
        return opcode != 0 && opcode != 2 && opcode <= 11 && ulpduLength >= 18 && qn <= 3;
    }

    /** What one run of FPDUs from a candidate boundary showed. */
    private static final class Chain {
        int count, validCrc, markersVerified, status;
        long span;

        void reset() {
            count = validCrc = markersVerified = 0;
            status = FAIL;
            span = 0;
        }

        void copy(Chain o) {
            count = o.count;
            validCrc = o.validCrc;
            markersVerified = o.markersVerified;
            status = o.status;
            span = o.span;
        }
    }
}
