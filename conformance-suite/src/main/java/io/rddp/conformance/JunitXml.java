package io.rddp.conformance;

import io.rddp.report.JunitCase;
import io.rddp.report.JunitOutcome;
import io.rddp.report.JunitTotals;
import io.rddp.report.JunitXmlWriter;

import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code junit.xml} as Jenkins, GitLab and other CI systems read it (one {@code <testsuite>} in
 * {@code <testsuites>}), carrying the gate's decisions: a scenario that fails the gate is a {@code <failure>} (a
 * regression says what the baseline had), a waived one is {@code <skipped>} with the waiver's reason (what those
 * systems read as not failed), a scenario the suite could not judge is an {@code <error>}.
 */
final class JunitXml {

    private JunitXml() {
    }

    static String render(Report rep) {
        StringWriter sw = new StringWriter();
        try {
            JunitXmlWriter w = JunitXmlWriter.to(sw).startDocument();
            int failures = 0, errors = 0, skipped = 0;
            long ms = 0;
            for (Gate.Line l : rep.gate().lines()) {
                switch (kind(l)) {
                    case "failure" -> failures++;
                    case "error" -> errors++;
                    case "skipped" -> skipped++;
                    default -> {
                    }
                }
                ms += l.result().millis();
            }
            JunitTotals totals = new JunitTotals("rddp conform (" + rep.run().profile() + ")",
                    rep.gate().lines().size(), failures, errors, skipped, ms);
            w.startSuites(totals).space("\n  ");
            w.startSuite(totals, rep.run().started().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                    .toString().replace("Z", "")).space("\n    ");
            List<Map.Entry<String, String>> properties = new ArrayList<>();
            properties.add(property("dut", rep.run().dut()));
            rep.run().options().forEach((k, v) -> properties.add(property(k, v)));
            properties.add(property("summary", rep.tally().text()));
            properties.add(property("coverage", rep.coverage().headline(rep.catalog())));
            properties.add(property("exit", Integer.toString(rep.gate().exitCode())));
            w.properties(properties, "\n      ");
            for (Gate.Line l : rep.gate().lines()) w.space("\n    ").testcase(testcase(l));
            w.space("\n  ").end().space("\n").end().space("\n").finish();
        } catch (IOException e) {
            throw new IllegalStateException("junit.xml: " + e.getMessage(), e);
        }
        return sw.toString();
    }

    /** A property; a null value is written as "" (Map.entry takes no null). */
    private static Map.Entry<String, String> property(String name, String value) {
        return new java.util.AbstractMap.SimpleImmutableEntry<>(name, value);
    }

    /** failure, error, skipped or passed: how a CI system is to read the line. */
    static String kind(Gate.Line l) {
        if (l.failing()) return "failure";
        return switch (l.status()) {
            case ERROR -> "error";
            case SKIPPED, WAIVED -> "skipped";
            default -> "passed";
        };
    }

    private static JunitCase testcase(Gate.Line l) {
        Result r = l.result();
        String cls = r.id().contains(".") ? r.id().substring(0, r.id().lastIndexOf('.')) : r.id();
        String detail = detail(l);
        JunitOutcome outcome = switch (kind(l)) {
            case "failure" -> JunitOutcome.failure(headline(l), l.status().wireName(), detail);
            case "error" -> JunitOutcome.error(r.notes().isEmpty() ? "the suite could not judge it"
                    : r.notes().get(0), "suite-error", detail);
            case "skipped" -> JunitOutcome.skipped(l.status() == Gate.Status.WAIVED
                    ? "waived (" + r.verdictText() + "): " + l.why()
                    : r.grade().wireName() + ": " + r.observed());
            default -> null;
        };
        return new JunitCase(cls, r.id(), r.millis(), outcome, r.verdictText() + "\n" + detail);
    }

    /** The one-line message of a failing line. */
    private static String headline(Gate.Line l) {
        Result r = l.result();
        return switch (l.status()) {
            case REGRESSION -> "regression: " + l.why() + ": " + r.observed();
            case IMPROVEMENT -> "improvement over a stale baseline: " + l.why();
            default -> (l.why() != null ? l.why() + ": " : "") + r.observed();
        };
    }

    private static String detail(Gate.Line l) {
        Result r = l.result();
        StringBuilder sb = new StringBuilder();
        sb.append("gate: ").append(l.status().wireName());
        if (l.baseline() != null) sb.append(" (baseline: ").append(l.baseline()).append(')');
        if (l.why() != null) sb.append(": ").append(l.why());
        sb.append("\nexpected: ").append(r.info().expectedText()).append("\nobserved: ").append(r.observed());
        for (String n : r.notes()) sb.append('\n').append(n);
        if (!r.findings().isEmpty()) sb.append("\nfindings:\n").append(String.join("\n", r.findings()));
        java.util.Set<String> injected = new java.util.LinkedHashSet<>();
        for (WireMark m : r.marks()) if (m.kind() == WireMark.Kind.INJECTED) injected.add(m.what());
        for (String i : injected) sb.append("\ninjected: ").append(i);
        for (String c : r.compared()) sb.append("\ncompared: ").append(c);
        if (r.pcap() != null) sb.append("\nrecording: ").append(r.pcap());
        return sb.toString();
    }
}
