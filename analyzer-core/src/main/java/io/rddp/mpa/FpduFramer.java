package io.rddp.mpa;

import io.rddp.Notice.Severity;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static io.rddp.mpa.MpaFraming.CRC_LENGTH;
import static io.rddp.mpa.MpaFraming.LENGTH_FIELD;
import static io.rddp.mpa.MpaFraming.MARKER_INTERVAL;
import static io.rddp.mpa.MpaFraming.MARKER_LENGTH;
import static io.rddp.mpa.MpaFraming.MARKER_SPAN;
import static io.rddp.mpa.MpaFraming.NO_MARKERS;
import static io.rddp.mpa.MpaFraming.crcField;
import static io.rddp.mpa.MpaFraming.logicalLength;
import static io.rddp.mpa.MpaFraming.markerCount;
import static io.rddp.mpa.MpaFraming.markerDistance;
import static io.rddp.mpa.MpaFraming.padLength;
import static io.rddp.mpa.MpaFraming.u8;
import static io.rddp.mpa.MpaFraming.wireIndex;

/**
 * Takes FPDUs off a direction whose FPDU parameters are known (state FRAMING; RFC 5044 §4): reads ULPDU_Length,
 * checks CRC, Markers and PAD, takes the Markers out of the ULPDU and hands the {@link Fpdu} to the listener. The
 * hot path of the decoder: no allocation per FPDU unless views must be detached, and a Marker-free ULPDU is a view of
 * the window it was found in.
 */
final class FpduFramer {
    private final MpaListener listener;
    private final FpduSearch search;
    private final CRC32C crc32c = new CRC32C();
    /** See {@link MpaDecoder#detachViews}. */
    boolean detached;

    FpduFramer(MpaListener listener, FpduSearch search) {
        this.listener = listener;
        this.search = search;
    }

    /**
     * Takes the FPDU at the start of the window {@code w[wp, wp+wl)} (stream offset {@code s.next}).
     *
     * @return octets consumed (> 0); 0 when framing was lost (now searching); -n when at least n window octets are
     * needed
     */
    int step(MpaConn c, MpaSide s, ByteBuffer w, int wp, int wl) {
        long p = s.next;
        int d0 = s.markers ? markerDistance(p, s.markerBase) : NO_MARKERS;
        int i1 = wireIndex(1, d0);
        if (wl <= i1) return -(i1 + 1);
        // RFC 5044 §4.1, network order. Any value frames a well-formed FPDU, so with known parameters the field
        // is trusted; a wrong one shows up as a bad CRC or Marker on a header DDP could not have sent (below).
        int ulpduLength = (u8(w, wp + wireIndex(0, d0)) << 8) | u8(w, wp + i1);
        int logical = logicalLength(ulpduLength);
        int markers = markerCount(logical, d0);
        int wire = logical + MARKER_LENGTH * markers;
        if (wl < wire) return -wire;
        return emitFpdu(c, s, w, wp, p, d0, ulpduLength, logical, markers, wire);
    }

    private int emitFpdu(MpaConn c, MpaSide s, ByteBuffer w, int wp, long p, int d0, int ulpduLength, int logical,
                         int markers, int wire) {
        int hdr = wireIndex(0, d0);
        long offset = p + hdr;
        long lastFrame = s.frameAt(p + wire - 1);
        int crcAt = wireIndex(logical - CRC_LENGTH, d0);
        long field = crcField(w, wp, logical, d0);
        Boolean ok = null;
        long computed = 0;
        if (s.crc) {
            // RFC 5044 §4.4: over the whole FPDU before the CRC field, Markers included
            computed = MpaFraming.crc32c(crc32c, w, wp, crcAt);
            ok = computed == field;
        }
        int badMarkers = 0;
        for (int j = 0; j < markers; j++) {
            int m = d0 + j * MARKER_INTERVAL;
            int ptr = w.getShort(wp + m + 2) & 0xFFFF;
            // RFC 5044 §4.2: FPDUPTR counts from ULPDU_Length back to the Marker, low 2 bits taken as zero;
            // §4.3: a Marker between FPDUs is zero
            int expected = m == 0 ? 0 : m - hdr;
            if ((ptr & ~3) != expected) {
                badMarkers++;
                String detail = "Marker FPDUPTR " + ptr + " should be " + expected + " for the FPDU at offset "
                        + offset + " (RFC 5044 §4.2, §4.3)";
                c.notice(listener, Severity.WARNING, s.frameAt(p + m), p + m, detail);
                // RFC 5044 §8 code 3 is the error "In the event that the CRC is valid": an FPDU whose CRC fails is
                // code 2 (its Markers are part of what the CRC rejects), reported when the FPDU is passed on
                if (!Boolean.FALSE.equals(ok)) listener.onMarkerError(c.tcp, s.dir, p + m, s.frameAt(p + m), detail);
            }
        }
        if ((Boolean.FALSE.equals(ok) || badMarkers > 0) && !FpduSearch.plausibleHeader(w, wp, d0, ulpduLength)) {
            c.notice(listener, Severity.WARNING, s.frameAt(offset), offset, "FPDU at offset " + offset + " fails its "
                    + (badMarkers > 0 ? "Markers" : "CRC") + " and carries no DDP header: framing lost, searching "
                    + "for the next FPDU");
            search.enter(c, s, false, null);
            return 0;
        }
        if (Boolean.FALSE.equals(ok)) {
            c.notice(listener, Severity.WARNING, lastFrame, offset, String.format("FPDU at offset %d: CRC field "
                    + "0x%08x, "
                    + "computed CRC32c 0x%08x (RFC 5044 §4.4)", offset, field, computed));
        }
        int pad = padLength(ulpduLength);
        boolean padZero = true;
        for (int k = LENGTH_FIELD + ulpduLength; k < LENGTH_FIELD + ulpduLength + pad; k++) {
            if (w.get(wp + wireIndex(k, d0)) != 0) {
                padZero = false;
                break;
            }
        }
        if (!padZero && !s.padNoticed) {
            s.padNoticed = true;
            c.notice(listener, Severity.WARNING, lastFrame, offset, "FPDU at offset " + offset + ": PAD octets are not "
                    + "zero (RFC 5044 §4.1); later ones in this direction are not reported");
        }
        ByteBuffer ulpdu;
        if (markers == 0) {
            ulpdu = w.slice(wp + hdr + LENGTH_FIELD, ulpduLength);
            if (detached && w == s.view) { // the side buffer is rewritten by the next FPDU
                byte[] own = new byte[ulpduLength];
                ulpdu.get(0, own);
                ulpdu = ByteBuffer.wrap(own);
            }
        } else {
            if (s.ulpduBuf == null || detached) {
                s.ulpduBuf = new byte[detached ? ulpduLength : MpaFraming.MAX_ULPDU];
            }
            int k = LENGTH_FIELD, dst = 0;
            while (dst < ulpduLength) {
                int run = k < d0 ? d0 - k : MARKER_SPAN - (k - d0) % MARKER_SPAN;
                run = Math.min(run, ulpduLength - dst);
                w.get(wp + wireIndex(k, d0), s.ulpduBuf, dst, run);
                k += run;
                dst += run;
            }
            ulpdu = ByteBuffer.wrap(s.ulpduBuf).slice(0, ulpduLength);
        }
        Fpdu f = new Fpdu(offset, s.frameAt(offset), lastFrame, ulpduLength, ulpdu, pad, markers, s.crc, field,
                ok, s.inferred, padZero);
        listener.onFpdu(c.tcp, s.dir, f);
        return wire;
    }
}
