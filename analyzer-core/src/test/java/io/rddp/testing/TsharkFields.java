package io.rddp.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** tshark's {@code -T fields} lines of a capture: every occurrence of a field, joined by commas. */
public final class TsharkFields {
    private TsharkFields() {
    }

    /** One line per frame, the fields tab-separated in the order given; at most two minutes. */
    public static List<String> run(Path cap, String... fields) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-r", cap.toString(), "-T", "fields", "-E",
                "occurrence=a", "-E", "aggregator=,"));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        // into a file, not a pipe: tshark's output can outgrow a pipe's buffer before it exits
        File outFile = File.createTempFile("rddp-tshark", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(outFile).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("tshark done within 120 s").isTrue();
            return Files.readAllLines(outFile.toPath());
        } finally {
            Files.deleteIfExists(outFile.toPath());
        }
    }
}
