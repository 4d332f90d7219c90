package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * report.json, junit.xml and report.html say what the gate decided: a waived failure is a JUnit skip with its reason
 * and no failure, a regression a failure naming the baseline's verdict, an improvement is named as one; junit.xml
 * is valid against the JUnit schema CI systems read.
 */
class ReportArtifactsTest {

    @TempDir
    Path tmp;

    private static final Catalog CATALOG = Catalog.load();

    private static Result result(String id, Result.Verdict v, Result.Grade g, String... notes) {
        ScenarioInfo info = CATALOG.scenarios().stream().map(Scenario::info).filter(i -> i.id().equals(id))
                .findFirst().orElseThrow();
        return new Result(info, "agent", v, g, "fin", "Terminate 1/2/2, then FIN after 3 ms", List.of(),
                List.of(notes), null, 1234, null);
    }

    private Report report(List<Result> results, String baseline, Gate.Policy policy) throws Exception {
        Baseline b = null;
        if (baseline != null) {
            Path f = tmp.resolve("baseline.json");
            Files.writeString(f, baseline);
            Set<String> ids = new java.util.HashSet<>();
            CATALOG.scenarios().forEach(s -> ids.add(s.info().id()));
            b = Baseline.read(f, ids);
        }
        Map<String, String> options = new LinkedHashMap<>();
        options.put("profile", "agent");
        options.put("timeout-scale", "3.0");
        return new Report(new Report.Run("emulated RNIC", "agent", "test", Instant.parse("2026-11-26T10:00:00Z"),
                options), CATALOG, Gate.decide(results, b, policy));
    }

    private static Document xml(Path f) throws Exception {
        DocumentBuilderFactory f2 = DocumentBuilderFactory.newInstance();
        return f2.newDocumentBuilder().parse(f.toFile());
    }

    private static void validJunit(Path f) throws Exception {
        SchemaFactory sf = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        var schema = sf.newSchema(ReportArtifactsTest.class.getResource("junit.xsd"));
        schema.newValidator().validate(new StreamSource(f.toFile()));
    }

    private static Element testcase(Document d, String id) {
        NodeList cs = d.getElementsByTagName("testcase");
        for (int i = 0; i < cs.getLength(); i++) {
            Element e = (Element) cs.item(i);
            if (e.getAttribute("name").equals(id)) return e;
        }
        throw new AssertionError("no testcase " + id);
    }

    private static JsonNode scenario(JsonNode report, String id) {
        for (JsonNode s : report.path("scenarios")) if (s.path("id").asText().equals(id)) return s;
        throw new AssertionError("no scenario " + id + " in report.json");
    }

    @Test
    void aRunWhoseFailuresAreAllWaivedHasNoJunitFailureAndCarriesEachReason() throws Exception {
        List<Result> rs = List.of(
                result("ddp.untagged.too-long", Result.Verdict.FAIL, null, "expected Terminate 1/2/5"),
                result("ddp.untagged.msn-skip", Result.Verdict.PASS, Result.Grade.STRICT),
                result("ddp.tagged.past-end", Result.Verdict.ERROR, null, "the scenario could not run: boom"));
        Report rep = report(rs, "{\"scenarios\": {\"ddp.untagged.too-long\": {\"verdict\": \"fail\", \"reason\":"
                + " \"answers 1/2/2, the no-buffer code\"}, \"ddp.tagged.past-end\": {\"verdict\": \"error\","
                + " \"reason\":"
                + " \"the agent cannot register 4 KiB here\"}}}", Gate.Policy.defaults());
        rep.write(tmp);
        assertThat(rep.gate().exitCode()).isZero();

        Path junit = tmp.resolve("junit.xml");
        validJunit(junit);
        Document d = xml(junit);
        assertThat(d.getElementsByTagName("failure").getLength()).isZero();
        assertThat(d.getElementsByTagName("error").getLength()).isZero();
        Element waived = (Element) testcase(d, "ddp.untagged.too-long").getElementsByTagName("skipped").item(0);
        assertThat(waived.getAttribute("message")).isEqualTo("waived (fail): answers 1/2/2, the no-buffer code");
        Element suite = (Element) d.getElementsByTagName("testsuite").item(0);
        assertThat(suite.getAttribute("skipped")).isEqualTo("2");
        assertThat(suite.getAttribute("time")).isEqualTo("3.702");
        assertThat(testcase(d, "ddp.untagged.msn-skip").getAttribute("time")).isEqualTo("1.234");

        JsonNode json = new ObjectMapper().readTree(tmp.resolve("report.json").toFile());
        JsonNode tooLong = scenario(json, "ddp.untagged.too-long");
        assertThat(tooLong.path("verdict").asText()).isEqualTo("fail");
        assertThat(tooLong.path("gate").path("status").asText()).isEqualTo("waived");
        assertThat(tooLong.path("gate").path("why").asText()).isEqualTo("answers 1/2/2, the no-buffer code");
        assertThat(json.path("summary").path("gate").path("exit").asInt()).isZero();
        assertThat(json.path("summary").path("gate").path("waived").asInt()).isEqualTo(2);

        String html = Files.readString(tmp.resolve("report.html"));
        assertThat(html).contains("<span class=\"word\">PASS</span> exit 0: 2 waived")
                .contains("answers 1/2/2, the no-buffer code").contains("id=\"ddp.untagged.too-long\"");
    }

    @Test
    void aRegressionIsAJunitFailureThatSaysWhatTheBaselineHad() throws Exception {
        List<Result> rs = List.of(
                result("ddp.untagged.msn-skip", Result.Verdict.FAIL, null, "expected Terminate 1/2/3"));
        Report rep = report(rs, "{\"scenarios\": {\"ddp.untagged.msn-skip\": {\"verdict\": \"pass\", \"grade\":"
                + " \"strict\"}}}", Gate.Policy.defaults());
        rep.write(tmp);
        assertThat(rep.gate().exitCode()).isEqualTo(1);
        validJunit(tmp.resolve("junit.xml"));
        Element failure = (Element) testcase(xml(tmp.resolve("junit.xml")), "ddp.untagged.msn-skip")
                .getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("type")).isEqualTo("regression");
        assertThat(failure.getAttribute("message")).startsWith("regression: the baseline has pass/strict, this run"
                + " fail");
        JsonNode json = new ObjectMapper().readTree(tmp.resolve("report.json").toFile());
        assertThat(scenario(json, "ddp.untagged.msn-skip").path("gate").path("baseline").asText())
                .isEqualTo("pass/strict");
        assertThat(Files.readString(tmp.resolve("report.html"))).contains("<span class=\"word\">FAIL</span> exit 1");
    }

    @Test
    void anImprovementIsNamedInReportJsonAndPassesInJunit() throws Exception {
        List<Result> rs = List.of(result("ddp.untagged.msn-skip", Result.Verdict.PASS, Result.Grade.STRICT));
        Report rep = report(rs, "{\"scenarios\": {\"ddp.untagged.msn-skip\": {\"verdict\": \"fail\", \"reason\":"
                + " \"swapped nibbles\"}}}", Gate.Policy.defaults());
        rep.write(tmp);
        JsonNode json = new ObjectMapper().readTree(tmp.resolve("report.json").toFile());
        assertThat(scenario(json, "ddp.untagged.msn-skip").path("gate").path("status").asText())
                .isEqualTo("improvement");
        assertThat(json.path("summary").path("gate").path("improvement").asInt()).isEqualTo(1);
        Document d = xml(tmp.resolve("junit.xml"));
        assertThat(d.getElementsByTagName("failure").getLength()).isZero();
        assertThat(d.getElementsByTagName("skipped").getLength()).isZero();
    }

    @Test
    void theTallyAndCoverageReadTheSameInEveryArtifact() throws Exception {
        List<Result> rs = new ArrayList<>();
        rs.add(result("ddp.untagged.msn-skip", Result.Verdict.PASS, Result.Grade.STRICT));
        rs.add(result("ddp.untagged.too-long", Result.Verdict.PASS, Result.Grade.NON_STRICT));
        rs.add(result("ddp.tagged.past-end", Result.Verdict.SKIP, Result.Grade.NOT_SUPPORTED));
        Report rep = report(rs, null, Gate.Policy.defaults());
        rep.write(tmp);
        String tally = "pass 2 (1 strict, 0 lenient, 1 non-strict: SHOULD missed), 0 fail, 1 skip, 0 error";
        assertThat(rep.tally().text()).isEqualTo(tally);
        JsonNode json = new ObjectMapper().readTree(tmp.resolve("report.json").toFile());
        assertThat(json.path("summary").path("text").asText()).isEqualTo(tally);
        assertThat(json.path("options").path("timeout-scale").asText()).isEqualTo("3.0");
        String coverage = rep.coverage().headline(CATALOG);
        assertThat(coverage).startsWith("this run: ").contains("(catalogue: ")
                .endsWith("out of scope: 21 IPsec MUSTs, 2 informative MUSTs, 3 umbrella MUSTs");
        assertThat(json.path("summary").path("coverage").path("text").asText()).isEqualTo(coverage);
        assertThat(Files.readString(tmp.resolve("junit.xml"))).contains(tally).contains(coverage);
        assertThat(Files.readString(tmp.resolve("report.html"))).contains(tally).contains(coverage)
                .contains("Option timeout-scale");
    }

    @Test
    void aRequirementIsCoveredByARunOnlyWhenAScenarioProvingItRanToAVerdict() {
        Result skipped = result("ddp.tagged.past-end", Result.Verdict.SKIP, Result.Grade.NOT_SUPPORTED);
        Coverage none = Coverage.of(CATALOG, List.of(skipped));
        assertThat(none.mustsRun()).isZero();
        Requirement q = skipped.info().requirements().get(0);
        Coverage.Row row = none.rows().get(q.id());
        assertThat(row.status()).isEqualTo(Coverage.Status.NOT_RUN);
        assertThat(row.notRun().get("ddp.tagged.past-end")).startsWith("skip/not-supported: ");

        Coverage ran = Coverage.of(CATALOG, List.of(result("ddp.tagged.past-end", Result.Verdict.FAIL, null)));
        assertThat(ran.rows().get(q.id()).status()).isEqualTo(Coverage.Status.FAILED);
        assertThat(ran.runPercent()).isGreaterThan(0).isLessThan(ran.cataloguePercent());
        assertThat(ran.cataloguePercent()).isEqualTo(none.cataloguePercent());
    }
}
