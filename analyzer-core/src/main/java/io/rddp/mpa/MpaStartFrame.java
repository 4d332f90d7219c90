package io.rddp.mpa;

/**
 * An MPA Request or Reply frame (RFC 5044 §7.1), with the RFC 6581 enhanced connection establishment data decoded
 * from the start of the private data when the enhanced flag is set.
 *
 * @param kind        which of the two, from the 16-byte key
 * @param keyValid    false when the key matched neither "MPA ID Req Frame" nor "MPA ID Rep Frame" exactly
 * @param markers     M bit: the sender requires Markers on what it receives (RFC 5044 §7.1)
 * @param crc         C bit: the sender's CRC preference
 * @param reject      R bit (Reply only)
 * @param reserved    the 4 Res bits as a number 0..15; the enhanced flag of RFC 6581 is the most significant
 * @param revision    Rev, 8 bits
 * @param pdLength    PD_Length, 16 bits unsigned as on the wire (may lie about what follows)
 * @param privateData the private data bytes actually present (copy)
 * @param enhanced    RFC 6581 IRD/ORD/peer-to-peer data, or null when not enhanced or too short
 */
public record MpaStartFrame(Kind kind, boolean keyValid, boolean markers, boolean crc, boolean reject, int reserved,
                            int revision, int pdLength, byte[] privateData, Enhanced enhanced) {

    public enum Kind { REQUEST, REPLY }

    /**
     * RFC 6581 §9.1 "Enhanced MPA Connection Establishment" data: the first 4 octets of the private data.
     *
     * @param peerToPeer        the P (peer-to-peer / "I" in some texts) flag in the IRD word
     * @param zeroLengthSendRtr RTR type: zero-length FULPDU (Send) accepted/used
     * @param zeroLengthWriteRtr RTR type: zero-length RDMA Write
     * @param zeroLengthReadRtr RTR type: zero-length RDMA Read Request
     */
    public record Enhanced(int ird, int ord, boolean peerToPeer, boolean zeroLengthSendRtr,
                           boolean zeroLengthWriteRtr, boolean zeroLengthReadRtr) {
    }
}
