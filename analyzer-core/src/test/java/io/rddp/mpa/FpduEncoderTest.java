package io.rddp.mpa;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FpduEncoderTest {

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void crc32cIsTheCastagnoliCheckValue() {
        CRC32C c = new CRC32C();
        c.update("123456789".getBytes(StandardCharsets.US_ASCII));
        assertThat(c.getValue()).isEqualTo(0xE3069283L);
    }

    @Test
    void crcGoesOnTheWireLeastSignificantOctetFirstAsInIscsi() {
        // RFC 3720 §B.4: 32 octets of zero have the digest "aa 36 91 8a" on the wire
        CRC32C c = new CRC32C();
        c.update(new byte[32]);
        assertThat(c.getValue()).isEqualTo(0x8A9136AAL);
        // the same order in a real siw FPDU (host-to-siw-mpa-rev2-crc.pcap frame 8, tshark: Good CRC32)
        byte[] ulpdu = hex("41430000000000000000000000010000000000007f000000100000abcd0100000040");
        byte[] wire = new FpduEncoder(false, true, 24).encode(ulpdu);
        assertThat(HexFormat.of().formatHex(wire))
                .isEqualTo("0022" + "41430000000000000000000000010000000000007f000000100000abcd0100000040"
                        + "2d6abb4e");
    }

    @Test
    void withoutCrcTheFieldIsStillThereAndZero() {
        // host-to-siw-mpa-rev1.pcap frame 8: 2 + 34 + 0 PAD + 4 CRC = 40
        byte[] wire = new FpduEncoder(false, false, 20).encode(new byte[34]);
        assertThat(wire).hasSize(40);
        assertThat(wire).endsWith(0, 0, 0, 0);
    }

    @Test
    void padMakesLengthUlpduAndPadAMultipleOfFour() {
        for (int len = 0; len < 8; len++) {
            int wire = new FpduEncoder(false, false, 0).encode(new byte[len]).length;
            assertThat((wire - 4) % 4).isZero();
            assertThat(wire - 4 - 2 - len).isEqualTo(Fpdu.padLength(len)).isBetween(0, 3);
        }
    }

    @Test
    void firstMarkerSitsRightInFrontOfTheFirstFpduAndPointsNowhere() {
        FpduEncoder e = new FpduEncoder(true, false, 20);
        byte[] wire = e.encode(new byte[14]);
        // Marker(0,0), ULPDU_Length 14, ULPDU, PAD 0, CRC
        assertThat(HexFormat.of().formatHex(wire, 0, 6)).isEqualTo("00000000000e");
        assertThat(wire).hasSize(4 + 2 + 14 + 4);
        assertThat(e.offset()).isEqualTo(20 + 24);
    }

    @Test
    void markerInsideAnFpduPointsBackToItsUlpduLength() {
        FpduEncoder e = new FpduEncoder(true, false, 0);
        e.encode(new byte[494]);                 // 4 + 2 + 494 + 0 + 4 = 504: next FPDU at 504
        byte[] wire = e.encode(new byte[30]);    // Marker at stream 512 = 8 octets into this FPDU
        ByteBuffer b = ByteBuffer.wrap(wire);
        assertThat(b.getShort(8)).isZero();
        assertThat(b.getShort(10)).isEqualTo((short) 8);
        assertThat(wire).hasSize(2 + 30 + 0 + 4 + 4);
    }

    @Test
    void markerDueRightBeforeTheCrcIsWrittenThereAndCovered() {
        FpduEncoder e = new FpduEncoder(true, true, 0);
        // 4 (lead) + 2 + 506 = 512: the CRC field would start on the next Marker position
        byte[] wire = e.encode(new byte[506]);
        ByteBuffer b = ByteBuffer.wrap(wire);
        assertThat(wire).hasSize(4 + 2 + 506 + 4 + 4);
        assertThat(b.getShort(514)).isEqualTo((short) 508);   // points back to ULPDU_Length at 4
        CRC32C c = new CRC32C();
        c.update(wire, 0, 516);
        long crc = Integer.reverseBytes(b.getInt(516)) & 0xFFFFFFFFL;
        assertThat(crc).isEqualTo(c.getValue());
    }

    @Test
    void markerDueRightAfterTheCrcBelongsToTheNextFpdu() {
        FpduEncoder e = new FpduEncoder(true, false, 0);
        byte[] first = e.encode(new byte[502]);   // 4 + 2 + 502 + 0 + 4 = 512
        assertThat(first).hasSize(512);
        byte[] second = e.encode(new byte[2]);
        assertThat(HexFormat.of().formatHex(second, 0, 6)).isEqualTo("000000000002");
    }

    @Test
    void tooLongUlpduIsRefused() {
        assertThatThrownBy(() -> new FpduEncoder(false, false, 0).encode(new byte[65536]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void largestFpduHas130Markers() {
        FpduEncoder e = new FpduEncoder(true, true, 0);
        assertThat(e.wireLength(65535)).isEqualTo(MpaFraming.MAX_WIRE).isEqualTo(65544 + 130 * 4);
    }
}
