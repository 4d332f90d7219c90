package io.rddp.mpa;

import java.nio.ByteBuffer;

/**
 * One Framed PDU (RFC 5044 §4.1). A record for convenience, but {@link #ulpdu()} is a view valid only during
 * the {@link MpaListener#onFpdu} call: copy what must outlive it.
 *
 * @param offset            TCP stream offset of the FPDU's first octet (its ULPDU_Length field)
 * @param firstFrame        frame that carried that first octet
 * @param frame             frame that completed the FPDU (its last octet, CRC included)
 * @param ulpduLength       the ULPDU_Length field
 * @param ulpdu             the ULPDU with any Markers removed: exactly ulpduLength bytes
 * @param padLength         0..3 octets of PAD
 * @param markerCount       Markers found inside this FPDU
 * @param crcPresent        whether the CRC field was negotiated for this direction
 * @param crc               the CRC field as a 32-bit unsigned value, 0 when absent (byte order: see MpaDecoder)
 * @param crcOk             null when absent or not checked, else whether it matched
 * @param inferred          true when MPA parameters were guessed (capture started after the handshake)
 */
public record Fpdu(long offset, long firstFrame, long frame, int ulpduLength, ByteBuffer ulpdu, int padLength,
                   int markerCount, boolean crcPresent, long crc, Boolean crcOk, boolean inferred) {
}
