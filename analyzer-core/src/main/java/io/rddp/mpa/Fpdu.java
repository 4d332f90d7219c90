package io.rddp.mpa;

import java.nio.ByteBuffer;

/**
 * One Framed PDU (RFC 5044 §4.1). A record for convenience, but {@link #ulpdu()} is a view valid only during
 * the {@link MpaListener#onFpdu} call: copy what must outlive it.
 *
 * <p>CRC byte order: RFC 5044 §4.4 takes CRC32c from iSCSI, whose digest goes on the wire least significant octet
 * first (RFC 3720 §B.4: 32 zero octets give "aa 36 91 8a", CRC-32C 0x8A9136AA). siw writes it that way and tshark's
 * "Good CRC32" agrees. {@link #crc} is therefore the CRC-32C value read little-endian (equal to
 * {@link java.util.zip.CRC32C#getValue()} when good); {@link #crcWireOrder()} is the same four octets read
 * big-endian, which is what tshark prints as {@code iwarp_mpa.crc}/{@code crc_check}.
 *
 * @param offset      TCP stream offset of the FPDU's first octet (its ULPDU_Length field; a Marker in front of it
 *                    is counted in {@link #markerCount} but not in this offset)
 * @param firstFrame  frame that carried that first octet
 * @param frame       frame that completed the FPDU (its last octet, CRC included)
 * @param ulpduLength the ULPDU_Length field
 * @param ulpdu       the ULPDU with any Markers removed: exactly ulpduLength bytes
 * @param padLength   0..3 octets of PAD
 * @param markerCount Markers found inside this FPDU (including one right in front of its ULPDU_Length)
 * @param crcPresent  whether CRCs were negotiated (or inferred) for this direction, so that the CRC field was
 *                    checked. The 4-octet field itself is always on the wire (RFC 5044 §4.1)
 * @param crc         the CRC field as a 32-bit unsigned value in CRC-32C order (see above), also when not checked
 * @param crcOk       null when not checked, else whether it matched
 * @param inferred    true when MPA parameters were guessed (capture started after the handshake)
 * @param padZero     every PAD octet is zero, as RFC 5044 §4.1 requires of the sender
 */
public record Fpdu(long offset, long firstFrame, long frame, int ulpduLength, ByteBuffer ulpdu, int padLength,
                   int markerCount, boolean crcPresent, long crc, Boolean crcOk, boolean inferred, boolean padZero) {

    /** Octets this FPDU took on the wire: ULPDU_Length, ULPDU, PAD, CRC and Markers. */
    public int wireLength() {
        return MpaFraming.LENGTH_FIELD + ulpduLength + padLength + MpaFraming.CRC_LENGTH
                + MpaFraming.MARKER_LENGTH * markerCount;
    }

    /** The CRC field's four octets read big-endian, as tshark shows them. */
    public long crcWireOrder() {
        return Integer.reverseBytes((int) crc) & 0xFFFFFFFFL;
    }

    /** PAD octets for a ULPDU of this length (RFC 5044 §4.1). */
    public static int padLength(int ulpduLength) {
        return MpaFraming.padLength(ulpduLength);
    }
}
