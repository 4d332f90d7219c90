package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code rddp decode -Y}. */
class DecodeFilterTest {

    private static Object[] run(String... args) {
        return CliRun.run(args);
    }

    @TempDir
    Path tmp;

    /** Frame numbers of the lines decode -Y prints (written with -o: standard output is fd 1 itself). */
    private List<String> frames(String capture, String filter) throws Exception {
        Path out = tmp.resolve("out.txt");
        Object[] r = run("decode", "-q", "-o", out.toString(), "-Y", filter, RepoPaths.pcaps().resolve(capture).toString());
        assertThat(r[0]).as("stderr: %s", r[2]).isEqualTo(0);
        return Files.readAllLines(out).stream().filter(l -> !l.isBlank()).map(l -> l.strip().split("\\s+")[0]).toList();
    }

    @Test
    void selectsPdusByRegistryFields() throws Exception {
        assertThat(frames("siw/siw-rping-lo.pcap", "rdmap.opcode == 1 && ddp.msn <= 2")).containsExactly("9", "17");
        assertThat(frames("siw/siw-rping-lo.pcap", "mpa.kind == \"request\" or mpa.kind == \"reply\""))
                .containsExactly("4", "6");
    }

    @Test
    void addressesAndCidrBlocksSelectThePdusOfTheirConnections() throws Exception {
        // siw-rping-lo.pcap: rping over the loopback of a guest whose address is 10.0.2.15, both ends: every PDU
        List<String> all = frames("siw/siw-rping-lo.pcap", "frame");
        assertThat(all).hasSize(72);
        assertThat(frames("siw/siw-rping-lo.pcap", "ip.addr == 10.0.2.15")).isEqualTo(all);
        assertThat(frames("siw/siw-rping-lo.pcap", "ip.src == 10.0.2.0/24 && tcp.port in {7174, 4791}")).isEqualTo(all);
        assertThat(frames("siw/siw-rping-lo.pcap", "ip.addr != 10.0.2.15")).isEmpty();
        assertThat(frames("siw/siw-rping-lo.pcap", "ipv6.addr == ::1")).isEmpty();
        // mixed.pcap: 10.0.0.1 → 10.0.0.2, fd00::3 → fd00::4, 10.0.2.1 → 10.0.2.2 (the frames tshark gives for the same
        // filters, TsharkFilterDifferentialTest)
        assertThat(frames("generated/mixed.pcap", "ip.addr == 10.0.2.0/24").stream().distinct())
                .containsExactly("16", "17", "28", "29", "30", "40", "41", "42", "52", "53", "54");
        assertThat(frames("generated/mixed.pcap", "ipv6.addr == fd00::/8").stream().distinct())
                .containsExactly("10", "11", "26", "27", "38", "39", "50", "51");
        assertThat(frames("generated/mixed.pcap", "ipv6.addr in {fd00::1..fd00::3}"))
                .isEqualTo(frames("generated/mixed.pcap", "ipv6.addr == fd00::3")).isNotEmpty();
    }

    @Test
    void aMalformedAddressPointsAtItsColumn() {
        Object[] r = run("decode", "-Y", "ip.addr == 10.0.2.256",
                RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap").toString());
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("rddp: -Y: column 19: '256' in '10.0.2.256' is above 255",
                "  ip.addr == 10.0.2.256\n                    ^");
    }

    @Test
    void violationReadsTheFileTwiceAndMarksTheKeyFrames() throws Exception {
        // the .expected file of this corpus capture lists one error, ddp.untagged.msn, at frame 8
        assertThat(frames("violations/msn-skipped-terminated.pcap", "violation")).containsExactly("8");
        assertThat(frames("violations/msn-skipped-terminated.pcap", "violation.check == \"ddp.untagged.msn\""))
                .containsExactly("8");
        assertThat(frames("violations/msn-skipped-terminated.pcap", "!violation")).doesNotContain("8").isNotEmpty();
    }

    @Test
    void aBadFilterPointsAtItsColumnAndExitsTwo() {
        Object[] r = run("decode", "-Y", "rdmap.opcode == 1 && ddp.msm > 3",
                RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap").toString());
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("rddp: -Y: column 22: unknown field 'ddp.msm' (did you mean 'ddp.msn'?)",
                "  rdmap.opcode == 1 && ddp.msm > 3\n                       ^");
        Object[] stdin = run("decode", "-Y", "violation", "-");
        assertThat(stdin[0]).isEqualTo(2);
        assertThat((String) stdin[2]).contains("needs a file", "not standard input");
    }
}
