package io.rddp.conformance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.decode.PduSummary;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The certification report of one run: {@code report.json}, {@code junit.xml} and a self-contained
 * {@code report.html} (summary, DUT and suite versions, one row per scenario with its verdict, expected and observed
 * reaction, a ladder diagram of the exchange with its wire bytes and a link to its pcapng, and the requirement
 * coverage matrix).
 */
public final class Report {

    /** Ladder rows drawn per scenario at most. */
    static final int MAX_LADDER = 120;
    /** Octets of one PDU shown in the wire bytes at most. */
    static final int MAX_BYTES = 96;

    private final String dut;
    private final String profile;
    private final String suiteVersion;
    private final Catalog catalog;
    private final List<Result> results;
    private final Instant started;

    public Report(String dut, String profile, String suiteVersion, Catalog catalog, List<Result> results,
                  Instant started) {
        this.dut = dut;
        this.profile = profile;
        this.suiteVersion = suiteVersion;
        this.catalog = catalog;
        this.results = List.copyOf(results);
        this.started = started;
    }

    public List<Result> results() {
        return results;
    }

    /** Writes report.json, junit.xml and report.html into {@code dir}. */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("report.json"), json());
        Files.writeString(dir.resolve("junit.xml"), junit());
        Files.writeString(dir.resolve("report.html"), html(dir));
    }

    // ------------------------------------------------------------------ counts and coverage

    public Map<String, Integer> counts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (String k : List.of("pass", "fail", "skip", "error")) m.put(k, 0);
        for (Result r : results) m.merge(r.verdict().wireName(), 1, Integer::sum);
        return m;
    }

    /** Observable MUST-level requirements of the catalogue, and which scenarios prove each. */
    public Map<String, List<Result>> coverage() {
        Map<String, List<Result>> m = new TreeMap<>();
        for (Requirement q : catalog.requirements().values()) {
            if (catalog.observable(q.id())) m.put(q.id(), new ArrayList<>());
        }
        for (Result r : results) {
            for (Requirement q : r.info().requirements()) {
                List<Result> l = m.get(q.id());
                if (l != null) l.add(r);
            }
        }
        return m;
    }

    /** Share of observable MUSTs with at least one scenario, in percent. */
    public double mustCoverage() {
        int must = 0, covered = 0;
        for (Map.Entry<String, List<Result>> e : coverage().entrySet()) {
            Requirement q = catalog.requirements().get(e.getKey());
            if (!q.mandatory()) continue;
            must++;
            if (!e.getValue().isEmpty()) covered++;
        }
        return must == 0 ? 0 : 100.0 * covered / must;
    }

    // ------------------------------------------------------------------ JSON

    String json() throws IOException {
        ObjectMapper om = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = om.createObjectNode();
        ObjectNode d = root.putObject("dut");
        d.put("description", dut);
        d.put("profile", profile);
        ObjectNode s = root.putObject("suite");
        s.put("name", "rddp conform");
        s.put("version", suiteVersion);
        s.put("started", started.toString());
        s.put("scenarios", results.size());
        ObjectNode summary = root.putObject("summary");
        counts().forEach(summary::put);
        summary.put("mustCoverage", Math.round(mustCoverage() * 10) / 10.0);
        ArrayNode arr = root.putArray("scenarios");
        for (Result r : results) {
            ObjectNode o = arr.addObject();
            o.put("id", r.id());
            o.put("title", r.info().title());
            o.put("verdict", r.verdict().wireName());
            if (r.grade() != null) o.put("grade", r.grade());
            else o.putNull("grade");
            if (r.close() != null) o.put("close", r.close());
            else o.putNull("close");
            ArrayNode reqs = o.putArray("requirements");
            for (Requirement q : r.info().requirements()) {
                reqs.addObject().put("id", q.id()).put("rfc", q.rfc()).put("section", q.section())
                        .put("level", q.level());
            }
            o.put("expected", r.info().expectedText());
            o.put("observed", r.observed());
            ArrayNode f = o.putArray("findings");
            r.findings().forEach(f::add);
            ArrayNode n = o.putArray("notes");
            r.notes().forEach(n::add);
            if (r.pcap() != null) o.put("pcap", r.pcap());
            else o.putNull("pcap");
            o.put("millis", r.millis());
            if (r.truncated()) o.put("truncated", true);
        }
        return om.writeValueAsString(root);
    }

    // ------------------------------------------------------------------ JUnit

    String junit() {
        Map<String, Integer> c = counts();
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        double secs = results.stream().mapToLong(Result::millis).sum() / 1000.0;
        sb.append("<testsuite name=\"rddp conform (").append(x(profile)).append(")\" tests=\"").append(results.size())
                .append("\" failures=\"").append(c.get("fail")).append("\" errors=\"").append(c.get("error"))
                .append("\" skipped=\"").append(c.get("skip")).append("\" time=\"").append(secs).append("\">\n");
        sb.append("  <properties><property name=\"dut\" value=\"").append(x(dut)).append("\"/></properties>\n");
        for (Result r : results) {
            String cls = r.id().contains(".") ? r.id().substring(0, r.id().lastIndexOf('.')) : r.id();
            sb.append("  <testcase classname=\"").append(x(cls)).append("\" name=\"").append(x(r.id()))
                    .append("\" time=\"").append(r.millis() / 1000.0).append("\">");
            String detail = "expected: " + r.info().expectedText() + "\nobserved: " + r.observed()
                    + (r.notes().isEmpty() ? "" : "\n" + String.join("\n", r.notes()))
                    + (r.findings().isEmpty() ? "" : "\nfindings:\n" + String.join("\n", r.findings()));
            switch (r.verdict()) {
                case FAIL -> sb.append("<failure message=\"").append(x(r.observed())).append("\">").append(x(detail))
                        .append("</failure>");
                case ERROR -> sb.append("<error message=\"").append(x(String.join("; ", r.notes()))).append("\"/>");
                case SKIP -> sb.append("<skipped message=\"").append(x(r.grade() + ": " + r.observed())).append("\"/>");
                case PASS -> sb.append("<system-out>").append(x(r.grade() + "; " + detail)).append("</system-out>");
            }
            sb.append("</testcase>\n");
        }
        return sb.append("</testsuite>\n").toString();
    }

    // ------------------------------------------------------------------ HTML

    String html(Path dir) {
        StringBuilder sb = new StringBuilder();
        Map<String, Integer> c = counts();
        sb.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>rddp conform: ")
                .append(x(dut)).append("</title><style>").append(CSS).append("</style></head><body>\n");
        sb.append("<h1>iWARP conformance report</h1>\n<table class=\"meta\">");
        row(sb, "DUT", dut);
        row(sb, "Profile", profile);
        row(sb, "Suite", "rddp conform " + suiteVersion + ", " + results.size() + " scenarios");
        row(sb, "Started", started.toString());
        row(sb, "Verdicts", c.get("pass") + " pass, " + c.get("fail") + " fail, " + c.get("skip") + " skip, "
                + c.get("error") + " error");
        row(sb, "Coverage", String.format("%.1f %% of the wire-observable MUSTs have a scenario", mustCoverage()));
        sb.append("</table>\n<h2>Scenarios</h2>\n<table class=\"results\"><tr><th>Scenario</th><th>Verdict</th>"
                + "<th>Expected</th><th>Observed</th><th>Requirements</th></tr>\n");
        for (Result r : results) {
            String cls = r.verdict().wireName() + (r.grade() != null ? " " + r.grade() : "");
            sb.append("<tr class=\"").append(x(cls)).append("\"><td><a href=\"#").append(x(r.id())).append("\">")
                    .append(x(r.id())).append("</a><br><span class=\"title\">").append(x(r.info().title()))
                    .append("</span></td><td class=\"verdict\">").append(r.verdict().wireName())
                    .append(r.grade() != null ? "<br>" + x(r.grade()) : "").append("</td><td>")
                    .append(x(r.info().expectedText())).append("</td><td>").append(x(r.observed()));
            for (String n : r.notes()) sb.append("<br><span class=\"note\">").append(x(n)).append("</span>");
            for (String f : r.findings()) sb.append("<br><span class=\"finding\">").append(x(f)).append("</span>");
            sb.append("</td><td>");
            for (Requirement q : r.info().requirements()) {
                sb.append("<span title=\"").append(x(q.quote())).append("\">").append(x(q.rfc() + " " + q.section()
                        + " " + q.level())).append("</span><br>");
            }
            sb.append("</td></tr>\n");
        }
        sb.append("</table>\n<h2>Exchanges</h2>\n");
        for (Result r : results) {
            if (r.pcap() == null) continue;
            sb.append("<section id=\"").append(x(r.id())).append("\"><h3>").append(x(r.id())).append(" — ")
                    .append(x(r.info().title())).append("</h3><p><a href=\"").append(x(r.pcap()))
                    .append("\">").append(x(r.pcap())).append("</a> (Wireshark shows each violation as a packet"
                            + " comment)</p>");
            ladder(sb, dir.resolve(r.pcap()));
            sb.append("</section>\n");
        }
        sb.append("<h2>Requirement coverage</h2>\n<table class=\"coverage\"><tr><th>Requirement</th><th>Level</th>"
                + "<th>Quote</th><th>Scenarios</th></tr>\n");
        for (Map.Entry<String, List<Result>> e : coverage().entrySet()) {
            Requirement q = catalog.requirements().get(e.getKey());
            sb.append("<tr class=\"").append(e.getValue().isEmpty() ? "uncovered" : "covered").append("\"><td>")
                    .append(x(q.rfc() + " " + q.section())).append("<br><span class=\"title\">").append(x(q.id()))
                    .append("</span></td><td>").append(x(q.level())).append("</td><td>").append(x(q.quote()))
                    .append("</td><td>");
            for (Result r : e.getValue()) {
                sb.append("<a class=\"").append(r.verdict().wireName()).append("\" href=\"#").append(x(r.id()))
                        .append("\">").append(x(r.id())).append("</a> ");
            }
            sb.append("</td></tr>\n");
        }
        sb.append("</table>\n<h2>Not testable from the wire</h2>\n<ul>");
        for (Requirement q : catalog.requirements().values()) {
            if (catalog.observable(q.id())) continue;
            sb.append("<li>").append(x(q.rfc() + " " + q.section() + " " + q.level() + ": " + q.quote()))
                    .append(" — <i>").append(x(catalog.reason(q.id()))).append("</i></li>");
        }
        sb.append("</ul></body></html>\n");
        return sb.toString();
    }

    private static void row(StringBuilder sb, String k, String v) {
        sb.append("<tr><th>").append(x(k)).append("</th><td>").append(x(v)).append("</td></tr>");
    }

    /** One PDU for the ladder. */
    private record Rung(long frame, long micros, boolean fromTester, String text, String hex) {
    }

    /** A ladder diagram (SVG) of the recorded exchange and the wire bytes of each PDU. */
    private static void ladder(StringBuilder sb, Path pcap) {
        List<Rung> rungs = new ArrayList<>();
        try (CaptureReader reader = CaptureReaders.open(pcap)) {
            new DecodePipeline(new PduListener() {
                @Override
                public void onPdu(Pdu pdu) {
                    if (rungs.size() >= MAX_LADDER) return;
                    boolean tester = pdu.direction() == Direction.CLIENT_TO_SERVER;
                    String text = (pdu.stream() > 0 ? "[" + pdu.stream() + "] " : "")
                            + PduSummary.info(pdu, new StringBuilder());
                    rungs.add(new Rung(pdu.frame(), pdu.relativeNanos() / 1000, tester, text, bytes(pdu)));
                }

                @Override
                public void onClose(TcpConnection c, Direction d, boolean reset, long frame) {
                    if (rungs.size() >= MAX_LADDER) return;
                    rungs.add(new Rung(frame, -1, d == Direction.CLIENT_TO_SERVER,
                            (c.index() > 0 ? "[" + c.index() + "] " : "") + (reset ? "RST" : "FIN"), ""));
                }
            }).run(reader);
        } catch (IOException | RuntimeException e) {
            sb.append("<p class=\"note\">the recording could not be read: ").append(x(e.toString())).append("</p>");
            return;
        }
        int h = 24 * rungs.size() + 30;
        sb.append("<svg class=\"ladder\" width=\"760\" height=\"").append(h).append("\">")
                .append("<text x=\"40\" y=\"14\">tester</text><text x=\"690\" y=\"14\">DUT</text>")
                .append("<line x1=\"60\" y1=\"20\" x2=\"60\" y2=\"").append(h).append("\"/>")
                .append("<line x1=\"700\" y1=\"20\" x2=\"700\" y2=\"").append(h).append("\"/>");
        int y = 36;
        for (Rung r : rungs) {
            boolean bad = r.text.contains("Terminate") || r.text.contains("BAD CRC") || r.text.equals("RST")
                    || r.text.endsWith("] RST");
            String cls = bad ? "bad" : "ok";
            int x1 = r.fromTester ? 60 : 700, x2 = r.fromTester ? 700 : 60;
            sb.append("<line class=\"").append(cls).append("\" x1=\"").append(x1).append("\" y1=\"").append(y)
                    .append("\" x2=\"").append(x2).append("\" y2=\"").append(y).append("\" marker-end=\"url(#a)\"/>")
                    .append("<text class=\"").append(cls).append("\" x=\"70\" y=\"").append(y - 4).append("\">")
                    .append(x("#" + r.frame + " " + r.text)).append("</text>");
            y += 24;
        }
        sb.append("<defs><marker id=\"a\" markerWidth=\"8\" markerHeight=\"8\" refX=\"8\" refY=\"4\" orient=\"auto\">"
                + "<path d=\"M0,0 L8,4 L0,8 z\"/></marker></defs></svg>");
        sb.append("<details><summary>wire bytes</summary><pre>");
        for (Rung r : rungs) {
            if (r.hex.isEmpty()) continue;
            sb.append(x("#" + r.frame + (r.fromTester ? " tester → DUT  " : " DUT → tester  ") + r.hex)).append('\n');
        }
        sb.append("</pre></details>");
    }

    private static String bytes(Pdu pdu) {
        ByteBuffer b;
        if (pdu.startFrame() != null) b = ByteBuffer.wrap(pdu.startFrame().toBytes());
        else b = pdu.fpdu().ulpdu().duplicate();
        int n = Math.min(b.remaining(), MAX_BYTES);
        byte[] out = new byte[n];
        b.get(out);
        return HexFormat.of().formatHex(out) + (b.hasRemaining() ? "…" : "");
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

    private static final String CSS = "body{font:14px system-ui,sans-serif;margin:2em;color:#222}"
            + "table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:4px 8px;"
            + "vertical-align:top;text-align:left}.meta th{background:#f4f4f4}.results tr.pass{background:#eef8ee}"
            + ".results tr.pass.lenient,.results tr.pass.non-strict{background:#fbf6e6}.results tr.fail{background:"
            + "#fbeaea}.results tr.error{background:#f1e6fb}.results tr.skip{background:#f4f4f4;color:#777}"
            + ".verdict{font-weight:bold}.title{color:#666;font-size:12px}.note{color:#555;font-size:12px}"
            + ".finding{color:#a00;font-size:12px}.coverage tr.uncovered{background:#fbeaea}a.fail{color:#a00}"
            + "a.pass{color:#070}svg.ladder line{stroke:#888}svg.ladder line.ok{stroke:#2a6}svg.ladder line.bad"
            + "{stroke:#c22;stroke-width:2}svg.ladder text{font:11px monospace}svg.ladder text.bad{fill:#c22}"
            + "pre{font-size:11px;white-space:pre-wrap}section{border-top:1px solid #ddd;margin-top:1em}";
}
