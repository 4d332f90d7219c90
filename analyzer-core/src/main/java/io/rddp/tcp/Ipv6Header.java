package io.rddp.tcp;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;

/**
 * IPv6 fixed header (RFC 8200 §3); extension headers are walked by {@link PacketDecoder}.
 *
 * <pre>
 * |Version| Traffic Class |           Flow Label                  |
 * |         Payload Length        |  Next Header  |   Hop Limit   |
 * |                 Source Address (128 bits)                     |
 * |              Destination Address (128 bits)                   |
 * </pre>
 *
 * @param trafficClass  Traffic Class, 8 bits
 * @param flowLabel     Flow Label, 20 bits
 * @param payloadLength Payload Length: octets after this 40-byte header, extension headers included
 * @param nextHeader    Next Header
 * @param hopLimit      Hop Limit
 * @param source        16-byte source address (the record's own array: do not modify)
 * @param destination   16-byte destination address (the record's own array: do not modify)
 */
public record Ipv6Header(int trafficClass, int flowLabel, int payloadLength, int nextHeader, int hopLimit,
                         byte[] source, byte[] destination) {

    public static final int LENGTH = 40;

    // Next Header values the decoder walks (RFC 8200 §4, IANA protocol numbers; AH: RFC 4302 §2)
    static final int HOP_BY_HOP = 0;
    static final int ROUTING = 43;
    static final int FRAGMENT = 44;
    static final int AUTHENTICATION = 51;
    static final int NO_NEXT_HEADER = 59;
    static final int DESTINATION_OPTIONS = 60;

    static final int SOURCE_OFFSET = 8;
    static final int DESTINATION_OFFSET = 24;

    public Ipv6Header {
        if (source.length != 16 || destination.length != 16) {
            throw new IllegalArgumentException("IPv6 addresses are 16 bytes");
        }
    }

    public static Ipv6Header of(byte[] source, byte[] destination, int nextHeader, int payloadLength, int hopLimit) {
        return new Ipv6Header(0, 0, payloadLength, nextHeader, hopLimit, source.clone(), destination.clone());
    }

    static int version(ByteBuffer b, int at) {
        return (b.get(at) & 0xff) >>> 4;
    }

    static int payloadLength(ByteBuffer b, int at) {
        return b.getShort(at + 4) & 0xffff;
    }

    static int nextHeader(ByteBuffer b, int at) {
        return b.get(at + 6) & 0xff;
    }

    /** Parses the fixed header at the buffer's position without moving it. */
    public static Ipv6Header parse(ByteBuffer buf) throws MalformedException {
        int at = buf.position();
        if (buf.remaining() < LENGTH) {
            throw new MalformedException("IPv6 header needs 40 bytes, " + buf.remaining() + " present", 0);
        }
        if (version(buf, at) != 6) {
            throw new MalformedException("IP version " + version(buf, at) + " is not 6", 0);
        }
        int word0 = buf.getInt(at);
        byte[] src = new byte[16];
        byte[] dst = new byte[16];
        buf.get(at + SOURCE_OFFSET, src);
        buf.get(at + DESTINATION_OFFSET, dst);
        return new Ipv6Header((word0 >>> 20) & 0xff, word0 & 0xfffff, payloadLength(buf, at), nextHeader(buf, at),
                buf.get(at + 7) & 0xff, src, dst);
    }

    /** Writes the header at the buffer's position and advances it. */
    public void writeTo(ByteBuffer buf) {
        buf.putInt((6 << 28) | ((trafficClass & 0xff) << 20) | (flowLabel & 0xfffff));
        buf.putShort((short) payloadLength);
        buf.put((byte) nextHeader);
        buf.put((byte) hopLimit);
        buf.put(source);
        buf.put(destination);
    }
}
