package io.rddp.conformance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** {@code report.json}: the run, its tally, its gate and coverage, and every scenario with its gate decision. */
final class ReportJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportJson() {
    }

    static String render(Report rep) throws JsonProcessingException {
        ObjectNode root = JSON.createObjectNode();
        Report.Run run = rep.run();
        ObjectNode d = root.putObject("dut");
        d.put("description", run.dut());
        d.put("profile", run.profile());
        ObjectNode s = root.putObject("suite");
        s.put("name", "rddp conform");
        s.put("version", run.suiteVersion());
        s.put("started", run.started().toString());
        s.put("scenarios", rep.results().size());
        ObjectNode options = root.putObject("options");
        run.options().forEach(options::put);

        ObjectNode summary = root.putObject("summary");
        Tally t = rep.tally();
        for (Result.Verdict v : Result.Verdict.values()) summary.put(v.wireName(), t.verdict(v));
        ObjectNode grades = summary.putObject("grades");
        for (Result.Grade g : Result.Grade.values()) grades.put(g.wireName(), t.grade(g));
        summary.put("text", t.text());
        ObjectNode gate = summary.putObject("gate");
        gate.put("exit", rep.gate().exitCode());
        gate.put("baseline", rep.gate().withBaseline());
        rep.gate().counts().forEach((k, n) -> gate.put(k.wireName(), n));
        Coverage c = rep.coverage();
        ObjectNode cov = summary.putObject("coverage");
        cov.put("run", round(c.runPercent()));
        cov.put("catalogue", round(c.cataloguePercent()));
        cov.put("musts", c.musts());
        cov.put("mustsRun", c.mustsRun());
        cov.put("mustsWithScenario", c.mustsWithScenario());
        ObjectNode out = cov.putObject("outOfScope");
        Map<String, Integer> groups = new LinkedHashMap<>();
        for (Requirement q : c.outOfScope()) groups.merge(rep.catalog().outOfScope(q.id()), 1, Integer::sum);
        groups.forEach(out::put);
        cov.put("text", c.headline(rep.catalog()));

        ArrayNode arr = root.putArray("scenarios");
        for (Gate.Line l : rep.gate().lines()) scenario(arr.addObject(), l);

        ArrayNode reqs = root.putArray("requirements");
        for (Coverage.Row row : c.rows().values()) {
            Requirement q = row.requirement();
            ObjectNode o = reqs.addObject();
            o.put("id", q.id()).put("rfc", q.rfc()).put("section", q.section()).put("level", q.level())
                    .put("status", row.status().text());
            ArrayNode ran = o.putArray("ran");
            for (Result r : row.ran()) ran.addObject().put("id", r.id()).put("verdict", r.verdictText());
            ObjectNode notRun = o.putObject("notRun");
            row.notRun().forEach(notRun::put);
            ObjectNode partly = o.putObject("partly");
            row.partly().forEach(partly::put);
        }
        return JSON.writeValueAsString(root);
    }

    private static void scenario(ObjectNode o, Gate.Line l) {
        Result r = l.result();
        o.put("id", r.id());
        o.put("title", r.info().title());
        o.put("verdict", r.verdict().wireName());
        if (r.grade() != null) o.put("grade", r.grade().wireName());
        else o.putNull("grade");
        ObjectNode g = o.putObject("gate");
        g.put("status", l.status().wireName());
        g.put("failing", l.failing());
        if (l.baseline() != null) g.put("baseline", l.baseline());
        if (l.why() != null) g.put("why", l.why());
        if (r.close() != null) o.put("close", r.close());
        else o.putNull("close");
        ArrayNode reqs = o.putArray("requirements");
        for (Requirement q : r.info().requirements()) {
            reqs.addObject().put("id", q.id()).put("rfc", q.rfc()).put("section", q.section())
                    .put("level", q.level());
        }
        ObjectNode partly = o.putObject("partly");
        r.info().partly().forEach((q, leaves) -> partly.put(q.id(), leaves));
        ArrayNode catches = o.putArray("catches");
        r.info().catches().forEach(catches::add);
        o.put("expected", r.info().expectedText());
        o.put("observed", r.observed());
        ArrayNode f = o.putArray("findings");
        r.findings().forEach(f::add);
        ArrayNode n = o.putArray("notes");
        r.notes().forEach(n::add);
        ArrayNode cmp = o.putArray("compared");
        r.compared().forEach(cmp::add);
        ArrayNode marks = o.putArray("marks");
        for (WireMark m : r.marks()) {
            if (m.kind() == WireMark.Kind.CONNECTION) continue;
            ObjectNode mo = marks.addObject();
            mo.put("kind", m.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            mo.put("direction", m.kind() == WireMark.Kind.OFFENDING ? "dut" : "tester");
            mo.put("streamOffset", m.from());
            ArrayNode fs = mo.putArray("fields");
            m.fields().forEach(fs::add);
            mo.put("what", m.what());
        }
        o.put("liveness", r.liveness().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        if (r.pcap() != null) o.put("pcap", r.pcap());
        else o.putNull("pcap");
        o.put("millis", r.millis());
        if (r.truncated()) o.put("truncated", true);
    }

    private static double round(double percent) {
        return Math.round(percent * 10) / 10.0;
    }
}
