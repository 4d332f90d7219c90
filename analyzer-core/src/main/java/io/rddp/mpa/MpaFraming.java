package io.rddp.mpa;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * FPDU geometry shared by {@link MpaDecoder} and {@link FpduEncoder}: one definition of where PAD, CRC and Markers go.
 *
 * <p>"Logical" bytes are the FPDU without Markers: ULPDU_Length, ULPDU, PAD, CRC (RFC 5044 §4.1). "Wire" bytes are
 * what TCP carries: the logical bytes with a 4-octet Marker in front of every logical byte that sits at a Marker
 * position. A Marker belongs to the FPDU whose next logical byte follows it, so a Marker that falls between two FPDUs
 * is the first 4 wire octets of the second one (its FPDUPTR is 0, RFC 5044 §4.3) and is covered by that FPDU's CRC,
 * as Wireshark's dissector and the OSC software iWARP stack also count it; a Marker right before the CRC field is
 * covered by the CRC of the FPDU it sits in.
 */
final class MpaFraming {
    /** RFC 5044 §4.3: a Marker every 512 octets of the TCP stream. */
    static final int MARKER_INTERVAL = 512;
    /** RFC 5044 §4.2: 16-bit reserved + 16-bit FPDUPTR. */
    static final int MARKER_LENGTH = 4;
    /** Logical bytes between two Markers. */
    static final int MARKER_SPAN = MARKER_INTERVAL - MARKER_LENGTH;
    /** RFC 5044 §4.1: ULPDU_Length is 16 bits. */
    static final int LENGTH_FIELD = 2;
    /** RFC 5044 §4.1: the CRC field is always on the wire, whether or not CRCs were negotiated. */
    static final int CRC_LENGTH = 4;
    static final int MAX_ULPDU = 0xFFFF;
    /** Sentinel distance to the next Marker when Markers are off. */
    static final int NO_MARKERS = Integer.MAX_VALUE;
    static final int MAX_LOGICAL = logicalLength(MAX_ULPDU);
    /** Largest possible FPDU on the wire: 65544 logical octets and 130 Markers. */
    static final int MAX_WIRE = MAX_LOGICAL + MARKER_LENGTH * markerCount(MAX_LOGICAL, 0);

    private MpaFraming() {
    }

    /** RFC 5044 §4.1: PAD makes ULPDU_Length + ULPDU + PAD a multiple of 4. */
    static int padLength(int ulpduLength) {
        return -(LENGTH_FIELD + ulpduLength) & 3;
    }

    /** Logical FPDU length: ULPDU_Length, ULPDU, PAD and CRC. */
    static int logicalLength(int ulpduLength) {
        return LENGTH_FIELD + ulpduLength + padLength(ulpduLength) + CRC_LENGTH;
    }

    /**
     * Octets from {@code offset} to the first Marker position at or after it. RFC 5044 §4.3 places Markers at
     * SeqStart + 512*k where SeqStart is the sequence number of the first octet of the first FPDU; because 2^32 is a
     * multiple of 512 this is the same as stream offsets ≡ {@code markerBase} (mod 512), so the ISN drops out.
     */
    static int markerDistance(long offset, long markerBase) {
        return (int) Math.floorMod(markerBase - offset, (long) MARKER_INTERVAL);
    }

    /** Markers inside an FPDU of {@code logical} octets whose first Marker is {@code d0} wire octets in. */
    static int markerCount(int logical, int d0) {
        return logical > d0 ? 1 + (logical - d0 - 1) / MARKER_SPAN : 0;
    }

    /** Wire index (from the FPDU's first wire octet) of logical byte {@code k}. */
    static int wireIndex(int k, int d0) {
        if (k < d0) {
            return k;
        }
        int past = k - d0;
        return d0 + MARKER_LENGTH + (past / MARKER_SPAN) * MARKER_INTERVAL + past % MARKER_SPAN;
    }

    /** Wire length of an FPDU carrying {@code ulpduLength} octets that starts {@code d0} octets before a Marker. */
    static int wireLength(int ulpduLength, int d0) {
        int logical = logicalLength(ulpduLength);
        return logical + MARKER_LENGTH * markerCount(logical, d0);
    }

    /**
     * CRC-32C (Castagnoli) of {@code len} bytes of {@code buf} from absolute index {@code from}. The result is the
     * standard CRC-32C value (0xE3069283 for "123456789").
     */
    static long crc32c(CRC32C crc, ByteBuffer buf, int from, int len) {
        crc.reset();
        if (buf.hasArray()) {
            crc.update(buf.array(), buf.arrayOffset() + from, len);
        } else {
            crc.update(buf.slice(from, len));
        }
        return crc.getValue();
    }

    /** The CRC field read least significant octet first (RFC 5044 §4.4 via iSCSI; see {@link Fpdu}). */
    static long crcField(ByteBuffer w, int base, int logical, int d0) {
        long v = 0;
        for (int i = 0; i < CRC_LENGTH; i++) {
            v |= (long) u8(w, base + wireIndex(logical - CRC_LENGTH + i, d0)) << (8 * i);
        }
        return v;
    }

    static int u8(ByteBuffer w, int index) {
        return w.get(index) & 0xFF;
    }
}
