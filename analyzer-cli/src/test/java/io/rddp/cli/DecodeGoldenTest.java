package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every capture under pcaps/ decodes exactly to its checked-in golden JSON lines (pcaps/expected/NAME.decode.jsonl).
 * After an intended change of output, regenerate with: mvn -pl analyzer-cli test -Dtest=DecodeGoldenTest -Drddp.updateGolden=true
 */
class DecodeGoldenTest {

    @TempDir
    Path tmp;

    static List<Path> captures() throws IOException {
        try (Stream<Path> s = Files.walk(RepoPaths.pcaps())) {
            return s.filter(p -> p.toString().matches(".*\\.(pcap|pcapng)(\\.gz)?$"))
                    .filter(p -> !p.startsWith(RepoPaths.pcaps().resolve("expected")))
                    // the siw conformance recordings have golden analyses beside them (SiwConformCapturesTest)
                    .filter(p -> !p.startsWith(RepoPaths.pcaps().resolve("siw-conform")))
                    .sorted().toList();
        }
    }

    static Path golden(Path capture) {
        Path rel = RepoPaths.pcaps().relativize(capture);
        return RepoPaths.pcaps().resolve("expected").resolve(rel.toString().replace('/', '_') + ".decode.jsonl");
    }

    @TestFactory
    Stream<DynamicTest> everyBundledCaptureDecodesToItsGoldenFile() throws IOException {
        List<Path> caps = captures();
        assertThat(caps).as("bundled captures").isNotEmpty();
        return caps.stream().map(cap -> DynamicTest.dynamicTest(RepoPaths.pcaps().relativize(cap).toString(), () -> {
            Path out = tmp.resolve(cap.getFileName() + ".jsonl");
            int rc = Main.run("decode", "--format", "jsonl", "--no-progress", "-q", "-o", out.toString(), cap.toString());
            assertThat(rc).isEqualTo(Main.EXIT_OK);
            String actual = Files.readString(out, StandardCharsets.UTF_8);
            Path golden = golden(cap);
            if (Boolean.getBoolean("rddp.updateGolden")) {
                Files.createDirectories(golden.getParent());
                Files.writeString(golden, actual, StandardCharsets.UTF_8);
            }
            assertThat(golden).as("golden file (create with -Drddp.updateGolden=true)").exists();
            assertThat(actual.lines()).containsExactlyElementsOf(Files.readAllLines(golden, StandardCharsets.UTF_8));
        }));
    }
}
