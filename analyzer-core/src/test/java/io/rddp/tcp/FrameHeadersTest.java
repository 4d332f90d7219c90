package io.rddp.tcp;

import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** PacketDecoder#headers: the headers of the frame just decoded, whatever the link layer and however cut. */
class FrameHeadersTest {
    private static final byte[] SRC = {10, 0, 0, 1};
    private static final byte[] DST = {10, 0, 0, 2};

    /** Ethernet, the given VLAN tags (TCI values), IPv4, a TCP header with 12 option octets, 4 payload octets. */
    private static Frame frame(long number, int snap, int... tcis) {
        TcpHeader tcp = new TcpHeader(40000, 4791, 1000, 2000, 8, TcpHeader.ACK | TcpHeader.PSH, 512, 0xbeef, 0,
                new byte[12]);
        ByteBuffer b = ByteBuffer.allocate(200);
        b.put(new byte[]{2, 0, 0, 0, 0, 2}).put(new byte[]{2, 0, 0, 0, 0, 1});
        for (int tci : tcis) b.putShort((short) 0x8100).putShort((short) tci);
        b.putShort((short) 0x0800);
        Ipv4Header.of(SRC, DST, TcpHeader.PROTOCOL_NUMBER, 32 + 4, 7, 64).writeTo(b);
        tcp.writeTo(b);
        b.put(new byte[]{1, 2, 3, 4}).flip();
        int wire = b.limit();
        b.limit(Math.min(snap, wire));
        Frame f = new Frame();
        f.number = number;
        f.linkType = LinkType.ETHERNET;
        f.data = b;
        f.originalLength = wire;
        return f;
    }

    @Test
    void eachVlanTagIsATagWithItsPriorityIdAndTheEtherTypeAfterIt() {
        PacketDecoder d = new PacketDecoder(n -> { });
        assertThat(d.decode(frame(3, 999, (5 << 13) | 100, 42), new TcpSegment())).isTrue();
        FrameHeaders h = d.headers(3, 999, 1999);
        assertThat(h.ethernet().etherType()).isEqualTo(0x8100);
        assertThat(h.vlans()).containsExactly(new VlanTag(5, false, 100, 0x8100), new VlanTag(0, false, 42, 0x0800));
        assertThat(h.ipv4().identification()).isEqualTo(7);
        assertThat(h.tcp().checksum()).isEqualTo(0xbeef);
        assertThat(h.tcpLength()).isEqualTo(4);
        assertThat(h.relativeSequence()).isEqualTo(1);
        assertThat(h.relativeAck()).isEqualTo(1);
    }

    @Test
    void tcpOptionsTheSnaplenCutOffReadAsZerosAndTheHeaderStillDecodes() {
        List<io.rddp.Notice> notices = new ArrayList<>();
        PacketDecoder d = new PacketDecoder(notices::add);
        // 14 Ethernet + 20 IPv4 + 20 of the 32-octet TCP header
        assertThat(d.decode(frame(1, 54), new TcpSegment())).isTrue();
        FrameHeaders h = d.headers(1, 0, 0);
        assertThat(h.tcp().headerLength()).isEqualTo(32);
        assertThat(h.tcp().options()).containsOnly(0);
        assertThat(h.tcp().window()).isEqualTo(512);
        assertThat(h.tcpLength()).isEqualTo(4);
        assertThat(notices).isNotEmpty(); // the cut is reported as before
    }

    @Test
    void anotherFrameOrOneThatCarriedNoSegmentHasNoHeaders() {
        PacketDecoder d = new PacketDecoder(n -> { });
        assertThat(d.decode(frame(1, 999), new TcpSegment())).isTrue();
        assertThat(d.headers(2, 0, 0)).isNull();
        Frame arp = frame(2, 999);
        arp.data.put(12, (byte) 0x08).put(13, (byte) 0x06);
        assertThat(d.decode(arp, new TcpSegment())).isFalse();
        assertThat(d.headers(1, 0, 0)).isNull();
        assertThat(d.headers(2, 0, 0)).isNull();
    }

    @Test
    void sequenceNumbersAreRelativeModulo2To32() {
        PacketDecoder d = new PacketDecoder(n -> { });
        d.decode(frame(1, 999), new TcpSegment());
        FrameHeaders h = d.headers(1, 0xffff_fff0L, 2000);
        assertThat(h.relativeSequence()).isEqualTo(1000 + 0x10);
        assertThat(h.relativeAck()).isZero();
    }
}
