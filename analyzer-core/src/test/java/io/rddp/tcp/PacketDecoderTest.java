package io.rddp.tcp;

import io.rddp.Notice;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PacketDecoderTest {
    static final byte[] V4_A = {10, 0, 0, 1};
    static final byte[] V4_B = {(byte) 192, (byte) 168, 7, (byte) 200};
    static final byte[] V6_A = bytes16(0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    static final byte[] V6_B = bytes16(0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34);
    static final byte[] PAYLOAD = "iWARP says hello".getBytes(StandardCharsets.US_ASCII);
    static final TcpHeader TCP = TcpHeader.of(4791, 20049, 0xfffffff0L, 0x12345678L,
            TcpHeader.ACK | TcpHeader.PSH, 1024);

    final List<Notice> notices = new ArrayList<>();
    final PacketDecoder decoder = new PacketDecoder(notices::add);
    final TcpSegment seg = new TcpSegment();

    // ---------------------------------------------------------------- builders

    static byte[] bytes16(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) b[i] = (byte) v[i];
        return b;
    }

    /** IPv4 + TCP + payload. */
    static byte[] ipv4(byte[] ipOptions, int flags, int fragmentOffset, int protocol, TcpHeader tcp, byte[] payload) {
        int total = Ipv4Header.MIN_LENGTH + ipOptions.length + tcp.headerLength() + payload.length;
        ByteBuffer b = ByteBuffer.allocate(total);
        new Ipv4Header(5 + ipOptions.length / 4, 0, total, 0x4242, flags, fragmentOffset, 64, protocol, 0,
                V4_A.clone(), V4_B.clone(), ipOptions).writeTo(b);
        tcp.writeTo(b);
        b.put(payload);
        return b.array();
    }

    static byte[] ipv4() {
        return ipv4(new byte[0], Ipv4Header.FLAG_DF, 0, 6, TCP, PAYLOAD);
    }

    /** IPv6 with the given extension header chain (each a complete header whose first byte is patched). */
    static byte[] ipv6(int[] types, byte[][] extensions, TcpHeader tcp, byte[] payload) {
        int extLength = 0;
        for (byte[] e : extensions) extLength += e.length;
        int payloadLength = extLength + tcp.headerLength() + payload.length;
        ByteBuffer b = ByteBuffer.allocate(Ipv6Header.LENGTH + payloadLength);
        int first = types.length == 0 ? 6 : types[0];
        Ipv6Header.of(V6_A, V6_B, first, payloadLength, 64).writeTo(b);
        for (int i = 0; i < extensions.length; i++) {
            byte[] e = extensions[i].clone();
            e[0] = (byte) (i + 1 < types.length ? types[i + 1] : 6);
            b.put(e);
        }
        tcp.writeTo(b);
        b.put(payload);
        return b.array();
    }

    static byte[] ipv6() {
        return ipv6(new int[0], new byte[0][], TCP, PAYLOAD);
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) n += p.length;
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) b.put(p);
        return b.array();
    }

    static byte[] ethernet(int etherType, byte[] packet) {
        ByteBuffer b = ByteBuffer.allocate(14 + packet.length);
        b.put(new byte[]{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) etherType).put(packet);
        return b.array();
    }

    /** A VLAN tag after its TPID: TCI (priority, DEI, VLAN id), then the EtherType that follows. */
    static byte[] vlan(int nextType, int vid) {
        return ByteBuffer.allocate(4).putShort((short) vid).putShort((short) nextType).array();
    }

    boolean decode(int linkType, byte[] bytes) {
        return decoder.decode(Capture.frame(7, linkType, bytes), seg);
    }

    void assertDecodedIpv4() {
        assertThat(seg.source()).isEqualTo(new Endpoint(V4_A, 4791));
        assertThat(seg.destination()).isEqualTo(new Endpoint(V4_B, 20049));
        assertPayloadAndTcpFields();
    }

    void assertDecodedIpv6() {
        assertThat(seg.source()).isEqualTo(new Endpoint(V6_A, 4791));
        assertThat(seg.destination()).isEqualTo(new Endpoint(V6_B, 20049));
        assertPayloadAndTcpFields();
    }

    private void assertPayloadAndTcpFields() {
        assertThat(seg.sequence()).isEqualTo(0xfffffff0L);
        assertThat(seg.acknowledgment()).isEqualTo(0x12345678L);
        assertThat(seg.flags()).isEqualTo(TcpHeader.ACK | TcpHeader.PSH);
        assertThat(seg.window()).isEqualTo(1024);
        assertThat(seg.frame()).isEqualTo(7);
        assertThat(seg.timestampNanos()).isEqualTo(7_000_000_000L);
        assertThat(seg.payloadLength()).isEqualTo(PAYLOAD.length);
        assertThat(seg.truncated()).isFalse();
        assertThat(payload()).isEqualTo(PAYLOAD);
        assertThat(notices).isEmpty();
    }

    byte[] payload() {
        ByteBuffer p = seg.payload();
        byte[] b = new byte[p.remaining()];
        p.get(b);
        return b;
    }

    // ---------------------------------------------------------------- link types

    @Test
    void ethernetIpv4SegmentIsDecodedWithEveryField() {
        assertThat(decode(LinkType.ETHERNET, ethernet(0x0800, ipv4()))).isTrue();
        assertDecodedIpv4();
    }

    @Test
    void ethernetIpv6SegmentIsDecodedWithEveryField() {
        assertThat(decode(LinkType.ETHERNET, ethernet(0x86DD, ipv6()))).isTrue();
        assertDecodedIpv6();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void vlanTagsOfAnyTypeAndDepthAreSkipped(int depth) {
        int[] tpids = {0x88a8, 0x9100, 0x8100};
        byte[][] tags = new byte[depth][];
        for (int i = 0; i < depth; i++) tags[i] = vlan(i == depth - 1 ? 0x0800 : tpids[i % 3], 100 + i);
        // the frame's own EtherType is the outermost TPID; each tag's second half names the next type
        byte[] inner = concat(concat(tags), ipv4());
        assertThat(decode(LinkType.ETHERNET, ethernet(tpids[(depth + 1) % 3], inner))).isTrue();
        assertDecodedIpv4();
    }

    @Test
    void vlanTaggedIpv6IsDecoded() {
        assertThat(decode(LinkType.ETHERNET, ethernet(0x8100, concat(vlan(0x86DD, 5), ipv6())))).isTrue();
        assertDecodedIpv6();
    }

    @Test
    void linuxCookedHeaderCarriesTheEtherType() {
        ByteBuffer sll = ByteBuffer.allocate(16).putShort((short) 0).putShort((short) 1).putShort((short) 6)
                .put(new byte[8]).putShort((short) 0x0800);
        assertThat(decode(LinkType.LINUX_SLL, concat(sll.array(), ipv4()))).isTrue();
        assertDecodedIpv4();
        sll.putShort(14, (short) 0x86DD);
        assertThat(decode(LinkType.LINUX_SLL, concat(sll.array(), ipv6()))).isTrue();
        assertDecodedIpv6();
    }

    @Test
    void linuxCookedV2HeaderCarriesTheEtherTypeFirst() {
        ByteBuffer sll2 = ByteBuffer.allocate(20).putShort((short) 0x86DD).putShort((short) 0).putInt(3)
                .putShort((short) 1).put((byte) 0).put((byte) 6).put(new byte[8]);
        assertThat(decode(LinkType.LINUX_SLL2, concat(sll2.array(), ipv6()))).isTrue();
        assertDecodedIpv6();
        sll2.putShort(0, (short) 0x0800);
        assertThat(decode(LinkType.LINUX_SLL2, concat(sll2.array(), ipv4()))).isTrue();
        assertDecodedIpv4();
    }

    @Test
    void rawIpTakesTheVersionFromTheFirstNibble() {
        assertThat(decode(LinkType.RAW, ipv4())).isTrue();
        assertDecodedIpv4();
        assertThat(decode(LinkType.RAW, ipv6())).isTrue();
        assertDecodedIpv6();
    }

    @Test
    void ipv4AndIpv6LinkTypesCarryBarePackets() {
        assertThat(decode(LinkType.IPV4, ipv4())).isTrue();
        assertDecodedIpv4();
        assertThat(decode(LinkType.IPV6, ipv6())).isTrue();
        assertDecodedIpv6();
    }

    @ParameterizedTest
    @ValueSource(ints = {24, 28, 30})
    void bsdNullTakesTheAddressFamilyInEitherHostByteOrder(int af6) {
        byte[] le4 = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(2).array();
        byte[] be4 = ByteBuffer.allocate(4).putInt(2).array();
        byte[] le6 = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(af6).array();
        byte[] be6 = ByteBuffer.allocate(4).putInt(af6).array();
        assertThat(decode(LinkType.NULL, concat(le4, ipv4()))).isTrue();
        assertDecodedIpv4();
        assertThat(decode(LinkType.NULL, concat(be4, ipv4()))).isTrue();
        assertDecodedIpv4();
        assertThat(decode(LinkType.NULL, concat(le6, ipv6()))).isTrue();
        assertDecodedIpv6();
        assertThat(decode(LinkType.NULL, concat(be6, ipv6()))).isTrue();
        assertDecodedIpv6();
    }

    @Test
    void openBsdLoopTakesTheAddressFamilyInNetworkOrderOnly() {
        assertThat(decode(LinkType.LOOP, concat(ByteBuffer.allocate(4).putInt(2).array(), ipv4()))).isTrue();
        assertDecodedIpv4();
        assertThat(decode(LinkType.LOOP, concat(ByteBuffer.allocate(4).putInt(24).array(), ipv6()))).isTrue();
        assertDecodedIpv6();
        byte[] littleEndian = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(2).array();
        assertThat(decode(LinkType.LOOP, concat(littleEndian, ipv4()))).isFalse();
        assertThat(notices).isEmpty();
    }

    @Test
    void unsupportedLinkTypeIsReportedOnce() {
        assertThat(decode(147, ipv4())).isFalse();
        assertThat(decode(147, ipv4())).isFalse();
        assertThat(notices).hasSize(1);
        assertThat(notices.get(0).message()).contains("link type 147");
    }

    // ---------------------------------------------------------------- IP

    @Test
    void ipv4OptionsAreSkippedUsingTheHeaderLength() {
        byte[] options = {(byte) 0x94, 4, 0, 0, 1, 1, 1, 0}; // Router Alert, NOP, NOP, NOP, EOL
        assertThat(decode(LinkType.ETHERNET, ethernet(0x0800, ipv4(options, 0, 0, 6, TCP, PAYLOAD)))).isTrue();
        assertDecodedIpv4();
    }

    @Test
    void tcpOptionsAreSkippedUsingTheDataOffset() {
        byte[] opts = {2, 4, 0x05, (byte) 0xb4, 1, 3, 3, 7}; // MSS 1460, NOP, WS 7
        TcpHeader withOptions = new TcpHeader(4791, 20049, 0xfffffff0L, 0x12345678L, 7,
                TcpHeader.ACK | TcpHeader.PSH, 1024, 0, 0, opts);
        assertThat(decode(LinkType.ETHERNET, ethernet(0x0800, ipv4(new byte[0], 0, 0, 6, withOptions, PAYLOAD))))
                .isTrue();
        assertDecodedIpv4();
    }

    @Test
    void ethernetPaddingIsTrimmedByTheIpTotalLength() {
        byte[] tiny = ipv4(new byte[0], 0, 0, 6, TCP, new byte[]{42});
        byte[] padded = concat(ethernet(0x0800, tiny), new byte[]{(byte) 0xee, (byte) 0xee, (byte) 0xee, 0x5a, 0x5a});
        assertThat(decode(LinkType.ETHERNET, padded)).isTrue();
        assertThat(seg.payloadLength()).isEqualTo(1);
        assertThat(payload()).containsExactly(42);
    }

    @Test
    void ipv6PaddingIsTrimmedByThePayloadLength() {
        byte[] padded = concat(ethernet(0x86DD, ipv6()), new byte[6]);
        assertThat(decode(LinkType.ETHERNET, padded)).isTrue();
        assertDecodedIpv6();
    }

    @Test
    void zeroIpv4TotalLengthOfSegmentationOffloadTakesTheFrameLength() {
        byte[] p = ipv4();
        p[2] = 0;
        p[3] = 0;
        assertThat(decode(LinkType.RAW, p)).isTrue();
        assertDecodedIpv4();
    }

    @Test
    void ipv4FragmentsAreReportedAndNotDecodedTheFirstOneToo() {
        assertThat(decode(LinkType.RAW, ipv4(new byte[0], Ipv4Header.FLAG_MF, 0, 6, TCP, PAYLOAD))).isFalse();
        assertThat(decode(LinkType.RAW, ipv4(new byte[0], 0, 185, 6, TCP, PAYLOAD))).isFalse();
        assertThat(notices).hasSize(2).allSatisfy(n -> {
            assertThat(n.severity()).isEqualTo(Notice.Severity.INFO);
            assertThat(n.frame()).isEqualTo(7);
            assertThat(n.offset()).isEqualTo(6);
        });
        assertThat(notices.get(0).message()).contains("id 16962", "offset 0,", "more fragments true");
        assertThat(notices.get(1).message()).contains("offset 1480,", "more fragments false");
    }

    @Test
    void udpFragmentsAreNotOurs() {
        assertThat(decode(LinkType.RAW, ipv4(new byte[0], Ipv4Header.FLAG_MF, 0, 17, TCP, PAYLOAD))).isFalse();
        assertThat(notices).isEmpty();
    }

    static byte[] extension(int length) {
        byte[] e = new byte[length];
        e[1] = (byte) (length / 8 - 1);
        return e;
    }

    static byte[] authenticationHeader() {
        byte[] ah = new byte[24]; // 12 fixed bytes + 12 bytes ICV
        ah[1] = (byte) (24 / 4 - 2);
        return ah;
    }

    static byte[] fragmentHeader(int offsetUnits, boolean more) {
        return ByteBuffer.allocate(8).put((byte) 0).put((byte) 0).putShort((short) (offsetUnits << 3 | (more ? 1 : 0)))
                .putInt(0xabcdef).array();
    }

    @Test
    void ipv6ExtensionHeadersAreWalkedToTheTcpHeader() {
        int[] types = {0, 43, 60, 51};
        byte[][] ext = {extension(8), extension(24), extension(16), authenticationHeader()};
        assertThat(decode(LinkType.RAW, ipv6(types, ext, TCP, PAYLOAD))).isTrue();
        assertDecodedIpv6();
    }

    @Test
    void ipv6FragmentsAreReportedAndNotDecodedTheFirstOneToo() {
        assertThat(decode(LinkType.RAW, ipv6(new int[]{0, 44}, new byte[][]{extension(8), fragmentHeader(0, true)},
                TCP, PAYLOAD))).isFalse();
        assertThat(decode(LinkType.RAW, ipv6(new int[]{44}, new byte[][]{fragmentHeader(100, false)}, TCP, PAYLOAD)))
                .isFalse();
        assertThat(notices).hasSize(2).allSatisfy(n -> assertThat(n.severity()).isEqualTo(Notice.Severity.INFO));
        assertThat(notices.get(0).message())
                .contains("IPv6 fragment", "id 11259375", "offset 0,", "more fragments true");
        assertThat(notices.get(0).offset()).isEqualTo(48);
        assertThat(notices.get(1).message()).contains("offset 800,", "more fragments false");
    }

    @Test
    void ipv6AtomicFragmentIsAWholePacket() {
        assertThat(decode(LinkType.RAW, ipv6(new int[]{44}, new byte[][]{fragmentHeader(0, false)}, TCP, PAYLOAD)))
                .isTrue();
        assertDecodedIpv6();
    }

    @Test
    void ipv6NoNextHeaderAndOtherProtocolsAreQuietlySkipped() {
        byte[] none = ipv6(new int[]{60}, new byte[][]{extension(8)}, TCP, PAYLOAD);
        none[Ipv6Header.LENGTH] = 59;
        assertThat(decode(LinkType.RAW, none)).isFalse();
        byte[] icmp = ipv6();
        icmp[6] = 58;
        assertThat(decode(LinkType.RAW, icmp)).isFalse();
        assertThat(notices).isEmpty();
    }

    @Test
    void nonTcpFramesAreQuietlySkipped() {
        assertThat(decode(LinkType.ETHERNET, ethernet(0x0806, new byte[28]))).isFalse(); // ARP
        assertThat(decode(LinkType.ETHERNET, ethernet(0x0800, ipv4(new byte[0], 0, 0, 17, TCP, PAYLOAD)))).isFalse();
        assertThat(decode(LinkType.ETHERNET, ethernet(0x8100, concat(vlan(0x88cc, 1), new byte[40])))).isFalse();
        assertThat(decode(LinkType.NULL, concat(new byte[]{7, 0, 0, 0}, ipv4()))).isFalse();
        assertThat(notices).isEmpty();
    }

    // ---------------------------------------------------------------- truncation

    @Test
    void snaplenCutPayloadKeepsTheWireLengthAndIsReported() {
        byte[] full = ethernet(0x0800, ipv4());
        int cut = full.length - 10;
        Frame f = Capture.frame(9, LinkType.ETHERNET, java.util.Arrays.copyOf(full, cut), full.length);
        assertThat(decoder.decode(f, seg)).isTrue();
        assertThat(seg.payloadLength()).isEqualTo(PAYLOAD.length);
        assertThat(seg.capturedPayloadLength()).isEqualTo(PAYLOAD.length - 10);
        assertThat(seg.truncated()).isTrue();
        assertThat(payload()).isEqualTo(java.util.Arrays.copyOf(PAYLOAD, PAYLOAD.length - 10));
        assertThat(notices).singleElement().satisfies(n -> {
            assertThat(n.frame()).isEqualTo(9);
            assertThat(n.message()).contains("snaplen", "6 of 16");
        });
    }

    @Test
    void snaplenCutInsideTcpOptionsStillGivesTheHeaderFields() {
        byte[] opts = {1, 1, 1, 1, 1, 1, 1, 1};
        TcpHeader withOptions = new TcpHeader(1, 2, 77, 88, 7, TcpHeader.ACK, 9, 0, 0, opts);
        byte[] full = ethernet(0x0800, ipv4(new byte[0], 0, 0, 6, withOptions, PAYLOAD));
        int cut = 14 + 20 + 22; // 2 of 8 option bytes
        assertThat(decoder.decode(Capture.frame(3, LinkType.ETHERNET, java.util.Arrays.copyOf(full, cut),
                full.length), seg)).isTrue();
        assertThat(seg.sequence()).isEqualTo(77);
        assertThat(seg.payloadLength()).isEqualTo(PAYLOAD.length);
        assertThat(seg.capturedPayloadLength()).isZero();
        assertThat(notices).singleElement().satisfies(n -> assertThat(n.message()).contains("0 of 16"));
    }

    @Test
    void snaplenCutInsideTheFixedTcpHeaderIsReportedNotDecoded() {
        byte[] full = ethernet(0x0800, ipv4());
        assertThat(decoder.decode(Capture.frame(3, LinkType.ETHERNET, java.util.Arrays.copyOf(full, 40),
                full.length), seg)).isFalse();
        assertThat(notices).singleElement().satisfies(n -> {
            assertThat(n.message()).contains("snaplen", "TCP header");
            assertThat(n.offset()).isEqualTo(34);
        });
    }

    @Test
    void snaplenCutBeforeTheProtocolFieldIsReported() {
        byte[] full = ethernet(0x0800, ipv4());
        assertThat(decoder.decode(Capture.frame(3, LinkType.ETHERNET, java.util.Arrays.copyOf(full, 20),
                full.length), seg)).isFalse();
        assertThat(notices).singleElement().satisfies(n -> assertThat(n.message()).contains("IPv4 header"));
    }

    // ---------------------------------------------------------------- malformed

    void assertMalformed(byte[] bytes, int linkType, long offset, String... words) {
        assertThat(decode(linkType, bytes)).isFalse();
        assertThat(notices).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Notice.Severity.WARNING);
            assertThat(n.frame()).isEqualTo(7);
            assertThat(n.offset()).isEqualTo(offset);
            assertThat(n.message()).contains("malformed").contains(words);
        });
    }

    @Test
    void ipv4HeaderLengthBelowFiveIsReported() {
        byte[] p = ipv4();
        p[0] = 0x43;
        assertMalformed(ethernet(0x0800, p), LinkType.ETHERNET, 14, "IHL 3");
    }

    @Test
    void ipv4TotalLengthBeyondTheFrameIsReported() {
        byte[] p = ipv4();
        p[2] = 0x05;
        p[3] = (byte) 0xdc;
        assertMalformed(p, LinkType.RAW, 2, "total length 1500", "exceeds");
    }

    @Test
    void ipv4TotalLengthBelowItsHeaderIsReported() {
        byte[] p = ipv4();
        p[2] = 0;
        p[3] = 12;
        assertMalformed(p, LinkType.RAW, 2, "total length 12", "header length 20");
    }

    @Test
    void ipv4TotalLengthTooShortForTcpIsReported() {
        byte[] p = ipv4();
        p[2] = 0;
        p[3] = 30;
        assertMalformed(p, LinkType.RAW, 20, "TCP header needs 20 bytes", "leaves 10");
    }

    @Test
    void tcpDataOffsetBelowFiveIsReported() {
        byte[] p = ipv4();
        p[20 + 12] = 0x40;
        assertMalformed(p, LinkType.RAW, 32, "data offset 4");
    }

    @Test
    void tcpDataOffsetBeyondTheSegmentIsReported() {
        byte[] p = ipv4(new byte[0], 0, 0, 6, TCP, new byte[4]);
        p[20 + 12] = (byte) 0xf0; // 60 bytes of header in a 24-byte segment
        assertMalformed(p, LinkType.RAW, 32, "data offset 15", "24-byte");
    }

    @Test
    void ipv6PayloadLengthBeyondTheFrameIsReported() {
        byte[] p = ipv6();
        p[4] = 0x10;
        assertMalformed(p, LinkType.RAW, 4, "payload length 4132");
    }

    @Test
    void ipv6ExtensionHeaderRunningPastThePacketIsReported() {
        byte[] p = ipv6(new int[]{60}, new byte[][]{extension(8)}, TCP, PAYLOAD);
        p[Ipv6Header.LENGTH + 1] = 30; // 248 bytes
        assertMalformed(p, LinkType.RAW, 41, "extension header", "runs past");
    }

    @Test
    void frameShorterThanItsLinkHeaderIsReported() {
        assertMalformed(new byte[10], LinkType.ETHERNET, 0, "Ethernet header needs 14 bytes");
    }

    @Property(tries = 3000)
    void arbitraryBytesNeverThrow(@ForAll @Size(max = 120) byte[] bytes,
                                  @ForAll @IntRange(min = 0, max = 7) int linkTypeChoice,
                                  @ForAll @IntRange(min = 0, max = 200) int extraWireBytes) {
        int[] linkTypes = {LinkType.ETHERNET, LinkType.LINUX_SLL, LinkType.LINUX_SLL2, LinkType.RAW, LinkType.IPV4,
                LinkType.IPV6, LinkType.NULL, LinkType.LOOP};
        List<Notice> seen = new ArrayList<>();
        PacketDecoder d = new PacketDecoder(seen::add);
        TcpSegment s = new TcpSegment();
        Frame f = Capture.frame(1, linkTypes[linkTypeChoice], bytes, bytes.length + extraWireBytes);
        if (d.decode(f, s)) {
            assertThat(s.capturedPayloadLength()).isLessThanOrEqualTo(s.payloadLength());
            assertThat(s.payload().limit()).isLessThanOrEqualTo(bytes.length);
        }
    }

    @Property(tries = 1000)
    void corruptedTcpFramesNeverThrow(@ForAll @IntRange(min = 0, max = 69) int index, @ForAll byte value,
                                      @ForAll @IntRange(min = 14, max = 70) int captured) {
        byte[] frame = ethernet(0x0800, ipv4());
        frame[index] = value;
        PacketDecoder d = new PacketDecoder(n -> { });
        Frame f = Capture.frame(1, LinkType.ETHERNET, java.util.Arrays.copyOf(frame, captured), frame.length);
        d.decode(f, new TcpSegment());
    }

    // ---------------------------------------------------------------- flyweight

    @Test
    void endpointsAreSharedAcrossFramesSoASteadyStreamDoesNotAllocateThem() {
        assertThat(decode(LinkType.RAW, ipv4())).isTrue();
        Endpoint src = seg.source();
        Endpoint dst = seg.destination();
        assertThat(decode(LinkType.RAW, ipv4())).isTrue();
        assertThat(seg.source()).isSameAs(src);
        assertThat(seg.destination()).isSameAs(dst);
    }

    @Test
    void payloadIsAViewOfTheFrameNotACopy() {
        byte[] frame = ethernet(0x0800, ipv4());
        assertThat(decode(LinkType.ETHERNET, frame)).isTrue();
        frame[frame.length - 1] = '?';
        ByteBuffer p = seg.payload();
        assertThat(p.get(p.limit() - 1)).isEqualTo((byte) '?');
    }

    @Test
    void aReusedFrameBufferKeepsTheSameView() {
        byte[] bytes = ethernet(0x0800, ipv4());
        Frame f = Capture.frame(1, LinkType.ETHERNET, bytes);
        assertThat(decoder.decode(f, seg)).isTrue();
        ByteBuffer first = seg.payload();
        f.number = 2;
        assertThat(decoder.decode(f, seg)).isTrue();
        assertThat(seg.payload()).isSameAs(first);
        assertThat(seg.frame()).isEqualTo(2);
    }
}
