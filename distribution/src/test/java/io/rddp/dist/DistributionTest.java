package io.rddp.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The archive as a user meets it: unpacked into a fresh directory and run through its bin/rddp with the Java running
 * this test, headless (help texts only: no window opens). Runs in the integration-test phase, after package made it.
 */
class DistributionTest {
    @TempDir
    static Path tmp;
    static Path home;

    record Run(int exit, String out, String err) {
    }

    @BeforeAll
    static void unpack() throws Exception {
        Path archive = Path.of(System.getProperty("rddp.dist"));
        assertThat(archive).exists();
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", tmp.toString()).inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        try (Stream<Path> top = Files.list(tmp)) {
            home = top.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    static Run rddp(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(home.resolve("bin/rddp").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("HOME", tmp.toString());   // the CDS archive goes under HOME/.cache, not the user's
        pb.environment().remove("XDG_CACHE_HOME");
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        Path out = Files.createTempFile(tmp, "out", ".txt"), err = Files.createTempFile(tmp, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("bin/rddp %s ends", String.join(" ", args)).isTrue();
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void guiHelpRunsTheWindowsLauncherWithJavaFxOnTheModulePath() throws Exception {
        // --add-modules javafx.controls resolves the module path as the JVM starts: a missing or doubled JavaFX
        // module there fails before Launcher prints anything
        Run r = rddp("gui", "--help");
        assertThat(r.exit()).as("stderr: %s", r.err()).isZero();
        assertThat(r.out()).startsWith("Usage: rddp gui [FILE]");
        assertThat(r.err()).isEmpty();
        try (Stream<Path> fx = Files.list(home.resolve("lib/javafx"))) {
            assertThat(fx.map(f -> f.getFileName().toString()))
                    .anyMatch(f -> f.startsWith("javafx-graphics-") && f.endsWith("-linux.jar"))
                    .anyMatch(f -> f.startsWith("javafx-controls-"))
                    .allMatch(f -> f.matches("javafx-[a-z]+-[0-9.]+-linux.*\\.jar"));
        }
    }

    @Test
    void guiWithoutADisplaySaysSoInsteadOfAStackTrace() throws Exception {
        Run r = rddp("gui", "examples/siw-rping-lo.pcap");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("rddp gui: no display").doesNotContain("Exception");
    }

    @Test
    void helpListsGuiAndLabAndLabSaysItNeedsASourceCheckout() throws Exception {
        Run help = rddp("--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).containsPattern("(?m)^  gui +Open the window").containsPattern("(?m)^  lab +Run Linux");
        Run lab = rddp("lab", "siw", "up");
        assertThat(lab.exit()).isEqualTo(2);
        assertThat(lab.err()).contains("source checkout");
    }

    @Test
    void theCliAnalyzesTheBundledExample() throws Exception {
        Run r = rddp("analyze", home.resolve("examples/siw-rping-lo.pcap").toString());
        assertThat(r.exit()).as("stderr: %s", r.err()).isZero();
        assertThat(r.out()).contains("72 PDUs");
    }
}
