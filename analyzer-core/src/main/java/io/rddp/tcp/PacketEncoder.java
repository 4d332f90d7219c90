package io.rddp.tcp;

import java.nio.ByteBuffer;

/**
 * Writes Ethernet + IPv4/IPv6 + TCP frames with correct IPv4 header and TCP checksums, for the synthetic capture
 * generator and the conformance suite. The IP version follows the endpoints' address length. MAC addresses are
 * derived from the IP addresses (locally administered 02:00 + the address's last 4 bytes), so each host keeps one.
 * Not thread-safe (the IPv4 identification counter).
 */
public final class PacketEncoder {
    public static final int ETHERNET_HEADER = 14;
    private static final int ETHERTYPE_IPV4 = 0x0800; // IEEE 802.3 / IANA EtherType registry
    private static final int ETHERTYPE_IPV6 = 0x86DD;
    private static final int TTL = 64;
    private static final byte[] NO_OPTIONS = new byte[0];

    private int identification;

    /** Length of the frame {@link #writeFrame} writes. */
    public static int frameLength(boolean ipv6, int tcpOptionsLength, int payloadLength) {
        return ETHERNET_HEADER + ipPacketLength(ipv6, tcpOptionsLength, payloadLength);
    }

    /** Length of the IP packet {@link #writeIpPacket} writes. */
    public static int ipPacketLength(boolean ipv6, int tcpOptionsLength, int payloadLength) {
        return (ipv6 ? Ipv6Header.LENGTH : Ipv4Header.MIN_LENGTH) + TcpHeader.MIN_LENGTH + tcpOptionsLength
                + payloadLength;
    }

    /** A new array holding an options-free frame; the payload's position is not moved. */
    public byte[] frame(Endpoint source, Endpoint destination, long sequence, long acknowledgment, int flags,
                        int window, ByteBuffer payload) {
        return frame(source, destination, sequence, acknowledgment, flags, window, NO_OPTIONS, payload);
    }

    /**
     * A new array holding one frame.
     *
     * @param tcpOptions TCP option bytes, a multiple of 4 long (pad with NOP/EOL yourself), at most 40
     */
    public byte[] frame(Endpoint source, Endpoint destination, long sequence, long acknowledgment, int flags,
                        int window, byte[] tcpOptions, ByteBuffer payload) {
        byte[] out = new byte[frameLength(source.isIpv6(), tcpOptions.length, payload.remaining())];
        writeFrame(ByteBuffer.wrap(out), source, destination, sequence, acknowledgment, flags, window, tcpOptions,
                payload);
        return out;
    }

    /** Writes Ethernet + IP + TCP at the buffer's position and advances it; the payload's position is not moved. */
    public void writeFrame(ByteBuffer out, Endpoint source, Endpoint destination, long sequence, long acknowledgment,
                           int flags, int window, byte[] tcpOptions, ByteBuffer payload) {
        out.put(mac(destination));
        out.put(mac(source));
        out.putShort((short) (source.isIpv6() ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4));
        writeIpPacket(out, source, destination, sequence, acknowledgment, flags, window, tcpOptions, payload);
    }

    /** Writes IP + TCP (no link header) at the buffer's position and advances it. */
    public void writeIpPacket(ByteBuffer out, Endpoint source, Endpoint destination, long sequence,
                              long acknowledgment, int flags, int window, byte[] tcpOptions, ByteBuffer payload) {
        if (source.isIpv6() != destination.isIpv6()) {
            throw new IllegalArgumentException("mixed IPv4/IPv6 endpoints " + source + ", " + destination);
        }
        int tcpLength = TcpHeader.MIN_LENGTH + tcpOptions.length + payload.remaining();
        byte[] src = source.address();
        byte[] dst = destination.address();
        if (source.isIpv6()) {
            Ipv6Header.of(src, dst, TcpHeader.PROTOCOL_NUMBER, tcpLength, TTL).writeTo(out);
        } else {
            if (Ipv4Header.MIN_LENGTH + tcpLength > 0xffff) {
                throw new IllegalArgumentException("IPv4 packet of " + (Ipv4Header.MIN_LENGTH + tcpLength)
                        + " bytes exceeds 65535");
            }
            Ipv4Header.of(src, dst, TcpHeader.PROTOCOL_NUMBER, tcpLength, identification++ & 0xffff, TTL)
                    .writeTo(out);
        }
        int tcpAt = out.position();
        new TcpHeader(source.port(), destination.port(), sequence & 0xffffffffL, acknowledgment & 0xffffffffL,
                5 + tcpOptions.length / 4, flags, window, 0, 0, tcpOptions).writeTo(out);
        out.put(payload.duplicate());
        out.putShort(tcpAt + TcpHeader.CHECKSUM_OFFSET,
                (short) InternetChecksum.tcp(src, dst, out, tcpAt, tcpLength));
    }

    /** The MAC address this encoder gives a host: 02:00 and the last 4 bytes of its IP address. */
    public static byte[] mac(Endpoint host) {
        byte[] a = host.address();
        return new byte[]{0x02, 0x00, a[a.length - 4], a[a.length - 3], a[a.length - 2], a[a.length - 1]};
    }
}
