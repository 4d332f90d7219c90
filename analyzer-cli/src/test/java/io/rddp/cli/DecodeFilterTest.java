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
