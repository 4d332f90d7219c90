package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.rnic.Bug;
import io.rddp.rnic.RnicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a vendor needs to act on a verdict, from real runs against the emulated RNIC over loopback with real pcapng
 * recordings: the observed text states what the DUT sent that it had to refuse, a pass says what it compared, and
 * report.html decodes each PDU field by field with the tester's injected field and its ladder arrow marked.
 */
class ReportDetailTest {

    private static final Catalog CATALOG = Catalog.load();
    /** Loopback answers at once: a short reaction time keeps the failing scenario fast. */
    private static final Timeouts FAST = new Timeouts(5000, 600, 200, 5000);

    @TempDir
    Path tmp;

    private static Scenario scenario(String id) {
        return CATALOG.scenarios().stream().filter(s -> s.info().id().equals(id)).findFirst().orElseThrow();
    }

    /** The scenarios run against the emulated RNIC (agent profile) with {@code bugs}, recorded into {@code dir}. */
    private static List<Result> run(Set<Bug> bugs, Path dir, String... ids) throws Exception {
        return KnobRuns.withAgent(RnicConfig.defaults().withBugs(bugs), dut -> {
            Runner runner = new Runner(dut, FAST, dir, r -> { });
            List<Result> out = new ArrayList<>();
            for (String id : ids) out.add(runner.run(scenario(id)));
            return out;
        });
    }

    private static Report report(List<Result> rs) {
        return new Report(new Report.Run("emulated RNIC", "agent", "test", Instant.parse("2026-11-26T10:00:00Z"),
                new LinkedHashMap<>()), CATALOG, Gate.decide(rs, null, Gate.Policy.defaults()));
    }

    @Test
    void aReadAnsweredFromBeyondTheSourceBufferSaysSoInTheObservedTextAndMarksTheResponse() throws Exception {
        Result r = run(Set.of(Bug.NO_BOUNDS_CHECK), tmp, "rdmap.read.src-end-beyond").get(0);
        assertThat(r.verdict()).isEqualTo(Result.Verdict.FAIL);
        // the DUT read 4,097 octets from a 4,096-octet buffer: the one past its end is stated, not only the silence
        assertThat(r.observed()).startsWith("no Terminate, connection still open; ")
                .contains("carrying 4,097 octets").contains("1 beyond the source buffer")
                .doesNotContain(r.info().expectedText());
        // the Read Request's size is the tester's fault; the last response segment is the DUT's
        assertThat(r.marks()).anySatisfy(m -> {
            assertThat(m.kind()).isEqualTo(WireMark.Kind.INJECTED);
            assertThat(m.fields()).contains("rdmap.readRequest.size");
            assertThat(m.what()).contains("1 octet beyond the buffer's end");
        });
        assertThat(r.marks()).anySatisfy(m -> {
            assertThat(m.kind()).isEqualTo(WireMark.Kind.OFFENDING);
            assertThat(m.what()).startsWith("octets from beyond the source buffer: 1 of its ");
        });
        Report rep = report(List.of(r));
        rep.write(tmp);
        JsonNode json = new ObjectMapper().readTree(tmp.resolve("report.json").toFile());
        assertThat(json.path("scenarios").path(0).path("observed").asText()).contains("1 beyond the source buffer");
        String html = Files.readString(tmp.resolve("report.html"));
        assertThat(html).contains("at fault: octets from beyond the source buffer")
                // the note "expected Terminate 0/1/1 ..." would repeat the Expected column: left out there
                .doesNotContain("<span class=\"note\">expected " + ReportHtml.x(r.info().expectedText()));
    }

    @Test
    void aPassSaysWhatItComparedAndTheMsnSkipIsDecodedFieldByFieldWithTheInjectedMsnMarked() throws Exception {
        List<Result> rs = run(Set.of(), tmp, "positive.write-then-read", "ddp.untagged.msn-skip");
        Result positive = rs.get(0), skip = rs.get(1);
        assertThat(positive.verdict()).isEqualTo(Result.Verdict.PASS);
        assertThat(positive.compared()).containsExactly("29 octets read back, equal");
        assertThat(positive.observed()).contains("1 RDMA Read Response carrying 29 octets");
        assertThat(positive.marks()).noneMatch(m -> m.kind() == WireMark.Kind.INJECTED);
        assertThat(skip.verdict()).isEqualTo(Result.Verdict.PASS);
        // the Terminate the scenario expects is named by its numbers: its name is the Expected column's
        assertThat(skip.observed()).startsWith("Terminate 1/2/3 M D, then FIN after ")
                .doesNotContain("Invalid MSN");

        Report rep = report(rs);
        rep.write(tmp);
        JsonNode json = new ObjectMapper().readTree(tmp.resolve("report.json").toFile());
        JsonNode pos = null;
        for (JsonNode s : json.path("scenarios")) if (s.path("id").asText().equals("positive.write-then-read")) pos = s;
        assertThat(pos.path("compared").get(0).asText()).isEqualTo("29 octets read back, equal");

        String html = Files.readString(tmp.resolve("report.html"));
        assertThat(html).contains("<span class=\"compared\">compared: 29 octets read back, equal</span>")
                .contains("<span class=\"injected\">⚡ injected: MSN 3 where 2 is due</span>");
        String section = section(html, "ddp.untagged.msn-skip");
        // the ladder: the injected Send's arrow is marked and says which field
        assertThat(section).containsPattern("<line class=\"inj\"[^>]*/><a href=\"#x-ddp\\.untagged\\.msn-skip-f\\d+\">"
                + "<text class=\"inj\"[^>]*>#\\d+ ⚡ Send QN 0 MSN 3 MO 0 L len 16 — injected: MSN 3 where 2 is due"
                + "</text>");
        // its field table: the MSN row is the injected one, with its value and octets
        String injected = pdu(section, "pdu inj");
        assertThat(injected).contains("<tr class=\"inj\"><td title=\"ddp.msn\">⚡ Message sequence number</td>"
                + "<td>3</td><td>00000003</td></tr>");
        // the judge also finds no receive posted for MSN 3 (ddp.untagged.no-buffer), which names its queue: QN 0
        assertThat(injected).contains("<tr class=\"inj\"><td title=\"ddp.qn\">⚡ Queue number</td><td>0</td>"
                + "<td>00000000</td></tr>").contains("judge: ddp.untagged.no-buffer: Send QN 0 MSN 3");
        assertThat(injected).contains("<tr><td title=\"ddp.mo\">Message offset</td><td>0</td><td>00000000</td></tr>");
        // a DUT PDU decoded field by field: the Terminate's DDP header and RDMAP fields, each with its octets
        String terminate = pdu(section, "DUT → tester  Terminate");
        assertThat(terminate).contains("<tr><td title=\"ddp.qn\">Queue number</td><td>2</td><td>00000002</td></tr>")
                .contains("<tr><td title=\"ddp.msn\">Message sequence number</td><td>1</td><td>00000001</td></tr>")
                .contains("<tr><td class=\"d2\" title=\"rdmap.terminate.layer\">Layer</td><td>1</td>")
                .contains("<td class=\"d2\" title=\"rdmap.terminate.code\">Error code</td><td>3</td><td>03</td>")
                .doesNotContain("class=\"inj\"");
    }

    /** The exchange section of scenario {@code id}. */
    private static String section(String html, String id) {
        int from = html.indexOf("<section id=\"x-" + id + "\">");
        assertThat(from).as("exchange of " + id).isNotNegative();
        return html.substring(from, html.indexOf("</section>", from));
    }

    /** The first PDU block of a section whose opening contains {@code marker}. */
    private static String pdu(String section, String marker) {
        Matcher m = Pattern.compile("<details class=\"pdu[^\"]*\"[^>]*>.*?</details>").matcher(section);
        while (m.find()) if (m.group().contains(marker)) return m.group();
        throw new AssertionError("no PDU with " + marker);
    }
}
