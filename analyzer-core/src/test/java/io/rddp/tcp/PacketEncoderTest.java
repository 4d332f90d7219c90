package io.rddp.tcp;

import io.rddp.MalformedException;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PacketEncoderTest {
    static final Endpoint A4 = new Endpoint(new byte[]{10, 0, 2, 15}, 39655);
    static final Endpoint B4 = new Endpoint(new byte[]{10, 0, 2, 15}, 7174);

    @Test
    void tcpChecksumOfARealSegmentMatchesTsharksCalculation() throws IOException {
        // frame 8 of siw-rping-lo.pcap: on loopback the field holds Linux's partial sum (0x186c); tshark
        // computes that the full checksum should be 0x5a58
        Frame f = SiwRpingFramesTest.frames().get(7);
        ByteBuffer b = f.data;
        int tcpAt = 14 + 20;
        int tcpLength = b.limit() - tcpAt;
        assertThat(b.getShort(tcpAt + 16) & 0xffff).isEqualTo(0x186c);
        b.putShort(tcpAt + 16, (short) 0);
        byte[] addr = {10, 0, 2, 15};
        assertThat(InternetChecksum.tcp(addr, addr, b, tcpAt, tcpLength)).isEqualTo(0x5a58);
        // with the right value in place the segment verifies
        b.putShort(tcpAt + 16, (short) 0x5a58);
        assertThat(InternetChecksum.tcp(addr, addr, b, tcpAt, tcpLength)).isZero();
        // the capture's IPv4 header checksum is valid: summing the header gives 0
        assertThat(InternetChecksum.finish(InternetChecksum.add(0, b, 14, 20))).isZero();
    }

    @Test
    void encoderReproducesARealSegmentWithACorrectChecksum() throws IOException, MalformedException {
        Frame f = SiwRpingFramesTest.frames().get(7);
        ByteBuffer real = f.data;
        TcpHeader tcp = TcpHeader.parse(real.duplicate().position(34));
        ByteBuffer payload = real.duplicate().position(34 + tcp.headerLength());
        byte[] encoded = new PacketEncoder().frame(A4, B4, tcp.sequence(), tcp.acknowledgment(), tcp.flags(),
                tcp.window(), tcp.options(), payload);
        assertThat(encoded).hasSize(real.limit());
        byte[] realBytes = new byte[real.limit()];
        real.get(0, realBytes);
        // TCP header and payload equal but for the checksum, which is now the full one
        assertThat(Arrays.copyOfRange(encoded, 34, 50)).isEqualTo(Arrays.copyOfRange(realBytes, 34, 50));
        assertThat(Arrays.copyOfRange(encoded, 52, encoded.length))
                .isEqualTo(Arrays.copyOfRange(realBytes, 52, realBytes.length));
        assertThat(ByteBuffer.wrap(encoded).getShort(50) & 0xffff).isEqualTo(0x5a58);
        // IPv4: same addresses, protocol, length, DF; identification is the encoder's own
        Ipv4Header ip = Ipv4Header.parse(ByteBuffer.wrap(encoded, 14, 20).slice());
        assertThat(ip.totalLength()).isEqualTo(92);
        assertThat(ip.flags()).isEqualTo(Ipv4Header.FLAG_DF);
        assertThat(ip.source()).containsExactly(10, 0, 2, 15);
        assertThat(InternetChecksum.finish(InternetChecksum.add(0, ByteBuffer.wrap(encoded), 14, 20))).isZero();
    }

    @Property(tries = 300)
    void encodedFramesCarryValidChecksumsAndDecodeToWhatWasEncoded(
            @ForAll @Size(max = 1600) byte[] payload, @ForAll boolean ipv6, @ForAll int seq, @ForAll int ack,
            @ForAll @IntRange(max = 0x1ff) int flags, @ForAll @IntRange(max = 0xffff) int window,
            @ForAll @IntRange(max = 10) int optionWords) {
        byte[] a = ipv6 ? PacketDecoderTest.V6_A : new byte[]{1, 2, 3, 4};
        byte[] b = ipv6 ? PacketDecoderTest.V6_B : new byte[]{5, 6, 7, 8};
        Endpoint src = new Endpoint(a, 1234);
        Endpoint dst = new Endpoint(b, 4321);
        byte[] options = new byte[optionWords * 4];
        Arrays.fill(options, (byte) 1); // NOPs
        byte[] frame = new PacketEncoder().frame(src, dst, seq, ack, flags, window, options, ByteBuffer.wrap(payload));
        assertThat(frame).hasSize(PacketEncoder.frameLength(ipv6, options.length, payload.length));
        ByteBuffer f = ByteBuffer.wrap(frame);
        int ipLength = ipv6 ? 40 : 20;
        if (!ipv6) assertThat(InternetChecksum.finish(InternetChecksum.add(0, f, 14, 20))).isZero();
        assertThat(InternetChecksum.tcp(a, b, f, 14 + ipLength, frame.length - 14 - ipLength)).isZero();

        TcpSegment seg = new TcpSegment();
        assertThat(new PacketDecoder(n -> { }).decode(Capture.frame(1, LinkType.ETHERNET, frame), seg)).isTrue();
        assertThat(seg.source()).isEqualTo(src);
        assertThat(seg.destination()).isEqualTo(dst);
        assertThat(seg.sequence()).isEqualTo(seq & 0xffffffffL);
        assertThat(seg.acknowledgment()).isEqualTo(ack & 0xffffffffL);
        assertThat(seg.flags()).isEqualTo(flags);
        assertThat(seg.window()).isEqualTo(window);
        byte[] decoded = new byte[seg.capturedPayloadLength()];
        seg.payload().get(decoded);
        assertThat(decoded).isEqualTo(payload);
    }

    @Test
    void headerRecordsRoundTripThroughTheirBytes() throws MalformedException {
        byte[] opts = {(byte) 0x94, 4, 0, 0};
        Ipv4Header ip = new Ipv4Header(6, 0x2e, 1234, 0xbeef, Ipv4Header.FLAG_MF, 77, 3, 6, 0,
                new byte[]{1, 2, 3, 4}, new byte[]{9, 8, 7, 6}, opts);
        ByteBuffer b = ByteBuffer.allocate(24);
        ip.writeTo(b);
        assertThat(b.position()).isEqualTo(24);
        Ipv4Header back = Ipv4Header.parse(b.flip());
        assertThat(back.tos()).isEqualTo(0x2e);
        assertThat(back.totalLength()).isEqualTo(1234);
        assertThat(back.identification()).isEqualTo(0xbeef);
        assertThat(back.moreFragments()).isTrue();
        assertThat(back.fragmentOffset()).isEqualTo(77);
        assertThat(back.isFragment()).isTrue();
        assertThat(back.ttl()).isEqualTo(3);
        assertThat(back.options()).isEqualTo(opts);
        assertThat(back.destination()).containsExactly(9, 8, 7, 6);
        assertThat(InternetChecksum.finish(InternetChecksum.add(0, b, 0, 24))).isZero();
        assertThat(b.position()).isZero(); // parse does not move

        Ipv6Header v6 = new Ipv6Header(0xab, 0xfedcb, 999, 44, 255, PacketDecoderTest.V6_A, PacketDecoderTest.V6_B);
        ByteBuffer c = ByteBuffer.allocate(40);
        v6.writeTo(c);
        Ipv6Header v6back = Ipv6Header.parse(c.flip());
        assertThat(v6back.trafficClass()).isEqualTo(0xab);
        assertThat(v6back.flowLabel()).isEqualTo(0xfedcb);
        assertThat(v6back.payloadLength()).isEqualTo(999);
        assertThat(v6back.nextHeader()).isEqualTo(44);
        assertThat(v6back.hopLimit()).isEqualTo(255);
        assertThat(v6back.source()).isEqualTo(PacketDecoderTest.V6_A);

        TcpHeader tcp = new TcpHeader(65535, 1, 0xffffffffL, 0x80000000L, 6, 0x1ff, 0xabcd, 0x1234, 0x5678,
                new byte[]{2, 4, 5, (byte) 0xb4});
        ByteBuffer t = ByteBuffer.allocate(24);
        tcp.writeTo(t);
        TcpHeader tback = TcpHeader.parse(t.flip());
        assertThat(tback.sourcePort()).isEqualTo(65535);
        assertThat(tback.sequence()).isEqualTo(0xffffffffL);
        assertThat(tback.acknowledgment()).isEqualTo(0x80000000L);
        assertThat(tback.flags()).isEqualTo(0x1ff);
        assertThat(tback.window()).isEqualTo(0xabcd);
        assertThat(tback.checksum()).isEqualTo(0x1234);
        assertThat(tback.urgentPointer()).isEqualTo(0x5678);
        assertThat(tback.options()).containsExactly(2, 4, 5, 0xb4);
        assertThat(TcpHeader.flagNames(tback.flags())).isEqualTo("FIN, SYN, RST, PSH, ACK, URG, ECE, CWR, NS");
    }

    @Test
    void headerParsersRejectImpossibleHeadersWithTheOffendingOffset() {
        byte[] p = PacketDecoderTest.ipv4();
        p[20 + 12] = 0x30;
        assertThatThrownBy(() -> TcpHeader.parse(ByteBuffer.wrap(p, 20, p.length - 20).slice()))
                .isInstanceOf(MalformedException.class).hasMessageContaining("data offset 3")
                .satisfies(e -> assertThat(((MalformedException) e).offset()).isEqualTo(12));
        p[0] = 0x44;
        assertThatThrownBy(() -> Ipv4Header.parse(ByteBuffer.wrap(p))).hasMessageContaining("IHL 4");
        assertThatThrownBy(() -> Ipv6Header.parse(ByteBuffer.wrap(p))).hasMessageContaining("version 4 is not 6");
        assertThatThrownBy(() -> Ipv4Header.parse(ByteBuffer.allocate(19))).hasMessageContaining("needs 20 bytes");
    }

    @Test
    void mixedAddressFamiliesAndOversizedPacketsAreRefused() {
        Endpoint v6 = new Endpoint(PacketDecoderTest.V6_A, 1);
        assertThatThrownBy(() -> new PacketEncoder().frame(A4, v6, 0, 0, 0, 0, ByteBuffer.allocate(0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PacketEncoder().frame(A4, B4, 0, 0, 0, 0, ByteBuffer.allocate(65500)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("65535");
        assertThatThrownBy(() -> new PacketEncoder().frame(A4, B4, 0, 0, 0, 0, new byte[3], ByteBuffer.allocate(0)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
