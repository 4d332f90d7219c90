package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line as an engineer used to tshark meets it: one meaning per option, help everywhere, no
 * silent pass on input with nothing to analyse, reports that carry everything the text shows, hex identifiers.
 */
class CliHabitsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static Object[] run(String... args) {
        return CliRun.run(args);
    }

    /** A report file nobody reads: reports go to file descriptor 1 directly, which surefire's channel must not see. */
    private String sink() {
        return tmp.resolve("report-" + System.nanoTime() + ".txt").toString();
    }

    private static String cap(String name) {
        return RepoPaths.pcaps().resolve(name).toString();
    }

    /** A little-endian microsecond pcap of the given link type and frames. */
    private Path pcap(String name, int linkType, byte[]... frames) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(24 + frames.length * 16 + java.util.Arrays.stream(frames).mapToInt(f -> f.length).sum())
                .order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(linkType);
        int t = 1000;
        for (byte[] f : frames) b.putInt(t++).putInt(0).putInt(f.length).putInt(f.length).put(f);
        Path p = tmp.resolve(name);
        Files.write(p, b.array());
        return p;
    }

    /** One Ethernet frame with a TCP SYN to port 80: TCP, but not iWARP. */
    private Path notIwarp() throws Exception {
        ByteBuffer f = ByteBuffer.allocate(14 + 20 + 20);
        f.put(new byte[12]).putShort((short) 0x0800);
        f.put(new byte[]{0x45, 0, 0, 40, 0, 0, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2});
        f.putShort((short) 1234).putShort((short) 80).putInt(1).putInt(0).put((byte) 0x50).put((byte) 0x02)
                .putShort((short) 1000).putInt(0);
        return pcap("web.pcap", 1, f.array());
    }

    @Test
    void everySubcommandAnswersHelpWithExitZero() {
        for (String cmd : List.of("decode", "analyze", "generate", "peer", "conform", "gui", "lab", "completion")) {
            for (String h : List.of("--help", "-h")) {
                Object[] r = run(cmd, h);
                assertThat(r[0]).as("rddp %s %s; stderr %s", cmd, h, r[2]).isEqualTo(0);
                assertThat((String) r[1]).contains("Usage: rddp " + cmd);
            }
        }
        Object[] top = run("--help");
        assertThat((String) top[1]).contains("Exit codes:", "3  nothing to analyse");
    }

    @Test
    void topLevelHelpListsGuiAndLabAndTheJarAloneSaysWhereTheyRun() {
        String help = (String) run("--help")[1];
        assertThat(help).containsPattern("(?m)^  gui +Open the window").containsPattern("(?m)^  lab +Run Linux soft-iWARP");
        Object[] gui = run("gui", "capture.pcap");
        assertThat(gui[0]).isEqualTo(2);
        assertThat((String) gui[2]).contains("started by the rddp launcher script", "bin/rddp gui");
        Object[] lab = run("lab", "siw", "up");
        assertThat(lab[0]).isEqualTo(2);
        assertThat((String) lab[2]).contains("source checkout", "the distribution archive has none");
    }

    @Test
    void lowerVIsTheVersionWithItsCommitAndUpperVIsVerboseInAnalyze() throws Exception {
        Object[] v = run("-v");
        assertThat(v[0]).isEqualTo(0);
        assertThat((String) v[1]).containsPattern("^rddp \\S+ \\(commit [0-9a-f]+(-dirty)?|unknown\\)");
        assertThat((String) run("--version")[1]).isEqualTo(v[1]);
        // a capture with a CRC error: -V lists the violation with its frame and exits 1 (it was "version", exit 0)
        Path out = tmp.resolve("v.txt");
        Object[] a = run("analyze", "-V", "-o", out.toString(), cap("violations/crc-bad.pcap"));
        assertThat(a[0]).isEqualTo(1);
        assertThat(Files.readString(out)).contains("error   mpa.crc", "frame 8", "CRC of the FPDU");
    }

    @Test
    void aCaptureWithoutIwarpOrAFolderWithoutCapturesExitsThreeAndSaysWhy() throws Exception {
        Path web = notIwarp();
        Object[] d = run("decode", web.toString());
        assertThat(d[0]).isEqualTo(Main.EXIT_NOTHING);
        assertThat((String) d[2]).contains("no iWARP traffic: 1 frame, 1 TCP connection");
        Object[] a = run("analyze", "--fail-on", "never", "-o", sink(), web.toString());
        assertThat(a[0]).isEqualTo(Main.EXIT_NOTHING);
        assertThat((String) a[2]).contains("no iWARP traffic");
        Path linkType = pcap("usb.pcap", 189, new byte[]{1, 2, 3, 4});
        Object[] l = run("analyze", "-o", sink(), linkType.toString());
        assertThat(l[0]).isEqualTo(Main.EXIT_NOTHING);
        assertThat((String) l[2]).contains("link type 189 is not decoded");
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Object[] e = run("analyze", empty.toString());
        assertThat(e[0]).isEqualTo(Main.EXIT_NOTHING);
        assertThat((String) e[2]).contains("no capture found");
        // violations found outrank nothing to analyse; an unreadable file outranks both
        assertThat(run("analyze", "-q", "-o", sink(), web.toString(), cap("generated/terminate.pcap"))[0]).isEqualTo(Main.EXIT_FINDINGS);
        assertThat(run("analyze", "-q", "-o", sink(), web.toString(), tmp.resolve("missing.pcap").toString())[0]).isEqualTo(Main.EXIT_BAD_INPUT);
    }

    @Test
    void jsonReportCarriesNoticesMpaParametersClosesAndUnreadableFiles() throws Exception {
        Path out = tmp.resolve("r.json");
        Object[] r = run("analyze", "-T", "json", "-o", out.toString(), cap("violations/crc-bad.pcap"),
                tmp.resolve("missing.pcap").toString(), notIwarp().toString());
        assertThat(r[0]).isEqualTo(Main.EXIT_BAD_INPUT);
        JsonNode all = JSON.readTree(out.toFile());
        assertThat(all.size()).isEqualTo(3);
        JsonNode crc = all.get(0);
        assertThat(crc.path("status").asText()).isEqualTo("violations");
        assertThat(crc.path("notices").get(0).path("message").asText()).contains("computed CRC32c");
        assertThat(crc.path("notices").get(0).path("frame").asLong()).isEqualTo(8);
        JsonNode stream = crc.path("streams").get(0);
        assertThat(stream.path("mpaRequest").path("crc").asBoolean()).isTrue();
        assertThat(stream.path("mpaRequest").path("ird").asInt()).isEqualTo(2);
        assertThat(stream.path("closed").toString()).contains("client FIN frame 9", "server FIN frame 10");
        assertThat(all.get(1).path("status").asText()).isEqualTo("unreadable");
        assertThat(all.get(1).path("error").asText()).isEqualTo("no such file");
        assertThat(all.get(2).path("status").asText()).isEqualTo("no-iwarp");
        assertThat(all.get(2).path("nothing").asText()).contains("no iWARP traffic");

        Path term = tmp.resolve("t.json");
        run("analyze", "-T", "json", "-o", term.toString(), cap("generated/terminate.pcap"));
        assertThat(JSON.readTree(term.toFile()).path("streams").get(0).path("serverToClient").path("terminateFrame").asLong())
                .isEqualTo(11);
    }

    @Test
    void junitNamesAreUniqueAcrossFilesAndNoticesAndUnreadableFilesAreInIt() throws Exception {
        Path a = Files.copy(RepoPaths.pcaps().resolve("violations/crc-bad.pcap"), tmp.resolve("a.pcap"));
        Path b = Files.copy(RepoPaths.pcaps().resolve("violations/crc-bad.pcap"), tmp.resolve("b.pcap"));
        Path out = tmp.resolve("j.xml");
        run("analyze", "-T", "junit", "-o", out.toString(), a.toString(), b.toString(), tmp.resolve("gone.pcap").toString());
        String xml = Files.readString(out);
        Matcher m = Pattern.compile("<testcase classname=\"([^\"]+)\" name=\"([^\"]+)\"").matcher(xml);
        List<String> names = new ArrayList<>();
        while (m.find()) names.add(m.group(1) + "#" + m.group(2));
        assertThat(names).hasSizeGreaterThan(8).doesNotHaveDuplicates();
        assertThat(names).anyMatch(n -> n.endsWith(".capture#notices"));
        assertThat(xml).contains("computed CRC32c", "<error message=\"cannot read: no such file\"");
    }

    @Test
    void severalFilesEndWithATotalLine() throws Exception {
        Path out = tmp.resolve("total.txt");
        run("analyze", "-q", "-o", out.toString(), cap("generated/terminate.pcap"), cap("siw/siw-rping-lo.pcap"));
        String[] lines = Files.readString(out).strip().split("\n");
        assertThat(lines[lines.length - 1]).startsWith("total: 2 files (1 with violations, 1 clean), ")
                .contains("violations: 1 error, 0 warnings");
    }

    @Test
    void optionErrorsNameTheOptionAndItsRangeAndUnwritableOutputsSayWhy() {
        Object[] s = run("analyze", "--max-stags", "0", cap("siw/siw-rping-lo.pcap"));
        assertThat(s[0]).isEqualTo(2);
        assertThat((String) s[2]).contains("--max-stags: must be 1..2147483647 (got 0)");
        Object[] c = run("decode", "-c", "-1", cap("siw/siw-rping-lo.pcap"));
        assertThat((String) c[2]).contains("-c: must be 0 (all frames) or more (got -1)");
        Object[] e = run("decode", "-T", "fields", "-e", "ddp.stg", cap("siw/siw-rping-lo.pcap"));
        assertThat((String) e[2]).contains("-e: unknown field 'ddp.stg' (did you mean 'ddp.stag'?)");
        Object[] o = run("analyze", "-o", "/nonexistent-dir/r.json", cap("siw/siw-rping-lo.pcap"));
        assertThat(o[0]).isEqualTo(2);
        assertThat((String) o[2]).contains("/nonexistent-dir/r.json: cannot write: no such directory /nonexistent-dir");
    }

    @Test
    void fieldsOutputPrintsTheNamedFieldsWithIdentifiersInHex() throws Exception {
        Path out = tmp.resolve("f.tsv");
        Object[] r = run("decode", "-T", "fields", "-e", "frame", "-e", "ddp.stag", "-e", "ddp.to", "-e", "rdmap.opcodeName",
                "-Y", "ddp.tagged", "-o", out.toString(), cap("siw/siw-rping-lo.pcap"));
        assertThat(r[0]).isEqualTo(0);
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).isNotEmpty().allMatch(l -> l.matches("\\d+\t0x[0-9a-f]{8}\t0x[0-9a-f]{16}\tRDMA (Write|Read Response)"));
        assertThat(lines.get(0)).isEqualTo("10\t0x5fb74500\t0x00005555a6e24550\tRDMA Read Response");
    }

    @Test
    void jsonKeepsSixtyFourBitValuesAsHexStrings() throws Exception {
        Path out = tmp.resolve("d.json");
        assertThat(run("decode", "-T", "json", "-o", out.toString(), cap("siw/siw-rping-lo.pcap"))[0]).isEqualTo(0);
        JsonNode pdus = JSON.readTree(out.toFile());
        assertThat(pdus.isArray()).isTrue();
        JsonNode write = null;
        for (JsonNode p : pdus) if (p.path("ddp").path("tagged").asBoolean()) write = p;
        assertThat(write).isNotNull();
        assertThat(write.path("ddp").path("to").asText()).matches("0x[0-9a-f]{16}");
        assertThat(write.path("ddp").path("stag").asText()).matches("0x[0-9a-f]{8}");
        assertThat(write.path("mpa").path("crc").isTextual()).isTrue();
    }

    @Test
    void countHexDumpAndSeveralFilesWithR() throws Exception {
        Path out = tmp.resolve("x.txt");
        run("decode", "-x", "-c", "6", "-o", out.toString(), cap("siw/siw-rping-lo.pcap"));
        String text = Files.readString(out);
        assertThat(text).contains("MPA request (24 octets)", "0000  4d 50 41 20 49 44 20 52  65 71 20 46 72 61 6d 65  MPA ID Req Frame");
        assertThat(text.lines().filter(l -> l.matches("\\s+\\d+\\s+\\d+\\.\\d+ .*")).count()).isEqualTo(2); // frames 4 and 6
        Path two = tmp.resolve("two.txt");
        run("decode", "-r", cap("generated/rping.pcap"), "-r", cap("generated/terminate.pcap"), "-o", two.toString());
        assertThat(Files.readString(two)).contains("==> " + cap("generated/rping.pcap") + " <==",
                "==> " + cap("generated/terminate.pcap") + " <==");
    }

    @Test
    void decodeShowsTheCloseAfterATerminate() throws Exception {
        Path out = tmp.resolve("t.txt");
        run("decode", "-o", out.toString(), cap("generated/terminate.pcap"));
        List<String> lines = Files.readAllLines(out);
        int terminate = -1, fin = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("Terminate")) terminate = i;
            if (lines.get(i).contains("TCP    FIN (stream 0)") && fin < 0) fin = i;
        }
        assertThat(terminate).isNotNegative();
        assertThat(fin).isGreaterThan(terminate);
    }

    @Test
    void analyzeDisplayFilterKeepsTheViolationsAtMatchingPdus() throws Exception {
        Path all = tmp.resolve("all.json"), one = tmp.resolve("one.json"), errors = tmp.resolve("errors.json");
        run("analyze", "-T", "json", "-o", all.toString(), cap("generated/terminate.pcap"));
        assertThat(JSON.readTree(all.toFile()).path("violations").size()).isEqualTo(1);
        assertThat(run("analyze", "-Y", "stream == 1", "-T", "json", "-o", one.toString(), cap("generated/terminate.pcap"))[0])
                .isEqualTo(0);
        assertThat(JSON.readTree(one.toFile()).path("violations").size()).isZero();
        assertThat(run("analyze", "-Y", "violation.severity == \"error\"", "-T", "json", "-o", errors.toString(),
                cap("generated/terminate.pcap"))[0]).isEqualTo(1);
        assertThat(JSON.readTree(errors.toFile()).path("violations").get(0).path("check").asText()).isEqualTo("ddp.untagged.msn");
    }

    private static Process java(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).start();
    }

    @Test
    void generateToStandardOutputAndDecodeIntoAClosedPipeEndQuietly() throws Exception {
        Path big = tmp.resolve("big.pcap");
        Process g = java("generate", "write-stream", "--size", "20MiB", "-o", "-");
        try (InputStream in = g.getInputStream()) {
            Files.copy(in, big);
        }
        assertThat(g.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(g.exitValue()).isZero();
        byte[] head = Files.readAllBytes(big);
        assertThat(head.length).isGreaterThan(20_000_000);
        assertThat(ByteBuffer.wrap(head, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()).isIn(0xa1b2c3d4, 0xa1b23c4d);

        // `rddp decode big.pcap | head -1`: the reader goes away after one line
        Process d = java("decode", big.toString());
        BufferedReader r = new BufferedReader(new InputStreamReader(d.getInputStream(), StandardCharsets.UTF_8));
        assertThat(r.readLine()).contains("MPA");
        d.getInputStream().close();
        assertThat(d.waitFor(30, TimeUnit.SECONDS)).as("exits promptly").isTrue();
        String err = new String(d.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(err).doesNotContain("Exception", "\tat ", "Broken pipe");
        assertThat(d.exitValue()).isZero();
    }

    @Test
    void completionPrintsABashScriptForEverySubcommand() {
        Object[] r = run("completion");
        assertThat(r[0]).isEqualTo(0);
        Set<String> words = new HashSet<>(List.of(((String) r[1]).split("\\s+")));
        assertThat((String) r[1]).startsWith("#!/usr/bin/env bash").contains("complete -F");
        assertThat(String.join(" ", words)).contains("decode", "analyze", "--display-filter");
    }
}
