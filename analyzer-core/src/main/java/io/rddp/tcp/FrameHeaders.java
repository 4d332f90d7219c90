package io.rddp.tcp;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The link, network and transport headers of one frame: what {@code decode -V}, the JSON and the filters show of the
 * frame a PDU ends in. Built only when asked for ({@link PacketDecoder#headers}), from the frame just decoded.
 * <p>
 * The decoder keeps the headers' octets (one copy of some 66) and parses them into the header records when one is
 * first asked for: a viewer that stores a PDU's headers stores those octets ({@link #octets}) and never parses the
 * headers of rows nobody looks at. Immutable.
 */
public final class FrameHeaders {
    private final byte[] octets;
    private final int ethernetAt, vlanAt, vlanCount, ipAt, tcpAt;
    private final boolean ipv6Frame;
    private final int tcpLength;
    private final long relativeSequence, relativeAck;
    // parsed on first use; immutable records, so a race only parses twice
    private Parsed parsed;

    private record Parsed(EthernetHeader ethernet, List<VlanTag> vlans, Ipv4Header ipv4, Ipv6Header ipv6,
                          TcpHeader tcp) {
    }

    /**
     * Headers already parsed.
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
    public FrameHeaders(EthernetHeader ethernet, List<VlanTag> vlans, Ipv4Header ipv4, Ipv6Header ipv6,
                        TcpHeader tcp, int tcpLength, long relativeSequence, long relativeAck) {
        if ((ipv4 == null) == (ipv6 == null)) throw new IllegalArgumentException("one of IPv4 and IPv6");
        this.parsed = new Parsed(ethernet, List.copyOf(vlans), ipv4, ipv6, Objects.requireNonNull(tcp));
        this.octets = null;
        this.ethernetAt = this.vlanAt = this.vlanCount = this.ipAt = this.tcpAt = -1;
        this.ipv6Frame = ipv6 != null;
        this.tcpLength = tcpLength;
        this.relativeSequence = relativeSequence;
        this.relativeAck = relativeAck;
    }

    private FrameHeaders(byte[] octets, int ethernetAt, int vlanAt, int vlanCount, boolean ipv6, int ipAt, int tcpAt,
                         int tcpLength, long relativeSequence, long relativeAck) {
        this.octets = octets;
        this.ethernetAt = ethernetAt;
        this.vlanAt = vlanAt;
        this.vlanCount = vlanCount;
        this.ipv6Frame = ipv6;
        this.ipAt = ipAt;
        this.tcpAt = tcpAt;
        this.tcpLength = tcpLength;
        this.relativeSequence = relativeSequence;
        this.relativeAck = relativeAck;
    }

    /**
     * Headers as their octets, parsed when first asked for. {@code octets} runs from the first header to the end of
     * the TCP header (octets the capture cut off are zeros) and is not copied; the offsets are into it.
     *
     * @param ethernetAt where the Ethernet II header starts, or -1
     * @param vlanAt     where the first VLAN tag starts (when {@code vlanCount} > 0)
     * @param ipAt       where the IPv4 or IPv6 header starts
     * @param tcpAt      where the TCP header starts; it ends with the octets
     * @throws MalformedException when the octets do not hold the headers the offsets say
     */
    public static FrameHeaders ofOctets(byte[] octets, int ethernetAt, int vlanAt, int vlanCount, boolean ipv6,
                                        int ipAt, int tcpAt, int tcpLength, long relativeSequence, long relativeAck)
            throws MalformedException {
        if (ethernetAt >= 0 && ethernetAt + EthernetHeader.LENGTH > octets.length
                || vlanCount > 0 && (vlanAt < 0 || vlanAt + vlanCount * VlanTag.LENGTH > octets.length)
                || ipAt < 0 || ipAt + (ipv6 ? Ipv6Header.LENGTH : Ipv4Header.MIN_LENGTH) > tcpAt
                || tcpAt + TcpHeader.MIN_LENGTH > octets.length) {
            throw new MalformedException("frame headers of " + octets.length + " octets: IP at " + ipAt + ", TCP at "
                    + tcpAt);
        }
        return new FrameHeaders(octets, ethernetAt, vlanAt, vlanCount, ipv6, ipAt, tcpAt, tcpLength,
                relativeSequence, relativeAck);
    }

    /** The headers' octets as {@link #ofOctets} took them, or null when the headers were given parsed. */
    public byte[] octets() {
        return octets;
    }

    /** {@link #ofOctets}'s offsets, for a store that keeps the octets: Ethernet, VLAN, VLAN count, IP, TCP. */
    public int[] offsets() {
        return new int[]{ethernetAt, vlanAt, vlanCount, ipAt, tcpAt};
    }

    public boolean isIpv6() {
        return ipv6Frame;
    }

    public EthernetHeader ethernet() {
        return parsed().ethernet();
    }

    public List<VlanTag> vlans() {
        return parsed().vlans();
    }

    public Ipv4Header ipv4() {
        return parsed().ipv4();
    }

    public Ipv6Header ipv6() {
        return parsed().ipv6();
    }

    public TcpHeader tcp() {
        return parsed().tcp();
    }

    public int tcpLength() {
        return tcpLength;
    }

    public long relativeSequence() {
        return relativeSequence;
    }

    public long relativeAck() {
        return relativeAck;
    }

    private Parsed parsed() {
        Parsed p = parsed;
        if (p == null) {
            p = parse();
            parsed = p;
        }
        return p;
    }

    private Parsed parse() {
        EthernetHeader eth = null;
        if (ethernetAt >= 0) {
            eth = new EthernetHeader(Arrays.copyOfRange(octets, ethernetAt, ethernetAt + 6),
                    Arrays.copyOfRange(octets, ethernetAt + 6, ethernetAt + 12), u16(ethernetAt + 12));
        }
        List<VlanTag> vlans = new ArrayList<>(vlanCount);
        for (int i = 0; i < vlanCount; i++) {
            int at = vlanAt + i * VlanTag.LENGTH;
            vlans.add(VlanTag.of(u16(at), u16(at + 2)));
        }
        try {
            int ipLength = ipv6Frame ? Ipv6Header.LENGTH : (octets[ipAt] & 0x0F) * 4;
            ByteBuffer ip = ByteBuffer.wrap(octets, ipAt, Math.min(ipLength, tcpAt - ipAt)).slice();
            ByteBuffer tcp = ByteBuffer.wrap(octets, tcpAt, octets.length - tcpAt).slice();
            return new Parsed(eth, List.copyOf(vlans), ipv6Frame ? null : Ipv4Header.parse(ip),
                    ipv6Frame ? Ipv6Header.parse(ip) : null, TcpHeader.parse(tcp));
        } catch (MalformedException e) {
            // ofOctets' caller (the decoder) decoded these headers before keeping them
            throw new IllegalStateException("frame headers that decoded before: " + e.getMessage(), e);
        }
    }

    private int u16(int at) {
        return (octets[at] & 0xFF) << 8 | octets[at + 1] & 0xFF;
    }

    @Override
    public String toString() {
        Parsed p = parsed();
        return "FrameHeaders[ethernet=" + p.ethernet() + ", vlans=" + p.vlans() + ", ipv4=" + p.ipv4() + ", ipv6="
                + p.ipv6() + ", tcp=" + p.tcp() + ", tcpLength=" + tcpLength + ", relativeSequence="
                + relativeSequence + ", relativeAck=" + relativeAck + "]";
    }
}
