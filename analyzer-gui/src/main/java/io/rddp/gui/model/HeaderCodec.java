package io.rddp.gui.model;

import io.rddp.tcp.EthernetHeader;
import io.rddp.tcp.FrameHeaders;
import io.rddp.tcp.Ipv4Header;
import io.rddp.tcp.Ipv6Header;
import io.rddp.tcp.TcpHeader;
import io.rddp.tcp.VlanTag;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The frame headers of a PDU in the window's field store, as their values (some 80 octets with a Linux TCP's
 * options) rather than as the 40-odd fields they describe to (about 300): the fields are made when a row's tree is
 * shown or a filter reads it. A 2 GB capture holds 1.5 million PDUs.
 */
final class HeaderCodec {
    private static final int ETHERNET = 1, IPV4 = 2, IPV6 = 4, OCTETS = 8;
    /** Longest header octets kept: Ethernet 14, two VLAN tags 8, IPv6 40 or IPv4 60, TCP 60. */
    private static final int MAX_OCTETS = 256;

    private HeaderCodec() {
    }

    static void write(FrameHeaders h, RecordBuffer out) {
        byte[] octets = h.octets();
        if (octets != null && octets.length <= MAX_OCTETS) {
            // as the decoder kept them: one copy, parsed only when a row is shown or a filter reads them
            int[] at = h.offsets();
            out.writeByte(OCTETS);
            out.writeByte(octets.length);
            out.write(octets, 0, octets.length);
            for (int v : at) out.writeByte(v + 1);  // -1 (absent) as 0
            out.writeBoolean(h.isIpv6());
            out.writeInt(h.tcpLength());
            out.writeInt((int) h.relativeSequence());
            out.writeInt((int) h.relativeAck());
            return;
        }
        out.writeByte((h.ethernet() != null ? ETHERNET : 0) | (h.ipv4() != null ? IPV4 : IPV6));
        if (h.ethernet() != null) {
            out.write(h.ethernet().destination(), 0, 6);
            out.write(h.ethernet().source(), 0, 6);
            out.writeShort(h.ethernet().etherType());
        }
        out.writeByte(h.vlans().size());
        for (VlanTag t : h.vlans()) {
            out.writeShort(t.priority() << 13 | (t.dei() ? 0x1000 : 0) | t.id());
            out.writeShort(t.etherType());
        }
        // the fields at their own widths, one call a value: no loop and no array per PDU on the loading path
        if (h.ipv4() != null) {
            Ipv4Header ip = h.ipv4();
            out.writeByte(ip.tos());
            out.writeShort(ip.totalLength());
            out.writeShort(ip.identification());
            out.writeByte(ip.flags());
            out.writeShort(ip.fragmentOffset());
            out.writeByte(ip.ttl());
            out.writeByte(ip.protocol());
            out.writeShort(ip.checksum());
            out.write(ip.source(), 0, 4);
            out.write(ip.destination(), 0, 4);
            options(ip.options(), out); // IHL follows from their length
        } else {
            Ipv6Header ip = h.ipv6();
            out.writeByte(ip.trafficClass());
            out.writeInt(ip.flowLabel());
            out.writeShort(ip.payloadLength());
            out.writeByte(ip.nextHeader());
            out.writeByte(ip.hopLimit());
            out.write(ip.source(), 0, 16);
            out.write(ip.destination(), 0, 16);
        }
        TcpHeader t = h.tcp();
        out.writeShort(t.sourcePort());
        out.writeShort(t.destinationPort());
        out.writeInt((int) t.sequence());
        out.writeInt((int) t.acknowledgment());
        out.writeShort(t.flags());
        out.writeShort(t.window());
        out.writeShort(t.checksum());
        out.writeShort(t.urgentPointer());
        out.writeInt(h.tcpLength());
        out.writeInt((int) h.relativeSequence()); // both modulo 2^32, as the sequence numbers themselves
        out.writeInt((int) h.relativeAck());
        options(t.options(), out); // the data offset follows from their length
    }

    static FrameHeaders read(DataInputStream in) throws IOException {
        int kinds = in.readUnsignedByte();
        if (kinds == OCTETS) {
            byte[] octets = octets(in, in.readUnsignedByte());
            int[] at = new int[5];
            for (int i = 0; i < at.length; i++) at[i] = in.readUnsignedByte() - 1;
            boolean ipv6 = in.readBoolean();
            int tcpLength = in.readInt();
            long seq = in.readInt() & 0xFFFFFFFFL, ack = in.readInt() & 0xFFFFFFFFL;
            try {
                return FrameHeaders.ofOctets(octets, at[0], at[1], at[2], ipv6, at[3], at[4], tcpLength, seq, ack);
            } catch (io.rddp.MalformedException e) {
                throw new IOException("bad frame headers record: " + e.getMessage(), e);
            }
        }
        EthernetHeader eth = null;
        if ((kinds & ETHERNET) != 0) {
            byte[] dst = new byte[6];
            byte[] src = new byte[6];
            in.readFully(dst);
            in.readFully(src);
            eth = new EthernetHeader(dst, src, in.readUnsignedShort());
        }
        int n = in.readUnsignedByte();
        List<VlanTag> vlans = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int tci = in.readUnsignedShort();
            vlans.add(VlanTag.of(tci, in.readUnsignedShort()));
        }
        Ipv4Header v4 = null;
        Ipv6Header v6 = null;
        if ((kinds & IPV4) != 0) {
            int tos = in.readUnsignedByte(), totalLength = in.readUnsignedShort(), id = in.readUnsignedShort();
            int flags = in.readUnsignedByte(), fragmentOffset = in.readUnsignedShort(), ttl = in.readUnsignedByte();
            int protocol = in.readUnsignedByte(), checksum = in.readUnsignedShort();
            byte[] src = octets(in, 4), dst = octets(in, 4), options = options(in);
            v4 = new Ipv4Header(5 + options.length / 4, tos, totalLength, id, flags, fragmentOffset, ttl, protocol,
                    checksum, src, dst, options);
        } else {
            int trafficClass = in.readUnsignedByte(), flowLabel = in.readInt(), payloadLength = in.readUnsignedShort();
            int nextHeader = in.readUnsignedByte(), hopLimit = in.readUnsignedByte();
            v6 = new Ipv6Header(trafficClass, flowLabel, payloadLength, nextHeader, hopLimit, octets(in, 16),
                    octets(in, 16));
        }
        int sport = in.readUnsignedShort(), dport = in.readUnsignedShort();
        long seq = in.readInt() & 0xFFFFFFFFL, ack = in.readInt() & 0xFFFFFFFFL;
        int flags = in.readUnsignedShort(), window = in.readUnsignedShort(), checksum = in.readUnsignedShort();
        int urgent = in.readUnsignedShort(), tcpLength = in.readInt();
        long relativeSequence = in.readInt() & 0xFFFFFFFFL, relativeAck = in.readInt() & 0xFFFFFFFFL;
        byte[] options = options(in);
        TcpHeader tcp = new TcpHeader(sport, dport, seq, ack, 5 + options.length / 4, flags, window, checksum, urgent,
                options);
        return new FrameHeaders(eth, vlans, v4, v6, tcp, tcpLength, relativeSequence, relativeAck);
    }

    private static void options(byte[] b, RecordBuffer out) {
        out.writeByte(b.length);
        out.write(b, 0, b.length);
    }

    private static byte[] options(DataInputStream in) throws IOException {
        int n = in.readUnsignedByte();
        if (n > 40 || n % 4 != 0) throw new IOException("bad frame headers record: options of " + n + " octets");
        return octets(in, n);
    }

    private static byte[] octets(DataInputStream in, int n) throws IOException {
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
