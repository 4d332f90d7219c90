package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real captures of the conformance suite against Linux siw (pcaps/siw-conform/KERNEL/PROFILE/, written by
 * {@code ./rddp lab siw conform --publish-captures}): `rddp analyze` finds in each exactly what its golden file says,
 * and in the captures whose content is known by hand it finds the fault the tester injected and siw's reaction.
 */
class SiwConformCapturesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    static Path dir() {
        return RepoPaths.pcaps().resolve("siw-conform");
    }

    /** "severity check frame direction" of every warning and error, as golden.py writes them. */
    static List<String> analyse(Path pcap) throws IOException {
        Path out = Files.createTempFile(tmp, "analysis", ".json");
        int rc = Main.run(new String[]{"analyze", "--format", "json", "--fail-on", "never", "-o", out.toString(),
                pcap.toString()});
        // 3: a recording without iWARP traffic (e.g. the DUT closed before its MPA Reply): still a report
        assertThat(rc).as("analyze " + pcap).isIn(Main.EXIT_OK, Main.EXIT_NOTHING);
        JsonNode a = JSON.readTree(out.toFile());
        List<String> lines = new ArrayList<>();
        for (JsonNode v : a.path("violations")) {
            String sev = v.path("severity").asText();
            if (!sev.equals("warning") && !sev.equals("error")) continue;
            String d = v.path("direction").asText("");
            lines.add(sev + " " + v.path("check").asText() + " " + v.path("frame").asLong() + " "
                    + (d.equals("client-to-server") ? "c>s" : d.isEmpty() ? "-" : "s>c"));
        }
        return lines;
    }

    static List<String> golden(Path pcap) throws IOException {
        Path expected = pcap.resolveSibling(pcap.getFileName().toString().replace(".pcapng", ".expected"));
        assertThat(expected).as("golden file of " + pcap.getFileName()).exists();
        return Files.readAllLines(expected).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    /** The kernel series of the lab whose captures the hand-checked tests read. */
    private static final String KERNEL = "6.1";

    static Path capture(String profile, String id) {
        return dir().resolve(KERNEL).resolve(profile).resolve(id + ".pcapng");
    }

    @TestFactory
    Stream<DynamicTest> everySiwCaptureAnalysesExactlyAsItsGoldenFileSays() throws IOException {
        List<Path> caps;
        try (Stream<Path> s = Files.walk(dir())) {
            caps = s.filter(p -> p.toString().endsWith(".pcapng")).sorted().toList();
        }
        assertThat(caps).as("captures under " + dir()).hasSizeGreaterThan(100);
        return caps.stream().map(p -> DynamicTest.dynamicTest(dir().relativize(p).toString(), () -> {
            if (Boolean.getBoolean("rddp.updateGolden")) rewriteGolden(p);
            assertThat(analyse(p)).as("analysis of " + p).containsExactlyElementsOf(golden(p));
        }));
    }

    /**
     * -Drddp.updateGolden=true after an intended change of the analyzer: the golden file keeps the header golden.py
     * wrote (scenario, siw's verdict) and gets what the analysis finds now. Review the diff: the lab's verdicts may
     * change with it.
     */
    static void rewriteGolden(Path pcap) throws IOException {
        Path expected = pcap.resolveSibling(pcap.getFileName().toString().replace(".pcapng", ".expected"));
        List<String> out = new ArrayList<>(Files.readAllLines(expected).stream().filter(l -> l.startsWith("#"))
                .toList());
        out.addAll(analyse(pcap));
        Files.write(expected, out);
    }

    @Test
    void eachKernelsProfileHasItsCapturesItsRunAndEveryGoldenFileItsCapture() throws IOException {
        List<Path> kernels;
        try (Stream<Path> s = Files.list(dir())) {
            kernels = s.filter(Files::isDirectory).sorted().toList();
        }
        assertThat(kernels).extracting(k -> k.getFileName().toString()).contains(KERNEL);
        for (Path kernel : kernels) {
            for (String profile : List.of("rping", "rping-client", "agent")) {
                eachCaptureHasItsTwin(kernel.resolve(profile));
            }
        }
    }

    private static void eachCaptureHasItsTwin(Path profileDir) throws IOException {
        String profile = profileDir.getParent().getFileName() + "/" + profileDir.getFileName();
        // the run's facts (date, DUT, totals) the compatibility matrix prints
        assertThat(JSON.readTree(profileDir.resolve("run.json").toFile()).path("started").asText())
                .as(profile + "/run.json").isNotEmpty();
        try (Stream<Path> s = Files.list(profileDir)) {
            List<Path> files = s.filter(p -> !p.getFileName().toString().equals("run.json")).toList();
            assertThat(files.stream().filter(p -> p.toString().endsWith(".pcapng")).count()).as(profile)
                    .isGreaterThanOrEqualTo(5);
            for (Path f : files) {
                String name = f.getFileName().toString();
                Path twin = f.resolveSibling(name.endsWith(".pcapng") ? name.replace(".pcapng", ".expected")
                        : name.replace(".expected", ".pcapng"));
                assertThat(twin).as("the twin of " + f).exists();
            }
        }
    }

    @Test
    void aBadCrcFromTheTesterAndSiwsSwappedTerminateAreBothFound() throws IOException {
        // RFC 5044 §4.4: the tester's FPDU carries a wrong CRC (c>s); siw answers with its Terminate laid out as a
        // little-endian bitfield, which the analyzer holds against the 2/0/2 the RFC names (s>c)
        List<String> found = analyse(capture("agent", "mpa.framing.bad-crc"));
        assertThat(found).anyMatch(l -> l.startsWith("error mpa.crc ") && l.endsWith(" c>s"));
        assertThat(found).anyMatch(l -> l.contains(" rdmap.terminate.") && l.endsWith(" s>c"));
    }

    @Test
    void anMsnSkipFromTheTesterIsFoundWithSiwsTerminate() throws IOException {
        // RFC 5041 §7.1 untagged check 3: MSN 2 where 1 was due (c>s), then siw's Terminate (s>c)
        List<String> found = analyse(capture("rping", "ddp.untagged.msn-skip"));
        assertThat(found).anyMatch(l -> l.startsWith("error ddp.untagged.") && l.endsWith(" c>s"));
        assertThat(found).anyMatch(l -> l.contains(" rdmap.terminate.") && l.endsWith(" s>c"));
    }

    @Test
    void siwsUnzeroedPadIsFoundInAPositiveExchange() throws IOException {
        // RFC 5044 §4.1: the sender MUST zero the PAD octets; siw's 43-octet ULPDU carries 3 that are not
        List<String> found = analyse(capture("rping", "positive.write-then-read"));
        assertThat(found).anyMatch(l -> l.startsWith("error mpa.pad ") && l.endsWith(" s>c"));
        assertThat(found).noneMatch(l -> l.endsWith(" c>s"));
    }
}
