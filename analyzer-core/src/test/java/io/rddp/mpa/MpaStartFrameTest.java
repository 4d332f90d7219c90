package io.rddp.mpa;

import io.rddp.MalformedException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MpaStartFrameTest {

    private static ByteBuffer hex(String s) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(s));
    }

    @Test
    void siwRev1RequestHasNoFlagsAndNoPrivateData() throws Exception {
        // host-to-siw-mpa-rev1.pcap frame 4
        MpaStartFrame f = MpaStartFrame.parse(hex("4d504120494420526571204672616d6500010000"));
        assertThat(f.kind()).isEqualTo(MpaStartFrame.Kind.REQUEST);
        assertThat(f.keyValid()).isTrue();
        assertThat(f.markers()).isFalse();
        assertThat(f.crc()).isFalse();
        assertThat(f.reject()).isFalse();
        assertThat(f.reserved()).isZero();
        assertThat(f.revision()).isEqualTo(1);
        assertThat(f.pdLength()).isZero();
        assertThat(f.privateData()).isEmpty();
        assertThat(f.enhanced()).isNull();
    }

    @Test
    void siwRev2CrcReplyCarriesEnhancedIrdOrd() throws Exception {
        // host-to-siw-mpa-rev2-crc.pcap frame 6: C, enhanced flag, Rev 2, IRD 1, ORD 1
        MpaStartFrame f = MpaStartFrame.parse(hex("4d504120494420526570204672616d655002000400010001"));
        assertThat(f.kind()).isEqualTo(MpaStartFrame.Kind.REPLY);
        assertThat(f.crc()).isTrue();
        assertThat(f.markers()).isFalse();
        assertThat(f.reserved()).isEqualTo(MpaStartFrame.ENHANCED_FLAG);
        assertThat(f.enhancedFlag()).isTrue();
        assertThat(f.revision()).isEqualTo(2);
        assertThat(f.pdLength()).isEqualTo(4);
        assertThat(f.enhanced()).isEqualTo(new MpaStartFrame.Enhanced(1, 1, false, false, false, false));
        assertThat(f.ulpPrivateData()).isEmpty();
    }

    @Test
    void siwPeerToPeerRequestOffersZeroLengthWriteRtr() throws Exception {
        // host-to-siw-mpa-rev2-p2p-write.pcap frame 4: IRD word 0x8001, ORD word 0x8001
        MpaStartFrame f = MpaStartFrame.parse(hex("4d504120494420526571204672616d651002000480018001"));
        assertThat(f.enhanced()).isEqualTo(new MpaStartFrame.Enhanced(1, 1, true, false, true, false));
    }

    @Test
    void siwRdmaServerRequestAsksForIrdAndOrdOf128() throws Exception {
        MpaStartFrame f = MpaStartFrame.parse(hex("4d504120494420526571204672616d651002000400800080"));
        assertThat(f.enhanced().ird()).isEqualTo(128);
        assertThat(f.enhanced().ord()).isEqualTo(128);
    }

    @Test
    void eachFlagBitHasItsOwnPosition() throws Exception {
        String key = "4d504120494420526570204672616d65";
        assertThat(MpaStartFrame.parse(hex(key + "80010000")).markers()).isTrue();
        assertThat(MpaStartFrame.parse(hex(key + "80010000")).crc()).isFalse();
        assertThat(MpaStartFrame.parse(hex(key + "40010000")).crc()).isTrue();
        assertThat(MpaStartFrame.parse(hex(key + "20010000")).reject()).isTrue();
        assertThat(MpaStartFrame.parse(hex(key + "1f010000")).reserved()).isEqualTo(0x1F);
        assertThat(MpaStartFrame.parse(hex(key + "1f010000")).markers()).isFalse();
        assertThat(MpaStartFrame.parse(hex(key + "08020000")).reserved()).isEqualTo(8);   // siw's GSO bit
        assertThat(MpaStartFrame.parse(hex(key + "08020000")).enhancedFlag()).isFalse();
        assertThat(MpaStartFrame.parse(hex(key + "00ff0000")).revision()).isEqualTo(255);
    }

    @Test
    void enhancedIrdAndOrdAreFourteenBitsBesideTheirFlags() throws Exception {
        MpaStartFrame.Enhanced e = MpaStartFrame.Enhanced.parse(hex("ffffffff"));
        assertThat(e).isEqualTo(new MpaStartFrame.Enhanced(0x3FFF, 0x3FFF, true, true, true, true));
        assertThat(MpaStartFrame.Enhanced.parse(hex("40000000")))
                .isEqualTo(new MpaStartFrame.Enhanced(0, 0, false, true, false, false));
        assertThat(MpaStartFrame.Enhanced.parse(hex("00004000")))
                .isEqualTo(new MpaStartFrame.Enhanced(0, 0, false, false, false, true));
        ByteBuffer out = ByteBuffer.allocate(4);
        new MpaStartFrame.Enhanced(0x1234, 0x0abc, false, true, true, false).writeTo(out);
        assertThat(HexFormat.of().formatHex(out.array())).isEqualTo("52348abc");
        assertThatThrownBy(() -> new MpaStartFrame.Enhanced(0x4000, 0, false, false, false, false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void enhancedFlagWithoutFourOctetsOfPrivateDataLeavesEnhancedNull() throws Exception {
        MpaStartFrame f = MpaStartFrame.parse(hex("4d504120494420526571204672616d6510020002abcd"));
        assertThat(f.enhancedFlag()).isTrue();
        assertThat(f.enhanced()).isNull();
        assertThat(f.privateData()).containsExactly(0xab, 0xcd);
    }

    @Test
    void fewerThanTwentyBytesIsMalformed() {
        assertThatThrownBy(() -> MpaStartFrame.parse(hex("4d504120494420526571204672616d65000100")))
                .isInstanceOf(MalformedException.class).hasMessageContaining("20 bytes");
    }

    @Test
    void somethingElseThanAnMpaKeyIsMalformed() {
        ByteBuffer http = ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> MpaStartFrame.parse(http)).isInstanceOf(MalformedException.class)
                .hasMessageContaining("GET / HTTP/1.1");
    }

    @Test
    void keyWithAFewWrongOctetsIsDecodedButMarkedInvalid() throws Exception {
        // "mpa id rep frame": 4 octets differ in case from the Reply key
        ByteBuffer b = ByteBuffer.allocate(20).put("mpa ID rep Frame".getBytes(StandardCharsets.US_ASCII))
                .put(new byte[]{0x40, 1, 0, 0}).flip();
        MpaStartFrame f = MpaStartFrame.parse(b);
        assertThat(f.keyValid()).isFalse();
        assertThat(f.kind()).isEqualTo(MpaStartFrame.Kind.REPLY);
        assertThat(f.crc()).isTrue();
    }

    @Test
    void privateDataShorterThanPdLengthIsWhatIsThere() throws Exception {
        MpaStartFrame f = MpaStartFrame.parse(hex("4d504120494420526571204672616d650001ffff0102"));
        assertThat(f.pdLength()).isEqualTo(0xFFFF);
        assertThat(f.privateData()).containsExactly(1, 2);
    }

    @Test
    void parseDoesNotMoveThePosition() throws Exception {
        ByteBuffer b = hex("00004d504120494420526571204672616d6500010000");
        b.position(2);
        MpaStartFrame.parse(b);
        assertThat(b.position()).isEqualTo(2);
    }

    @Test
    void builtEnhancedRequestPutsIrdOrdInFrontOfUlpData() {
        MpaStartFrame f = MpaStartFrame.request(false, true, 2,
                new MpaStartFrame.Enhanced(1, 1, true, false, true, false), new byte[]{9});
        assertThat(HexFormat.of().formatHex(f.toBytes()))
                .isEqualTo("4d504120494420526571204672616d65" + "5002" + "0005" + "80018001" + "09");
        assertThat(f.ulpPrivateData()).containsExactly(9);
    }

    @Property
    void writtenFramesParseBackEqual(@ForAll boolean reply, @ForAll boolean m, @ForAll boolean c, @ForAll boolean r,
                                     @ForAll @IntRange(max = 31) int res, @ForAll @IntRange(max = 255) int rev,
                                     @ForAll @Size(max = 600) byte[] pd) throws Exception {
        MpaStartFrame.Enhanced e = null;
        if ((res & MpaStartFrame.ENHANCED_FLAG) != 0 && pd.length >= 4) {
            e = MpaStartFrame.Enhanced.parse(ByteBuffer.wrap(pd));
        }
        MpaStartFrame f = new MpaStartFrame(reply ? MpaStartFrame.Kind.REPLY : MpaStartFrame.Kind.REQUEST, true, m,
                c, r, res, rev, pd.length, pd, e);
        ByteBuffer out = ByteBuffer.allocate(f.length() + 3);
        out.put(new byte[3]);
        f.writeTo(out);
        assertThat(out.position()).isEqualTo(f.length() + 3);
        out.position(3);
        assertThat(MpaStartFrame.parse(out)).isEqualTo(f);
    }
}
