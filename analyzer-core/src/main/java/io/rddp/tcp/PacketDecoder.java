package io.rddp.tcp;

import io.rddp.Notice;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * Finds the TCP segment in a captured frame: link layer, IPv4 or IPv6 (with extension headers), TCP header.
 * Allocation-free for a steady stream (endpoints are cached, the payload view is reused while the frame buffer is the
 * same object). Never throws on bad bytes: frames that are not TCP return false quietly; TCP frames it cannot decode
 * (fragments, malformed or truncated headers) return false with a {@link Notice}. Notices carry the frame number and,
 * as offset, the byte index within the frame where the problem is (the message says so too).
 * <p>
 * Checksums are not verified: captures taken on the sending host carry whatever the NIC offload left there.
 */
public final class PacketDecoder {
    // EtherTypes (IEEE 802.3 / IANA): IPv4, IPv6, and the VLAN tag types 802.1Q, 802.1ad, and the pre-standard
    // QinQ 0x9100, each followed by 2 bytes of TCI and the next EtherType (IEEE 802.1Q §9.5)
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86DD;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88A8;
    private static final int ETHERTYPE_QINQ_OLD = 0x9100;

    // BSD loopback address families (tcpdump.org LINKTYPE_NULL/LINKTYPE_LOOP): IPv6 differs per BSD
    private static final int AF_INET = 2;
    private static final int AF_INET6_BSD = 24;
    private static final int AF_INET6_FREEBSD = 28;
    private static final int AF_INET6_DARWIN = 30;

    private static final int ETHERNET_HEADER = 14;
    private static final int SLL_HEADER = 16;  // tcpdump.org LINKTYPE_LINUX_SLL: protocol type at offset 14
    private static final int SLL2_HEADER = 20; // tcpdump.org LINKTYPE_LINUX_SLL2: protocol type at offset 0
    private static final int VLAN_TAG = 4;

    private final Consumer<Notice> notices;
    private final EndpointCache endpoints = new EndpointCache(1024);
    private ByteBuffer viewSource;
    private ByteBuffer view;
    private final int[] unsupportedLinkTypes = new int[8];
    private int unsupportedLinkTypeCount;

    // Where the headers of the last frame decoded lie, for headers(): a few int stores per frame, no allocation.
    private ByteBuffer lastData;
    private long lastFrame = -1;
    private int lastCapEnd, ethernetAt, vlanAt, vlanCount, ipAt, ipVersion, tcpAt, tcpPayloadLength;

    // per-call state, kept in fields to spare parameters
    private Frame frame;
    private int base;
    private int capEnd;
    private int wireEnd;

    public PacketDecoder(Consumer<Notice> notices) {
        this.notices = notices;
    }

    /**
     * Decodes the TCP segment of {@code frame} into {@code out}.
     *
     * @return true when {@code out} now holds the frame's TCP segment (its payload may be shorter than on the wire
     * when the capture cut the frame: see {@link TcpSegment#truncated()})
     */
    public boolean decode(Frame frame, TcpSegment out) {
        ByteBuffer d = frame.data;
        if (d == null) {
            return false;
        }
        this.frame = frame;
        base = d.position();
        capEnd = d.limit();
        // bytes the frame had on the wire; a reader may report an original length below the captured one: trust bytes
        wireEnd = base + Math.max(frame.originalLength, capEnd - base);
        lastFrame = -1;
        ethernetAt = -1;
        vlanCount = 0;
        try {
            return link(d, out);
        } finally {
            this.frame = null;
        }
    }

    private boolean link(ByteBuffer d, TcpSegment out) {
        int p = base;
        switch (frame.linkType) {
            case LinkType.ETHERNET:
                if (!need(d, p, ETHERNET_HEADER, "Ethernet header")) return false;
                ethernetAt = p;
                return etherType(d, out, p + ETHERNET_HEADER, u16(d, p + 12));
            case LinkType.LINUX_SLL:
                if (!need(d, p, SLL_HEADER, "Linux cooked (SLL) header")) return false;
                return etherType(d, out, p + SLL_HEADER, u16(d, p + 14));
            case LinkType.LINUX_SLL2:
                if (!need(d, p, SLL2_HEADER, "Linux cooked v2 (SLL2) header")) return false;
                return etherType(d, out, p + SLL2_HEADER, u16(d, p));
            case LinkType.RAW: {
                if (!need(d, p, 1, "raw IP version")) return false;
                int version = (d.get(p) & 0xff) >>> 4;
                if (version == 4) return ipv4(d, out, p);
                if (version == 6) return ipv6(d, out, p);
                return malformed(p, "raw IP frame with IP version " + version);
            }
            case LinkType.IPV4:
                return ipv4(d, out, p);
            case LinkType.IPV6:
                return ipv6(d, out, p);
            case LinkType.NULL: {
                if (!need(d, p, 4, "loopback address family")) return false;
                int af = d.getInt(p);
                // host byte order of the capturing machine: a family never needs the upper 16 bits, so if they are
                // set the value was written little-endian (libpcap and Wireshark decide the same way)
                if ((af & 0xffff0000) != 0) af = Integer.reverseBytes(af);
                return addressFamily(d, out, p + 4, af);
            }
            case LinkType.LOOP:
                if (!need(d, p, 4, "loopback address family")) return false;
                return addressFamily(d, out, p + 4, d.getInt(p)); // network byte order
            default:
                reportUnsupportedLinkType(frame.linkType);
                return false;
        }
    }

    private boolean addressFamily(ByteBuffer d, TcpSegment out, int p, int af) {
        if (af == AF_INET) return ipv4(d, out, p);
        if (af == AF_INET6_BSD || af == AF_INET6_FREEBSD || af == AF_INET6_DARWIN) return ipv6(d, out, p);
        return false;
    }

    private boolean etherType(ByteBuffer d, TcpSegment out, int p, int type) {
        // any depth of VLAN tags: each iteration consumes 4 bytes, so the loop ends with the frame
        vlanAt = p;
        while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD) {
            if (!need(d, p, VLAN_TAG, "VLAN tag")) return false;
            type = u16(d, p + 2);
            p += VLAN_TAG;
            vlanCount++;
        }
        if (type == ETHERTYPE_IPV4) return ipv4(d, out, p);
        if (type == ETHERTYPE_IPV6) return ipv6(d, out, p);
        return false;
    }

    private boolean ipv4(ByteBuffer d, TcpSegment out, int p) {
        ipAt = p;
        ipVersion = 4;
        int captured = capEnd - p;
        if (captured < Ipv4Header.MIN_LENGTH) {
            // the protocol byte decides whether this is ours to report
            if (captured > 9 && Ipv4Header.protocol(d, p) != TcpHeader.PROTOCOL_NUMBER) return false;
            return short_(p, Ipv4Header.MIN_LENGTH, "IPv4 header");
        }
        if (Ipv4Header.protocol(d, p) != TcpHeader.PROTOCOL_NUMBER) return false;
        int version = Ipv4Header.version(d, p);
        if (version != 4) {
            return malformed(p, "IPv4 packet with version " + version);
        }
        int ihl = Ipv4Header.headerLength(d, p);
        if (ihl < Ipv4Header.MIN_LENGTH) { // RFC 791 §3.1: IHL is at least 5
            return malformed(p, "IPv4 IHL " + ihl / 4 + " is below the minimum 5");
        }
        int wire = wireEnd - p;
        int total = Ipv4Header.totalLength(d, p);
        int end;
        if (total == 0) {
            // TSO/GSO: Linux hands the capture a super-segment with total length 0; take the frame's length
            // (Wireshark's ip.tso_support does the same)
            end = wireEnd;
        } else if (total < ihl) {
            return malformed(p + 2, "IPv4 total length " + total + " is smaller than its header length " + ihl);
        } else if (total > wire) {
            return malformed(p + 2, "IPv4 total length " + total + " exceeds the " + wire
                    + " bytes the frame holds from the IP header on");
        } else {
            end = p + total; // bytes beyond are link-layer padding (Ethernet pads to 60 bytes)
        }
        if (ihl > wire) {
            return malformed(p, "IPv4 IHL " + ihl / 4 + " (" + ihl + " bytes) beyond the frame's " + wire + " bytes");
        }
        int ff = Ipv4Header.flagsAndFragmentOffset(d, p);
        if ((ff & 0x3fff) != 0) { // MF or a fragment offset: RFC 791 §3.2; the first fragment too
            info(p + 6, "IPv4 fragment (id " + Ipv4Header.identification(d, p) + ", offset "
                    + (ff & 0x1fff) * 8 + ", more fragments " + ((ff & 0x2000) != 0)
                    + ") of a TCP datagram: fragments are not reassembled, TCP not decoded");
            return false;
        }
        if (capEnd - p < ihl) {
            return short_(p, ihl, "IPv4 header with options");
        }
        return tcp(d, out, p + ihl, end, p + Ipv4Header.SOURCE_OFFSET, p + Ipv4Header.DESTINATION_OFFSET, 4);
    }

    private boolean ipv6(ByteBuffer d, TcpSegment out, int p) {
        ipAt = p;
        ipVersion = 6;
        int captured = capEnd - p;
        if (captured < Ipv6Header.LENGTH) {
            if (captured > 6 && !mayCarryTcp(Ipv6Header.nextHeader(d, p))) return false;
            return short_(p, Ipv6Header.LENGTH, "IPv6 header");
        }
        int nh = Ipv6Header.nextHeader(d, p);
        if (!mayCarryTcp(nh)) return false;
        int version = Ipv6Header.version(d, p);
        if (version != 6) {
            return malformed(p, "IPv6 packet with version " + version);
        }
        int wire = wireEnd - p;
        int payload = Ipv6Header.payloadLength(d, p);
        int end;
        if (payload == 0) {
            // a jumbogram (RFC 2675 §2) or a TSO super-segment: the frame's length is the packet's
            end = wireEnd;
        } else if (Ipv6Header.LENGTH + payload > wire) {
            return malformed(p + 4, "IPv6 payload length " + payload + " exceeds the " + (wire - Ipv6Header.LENGTH)
                    + " bytes the frame holds after the IPv6 header");
        } else {
            end = p + Ipv6Header.LENGTH + payload;
        }
        int q = p + Ipv6Header.LENGTH;
        int fragmentAt = -1;
        // each extension header is at least 8 bytes long, so the walk ends with the packet
        while (nh != TcpHeader.PROTOCOL_NUMBER) {
            int len;
            switch (nh) {
                case Ipv6Header.HOP_BY_HOP:
                case Ipv6Header.ROUTING:
                case Ipv6Header.DESTINATION_OPTIONS:
                    if (!extension(d, q, end, 2, nh)) return false;
                    // RFC 8200 §4.3, §4.4, §4.6: Hdr Ext Len in 8-octet units, the first 8 octets not counted
                    len = ((d.get(q + 1) & 0xff) + 1) * 8;
                    break;
                case Ipv6Header.AUTHENTICATION:
                    if (!extension(d, q, end, 2, nh)) return false;
                    len = ((d.get(q + 1) & 0xff) + 2) * 4; // RFC 4302 §2.2: Payload Len in 4-octet units, minus 2
                    break;
                case Ipv6Header.FRAGMENT: {
                    if (!extension(d, q, end, 8, nh)) return false;
                    int offsetAndFlags = u16(d, q + 2); // RFC 8200 §4.5: offset (13 bits), res, M
                    if ((offsetAndFlags & 0xfff8) != 0) {
                        // a later fragment: its Next Header names the first header of the fragmentable part
                        if ((d.get(q) & 0xff) == TcpHeader.PROTOCOL_NUMBER) {
                            reportIpv6Fragment(d, q);
                        }
                        return false;
                    }
                    if ((offsetAndFlags & 1) != 0) {
                        fragmentAt = q; // first fragment: report only if TCP follows
                    } // else an atomic fragment, a whole packet (RFC 6946 §4)
                    len = 8;
                    break;
                }
                default:
                    return false; // 59 (no next header), another upper layer, or an unknown extension
            }
            if (q + len > end) {
                return malformed(q + 1, "IPv6 extension header " + nh + " of " + len + " bytes runs past the "
                        + "packet's end");
            }
            nh = d.get(q) & 0xff;
            q += len;
        }
        if (fragmentAt >= 0) {
            reportIpv6Fragment(d, fragmentAt);
            return false;
        }
        return tcp(d, out, q, end, p + Ipv6Header.SOURCE_OFFSET, p + Ipv6Header.DESTINATION_OFFSET, 16);
    }

    private static boolean mayCarryTcp(int nextHeader) {
        return nextHeader == TcpHeader.PROTOCOL_NUMBER || nextHeader == Ipv6Header.HOP_BY_HOP
                || nextHeader == Ipv6Header.ROUTING || nextHeader == Ipv6Header.FRAGMENT
                || nextHeader == Ipv6Header.AUTHENTICATION || nextHeader == Ipv6Header.DESTINATION_OPTIONS;
    }

    /** Checks that {@code n} bytes of an extension header at q are in the packet and were captured. */
    private boolean extension(ByteBuffer d, int q, int end, int n, int type) {
        if (q + n > end) {
            return malformed(q, "IPv6 extension header " + type + " needs " + n + " bytes, the packet has "
                    + Math.max(0, end - q) + " left");
        }
        if (q + n > capEnd) {
            return short_(q, n, "IPv6 extension header " + type);
        }
        return true;
    }

    private void reportIpv6Fragment(ByteBuffer d, int q) {
        int offsetAndFlags = u16(d, q + 2);
        info(q, "IPv6 fragment (id " + (d.getInt(q + 4) & 0xffffffffL) + ", offset " + (offsetAndFlags & 0xfff8)
                + ", more fragments " + ((offsetAndFlags & 1) != 0)
                + ") of a TCP packet: fragments are not reassembled, TCP not decoded");
    }

    private boolean tcp(ByteBuffer d, TcpSegment out, int q, int end, int srcAt, int dstAt, int addressLength) {
        int length = end - q;
        if (length < TcpHeader.MIN_LENGTH) {
            return malformed(q, "TCP header needs 20 bytes, the IP packet leaves " + length);
        }
        int capturedEnd = Math.min(capEnd, end);
        if (capturedEnd - q < TcpHeader.MIN_LENGTH) {
            return short_(q, TcpHeader.MIN_LENGTH, "TCP header");
        }
        int hl = TcpHeader.headerLength(d, q);
        if (hl < TcpHeader.MIN_LENGTH) { // RFC 9293 §3.1: Data Offset is at least 5
            return malformed(q + 12, "TCP data offset " + hl / 4 + " is below the minimum 5");
        }
        if (hl > length) {
            return malformed(q + 12, "TCP data offset " + hl / 4 + " (" + hl + " bytes) beyond the " + length
                    + "-byte TCP segment");
        }
        int payloadStart = q + hl;
        int payloadLength = length - hl;
        int captured = Math.max(0, capturedEnd - payloadStart);
        if (captured < payloadLength) {
            warn(Math.min(capturedEnd, payloadStart), "frame cut by the capture's snaplen: " + captured + " of "
                    + payloadLength + " TCP payload bytes captured");
        }
        if (d != viewSource) { // a reader that refills one buffer costs one duplicate for the whole capture
            viewSource = d;
            view = d.duplicate();
        }
        int viewStart = Math.min(payloadStart, capturedEnd); // options may be cut off too: then an empty view
        view.limit(viewStart + captured);
        view.position(viewStart);
        int srcPort = TcpHeader.sourcePort(d, q);
        int dstPort = TcpHeader.destinationPort(d, q);
        out.set(endpoints.get(d, srcAt, addressLength, srcPort), endpoints.get(d, dstAt, addressLength, dstPort),
                TcpHeader.sequence(d, q), TcpHeader.acknowledgment(d, q), TcpHeader.flags(d, q),
                TcpHeader.window(d, q), view, payloadLength, frame.number, frame.timestampNanos);
        lastData = d;
        lastFrame = frame.number;
        lastCapEnd = capEnd;
        tcpAt = q;
        tcpPayloadLength = payloadLength;
        return true;
    }

    /**
     * The headers of the frame {@link #decode} just filled a segment from, while its bytes are still the reader's
     * (the pipeline asks while that frame is being processed); null for any other frame. Allocates: called only when
     * fields are wanted.
     *
     * @param frameNumber      the frame asked for
     * @param sequenceBase     the sender's base sequence number (relative sequence numbers count from it)
     * @param acknowledgedBase the receiver's base sequence number (relative acknowledgment numbers count from it)
     */
    public FrameHeaders headers(long frameNumber, long sequenceBase, long acknowledgedBase) {
        if (frameNumber != lastFrame || lastFrame < 0) return null;
        ByteBuffer d = lastData;
        // the headers' octets, one copy, parsed when a field is asked for (a viewer may only store them)
        int start = ethernetAt >= 0 ? ethernetAt : vlanCount > 0 ? Math.min(vlanAt, ipAt) : ipAt;
        int end = tcpAt + TcpHeader.headerLength(d, tcpAt);
        byte[] octets = new byte[end - start];
        d.get(start, octets, 0, Math.max(0, Math.min(octets.length, lastCapEnd - start)));
        long seq = (TcpHeader.sequence(d, tcpAt) - sequenceBase) & DirectionState.SEQ_MASK;
        long ack = (TcpHeader.acknowledgment(d, tcpAt) - acknowledgedBase) & DirectionState.SEQ_MASK;
        try {
            return FrameHeaders.ofOctets(octets, ethernetAt >= 0 ? ethernetAt - start : -1,
                    vlanCount > 0 ? vlanAt - start : -1, vlanCount, ipVersion == 6, ipAt - start, tcpAt - start,
                    tcpPayloadLength, seq, ack);
        } catch (io.rddp.MalformedException e) {
            throw new IllegalStateException("headers decode checked before: " + e.getMessage(), e);
        }
    }

    // --- helpers ---

    private static int u16(ByteBuffer d, int at) {
        return d.getShort(at) & 0xffff;
    }

    /** True when n bytes at p were captured; otherwise reports why not and returns false. */
    private boolean need(ByteBuffer d, int p, int n, String what) {
        if (capEnd - p >= n) return true;
        return short_(p, n, what);
    }

    /** Fewer than n bytes at p were captured: cut by snaplen if the wire had them, else malformed. */
    private boolean short_(int p, int n, String what) {
        if (wireEnd - p >= n) {
            warn(p, "frame cut by the capture's snaplen inside the " + what + " (" + Math.max(0, capEnd - p) + " of "
                    + n + " bytes captured)");
        } else {
            malformed(p, what + " needs " + n + " bytes, the frame has " + Math.max(0, wireEnd - p));
        }
        return false;
    }

    private boolean malformed(int at, String message) {
        report(Notice.Severity.WARNING, at, "malformed: " + message);
        return false;
    }

    private void warn(int at, String message) {
        report(Notice.Severity.WARNING, at, message);
    }

    private void info(int at, String message) {
        report(Notice.Severity.INFO, at, message);
    }

    private void report(Notice.Severity severity, int at, String message) {
        int offset = at - base;
        notices.accept(new Notice(severity, "tcp", frame.number, -1, offset, message + " (at byte " + offset
                + " of the frame)"));
    }

    private void reportUnsupportedLinkType(int linkType) {
        for (int i = 0; i < unsupportedLinkTypeCount; i++) {
            if (unsupportedLinkTypes[i] == linkType) return;
        }
        if (unsupportedLinkTypeCount < unsupportedLinkTypes.length) {
            unsupportedLinkTypes[unsupportedLinkTypeCount++] = linkType;
            notices.accept(new Notice(Notice.Severity.INFO, "tcp", frame.number, -1, -1, "link type " + linkType
                    + " is not decoded; its frames are skipped (reported once)"));
        }
    }
}
