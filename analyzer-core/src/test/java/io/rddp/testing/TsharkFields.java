package io.rddp.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** tshark, the second opinion of the differential tests: whether it is installed, and its {@code -T fields} lines. */
public final class TsharkFields {
    private TsharkFields() {
    }

    /** Whether tshark runs here (.ci/run installs it; without it a comparison is reported skipped). */
    public static boolean available() {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** One line per frame, the fields tab-separated in the order given, every occurrence joined by commas. */
    public static List<String> run(Path cap, String... fields) throws Exception {
        return run(cap, List.of("-E", "occurrence=a", "-E", "aggregator=,"), fields);
    }

    /** As {@link #run}, each field's first occurrence only. */
    public static List<String> first(Path cap, String... fields) throws Exception {
        return run(cap, List.of("-E", "occurrence=f"), fields);
    }

    private static List<String> run(Path cap, List<String> options, String... fields) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-r", cap.toString(), "-T", "fields"));
        cmd.addAll(options);
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
