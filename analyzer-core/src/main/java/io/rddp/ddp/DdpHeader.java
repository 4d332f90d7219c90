package io.rddp.ddp;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;

/**
 * A DDP header (RFC 5041 §4), tagged or untagged as its T bit says. Parsed and emitted by the same records, so one
 * definition of every field serves decoder and encoder. Field values are kept as they were on the wire, including
 * reserved bits and versions other than 1: judging them is the sink model's job.
 */
public sealed interface DdpHeader permits TaggedHeader, UntaggedHeader {

    /** RFC 5041 §4.2: control (1) + RsvdULP (1) + STag (4) + TO (8). */
    int TAGGED_LENGTH = 14;
    /** RFC 5041 §4.3: control (1) + RsvdULP (5) + QN (4) + MSN (4) + MO (4). */
    int UNTAGGED_LENGTH = 18;

    // RFC 5041 §4.1 DDP Control Field: |T|L| Rsvd (4) |DV (2)|
    int T_BIT = 0x80;
    int L_BIT = 0x40;
    int RSVD_MASK = 0x3C;
    int DV_MASK = 0x03;

    /** T flag (RFC 5041 §4.1): tagged buffer model. */
    boolean tagged();

    /** L flag (RFC 5041 §4.1): last segment of its DDP message. */
    boolean last();

    /** The 4 Rsvd bits of the DDP control field as 0..15 (RFC 5041 §4.1: zero on transmit, not checked). */
    int reserved();

    /** DV, the DDP version (RFC 5041 §4.1: 1 for RFC 5041), 0..3. */
    int version();

    /** {@link #TAGGED_LENGTH} or {@link #UNTAGGED_LENGTH}. */
    int headerLength();

    /**
     * The first octet of RsvdULP, present in both formats; RDMAP keeps its control field there (RFC 5040 §4.1), so an
     * upper layer can read it without caring about the buffer model.
     */
    int rsvdUlpFirstOctet();

    /** Where the payload goes: TO for tagged (64-bit, unsigned), MO for untagged (32-bit, unsigned). */
    long offset();

    DdpHeader withLast(boolean last);

    /** The same header with TO (tagged) or MO (untagged) replaced; the MO is taken modulo 2^32. */
    DdpHeader withOffset(long offset);

    /** Writes the header at out's position and advances it. */
    void writeTo(ByteBuffer out);

    /** The DDP control byte this header puts on the wire. */
    default int controlByte() {
        return (tagged() ? T_BIT : 0) | (last() ? L_BIT : 0) | (reserved() << 2) | version();
    }

    /**
     * Reads the header at {@code buf}'s position, choosing the format by the T bit; the position is not moved.
     *
     * @throws MalformedException when fewer bytes remain than the header the T bit announces
     */
    static DdpHeader parse(ByteBuffer buf) throws MalformedException {
        if (!buf.hasRemaining()) {
            throw new MalformedException("empty ULPDU: no DDP control field (RFC 5041 §4.1)", 0);
        }
        return (buf.get(buf.position()) & T_BIT) != 0 ? TaggedHeader.parse(buf) : UntaggedHeader.parse(buf);
    }

    static void checkControl(int reserved, int version) {
        if (reserved < 0 || reserved > 15) throw new IllegalArgumentException("DDP Rsvd is 4 bits: " + reserved);
        if (version < 0 || version > 3) throw new IllegalArgumentException("DDP DV is 2 bits: " + version);
    }

    static void checkU32(String name, long value) {
        if (value < 0 || value > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(name + " is 32 bits unsigned: " + value);
        }
    }
}
