package io.rddp.corpus;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.sink.Check;
import io.rddp.sink.Severity;
import io.rddp.sink.StagFile;
import io.rddp.sink.Violation;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * pcaps/violations/NAME.pcap breaks one rule; NAME.expected lists, one per line, "severity check-id frame" and, when
 * the violation names one, the Terminate type a conforming receiver sends ("L/E/C"), of every warning and error the
 * analysis must report: exactly those, no more. Info lines are listed only for the checks a file names at info (they
 * are then compared too). The captures are also checked to be exactly what {@link ViolationCorpus} builds, so the
 * corpus can always be regenerated; {@code -Drddp.updateCorpus=true} rewrites captures, STag sidecars and expected
 * files (review the diff before committing). A case that needs STag registrations is analysed with those of its
 * sidecar NAME.stags.json, as {@code rddp analyze --stags NAME.stags.json NAME.pcap} is (ViolationCorpusCliTest in
 * analyzer-cli runs that command over the corpus).
 * <p>
 * Together the files provoke every {@link Check}, with its severity and Terminate type, but for
 * {@link #NOT_FROM_A_CAPTURE}.
 */
class ViolationCorpusTest {

    /**
     * Checks no capture can provoke, and why. RFC 5041 §7.1 untagged checks 2-4 need the receive buffers the Data
     * Sink posted, which the wire does not carry: the emulated RNIC and the conformance tester know them
     * (ReceiveBufferChecksTest, the ddp.untagged.* scenarios), `rddp analyze` never makes these checks.
     */
    static final Map<Check, String> NOT_FROM_A_CAPTURE = Map.of(
            Check.DDP_NO_BUFFER, "needs the receiver's posted untagged buffers (RFC 5041 §7.1 check 2)",
            Check.DDP_TOO_LONG, "needs the receiver's posted untagged buffers (RFC 5041 §7.1 checks 3-4)");

    static Analysis analyze(String name) throws IOException {
        Path pcap = ViolationCorpus.dir().resolve(name + ".pcap");
        try (CaptureReader r = CaptureReaders.open(pcap)) {
            return ViolationCorpus.analyzer(name).run(r, () -> { });
        }
    }

    static String line(Violation v) {
        return v.severity().name().toLowerCase() + " " + v.id() + " " + v.frame()
                + (v.errorType() != null ? " " + v.errorType().triple() : "");
    }

    static List<String> expected(String name) throws IOException {
        Path file = ViolationCorpus.dir().resolve(ViolationCorpus.expectedFile(name));
        return Files.readAllLines(file).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    /** Check ids the expected lines name at info: their info violations are compared too. */
    static Set<String> infoChecks(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("info ")).map(l -> l.split(" ")[1])
                .collect(Collectors.toSet());
    }

    static List<String> actual(Analysis a, Set<String> info) {
        return a.violations().stream()
                .filter(v -> v.severity().atLeast(Severity.WARNING) || info.contains(v.id()))
                .map(ViolationCorpusTest::line).toList();
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusCaptureHasExactlyItsExpectedViolations() throws Exception {
        boolean update = Boolean.getBoolean("rddp.updateCorpus");
        if (update) ViolationCorpus.writeAll();
        return ViolationCorpus.CASES.keySet().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            Path pcap = ViolationCorpus.dir().resolve(name + ".pcap");
            assertThat(Files.readAllBytes(pcap)).as("%s is what ViolationCorpus builds", pcap)
                    .isEqualTo(ViolationCorpus.build(name));
            Path stags = ViolationCorpus.stagsFile(name);
            if (ViolationCorpus.STAGS.containsKey(name)) {
                assertThat(stags).as("the STag sidecar ViolationCorpus writes").exists();
                assertThat(Files.readString(stags)).as("%s is what ViolationCorpus writes", stags)
                        .isEqualTo(StagFile.write(ViolationCorpus.STAGS.get(name)));
            } else {
                assertThat(stags).as("a case without registrations has no sidecar").doesNotExist();
            }
            Analysis a = analyze(name);
            Path file = ViolationCorpus.dir().resolve(ViolationCorpus.expectedFile(name));
            if (update) {
                // keeps the comments and the info checks a file opted into; everything else is what the analysis says
                List<String> old = Files.exists(file) ? Files.readAllLines(file) : List.of();
                List<String> out = new ArrayList<>(old.stream().filter(l -> l.startsWith("#")).toList());
                out.addAll(actual(a, infoChecks(old.stream().filter(l -> !l.startsWith("#")).toList())));
                Files.write(file, out);
            }
            List<String> want = expected(name);
            assertThat(actual(a, infoChecks(want))).as("violations of %s", name)
                    .containsExactlyInAnyOrderElementsOf(want);
            assertThat(want).as("the corpus case breaks something").isNotEmpty();
        }));
    }

    @Test
    void everyFileOfTheCorpusBelongsToACase() throws IOException {
        try (Stream<Path> files = Files.list(ViolationCorpus.dir())) {
            assertThat(files.map(p -> p.getFileName().toString())
                    .filter(f -> !f.endsWith(".pcap") && !f.endsWith(".expected") && !f.endsWith(".stags.json")
                            || !ViolationCorpus.CASES.containsKey(f.replaceFirst("\\.(pcap|expected|stags\\.json)$", ""))))
                    .as("files in pcaps/violations that no case of ViolationCorpus writes").isEmpty();
        }
    }

    @Test
    void theSidecarsAreWhatChangesTheVerdict() throws IOException {
        // without its registration the Write to a read-only buffer is merely unverifiable (info): the sidecar matters
        try (CaptureReader r = CaptureReaders.open(ViolationCorpus.dir().resolve("access-read-only.pcap"))) {
            Analysis bare = new Analyzer(io.rddp.sink.SinkModel.Options.defaults(), io.rddp.sink.StagRegistry.empty())
                    .run(r, () -> { });
            assertThat(bare.violations()).allMatch(v -> v.severity() == Severity.INFO);
        }
        assertThat(actual(analyze("access-read-only"), Set.of())).contains("error security.access 7 1/1/0");
    }

    @Test
    void everyCheckIsProvokedByACaptureWithItsSeverityAndTerminateType() throws IOException {
        // which checks the expected files name, at which severity; each line was proved against the analysis above
        Set<String> named = new TreeSet<>();
        Set<String> atDefault = new TreeSet<>();
        for (String name : ViolationCorpus.CASES.keySet()) {
            for (String l : expected(name)) {
                String[] f = l.split(" ");
                Check c = Check.byId(f[1]);
                assertThat(c).as("check %s in %s.expected", f[1], name).isNotNull();
                named.add(c.id());
                // the default severity and, where the check names one, its Terminate type appear at least once; the
                // verdicts on a peer's Terminate carry the type that was owed
                boolean owedType = c == Check.RDMAP_TERMINATE_MISMATCH || c == Check.RDMAP_TERMINATE_MISSING;
                if (f[0].equals(c.severity().name().toLowerCase()) && (owedType ? f.length == 4
                        : c.errorType() == null ? f.length == 3
                        : f.length == 4 && f[3].equals(c.errorType().triple()))) {
                    atDefault.add(c.id());
                }
            }
        }
        List<String> missing = new ArrayList<>();
        List<String> notAtDefault = new ArrayList<>();
        for (Check c : Check.values()) {
            if (NOT_FROM_A_CAPTURE.containsKey(c)) {
                assertThat(named).as("%s is listed as unreachable from a capture but a capture provokes it", c.id())
                        .doesNotContain(c.id());
                continue;
            }
            if (!named.contains(c.id())) missing.add(c.id());
            else if (!atDefault.contains(c.id())) notAtDefault.add(c.id());
        }
        assertThat(missing).as("checks no capture in pcaps/violations provokes").isEmpty();
        assertThat(notAtDefault).as("checks never seen at their own severity and Terminate type").isEmpty();
    }
}
