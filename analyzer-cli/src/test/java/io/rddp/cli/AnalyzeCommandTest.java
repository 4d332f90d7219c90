package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AnalyzeCommandTest {

    @TempDir
    Path tmp;

    private static String cap(String rel) {
        return RepoPaths.pcaps().resolve(rel).toString();
    }

    /** Runs the CLI with stderr captured; returns the exit code and keeps stderr in {@link #err}. */
    private String err;

    private int run(String... args) {
        Object[] r = CliRun.run(args);
        err = (String) r[2];
        return (int) r[0];
    }

    @Test
    void cleanRealCaptureExitsZeroAndSummarisesTheStream() throws Exception {
        Path out = tmp.resolve("r.txt");
        assertThat(run("analyze", "-o", out.toString(), cap("siw/siw-rping-lo.pcap"))).isZero();
        String text = Files.readString(out);
        assertThat(text).contains("90 frames, 1 MPA stream, 72 PDUs, 70 DDP messages")
                .contains("MPA rev 2 enhanced IRD/ORD 1/1").contains("violations: 0 errors, 0 warnings");
    }

    @Test
    void threadsAndJobsGiveTheReportOfOneThreadAndOneJob() throws Exception {
        // every report format, over the folders of real and generated captures: the same bytes whatever the threads,
        // but for the time each capture took (JUnit's time attributes)
        for (String format : List.of("json", "junit", "text")) {
            Path one = tmp.resolve("one." + format), many = tmp.resolve("many." + format);
            int a = run("analyze", "-T", format, "--threads", "1", "--jobs", "1", "--no-progress", "-o", one.toString(),
                    cap("siw"), cap("generated"), cap("violations"));
            int b = run("analyze", "-T", format, "--threads", "2", "--jobs", "3", "--no-progress", "-o", many.toString(),
                    cap("siw"), cap("generated"), cap("violations"));
            assertThat(b).isEqualTo(a);
            assertThat(timeless(Files.readString(many))).as(format).isEqualTo(timeless(Files.readString(one)));
        }
        assertThat(run("analyze", "--jobs", "0", cap("siw"))).isEqualTo(2);
        assertThat(err).contains("--jobs: must be 1..256");
    }

    private static String timeless(String report) {
        return report.replaceAll(" time=\"\\d+\\.\\d{3}\"", " time=\"\"");
    }

    @Test
    void violationsAtTheFailLevelExitOneAndNeverDoesNot() {
        assertThat(run("analyze", "-o", tmp.resolve("a").toString(), cap("generated/terminate.pcap"))).isEqualTo(1);
        assertThat(run("analyze", "--fail-on", "never", "-o", tmp.resolve("b").toString(), cap("generated/terminate.pcap"))).isZero();
        // softuiwarp leaves a Read Request unanswered: a warning, so it fails only with --fail-on warning
        assertThat(run("analyze", "-o", tmp.resolve("c").toString(), cap("public/softuiwarp-uiwarp.pcap"))).isZero();
        assertThat(run("analyze", "--fail-on", "warning", "-o", tmp.resolve("d").toString(), cap("public/softuiwarp-uiwarp.pcap"))).isEqualTo(1);
    }

    @Test
    void jsonReportKeepsTheContract() throws Exception {
        Path out = tmp.resolve("r.json");
        assertThat(run("analyze", "--format", "json", "-o", out.toString(), cap("generated/terminate.pcap"))).isEqualTo(1);
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        assertThat(root.path("summary").path("frames").asLong()).isEqualTo(13);
        assertThat(root.path("summary").has("streams")).isTrue();
        assertThat(root.path("summary").path("pdus").asLong()).isEqualTo(7);
        assertThat(root.path("summary").path("messages").asLong()).isEqualTo(5);
        JsonNode v = root.path("violations").get(0);
        for (String key : List.of("frame", "stream", "layer", "rfc", "section", "etype", "name", "severity", "message")) {
            assertThat(v.has(key)).as(key).isTrue();
        }
        assertThat(v.path("frame").asLong()).isEqualTo(10);
        assertThat(v.path("etype").path("layer").asInt()).isEqualTo(1);
        assertThat(v.path("etype").path("etype").asInt()).isEqualTo(2);
        assertThat(v.path("etype").path("code").asInt()).isEqualTo(3);
        assertThat(v.path("name").asText()).isEqualTo("DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid");
        assertThat(v.path("severity").asText()).isEqualTo("error");
        assertThat(v.path("rfc").asText()).isEqualTo("RFC 5041");
    }

    @Test
    void junitReportHasOneCasePerStreamAndFamilyWithTheViolationAsFailure() throws Exception {
        Path out = tmp.resolve("r.xml");
        assertThat(run("analyze", "--format", "junit", "-o", out.toString(), cap("generated/terminate.pcap"))).isEqualTo(1);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.toFile());
        Element suite = doc.getDocumentElement();
        assertThat(suite.getTagName()).isEqualTo("testsuite");
        assertThat(suite.getAttribute("tests")).isEqualTo("4"); // one stream × MPA, DDP, RDMAP, SECURITY
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        assertThat(suite.getAttribute("time")).as("seconds the analysis took").matches("\\d+\\.\\d{3}");
        NodeList failures = doc.getElementsByTagName("failure");
        assertThat(failures.getLength()).isEqualTo(1);
        assertThat(((Element) failures.item(0).getParentNode()).getAttribute("name")).isEqualTo("DDP");
        assertThat(failures.item(0).getTextContent()).contains("ddp.untagged.msn", "frame 10");
    }

    @Test
    void annotateWritesEveryFrameWithViolationsAsComments() throws Exception {
        Path annotated = tmp.resolve("a.pcapng");
        assertThat(run("analyze", "--fail-on", "never", "--annotate", annotated.toString(), "-o", tmp.resolve("r").toString(),
                cap("generated/terminate.pcap"))).isZero();
        List<String> comments = new ArrayList<>();
        int frames = 0;
        try (CaptureReader r = CaptureReaders.open(annotated)) {
            Frame f = new Frame();
            while (r.next(f)) {
                frames++;
                if (f.comment != null) comments.add(f.number + " " + f.comment);
            }
        }
        assertThat(frames).isEqualTo(13);
        assertThat(comments).hasSize(1);
        assertThat(comments.get(0)).startsWith("10 rddp: error ddp.untagged.msn");
    }

    @Test
    void registeredStagsWithStrictTurnUnknownIntoKnown() throws Exception {
        Path stags = tmp.resolve("stags.json");
        // rping's three buffers (the Read source, the Read sink and the Write target in siw-rping-lo.pcap)
        Files.writeString(stags, "[{\"stag\": \"0x2e281c00\", \"baseTo\": \"0x562fd6d96370\", \"length\": 64, \"access\": [\"read\"], \"owner\": \"client\"},"
                + " {\"stag\": \"0x5fb74500\", \"baseTo\": \"0x5555a6e24550\", \"length\": 64, \"access\": [\"write\"], \"owner\": \"server\"},"
                + " {\"stag\": \"0x575be400\", \"baseTo\": \"0x562fd6d96550\", \"length\": 64, \"access\": [\"write\"], \"owner\": \"client\"}]");
        Path out = tmp.resolve("r.json");
        int rc = run("analyze", "--strict", "--stags", stags.toString(), "--format", "json", "-o", out.toString(), cap("siw/siw-rping-lo.pcap"));
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        assertThat(root.path("violations")).as(root.toPrettyString()).isEmpty();
        assertThat(rc).isZero();
        // without the registration, strict mode makes the unknown STags errors
        assertThat(run("analyze", "--strict", "-o", tmp.resolve("x").toString(), cap("siw/siw-rping-lo.pcap"))).isEqualTo(1);
    }

    @Test
    void badStagFileOrMissingCaptureIsExitTwoWithAClearMessage() throws Exception {
        Path stags = tmp.resolve("bad.json");
        Files.writeString(stags, "{\"not\": \"an array\"}");
        assertThat(run("analyze", "--stags", stags.toString(), cap("siw/siw-rping-lo.pcap"))).isEqualTo(2);
        assertThat(err).contains("bad.json").contains("array").doesNotContain("Exception");
        assertThat(run("analyze", "-o", tmp.resolve("none.txt").toString(), tmp.resolve("none.pcap").toString())).isEqualTo(2);
        assertThat(err).contains("no such file");
    }

    @Test
    void aBadFileIsNamedOnceInEachMessage() throws Exception {
        Path bad = tmp.resolve("bad.pcap");
        Files.writeString(bad, "hello, not a capture");
        Path out = tmp.resolve("r.txt");
        assertThat(run("analyze", "-o", out.toString(), bad.toString())).isEqualTo(2);
        assertThat(err.strip()).isEqualTo("rddp: " + bad + ": magic 0x68656c6c is neither pcap, pcapng nor gzip"
                + " (at file offset 0)");
        assertThat(Files.readString(out).strip()).isEqualTo(bad + ": cannot read: magic 0x68656c6c is neither pcap,"
                + " pcapng nor gzip (at file offset 0)");
        byte[] whole = Files.readAllBytes(RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap"));
        Path cut = tmp.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2 + 5));
        assertThat(run("analyze", "-o", out.toString(), cut.toString())).isEqualTo(2);
        assertThat(err.lines()).allSatisfy(l -> assertThat(l.split(java.util.regex.Pattern.quote(cut.toString()), -1))
                .as("the path appears at most once in: " + l).hasSizeLessThanOrEqualTo(2));
        assertThat(Files.readString(out).lines().filter(l -> l.startsWith("incomplete: ")))
                .singleElement().asString().doesNotContain(cut.toString()).contains("offset");
    }

    @Test
    void aMissingFileIsToldOnceWhenTheTextReportGoesToTheTerminal() {
        // the text report on standard output says "FILE: cannot read: no such file"; standard error does not repeat it
        Object[] r = CliRun.run("analyze", tmp.resolve("missing.pcap").toString());
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).doesNotContain("missing.pcap");
        // with -o the report is in a file: standard error says it
        assertThat(run("analyze", "-o", tmp.resolve("r.txt").toString(), tmp.resolve("missing.pcap").toString()))
                .isEqualTo(2);
        assertThat(err.strip()).isEqualTo("rddp: " + tmp.resolve("missing.pcap") + ": no such file");
    }

    @Test
    void countsOfOneAreSingular() throws Exception {
        Path out = tmp.resolve("r.txt");
        run("analyze", "--stags", RepoPaths.pcaps().resolve("violations/access-read-only.stags.json").toString(), "-o",
                out.toString(), cap("violations/access-read-only.pcap"));
        String text = Files.readString(out);
        assertThat(text).contains(": 9 frames, 1 MPA stream, 3 PDUs, 1 DDP message\n")
                .contains("client → server  1 message (Write 1), 64 bytes placed, 0 bytes delivered")
                .contains("violations: 2 errors, 0 warnings, 0 info")
                .contains("×1  frame 7\n");
        run("analyze", "-o", out.toString(), cap("violations/access-read-only.pcap"), cap("violations/crc-bad.pcap"));
        assertThat(Files.readString(out)).contains("total: 2 files (").contains("2 MPA streams; violations: 1 error,"
                + " 1 warning,");
    }

    @Test
    void truncatedCaptureReportsWhatWasAnalysedThenExitsTwo() throws Exception {
        byte[] whole = Files.readAllBytes(RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap"));
        Path cut = tmp.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2 + 5));
        Path out = tmp.resolve("r.txt");
        assertThat(run("analyze", "-o", out.toString(), cut.toString())).isEqualTo(2);
        assertThat(err).contains("cut.pcap").containsPattern("offset \\d+").doesNotContain("Exception");
        assertThat(Files.readString(out)).contains("incomplete:").contains("1 MPA stream,");
    }

    @Test
    void severalFilesAndDirectoriesAreAnalysedEachOnItsOwnAndTheExitCodeIsTheWorst() throws Exception {
        Path out = tmp.resolve("many.txt");
        // a directory of clean captures, one with an error, one that does not exist
        int rc = run("analyze", "-o", out.toString(), RepoPaths.pcaps().resolve("siw").toString(),
                cap("generated/terminate.pcap"), tmp.resolve("missing.pcap").toString());
        assertThat(rc).isEqualTo(2);
        assertThat(err).contains("missing.pcap").contains("no such file");
        String text = Files.readString(out);
        assertThat(text.lines().filter(l -> l.matches("^\\S+\\.pcap: \\d+ frames.*"))).hasSize(9 + 1);
        assertThat(text).contains("terminate.pcap: 13 frames").contains("siw-rping-lo.pcap: 90 frames");
        // without the missing file the worst is the terminate capture's error
        assertThat(run("analyze", "-o", out.toString(), RepoPaths.pcaps().resolve("siw").toString(), cap("generated/terminate.pcap"))).isEqualTo(1);
        // siw's perftest captures carry unzeroed PAD octets (RFC 5044 §4.1), an error; the others are clean
        assertThat(run("analyze", "-o", out.toString(), RepoPaths.pcaps().resolve("siw").toString())).isEqualTo(1);
        assertThat(run("analyze", "-o", out.toString(), cap("siw/siw-rping-lo.pcap"),
                cap("siw/host-to-siw-mpa-rev2.pcap"), cap("siw/siw-rdma-server-client-lo.pcap"))).isZero();
    }

    @Test
    void severalFilesGiveAJsonArrayAndJunitTestsuites() throws Exception {
        Path json = tmp.resolve("r.json");
        run("analyze", "--format", "json", "-o", json.toString(), cap("generated/terminate.pcap"), cap("siw/siw-rping-lo.pcap"));
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.isArray()).isTrue();
        assertThat(root.get(0).path("file").asText()).endsWith("terminate.pcap");
        assertThat(root.get(1).path("summary").path("frames").asLong()).isEqualTo(90);
        Path xml = tmp.resolve("r.xml");
        run("analyze", "--format", "junit", "-o", xml.toString(), cap("generated/terminate.pcap"), cap("siw/siw-rping-lo.pcap"));
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("testsuites");
        assertThat(doc.getElementsByTagName("testsuite").getLength()).isEqualTo(2);
        for (int i = 0; i < 2; i++) {
            assertThat(((Element) doc.getElementsByTagName("testsuite").item(i)).getAttribute("time"))
                    .as("each capture's own time").matches("\\d+\\.\\d{3}");
        }
    }

    @Test
    void annotateTakesExactlyOneFile() {
        assertThat(run("analyze", "--annotate", tmp.resolve("a.pcapng").toString(), cap("generated/terminate.pcap"),
                cap("siw/siw-rping-lo.pcap"))).isEqualTo(2);
        assertThat(err).contains("--annotate takes exactly one capture file");
    }
}
