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
    private static final int ETHERNET = 1, IPV4 = 2, IPV6 = 4;

    private HeaderCodec() {
    }

    static void write(FrameHeaders h, RecordBuffer out) {
        out.writeByte((h.ethernet() != null ? ETHERNET : 0) | (h.ipv4() != null ? IPV4 : IPV6));
        if (h.ethernet() != null) {
            out.write(h.ethernet().destination(), 0, 6);
            out.write(h.ethernet().source(), 0, 6);
            out.writeVarLong(h.ethernet().etherType());
        }
        out.writeVarLong(h.vlans().size());
        for (VlanTag t : h.vlans()) {
            out.writeVarLong(t.priority());
            out.writeBoolean(t.dei());
            out.writeVarLong(t.id());
            out.writeVarLong(t.etherType());
        }
        if (h.ipv4() != null) {
            Ipv4Header ip = h.ipv4();
            // one call a value: no array per PDU on the loading path
            out.writeVarLong(ip.ihl());
            out.writeVarLong(ip.tos());
            out.writeVarLong(ip.totalLength());
            out.writeVarLong(ip.identification());
            out.writeVarLong(ip.flags());
            out.writeVarLong(ip.fragmentOffset());
            out.writeVarLong(ip.ttl());
            out.writeVarLong(ip.protocol());
            out.writeVarLong(ip.checksum());
            bytes(ip.source(), out);
            bytes(ip.destination(), out);
            bytes(ip.options(), out);
        } else {
            Ipv6Header ip = h.ipv6();
            out.writeVarLong(ip.trafficClass());
            out.writeVarLong(ip.flowLabel());
            out.writeVarLong(ip.payloadLength());
            out.writeVarLong(ip.nextHeader());
            out.writeVarLong(ip.hopLimit());
            bytes(ip.source(), out);
            bytes(ip.destination(), out);
        }
        TcpHeader t = h.tcp();
        out.writeVarLong(t.sourcePort());
        out.writeVarLong(t.destinationPort());
        out.writeVarLong(t.sequence());
        out.writeVarLong(t.acknowledgment());
        out.writeVarLong(t.dataOffset());
        out.writeVarLong(t.flags());
        out.writeVarLong(t.window());
        out.writeVarLong(t.checksum());
        out.writeVarLong(t.urgentPointer());
        out.writeVarLong(h.tcpLength());
        out.writeVarLong(h.relativeSequence());
        out.writeVarLong(h.relativeAck());
        bytes(t.options(), out);
    }

    static FrameHeaders read(DataInputStream in) throws IOException {
        int kinds = in.readUnsignedByte();
        EthernetHeader eth = null;
        if ((kinds & ETHERNET) != 0) {
            byte[] dst = new byte[6];
            byte[] src = new byte[6];
            in.readFully(dst);
            in.readFully(src);
            eth = new EthernetHeader(dst, src, (int) DetailStore.readVarLong(in));
        }
        int n = (int) DetailStore.readVarLong(in);
        if (n > 64) throw new IOException("bad frame headers record: " + n + " VLAN tags");
        List<VlanTag> vlans = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int priority = (int) DetailStore.readVarLong(in);
            boolean dei = in.readBoolean();
            vlans.add(new VlanTag(priority, dei, (int) DetailStore.readVarLong(in), (int) DetailStore.readVarLong(in)));
        }
        Ipv4Header v4 = null;
        Ipv6Header v6 = null;
        if ((kinds & IPV4) != 0) {
            int[] v = ints(in, 9);
            v4 = new Ipv4Header(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], bytes(in), bytes(in), bytes(in));
        } else {
            int[] v = ints(in, 5);
            v6 = new Ipv6Header(v[0], v[1], v[2], v[3], v[4], bytes(in), bytes(in));
        }
        long[] t = new long[12];
        for (int i = 0; i < t.length; i++) t[i] = DetailStore.readVarLong(in);
        TcpHeader tcp = new TcpHeader((int) t[0], (int) t[1], t[2], t[3], (int) t[4], (int) t[5], (int) t[6],
                (int) t[7], (int) t[8], bytes(in));
        return new FrameHeaders(eth, vlans, v4, v6, tcp, (int) t[9], t[10], t[11]);
    }

    private static void bytes(byte[] b, RecordBuffer out) {
        out.writeVarLong(b.length);
        out.write(b, 0, b.length);
    }

    private static byte[] bytes(DataInputStream in) throws IOException {
        int n = (int) DetailStore.readVarLong(in);
        if (n > 60) throw new IOException("bad frame headers record: a field of " + n + " octets");
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    private static int[] ints(DataInputStream in, int n) throws IOException {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) v[i] = (int) DetailStore.readVarLong(in);
        return v;
    }
}
