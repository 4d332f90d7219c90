package io.rddp.mpa;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * An MPA Request or Reply frame (RFC 5044 §7.1), with the RFC 6581 enhanced connection establishment data decoded
 * from the start of the private data when the enhanced flag is set.
 *
 * <pre>
 *  0..15  Key: "MPA ID Req Frame" or "MPA ID Rep Frame"            RFC 5044 §7.1.1
 *  16     |M|C|R|  Res    |   M 0x80, C 0x40, R 0x20, Res 0x1F (RFC 6581 enhanced flag = 0x10)
 *  17     Rev
 *  18..19 PD_Length (network order, at most 512)
 *  20..   Private Data
 * </pre>
 *
 * @param kind        which of the two, from the 16-byte key
 * @param keyValid    false when the key matched neither "MPA ID Req Frame" nor "MPA ID Rep Frame" exactly
 * @param markers     M bit: the sender requires Markers on what it receives (RFC 5044 §7.1.1); so the M bit of the
 *                    Request rules the Responder-to-Initiator direction and the M bit of the Reply the other one
 * @param crc         C bit: the sender's CRC preference; CRCs are used in both directions when either frame sets it
 * @param reject      R bit (Reply only)
 * @param reserved    the 5 Res bits of RFC 5044 as a number 0..31; the enhanced flag of RFC 6581 is the most
 *                    significant of them (0x10). (The contract once said "4 bits": RFC 5044 §7.1.1 has 5.)
 * @param revision    Rev, 8 bits
 * @param pdLength    PD_Length, 16 bits unsigned as on the wire (may lie about what follows)
 * @param privateData the private data bytes actually present, enhanced data included (the array is used as given)
 * @param enhanced    RFC 6581 IRD/ORD/peer-to-peer data, or null when not enhanced or too short
 */
public record MpaStartFrame(Kind kind, boolean keyValid, boolean markers, boolean crc, boolean reject, int reserved,
                            int revision, int pdLength, byte[] privateData, Enhanced enhanced) {

    public enum Kind { REQUEST, REPLY }

    /** Key, flags, Rev and PD_Length. */
    public static final int HEADER_LENGTH = 20;
    public static final int KEY_LENGTH = 16;
    /** RFC 5044 §7.1.1: PD_Length larger than this makes the receiver close the connection. */
    public static final int MAX_PRIVATE_DATA = 512;
    /** RFC 6581: the first (most significant) Res bit announces enhanced connection establishment data. */
    public static final int ENHANCED_FLAG = 0x10;
    /** A key differing from a real key in at most this many octets is still read as that key, with keyValid false. */
    public static final int KEY_TOLERANCE = 4;

    private static final byte[] KEY_REQUEST = "MPA ID Req Frame".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEY_REPLY = "MPA ID Rep Frame".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NONE = new byte[0];

    public MpaStartFrame {
        Objects.requireNonNull(kind, "kind");
        privateData = privateData == null ? NONE : privateData;
        if ((reserved & ~0x1F) != 0 || (revision & ~0xFF) != 0 || (pdLength & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("reserved " + reserved + ", revision " + revision + " or pdLength "
                    + pdLength + " does not fit its field");
        }
    }

    /** A Request with PD_Length matching the private data, which is {@code enhanced} (if not null) then ulpData. */
    public static MpaStartFrame request(boolean markers, boolean crc, int revision, Enhanced enhanced,
                                        byte[] ulpData) {
        return build(Kind.REQUEST, markers, crc, false, revision, enhanced, ulpData);
    }

    /** A Reply; see {@link #request}. */
    public static MpaStartFrame reply(boolean markers, boolean crc, boolean reject, int revision, Enhanced enhanced,
                                      byte[] ulpData) {
        return build(Kind.REPLY, markers, crc, reject, revision, enhanced, ulpData);
    }

    private static MpaStartFrame build(Kind kind, boolean markers, boolean crc, boolean reject, int revision,
                                       Enhanced enhanced, byte[] ulpData) {
        byte[] ulp = ulpData == null ? NONE : ulpData;
        int extra = enhanced == null ? 0 : Enhanced.LENGTH;
        byte[] pd = new byte[extra + ulp.length];
        if (enhanced != null) {
            enhanced.writeTo(ByteBuffer.wrap(pd));
        }
        System.arraycopy(ulp, 0, pd, extra, ulp.length);
        return new MpaStartFrame(kind, true, markers, crc, reject, enhanced == null ? 0 : ENHANCED_FLAG, revision,
                pd.length, pd, enhanced);
    }

    /**
     * Decodes a start frame at the buffer's position without moving it. Private data is what the buffer holds of
     * the PD_Length octets announced (a short buffer gives short private data, never an exception).
     *
     * @throws MalformedException when fewer than 20 bytes remain or the key is more than {@link #KEY_TOLERANCE}
     *                            octets away from both MPA keys
     */
    public static MpaStartFrame parse(ByteBuffer buf) throws MalformedException {
        int p = buf.position();
        if (buf.remaining() < HEADER_LENGTH) {
            throw new MalformedException("MPA start frame needs " + HEADER_LENGTH + " bytes, only "
                    + buf.remaining() + " present", 0);
        }
        int match = matchKey(buf, p);
        if (match == 0) {
            throw new MalformedException("no MPA key: \"" + printable(buf, p) + "\"", 0);
        }
        Kind kind = Math.abs(match) == 1 ? Kind.REQUEST : Kind.REPLY;
        int bits = buf.get(p + 16) & 0xFF;                       // RFC 5044 §7.1.1 |M|C|R|Res|
        int rev = buf.get(p + 17) & 0xFF;
        int pdLength = buf.getShort(p + 18) & 0xFFFF;
        int present = Math.min(pdLength, buf.remaining() - HEADER_LENGTH);
        byte[] pd = new byte[present];
        buf.get(p + HEADER_LENGTH, pd);
        int reserved = bits & 0x1F;
        Enhanced enhanced = null;
        // RFC 6581: the enhanced data are the first 4 octets of the private data when the flag is set; decoded
        // whatever Rev says, so that a frame breaking the Rev = 2 rule still shows what it carried.
        if ((reserved & ENHANCED_FLAG) != 0 && present >= Enhanced.LENGTH) {
            enhanced = Enhanced.parse(ByteBuffer.wrap(pd));
        }
        return new MpaStartFrame(kind, match > 0, (bits & 0x80) != 0, (bits & 0x40) != 0, (bits & 0x20) != 0,
                reserved, rev, pdLength, pd, enhanced);
    }

    /**
     * Which key the 16 bytes at {@code index} are: 1 Request, 2 Reply (exact); -1, -2 within
     * {@link #KEY_TOLERANCE} octets (a tie goes to Request); 0 neither. Needs 16 readable bytes.
     */
    static int matchKey(ByteBuffer buf, int index) {
        int dReq = 0, dRep = 0;
        for (int i = 0; i < KEY_LENGTH; i++) {
            byte b = buf.get(index + i);
            if (b != KEY_REQUEST[i]) dReq++;
            if (b != KEY_REPLY[i]) dRep++;
        }
        if (dReq == 0) return 1;
        if (dRep == 0) return 2;
        if (Math.min(dReq, dRep) > KEY_TOLERANCE) return 0;
        return dReq <= dRep ? -1 : -2;
    }

    /**
     * Writes the frame at the buffer's position and advances it: the proper key for {@link #kind} (an invalid key
     * is not reproduced), the flags, Rev, {@link #pdLength} as given (it may lie) and {@link #privateData}.
     */
    public void writeTo(ByteBuffer out) {
        out.put(kind == Kind.REQUEST ? KEY_REQUEST : KEY_REPLY);
        out.put((byte) ((markers ? 0x80 : 0) | (crc ? 0x40 : 0) | (reject ? 0x20 : 0) | reserved));
        out.put((byte) revision);
        out.putShort((short) pdLength);
        out.put(privateData);
    }

    /** The wire bytes of {@link #writeTo}. */
    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(length());
        writeTo(b);
        return b.array();
    }

    /** Octets {@link #writeTo} writes. */
    public int length() {
        return HEADER_LENGTH + privateData.length;
    }

    /** The RFC 6581 enhanced flag among the Res bits. */
    public boolean enhancedFlag() {
        return (reserved & ENHANCED_FLAG) != 0;
    }

    /** Private data after the enhanced data (all of it when not enhanced): what the ULP sent. */
    public byte[] ulpPrivateData() {
        int skip = enhanced != null ? Enhanced.LENGTH : 0;
        return Arrays.copyOfRange(privateData, skip, privateData.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MpaStartFrame f && f.kind == kind && f.keyValid == keyValid && f.markers == markers
                && f.crc == crc && f.reject == reject && f.reserved == reserved && f.revision == revision
                && f.pdLength == pdLength && Arrays.equals(f.privateData, privateData)
                && Objects.equals(f.enhanced, enhanced);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, keyValid, markers, crc, reject, reserved, revision, pdLength,
                Arrays.hashCode(privateData), enhanced);
    }

    @Override
    public String toString() {
        return "MpaStartFrame[" + kind + (keyValid ? "" : " (bad key)") + " M=" + (markers ? 1 : 0)
                + " C=" + (crc ? 1 : 0) + " R=" + (reject ? 1 : 0) + " Res=0x" + Integer.toHexString(reserved)
                + " Rev=" + revision + " PD_Length=" + pdLength + " pd=" + HexFormat.of().formatHex(privateData)
                + (enhanced != null ? " " + enhanced : "") + "]";
    }

    private static String printable(ByteBuffer buf, int p) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < KEY_LENGTH; i++) {
            int c = buf.get(p + i) & 0xFF;
            sb.append(c >= 0x20 && c < 0x7F ? (char) c : '.');
        }
        return sb.toString();
    }

    /**
     * RFC 6581 "Enhanced RDMA Connection Establishment" data: the first 4 octets of the private data.
     *
     * <pre>
     *  |A|B|      IRD (14)         |C|D|      ORD (14)         |
     *  A 0x8000 of the IRD word: peer-to-peer connection model
     *  B 0x4000 of the IRD word: RTR may be a zero-length Send (FULPDU)
     *  C 0x8000 of the ORD word: RTR may be a zero-length RDMA Write
     *  D 0x4000 of the ORD word: RTR may be a zero-length RDMA Read Request
     * </pre>
     * The same bits in siw (MPA_V2_*), irdma (IETF_*) and cxgb4; irdma also uses IRD/ORD 0x3FFF for "no value".
     *
     * @param peerToPeer         the A flag in the IRD word
     * @param zeroLengthSendRtr  B: RTR type zero-length FULPDU (Send) accepted/used
     * @param zeroLengthWriteRtr C: RTR type zero-length RDMA Write
     * @param zeroLengthReadRtr  D: RTR type zero-length RDMA Read Request
     */
    public record Enhanced(int ird, int ord, boolean peerToPeer, boolean zeroLengthSendRtr,
                           boolean zeroLengthWriteRtr, boolean zeroLengthReadRtr) {

        public static final int LENGTH = 4;
        public static final int IRD_ORD_MASK = 0x3FFF;

        public Enhanced {
            if ((ird & ~IRD_ORD_MASK) != 0 || (ord & ~IRD_ORD_MASK) != 0) {
                throw new IllegalArgumentException("IRD " + ird + " / ORD " + ord + " exceed 14 bits");
            }
        }

        /** Decodes 4 octets at the position without moving it. */
        public static Enhanced parse(ByteBuffer buf) throws MalformedException {
            if (buf.remaining() < LENGTH) {
                throw new MalformedException("enhanced MPA data need 4 bytes, only " + buf.remaining(), 0);
            }
            int irdWord = buf.getShort(buf.position()) & 0xFFFF;
            int ordWord = buf.getShort(buf.position() + 2) & 0xFFFF;
            return new Enhanced(irdWord & IRD_ORD_MASK, ordWord & IRD_ORD_MASK, (irdWord & 0x8000) != 0,
                    (irdWord & 0x4000) != 0, (ordWord & 0x8000) != 0, (ordWord & 0x4000) != 0);
        }

        /** Writes the 4 octets at the position and advances it. */
        public void writeTo(ByteBuffer out) {
            out.putShort((short) (ird | (peerToPeer ? 0x8000 : 0) | (zeroLengthSendRtr ? 0x4000 : 0)));
            out.putShort((short) (ord | (zeroLengthWriteRtr ? 0x8000 : 0) | (zeroLengthReadRtr ? 0x4000 : 0)));
        }
    }
}
