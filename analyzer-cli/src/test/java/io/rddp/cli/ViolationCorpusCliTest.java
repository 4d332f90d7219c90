package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The violation corpus reproduces from the command line, as pcaps/README.md tells a user to run it: for every
 * pcaps/violations/NAME.pcap, {@code rddp analyze -V [--stags NAME.stags.json] NAME.pcap} reports exactly the
 * violations of NAME.expected. The -V lines are reduced to "severity check frame [L/E/C]" as the README's awk line
 * does; info lines only for the checks the file names at info. (ViolationCorpusTest in analyzer-core holds the same
 * files against the library and the corpus's generator.)
 */
class ViolationCorpusCliTest {

    /** A violation line of the -V text report (AnalysisText): severity, check, RFC, [Terminate L/E/C], frame, stream. */
    private static final Pattern VIOLATION = Pattern.compile(
            "^  (error|warning|info) +(\\S+)  RFC \\S+ \\S+(?:  Terminate (\\S+))?  frame (\\S+).*  stream \\d+$");

    static Path dir() {
        return RepoPaths.pcaps().resolve("violations");
    }

    static List<String> captures() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".pcap"))
                    .map(f -> f.substring(0, f.length() - ".pcap".length())).sorted().toList();
        }
    }

    @TempDir
    static Path tmp;

    /**
     * The command a user runs for NAME, with absolute paths (this JVM cannot change its directory) and the report
     * written by -o (the CLI writes standard output to file descriptor 1, which a test cannot capture).
     */
    static String[] command(String name) {
        Path stags = dir().resolve(name + ".stags.json");
        List<String> args = new ArrayList<>(List.of("analyze", "-V", "-q", "-o", report(name).toString()));
        if (Files.exists(stags)) args.addAll(List.of("--stags", stags.toString()));
        args.add(dir().resolve(name + ".pcap").toString());
        return args.toArray(String[]::new);
    }

    static Path report(String name) {
        return tmp.resolve(name + ".txt");
    }

    static List<String> reduced(String report, Set<String> infoChecks) {
        List<String> out = new ArrayList<>();
        for (String l : report.lines().toList()) {
            Matcher m = VIOLATION.matcher(l);
            if (!m.matches() || m.group(1).equals("info") && !infoChecks.contains(m.group(2))) continue;
            out.add(m.group(1) + " " + m.group(2) + " " + m.group(4) + (m.group(3) != null ? " " + m.group(3) : ""));
        }
        return out;
    }

    static List<String> expected(String name) throws IOException {
        return Files.readAllLines(dir().resolve(name + ".expected")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusCaptureReportsItsExpectedViolationsFromTheCommandLine() throws IOException {
        List<String> names = captures();
        assertThat(names).as("captures in " + dir()).hasSizeGreaterThan(90);
        return names.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            List<String> want = expected(name);
            Set<String> info = want.stream().filter(l -> l.startsWith("info ")).map(l -> l.split(" ")[1])
                    .collect(Collectors.toSet());
            Object[] r = CliRun.run(command(name));
            String report = Files.readString(report(name));
            assertThat((int) r[0]).as("exit code of %s (stderr: %s)", String.join(" ", command(name)), r[2])
                    .isEqualTo(want.stream().anyMatch(l -> l.startsWith("error ")) ? Main.EXIT_FINDINGS : Main.EXIT_OK);
            assertThat(reduced(report, info)).as("rddp %s:%n%s", String.join(" ", command(name)), report)
                    .containsExactlyInAnyOrderElementsOf(want);
        }));
    }

    @Test
    void aCaptureThatNeedsRegistrationsIsCleanWithoutItsSidecar() throws IOException {
        // the user's report: without --stags the Write to a read-only buffer is only unverifiable (info)
        Path bare = tmp.resolve("bare.txt");
        assertThat(CliRun.run("analyze", "-V", "-q", "-o", bare.toString(),
                dir().resolve("access-read-only.pcap").toString())[0]).isEqualTo(Main.EXIT_OK);
        assertThat(reduced(Files.readString(bare), Set.of())).isEmpty();
        assertThat(CliRun.run(command("access-read-only"))[0]).isEqualTo(Main.EXIT_FINDINGS);
        assertThat(reduced(Files.readString(report("access-read-only")), Set.of()))
                .contains("error security.access 7 1/1/0");
    }
}
