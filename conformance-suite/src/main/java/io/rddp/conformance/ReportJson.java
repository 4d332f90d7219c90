package io.rddp.conformance;

import com.fasterxml.jackson.core.JsonGenerator;
import io.rddp.report.JsonReports;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code report.json}: the run, its tally, its gate and coverage, and every scenario with its gate decision. */
final class ReportJson {

    private ReportJson() {
    }

    static String render(Report rep) {
        return JsonReports.render(j -> write(rep, j));
    }

    private static void write(Report rep, JsonGenerator j) throws IOException {
        j.writeStartObject();
        Report.Run run = rep.run();
        j.writeObjectFieldStart("dut");
        j.writeStringField("description", run.dut());
        j.writeStringField("profile", run.profile());
        j.writeEndObject();
        j.writeObjectFieldStart("suite");
        j.writeStringField("name", "rddp conform");
        j.writeStringField("version", run.suiteVersion());
        j.writeStringField("started", run.started().toString());
        j.writeNumberField("scenarios", rep.results().size());
        j.writeEndObject();
        strings("options", run.options(), j);

        j.writeObjectFieldStart("summary");
        Tally t = rep.tally();
        for (Result.Verdict v : Result.Verdict.values()) j.writeNumberField(v.wireName(), t.verdict(v));
        j.writeObjectFieldStart("grades");
        for (Result.Grade g : Result.Grade.values()) j.writeNumberField(g.wireName(), t.grade(g));
        j.writeEndObject();
        j.writeStringField("text", t.text());
        j.writeObjectFieldStart("gate");
        j.writeNumberField("exit", rep.gate().exitCode());
        j.writeBooleanField("baseline", rep.gate().withBaseline());
        for (var e : rep.gate().counts().entrySet()) j.writeNumberField(e.getKey().wireName(), e.getValue());
        j.writeEndObject();
        Coverage c = rep.coverage();
        j.writeObjectFieldStart("coverage");
        j.writeNumberField("run", round(c.runPercent()));
        j.writeNumberField("catalogue", round(c.cataloguePercent()));
        j.writeNumberField("musts", c.musts());
        j.writeNumberField("mustsRun", c.mustsRun());
        j.writeNumberField("mustsWithScenario", c.mustsWithScenario());
        Map<String, Integer> groups = new LinkedHashMap<>();
        for (Requirement q : c.outOfScope()) groups.merge(rep.catalog().outOfScope(q.id()), 1, Integer::sum);
        j.writeObjectFieldStart("outOfScope");
        for (var e : groups.entrySet()) j.writeNumberField(e.getKey(), e.getValue());
        j.writeEndObject();
        j.writeStringField("text", c.headline(rep.catalog()));
        j.writeEndObject();
        j.writeEndObject();

        j.writeArrayFieldStart("scenarios");
        for (Gate.Line l : rep.gate().lines()) scenario(l, j);
        j.writeEndArray();

        j.writeArrayFieldStart("requirements");
        for (Coverage.Row row : c.rows().values()) {
            Requirement q = row.requirement();
            j.writeStartObject();
            requirement(q, j);
            j.writeStringField("status", row.status().text());
            j.writeArrayFieldStart("ran");
            for (Result r : row.ran()) {
                j.writeStartObject();
                j.writeStringField("id", r.id());
                j.writeStringField("verdict", r.verdictText());
                j.writeEndObject();
            }
            j.writeEndArray();
            strings("notRun", row.notRun(), j);
            strings("partly", row.partly(), j);
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeEndObject();
    }

    private static void scenario(Gate.Line l, JsonGenerator j) throws IOException {
        Result r = l.result();
        j.writeStartObject();
        j.writeStringField("id", r.id());
        j.writeStringField("title", r.info().title());
        j.writeStringField("verdict", r.verdict().wireName());
        j.writeStringField("grade", r.grade() != null ? r.grade().wireName() : null);
        j.writeObjectFieldStart("gate");
        j.writeStringField("status", l.status().wireName());
        j.writeBooleanField("failing", l.failing());
        if (l.baseline() != null) j.writeStringField("baseline", l.baseline());
        if (l.why() != null) j.writeStringField("why", l.why());
        j.writeEndObject();
        j.writeStringField("close", r.close());
        j.writeArrayFieldStart("requirements");
        for (Requirement q : r.info().requirements()) {
            j.writeStartObject();
            requirement(q, j);
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeObjectFieldStart("partly");
        for (var e : r.info().partly().entrySet()) j.writeStringField(e.getKey().id(), e.getValue());
        j.writeEndObject();
        strings("catches", r.info().catches(), j);
        j.writeStringField("expected", r.info().expectedText());
        j.writeStringField("observed", r.observed());
        strings("findings", r.findings(), j);
        strings("notes", r.notes(), j);
        strings("compared", r.compared(), j);
        j.writeArrayFieldStart("marks");
        for (WireMark m : r.marks()) {
            if (m.kind() == WireMark.Kind.CONNECTION) continue;
            j.writeStartObject();
            j.writeStringField("kind", m.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            j.writeStringField("direction", m.kind() == WireMark.Kind.OFFENDING ? "dut" : "tester");
            j.writeNumberField("streamOffset", m.from());
            strings("fields", m.fields(), j);
            j.writeStringField("what", m.what());
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeStringField("liveness", r.liveness().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        j.writeStringField("pcap", r.pcap());
        j.writeNumberField("millis", r.millis());
        if (r.truncated()) j.writeBooleanField("truncated", true);
        j.writeEndObject();
    }

    private static void requirement(Requirement q, JsonGenerator j) throws IOException {
        j.writeStringField("id", q.id());
        j.writeStringField("rfc", q.rfc());
        j.writeStringField("section", q.section());
        j.writeStringField("level", q.level());
    }

    /** An array of strings. */
    private static void strings(String key, List<String> values, JsonGenerator j) throws IOException {
        j.writeArrayFieldStart(key);
        for (String v : values) j.writeString(v);
        j.writeEndArray();
    }

    /** An object of string values. */
    private static void strings(String key, Map<String, String> values, JsonGenerator j) throws IOException {
        j.writeObjectFieldStart(key);
        for (var e : values.entrySet()) j.writeStringField(e.getKey(), e.getValue());
        j.writeEndObject();
    }

    private static double round(double percent) {
        return Math.round(percent * 10) / 10.0;
    }
}
