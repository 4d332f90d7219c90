package io.rddp.decode;

import io.rddp.field.EthernetField;
import io.rddp.field.IpField;
import io.rddp.field.Ipv6Field;
import io.rddp.field.TcpField;
import io.rddp.field.VlanField;
import io.rddp.tcp.EthernetHeader;
import io.rddp.tcp.FrameHeaders;
import io.rddp.tcp.Ipv4Header;
import io.rddp.tcp.Ipv6Header;
import io.rddp.tcp.TcpHeader;
import io.rddp.tcp.VlanTag;

/**
 * Describes the Ethernet, VLAN, IP and TCP headers of the frame a PDU ends in to a {@link FieldSink}, with
 * Wireshark's field names and values (checked against tshark 4.0 by {@code TsharkDifferentialTest}).
 */
public final class FrameHeaderFields {
    private FrameHeaderFields() {
    }

    public static void describe(FrameHeaders h, FieldSink out) {
        EthernetHeader eth = h.ethernet();
        if (eth != null) {
            out.open(EthernetField.ETH, ETH);
            out.emitAddress(EthernetField.DST, eth.destination());
            out.emitAddress(EthernetField.SRC, eth.source());
            out.emit(EthernetField.TYPE, eth.etherType());
            out.close(EthernetField.ETH);
        }
        for (VlanTag t : h.vlans()) {
            out.open(VlanField.VLAN, VLAN);
            out.emit(VlanField.PRIORITY, t.priority());
            out.emit(VlanField.ID, t.id());
            out.emit(VlanField.ETYPE, t.etherType());
            out.close(VlanField.VLAN);
        }
        if (h.ipv4() != null) describe(h.ipv4(), out);
        if (h.ipv6() != null) describe(h.ipv6(), out);
        describe(h.tcp(), h, out);
    }

    // RFC 791 §3.1
    private static void describe(Ipv4Header ip, FieldSink out) {
        out.open(IpField.IP, IPV4);
        out.emit(IpField.VERSION, 4);
        out.emit(IpField.HDR_LEN, ip.headerLength());
        out.emit(IpField.DSFIELD, ip.tos());
        out.emit(IpField.LEN, ip.totalLength());
        out.emit(IpField.ID, ip.identification());
        out.emit(IpField.DF, (ip.flags() & Ipv4Header.FLAG_DF) != 0);
        out.emit(IpField.MF, (ip.flags() & Ipv4Header.FLAG_MF) != 0);
        out.emit(IpField.FRAG_OFFSET, ip.fragmentOffset());
        out.emit(IpField.TTL, ip.ttl());
        out.emit(IpField.PROTO, ip.protocol());
        out.emit(IpField.CHECKSUM, ip.checksum());
        out.emitAddress(IpField.SRC, ip.source());
        out.emitAddress(IpField.DST, ip.destination());
        out.close(IpField.IP);
    }

    // RFC 8200 §3
    private static void describe(Ipv6Header ip, FieldSink out) {
        out.open(Ipv6Field.IPV6, IPV6);
        out.emit(Ipv6Field.VERSION, 6);
        out.emit(Ipv6Field.FLOW, ip.flowLabel());
        out.emit(Ipv6Field.PLEN, ip.payloadLength());
        out.emit(Ipv6Field.NXT, ip.nextHeader());
        out.emit(Ipv6Field.HLIM, ip.hopLimit());
        out.emitAddress(Ipv6Field.SRC, ip.source());
        out.emitAddress(Ipv6Field.DST, ip.destination());
        out.close(Ipv6Field.IPV6);
    }

    // RFC 9293 §3.1; tcp.flags is the 12 bits after Data Offset as Wireshark masks them (0xfff), the NS bit
    // (RFC 3540, historic) included
    private static void describe(TcpHeader t, FrameHeaders h, FieldSink out) {
        int f = t.flags();
        out.open(TcpField.TCP, TCP);
        out.emit(TcpField.SRCPORT, t.sourcePort());
        out.emit(TcpField.DSTPORT, t.destinationPort());
        out.emit(TcpField.SEQ, h.relativeSequence());
        out.emit(TcpField.SEQ_RAW, t.sequence());
        if ((f & TcpHeader.ACK) != 0) {
            out.emit(TcpField.ACK, h.relativeAck());
            out.emit(TcpField.ACK_RAW, t.acknowledgment());
        }
        out.emit(TcpField.HDR_LEN, t.headerLength());
        out.emit(TcpField.FLAGS, f);
        out.emit(TcpField.URG, (f & TcpHeader.URG) != 0);
        out.emit(TcpField.ACK_FLAG, (f & TcpHeader.ACK) != 0);
        out.emit(TcpField.PUSH, (f & TcpHeader.PSH) != 0);
        out.emit(TcpField.RESET, (f & TcpHeader.RST) != 0);
        out.emit(TcpField.SYN, (f & TcpHeader.SYN) != 0);
        out.emit(TcpField.FIN, (f & TcpHeader.FIN) != 0);
        out.emit(TcpField.WINDOW, t.window());
        out.emit(TcpField.CHECKSUM, t.checksum());
        out.emit(TcpField.URGENT_POINTER, t.urgentPointer());
        out.emit(TcpField.LEN, h.tcpLength());
        out.close(TcpField.TCP);
    }

    // tshark's layer titles, without the per-frame details (a sink that shows no labels pays nothing)
    private static final String ETH = "Ethernet II";
    private static final String VLAN = "802.1Q Virtual LAN";
    private static final String IPV4 = "Internet Protocol Version 4";
    private static final String IPV6 = "Internet Protocol Version 6";
    private static final String TCP = "Transmission Control Protocol";
}
