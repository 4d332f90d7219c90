package io.rddp.tcp;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;

/**
 * IPv4 header (RFC 791 §3.1). The static readers take an absolute index and are what {@link PacketDecoder} uses on
 * its allocation-free path; {@link #parse} and {@link #writeTo} build on the same offsets.
 *
 * <pre>
 *  0       4       8              16    19                 31
 * +-------+-------+---------------+-----+-------------------+
 * |Version|  IHL  |Type of Service|        Total Length      |
 * |        Identification         |Flags|  Fragment Offset  |
 * | Time to Live  |   Protocol    |      Header Checksum     |
 * |                      Source Address                      |
 * |                   Destination Address                    |
 * |                  Options (IHL > 5)                       |
 * </pre>
 *
 * @param ihl            Internet Header Length in 32-bit words (5..15)
 * @param tos            Type of Service / DSCP+ECN octet
 * @param totalLength    Total Length in octets, header included
 * @param identification Identification
 * @param flags          the 3 flag bits (bit 1 = DF, bit 0 = MF)
 * @param fragmentOffset Fragment Offset in units of 8 octets
 * @param ttl            Time to Live
 * @param protocol       Protocol (6 = TCP)
 * @param checksum       Header Checksum as on the wire
 * @param source         4-byte source address (the record's own array: do not modify)
 * @param destination    4-byte destination address (the record's own array: do not modify)
 * @param options        the options bytes, (ihl - 5) * 4 of them (the record's own array: do not modify)
 */
public record Ipv4Header(int ihl, int tos, int totalLength, int identification, int flags, int fragmentOffset,
                         int ttl, int protocol, int checksum, byte[] source, byte[] destination, byte[] options) {

    public static final int MIN_LENGTH = 20;
    public static final int FLAG_DF = 0b010;
    public static final int FLAG_MF = 0b001;

    public Ipv4Header {
        if (source.length != 4 || destination.length != 4) {
            throw new IllegalArgumentException("IPv4 addresses are 4 bytes");
        }
        if (options.length % 4 != 0 || ihl != 5 + options.length / 4) {
            throw new IllegalArgumentException("ihl " + ihl + " does not match " + options.length + " option bytes");
        }
    }

    /** A header without options, checksum 0 (filled in by {@link #writeTo}). */
    public static Ipv4Header of(byte[] source, byte[] destination, int protocol, int payloadLength,
                                int identification, int ttl) {
        return new Ipv4Header(5, 0, MIN_LENGTH + payloadLength, identification, FLAG_DF, 0, ttl, protocol, 0,
                source.clone(), destination.clone(), new byte[0]);
    }

    public int headerLength() {
        return ihl * 4;
    }

    public boolean moreFragments() {
        return (flags & FLAG_MF) != 0;
    }

    /** True for any fragment of a fragmented datagram, the first included (RFC 791 §3.2). */
    public boolean isFragment() {
        return moreFragments() || fragmentOffset != 0;
    }

    // --- absolute readers (RFC 791 §3.1 offsets) ---

    static int version(ByteBuffer b, int at) {
        return (b.get(at) & 0xff) >>> 4;
    }

    /** IHL in bytes. */
    static int headerLength(ByteBuffer b, int at) {
        return (b.get(at) & 0x0f) * 4;
    }

    static int totalLength(ByteBuffer b, int at) {
        return b.getShort(at + 2) & 0xffff;
    }

    static int identification(ByteBuffer b, int at) {
        return b.getShort(at + 4) & 0xffff;
    }

    /** Flags (3 bits) and Fragment Offset (13 bits) as one 16-bit value. */
    static int flagsAndFragmentOffset(ByteBuffer b, int at) {
        return b.getShort(at + 6) & 0xffff;
    }

    static int protocol(ByteBuffer b, int at) {
        return b.get(at + 9) & 0xff;
    }

    static final int SOURCE_OFFSET = 12;
    static final int DESTINATION_OFFSET = 16;

    /**
     * Parses the header at the buffer's position without moving it.
     *
     * @throws MalformedException when fewer bytes than the header are present, the version is not 4, or IHL < 5
     */
    public static Ipv4Header parse(ByteBuffer buf) throws MalformedException {
        int at = buf.position();
        int have = buf.remaining();
        if (have < MIN_LENGTH) {
            throw new MalformedException("IPv4 header needs 20 bytes, " + have + " present", 0);
        }
        if (version(buf, at) != 4) {
            throw new MalformedException("IP version " + version(buf, at) + " is not 4", 0);
        }
        int hl = headerLength(buf, at);
        if (hl < MIN_LENGTH) { // RFC 791 §3.1: minimum value for a correct header is 5
            throw new MalformedException("IPv4 IHL " + hl / 4 + " is below the minimum 5", 0);
        }
        if (have < hl) {
            throw new MalformedException("IPv4 header with IHL " + hl / 4 + " needs " + hl + " bytes, " + have
                    + " present", 0);
        }
        int ff = flagsAndFragmentOffset(buf, at);
        byte[] src = new byte[4];
        byte[] dst = new byte[4];
        byte[] opts = new byte[hl - MIN_LENGTH];
        buf.get(at + SOURCE_OFFSET, src);
        buf.get(at + DESTINATION_OFFSET, dst);
        buf.get(at + MIN_LENGTH, opts);
        return new Ipv4Header(hl / 4, buf.get(at + 1) & 0xff, totalLength(buf, at), identification(buf, at),
                ff >>> 13, ff & 0x1fff, buf.get(at + 8) & 0xff, protocol(buf, at), buf.getShort(at + 10) & 0xffff,
                src, dst, opts);
    }

    /**
     * Writes the header at the buffer's position and advances it, with the Header Checksum computed over what was
     * written (the {@link #checksum} component is ignored).
     */
    public void writeTo(ByteBuffer buf) {
        int at = buf.position();
        buf.put((byte) (0x40 | ihl));
        buf.put((byte) tos);
        buf.putShort((short) totalLength);
        buf.putShort((short) identification);
        buf.putShort((short) ((flags << 13) | fragmentOffset));
        buf.put((byte) ttl);
        buf.put((byte) protocol);
        buf.putShort((short) 0);
        buf.put(source);
        buf.put(destination);
        buf.put(options);
        buf.putShort(at + 10, (short) InternetChecksum.finish(InternetChecksum.add(0, buf, at, headerLength())));
    }
}
