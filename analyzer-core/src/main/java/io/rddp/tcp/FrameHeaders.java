package io.rddp.tcp;

import java.util.List;

/**
 * The link, network and transport headers of one frame: what {@code decode -V}, the JSON and the filters show of the
 * frame a PDU ends in. Built only when asked for ({@link PacketDecoder#headers}), from the frame just decoded.
 *
 * @param ethernet          the Ethernet II header, null for other link types (Linux cooked, raw IP, loopback)
 * @param vlans             the VLAN tags in order, empty when untagged
 * @param ipv4              the IPv4 header, or null
 * @param ipv6              the IPv6 fixed header, or null
 * @param tcp               the TCP header (options zero-filled where the capture cut them off)
 * @param tcpLength         octets of TCP payload on the wire
 * @param relativeSequence  the sequence number relative to its direction's base as tshark counts it
 * @param relativeAck       the acknowledgment number relative to the other direction's base
 */
public record FrameHeaders(EthernetHeader ethernet, List<VlanTag> vlans, Ipv4Header ipv4, Ipv6Header ipv6,
                           TcpHeader tcp, int tcpLength, long relativeSequence, long relativeAck) {

    public FrameHeaders {
        vlans = List.copyOf(vlans);
        if ((ipv4 == null) == (ipv6 == null)) throw new IllegalArgumentException("one of IPv4 and IPv6");
    }
}
