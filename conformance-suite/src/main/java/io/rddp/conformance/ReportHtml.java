package io.rddp.conformance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code report.html}, self-contained, for triage: the headline verdict with its counts, the run's options, the
 * scenarios failures first with filters by gate status, layer and RFC and an anchor each, every exchange as a ladder
 * with its wire bytes, and the requirement coverage of this run.
 */
final class ReportHtml {

    private ReportHtml() {
    }

    static String render(Report rep, Path dir) {
        StringBuilder sb = new StringBuilder();
        Report.Run run = rep.run();
        int exit = rep.gate().exitCode();
        sb.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>rddp conform: ")
                .append(x(run.dut())).append("</title><style>").append(CSS).append("</style></head><body>\n");
        sb.append("<h1>iWARP conformance report</h1>\n");
        headline(sb, rep, exit);
        sb.append("<table class=\"meta\">");
        row(sb, "DUT", run.dut());
        row(sb, "Profile", run.profile());
        row(sb, "Suite", "rddp conform " + run.suiteVersion() + ", " + rep.results().size() + " scenarios");
        row(sb, "Started", run.started().toString());
        for (Map.Entry<String, String> o : run.options().entrySet()) row(sb, "Option " + o.getKey(), o.getValue());
        row(sb, "Verdicts", rep.tally().text());
        row(sb, "Coverage", rep.coverage().headline(rep.catalog()));
        sb.append("</table>\n");
        scenarios(sb, rep);
        sb.append("<h2 id=\"exchanges\">Exchanges</h2>\n");
        for (Gate.Line l : ordered(rep)) {
            Result r = l.result();
            if (r.pcap() == null) continue;
            sb.append("<section id=\"x-").append(x(r.id())).append("\"><h3><a href=\"#").append(x(r.id()))
                    .append("\">").append(x(r.id())).append("</a> — ").append(x(r.info().title()))
                    .append("</h3><p><a href=\"").append(x(r.pcap())).append("\">").append(x(r.pcap()))
                    .append("</a> (Wireshark shows each violation as a packet comment)</p>");
            Ladder.render(sb, dir.resolve(r.pcap()), r.marks(), "x-" + r.id());
            sb.append("</section>\n");
        }
        coverage(sb, rep);
        sb.append("<script>").append(SCRIPT).append("</script></body></html>\n");
        return sb.toString();
    }

    private static void headline(StringBuilder sb, Report rep, int exit) {
        Map<Gate.Status, Integer> c = rep.gate().counts();
        String word = exit == 0 ? "PASS" : exit == 1 ? "FAIL" : "INCOMPLETE";
        List<String> parts = new ArrayList<>();
        long failing = rep.gate().lines().stream().filter(Gate.Line::failing).count();
        if (failing > 0) parts.add(failing + " failing the gate");
        for (Gate.Status s : List.of(Gate.Status.REGRESSION, Gate.Status.IMPROVEMENT, Gate.Status.WAIVED,
                Gate.Status.ERROR)) {
            if (c.get(s) > 0) parts.add(c.get(s) + " " + s.wireName());
        }
        sb.append("<div class=\"headline exit").append(exit).append("\"><span class=\"word\">").append(word)
                .append("</span> exit ").append(exit).append(parts.isEmpty() ? "" : ": " + x(String.join(", ", parts)))
                .append("<br><span class=\"counts\">").append(x(rep.tally().text())).append("</span></div>\n");
    }

    /** Failing lines first, then errors, waivers, passes that missed something, passes, skips. */
    static List<Gate.Line> ordered(Report rep) {
        List<Gate.Line> out = new ArrayList<>(rep.gate().lines());
        out.sort(Comparator.comparingInt(ReportHtml::order));
        return out;
    }

    private static int order(Gate.Line l) {
        if (l.failing()) return 0;
        Result r = l.result();
        return switch (l.status()) {
            case ERROR -> 1;
            case WAIVED -> 2;
            case IMPROVEMENT -> 3;
            case PASSED, REGRESSION, FAILED -> r.grade() == Result.Grade.STRICT ? 5 : 4;
            case SKIPPED -> 6;
        };
    }

    private static void scenarios(StringBuilder sb, Report rep) {
        List<Gate.Line> lines = ordered(rep);
        TreeSet<String> layers = new TreeSet<>(), rfcs = new TreeSet<>();
        for (Gate.Line l : lines) {
            layers.add(Report.layer(l.result()));
            for (Requirement q : l.result().info().requirements()) rfcs.add(q.rfc());
        }
        sb.append("<h2 id=\"scenarios\">Scenarios</h2>\n<form class=\"filters\" id=\"filters\">");
        select(sb, "status", "gate", List.of("failing", "regression", "improvement", "failed", "waived", "error",
                "passed", "skipped"));
        select(sb, "layer", "layer", List.copyOf(layers));
        select(sb, "rfc", "RFC", List.copyOf(rfcs));
        sb.append(" <input type=\"search\" name=\"text\" placeholder=\"id or text\"> <span id=\"shown\"></span>"
                + "</form>\n");
        sb.append("<table class=\"results\"><thead><tr><th>Scenario</th><th>Gate</th><th>What the DUT did</th>"
                + "<th>Expected</th><th>Requirements</th><th>Proven by</th></tr></thead><tbody>\n");
        for (Gate.Line l : lines) {
            Result r = l.result();
            TreeSet<String> rs = new TreeSet<>();
            for (Requirement q : r.info().requirements()) rs.add(q.rfc());
            sb.append("<tr id=\"").append(x(r.id())).append("\" class=\"").append(x(l.status().wireName()))
                    .append(l.failing() ? " failing" : "").append(r.grade() != null ? " " + x(r.grade().wireName())
                            : "").append("\" data-status=\"").append(x(l.status().wireName()))
                    .append(l.failing() ? " failing" : "").append("\" data-layer=\"").append(x(Report.layer(r)))
                    .append("\" data-rfc=\"").append(x(String.join("|", rs))).append("\"><td><a href=\"#")
                    .append(x(r.id())).append("\">").append(x(r.id())).append("</a><br><span class=\"title\">")
                    .append(x(r.info().title())).append("</span></td><td class=\"verdict\">")
                    .append(x(l.status().wireName())).append("<br><span class=\"grade\">").append(x(r.verdictText()))
                    .append("</span>");
            if (l.baseline() != null) sb.append("<br><span class=\"note\">baseline: ").append(x(l.baseline()))
                    .append("</span>");
            if (l.why() != null) sb.append("<br><span class=\"why\">").append(x(l.why())).append("</span>");
            sb.append("</td><td>").append(x(r.observed()));
            String expected = "expected " + r.info().expectedText();
            for (String n : r.notes()) {
                if (n.equals(expected)) continue; // the Expected column says it
                sb.append("<br><span class=\"note\">").append(x(n)).append("</span>");
            }
            for (String f : r.findings()) sb.append("<br><span class=\"finding\">").append(x(f)).append("</span>");
            for (String c : r.compared()) {
                sb.append("<br><span class=\"compared\">compared: ").append(x(c)).append("</span>");
            }
            for (String m : injected(r)) sb.append("<br><span class=\"injected\">⚡ injected: ").append(x(m))
                    .append("</span>");
            if (r.pcap() != null) {
                sb.append("<br><a class=\"note\" href=\"#x-").append(x(r.id())).append("\">exchange</a>");
            }
            sb.append("</td><td>").append(x(r.info().expectedText())).append("</td><td>");
            for (Requirement q : r.info().requirements()) {
                sb.append("<span title=\"").append(x(q.quote())).append("\">").append(x(q.rfc() + " " + q.section()
                        + " " + q.level())).append("</span><br>");
            }
            for (Map.Entry<Requirement, String> p : r.info().partly().entrySet()) {
                Requirement q = p.getKey();
                sb.append("<span class=\"partly\" title=\"").append(x(q.quote() + " — leaves out: " + p.getValue()))
                        .append("\">").append(x(q.rfc() + " " + q.section() + " " + q.level() + " (in part)"))
                        .append("</span><br>");
            }
            sb.append("</td><td class=\"knobs\">").append(x(String.join(", ", r.info().catches())))
                    .append("</td></tr>\n");
        }
        sb.append("</tbody></table>\n");
    }

    /**
     * What the tester injected, once per distinct text: the fault the scenario is about; without a field it set on
     * purpose (raw octets), what the judge found wrong in the tester's PDUs.
     */
    private static List<String> injected(Result r) {
        List<String> out = new ArrayList<>();
        for (WireMark.Kind k : List.of(WireMark.Kind.INJECTED, WireMark.Kind.TESTER_FAULT)) {
            for (WireMark m : r.marks()) {
                if (m.kind() == k && !out.contains(m.what()) && out.size() < 4) out.add(m.what());
            }
            if (!out.isEmpty()) break;
        }
        return out;
    }

    private static void select(StringBuilder sb, String name, String label, List<String> values) {
        sb.append("<label>").append(x(label)).append(" <select name=\"").append(name).append("\"><option value=\"\">"
                + "all</option>");
        for (String v : values) sb.append("<option>").append(x(v)).append("</option>");
        sb.append("</select></label> ");
    }

    private static void coverage(StringBuilder sb, Report rep) {
        Catalog catalog = rep.catalog();
        sb.append("<h2 id=\"coverage\">Requirement coverage</h2>\n<p>").append(x(rep.coverage().headline(catalog)))
                .append(". A requirement counts for this run only when a scenario that proves it ran to a verdict.")
                .append("</p>\n<table class=\"coverage\"><tr><th>Requirement</th><th>Level</th><th>Quote</th>"
                        + "<th>This run</th><th>Scenarios</th></tr>\n");
        for (Coverage.Row row : rep.coverage().rows().values()) {
            Requirement q = row.requirement();
            String st = row.status().text();
            sb.append("<tr class=\"").append(st.replace(' ', '-')).append("\"><td>")
                    .append(x(q.rfc() + " " + q.section())).append("<br><span class=\"title\">").append(x(q.id()))
                    .append("</span></td><td>").append(x(q.level())).append("</td><td>").append(x(q.quote()))
                    .append("</td><td>").append(x(st)).append("</td><td>");
            for (Result r : row.ran()) {
                sb.append("<a class=\"").append(r.verdict().wireName()).append("\" href=\"#").append(x(r.id()))
                        .append("\">").append(x(r.id())).append("</a> ");
            }
            for (Map.Entry<String, String> e : row.notRun().entrySet()) {
                sb.append("<br><span class=\"note\">").append(x(e.getKey() + ": " + e.getValue())).append("</span>");
            }
            for (Map.Entry<String, String> e : row.partly().entrySet()) {
                sb.append("<br><span class=\"partly\">in part: ").append(x(e.getKey() + ", leaves out "
                        + e.getValue())).append("</span>");
            }
            sb.append("</td></tr>\n");
        }
        sb.append("</table>\n<h2>Out of scope</h2>\n<ul>");
        for (Requirement q : rep.coverage().outOfScope()) {
            sb.append("<li>").append(x(q.rfc() + " " + q.section() + " " + q.level() + ": " + q.quote()))
                    .append(" — <i>").append(x(catalog.outOfScope(q.id()) + ": " + catalog.reason(q.id())))
                    .append("</i></li>");
        }
        sb.append("</ul>\n<h2>Not testable from the wire</h2>\n<ul>");
        for (Requirement q : catalog.requirements().values()) {
            if (catalog.observable(q.id()) || catalog.outOfScope(q.id()) != null) continue;
            sb.append("<li>").append(x(q.rfc() + " " + q.section() + " " + q.level() + ": " + q.quote()))
                    .append(" — <i>").append(x(catalog.reason(q.id()))).append("</i></li>");
        }
        sb.append("</ul>\n");
    }

    private static void row(StringBuilder sb, String k, String v) {
        sb.append("<tr><th>").append(x(k)).append("</th><td>").append(x(v)).append("</td></tr>");
    }

    static String x(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(ch < 0x20 && ch != '\n' && ch != '\t' ? ' ' : ch);
            }
        }
        return sb.toString();
    }

    /** Hides the scenario rows the filters leave out and counts the rest. */
    private static final String SCRIPT = "(function(){var f=document.getElementById('filters');"
            + "function apply(){var s=f.status.value,l=f.layer.value,r=f.rfc.value,t=f.text.value.toLowerCase(),n=0;"
            + "document.querySelectorAll('table.results tbody tr').forEach(function(tr){"
            + "var ok=(!s||tr.dataset.status.split(' ').indexOf(s)>=0)&&(!l||tr.dataset.layer===l)"
            + "&&(!r||tr.dataset.rfc.split('|').indexOf(r)>=0)&&(!t||tr.textContent.toLowerCase().indexOf(t)>=0);"
            + "tr.style.display=ok?'':'none';if(ok)n++;});document.getElementById('shown').textContent=n+' shown';}"
            + "f.addEventListener('input',apply);f.addEventListener('submit',function(e){e.preventDefault();});"
            + "apply();"
            // a link to a PDU of a ladder opens its field table
            + "function openTarget(){var t=document.getElementById(decodeURIComponent(location.hash.slice(1)));"
            + "if(t&&t.tagName==='DETAILS')t.open=true;}window.addEventListener('hashchange',openTarget);openTarget();"
            + "})();";

    private static final String CSS = "body{font:14px system-ui,sans-serif;margin:2em;color:#222}"
            + ".headline{font-size:18px;padding:10px 14px;margin:0 0 1em;border-radius:4px}.headline .word{"
            + "font-weight:bold;font-size:22px;margin-right:.5em}.headline .counts{font-size:14px}"
            + ".exit0{background:#e3f4e3}.exit1{background:#f8dada}.exit2{background:#efe3f8}"
            + "table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:4px 8px;"
            + "vertical-align:top;text-align:left}.meta th{background:#f4f4f4;font-weight:normal}"
            + ".results tr.passed{background:#eef8ee}.results tr.passed.lenient,.results tr.passed.non-strict"
            + "{background:#fbf6e6}.results tr.failing,.results tr.failed,.results tr.regression{background:"
            + "#fbeaea}.results tr.waived{background:#f3efe4}.results tr.improvement{background:#e6f0fb}"
            + ".results tr.error{background:#f1e6fb}.results tr.skipped{background:#f4f4f4;color:#777}"
            + ".results td:first-child{white-space:nowrap}.verdict{font-weight:bold}.grade{font-weight:normal;"
            + "color:#555}.why{font-weight:normal;color:#633;font-size:12px}.title{color:#666;font-size:12px}"
            + ".note{color:#555;font-size:12px}.finding{color:#a00;font-size:12px}.partly{color:#865}"
            + ".knobs{font-size:12px;color:#456}.filters{margin:.5em 0 1em}.filters label{margin-right:1em}"
            + ".coverage tr.failed{background:#fbeaea}.coverage tr.passed{background:#eef8ee}.coverage tr.not-run"
            + "{background:#f7f3e3}.coverage tr.no-scenario{background:#f4f4f4}a.fail{color:#a00}a.pass{color:#070}"
            + "svg.ladder line{stroke:#888}svg.ladder line.ok{stroke:#2a6}svg.ladder line.bad{stroke:#c22;"
            + "stroke-width:2}svg.ladder line.inj{stroke:#d80;stroke-width:3}svg.ladder text{font:11px monospace}"
            + "svg.ladder text.bad{fill:#c22}svg.ladder text.inj{fill:#a50;font-weight:bold}"
            + ".compared{color:#264;font-size:12px}.injected{color:#a50;font-size:12px}"
            + "details.pdu{margin:2px 0}details.pdu summary{font:11px monospace;cursor:pointer}"
            + "details.pdu.inj summary{color:#a50;font-weight:bold}details.pdu.off summary{color:#c22}"
            + "table.fields{font:11px monospace;margin:2px 0 6px 1.5em}table.fields td,table.fields th{padding:1px 6px}"
            + "table.fields tr.layer th{background:#f4f4f4;font-weight:bold}table.fields tr.inj td,"
            + "table.fields tr.inj th{background:#ffe2b0}table.fields tr.off td,table.fields tr.off th{background:"
            + "#f8c8c8}table.fields td.d2{padding-left:1.5em}table.fields td.d3{padding-left:3em}"
            + "table.fields td:nth-child(3){color:#555}"
            + "pre{font-size:11px;white-space:pre-wrap;word-break:break-all;margin:0 0 0 1.5em}"
            + "section{border-top:1px solid #ddd;margin-top:1em}";
}
