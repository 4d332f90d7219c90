package io.rddp.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.rddp.Notice;
import io.rddp.analyze.Analysis;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.report.JsonReports;
import io.rddp.report.JunitCase;
import io.rddp.report.JunitOutcome;
import io.rddp.report.JunitTotals;
import io.rddp.report.JunitXmlWriter;
import io.rddp.sink.ErrorType;
import io.rddp.sink.Layer;
import io.rddp.sink.Severity;
import io.rddp.sink.StreamSummary;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The three report formats of {@code rddp analyze}. */
final class AnalysisReports {
    private static final int FRAMES_SHOWN = 12;

    private AnalysisReports() {
    }

    // ---------------------------------------------------------------- text

    static void text(FileResult r, boolean verbose, OutputStream os) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8));
        String file = r.file();
        Analysis a = r.analysis();
        if (a == null) {
            out.printf("%s: cannot read: %s%n", file, r.error());
            out.flush();
            return;
        }
        out.printf("%s: %d frames, %d MPA streams, %d PDUs, %d DDP messages%n", file, a.frames(), a.streams().size(),
                a.pdus(), a.messages());
        for (Analysis.Stream s : a.streams()) {
            StreamSummary sum = s.summary();
            out.printf("%nstream %d  %s → %s  %s%n", s.index(), s.client(), s.server(), mpa(sum));
            for (Direction d : Direction.values()) {
                StreamSummary.Counters c = sum.counters(d);
                out.printf("  %s  %d messages%s, %d bytes placed, %d bytes delivered%s%n",
                        d == Direction.CLIENT_TO_SERVER ? "client → server" : "server → client", c.messages(),
                        byOpcode(c), c.bytesPlaced(), c.bytesDelivered(),
                        c.terminateFrame() > 0 ? ", Terminate in frame " + c.terminateFrame() : "");
            }
            if (sum.rpcRdmaMessages() > 0) out.printf("  RPC-over-RDMA  %d messages%n", sum.rpcRdmaMessages());
            List<String> closed = r.closes().getOrDefault(s.index(), List.of());
            if (!closed.isEmpty()) out.printf("  closed  %s%n", String.join(", ", closed));
        }
        if (r.nothing() != null) out.printf("%nnothing analysed: %s%n", r.nothing());
        out.printf("%nviolations: %d errors, %d warnings, %d info%n", a.count(Severity.ERROR), a.count(Severity.WARNING),
                a.count(Severity.INFO));
        if (verbose) {
            for (Violation v : a.violations().stream().sorted((x, y) -> y.severity().compareTo(x.severity())).toList()) {
                out.printf("  %-7s %s  %s %s%s  frame %s%s  stream %d%n", v.severity().name().toLowerCase(), v.id(), v.rfc(),
                        v.section(), v.errorType() != null ? "  Terminate " + v.errorType().triple() : "",
                        v.frame() > 0 ? Long.toString(v.frame()) : "-",
                        v.frames().size() > 1 ? " (frames " + v.frames() + ")" : "", v.stream());
                out.printf("          %s%n", v.message());
            }
        }
        for (List<Violation> group : verbose ? List.<List<Violation>>of() : byCheck(a.violations()).values()) {
            Violation v = group.get(0);
            out.printf("  %-7s %s  %s %s%s  ×%d  frames %s%n", v.severity().name().toLowerCase(), v.id(), v.rfc(),
                    v.section(), v.errorType() != null ? "  Terminate " + v.errorType().triple() : "", group.size(),
                    frames(group));
            out.printf("          %s%n", v.message());
        }
        if (!a.notices().isEmpty()) {
            out.printf("%nnotices: %d%s%n", a.notices().size() + a.noticesDropped(),
                    a.noticesDropped() > 0 ? " (first " + a.notices().size() + " kept)" : "");
            for (Notice n : a.notices().subList(0, Math.min(verbose ? a.notices().size() : 20, a.notices().size()))) out.println("  " + n);
            if (!verbose && a.notices().size() > 20) out.println("  ... (-V lists them all)");
        }
        if (a.error() != null) out.printf("%nincomplete: %s%n", a.error());
        out.flush();
    }

    private static String mpa(StreamSummary s) {
        MpaStartFrame q = s.request(), p = s.reply();
        if (q == null && p == null) return "MPA handshake not captured";
        StringBuilder sb = new StringBuilder("MPA rev ").append(q != null ? q.revision() : p.revision());
        if (q != null && q.enhanced() != null) sb.append(" enhanced IRD/ORD ").append(q.enhanced().ird()).append('/').append(q.enhanced().ord());
        if (p != null && p.enhanced() != null) sb.append(" reply IRD/ORD ").append(p.enhanced().ird()).append('/').append(p.enhanced().ord());
        boolean crc = (q != null && q.crc()) || (p != null && p.crc());
        sb.append(", CRC ").append(crc ? "on" : "off");
        sb.append(", Markers to client ").append(q != null && q.markers() ? "on" : "off");
        sb.append(", to server ").append(p != null && p.markers() ? "on" : "off");
        if (p != null && p.reject()) sb.append(", REJECTED");
        return sb.toString();
    }

    private static String byOpcode(StreamSummary.Counters c) {
        String text = c.opcodes().messagesText();
        return text.isEmpty() ? "" : " (" + text + ")";
    }

    private static Map<String, List<Violation>> byCheck(List<Violation> vs) {
        Map<String, List<Violation>> m = new LinkedHashMap<>();
        vs.stream().sorted((x, y) -> y.severity().compareTo(x.severity()))
                .forEach(v -> m.computeIfAbsent(v.id(), k -> new ArrayList<>()).add(v));
        return m;
    }

    private static String frames(List<Violation> group) {
        List<Long> fs = group.stream().map(Violation::frame).filter(f -> f > 0).distinct().sorted().toList();
        String shown = fs.stream().limit(FRAMES_SHOWN).map(String::valueOf).collect(Collectors.joining(","));
        return fs.size() > FRAMES_SHOWN ? shown + ",… (" + fs.size() + ")" : shown.isEmpty() ? "-" : shown;
    }

    /** Several files: one line of totals after their reports. */
    static void total(List<FileResult> all, OutputStream os) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8));
        long frames = 0, streams = 0, errors = 0, warnings = 0, info = 0;
        Map<String, Integer> byStatus = new LinkedHashMap<>();
        for (FileResult r : all) {
            byStatus.merge(r.status(), 1, Integer::sum);
            Analysis a = r.analysis();
            if (a == null) continue;
            frames += a.frames();
            streams += a.streams().size();
            errors += a.count(Severity.ERROR);
            warnings += a.count(Severity.WARNING);
            info += a.count(Severity.INFO);
        }
        out.printf("%ntotal: %d files (%s), %d frames, %d MPA streams; violations: %d errors, %d warnings, %d info%n",
                all.size(), byStatus.entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                        .collect(Collectors.joining(", ")), frames, streams, errors, warnings, info);
        out.flush();
    }

    // ---------------------------------------------------------------- json

    /** One report object; several files give a JSON array of them. */
    static void json(List<FileResult> all, boolean many, OutputStream os) throws IOException {
        JsonReports.write(os, j -> {
            if (many) j.writeStartArray();
            for (FileResult r : all) json(r, j);
            if (many) j.writeEndArray();
        });
    }

    private static void json(FileResult r, JsonGenerator j) throws IOException {
        Analysis a = r.analysis();
        j.writeStartObject();
        j.writeStringField("file", r.file());
        j.writeStringField("status", r.status());
        if (a == null) {
            j.writeStringField("error", r.error());
            j.writeEndObject();
            return;
        }
        if (r.nothing() != null) j.writeStringField("nothing", r.nothing());
        j.writeObjectFieldStart("summary");
        j.writeNumberField("frames", a.frames());
        j.writeNumberField("streams", a.streams().size());
        j.writeNumberField("pdus", a.pdus());
        j.writeNumberField("messages", a.messages());
        j.writeNumberField("errors", a.count(Severity.ERROR));
        j.writeNumberField("warnings", a.count(Severity.WARNING));
        j.writeNumberField("info", a.count(Severity.INFO));
        if (a.error() != null) j.writeStringField("incomplete", a.error());
        j.writeEndObject();
        j.writeObjectFieldStart("limits");
        for (var e : a.limits().entrySet()) j.writeNumberField(e.getKey(), e.getValue());
        j.writeEndObject();
        j.writeArrayFieldStart("streams");
        for (Analysis.Stream s : a.streams()) {
            j.writeStartObject();
            j.writeNumberField("stream", s.index());
            if (s.summary().rpcRdmaMessages() > 0) j.writeNumberField("rpcRdmaMessages", s.summary().rpcRdmaMessages());
            j.writeStringField("client", s.client().toString());
            j.writeStringField("server", s.server().toString());
            mpaJson("mpaRequest", s.summary().request(), j);
            mpaJson("mpaReply", s.summary().reply(), j);
            j.writeArrayFieldStart("closed");
            for (String c : r.closes().getOrDefault(s.index(), List.of())) j.writeString(c);
            j.writeEndArray();
            for (Direction d : Direction.values()) {
                StreamSummary.Counters c = s.summary().counters(d);
                j.writeObjectFieldStart(d == Direction.CLIENT_TO_SERVER ? "clientToServer" : "serverToClient");
                j.writeNumberField("messages", c.messages());
                j.writeObjectFieldStart("messagesByOpcode");
                for (Map.Entry<Opcode, Long> e : c.messagesByOpcode().entrySet()) j.writeNumberField(e.getKey().rfcName(), e.getValue());
                j.writeEndObject();
                j.writeNumberField("bytesPlaced", c.bytesPlaced());
                j.writeNumberField("bytesDelivered", c.bytesDelivered());
                if (c.terminateFrame() > 0) j.writeNumberField("terminateFrame", c.terminateFrame());
                j.writeEndObject();
            }
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeArrayFieldStart("violations");
        for (Violation v : a.violations()) {
            j.writeStartObject();
            j.writeNumberField("frame", v.frame());
            j.writeArrayFieldStart("frames");
            for (long f : v.frames()) j.writeNumber(f);
            j.writeEndArray();
            j.writeNumberField("stream", v.stream());
            if (v.direction() != null) j.writeStringField("direction", v.direction() == Direction.CLIENT_TO_SERVER ? "client-to-server" : "server-to-client");
            j.writeStringField("layer", v.layer().name());
            j.writeStringField("check", v.id());
            j.writeStringField("rfc", v.rfc());
            j.writeStringField("section", v.section());
            ErrorType e = v.errorType();
            if (e == null) {
                j.writeNullField("etype");
            } else {
                j.writeObjectFieldStart("etype");
                j.writeNumberField("layer", e.layer());
                j.writeNumberField("etype", e.etype());
                j.writeNumberField("code", e.code());
                j.writeEndObject();
            }
            j.writeStringField("name", e != null ? e.name() : v.check().title());
            j.writeStringField("severity", v.severity().name().toLowerCase());
            j.writeStringField("message", v.message());
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeArrayFieldStart("notices");
        for (Notice n : a.notices()) {
            j.writeStartObject();
            j.writeStringField("severity", n.severity().name().toLowerCase());
            j.writeStringField("layer", n.layer());
            if (n.frame() > 0) j.writeNumberField("frame", n.frame());
            if (n.stream() >= 0) j.writeNumberField("stream", n.stream());
            if (n.offset() >= 0) j.writeNumberField("offset", n.offset());
            j.writeStringField("message", n.message());
            j.writeEndObject();
        }
        j.writeEndArray();
        j.writeNumberField("noticesDropped", a.noticesDropped());
        j.writeEndObject();
    }

    /** The MPA Request or Reply of a stream: what the text report's MPA line shows. */
    private static void mpaJson(String key, MpaStartFrame f, JsonGenerator j) throws IOException {
        if (f == null) return;
        j.writeObjectFieldStart(key);
        j.writeNumberField("rev", f.revision());
        j.writeBooleanField("markers", f.markers());
        j.writeBooleanField("crc", f.crc());
        j.writeBooleanField("reject", f.reject());
        if (f.enhanced() != null) {
            j.writeNumberField("ird", f.enhanced().ird());
            j.writeNumberField("ord", f.enhanced().ord());
            j.writeBooleanField("peerToPeer", f.enhanced().peerToPeer());
        }
        j.writeEndObject();
    }

    // ---------------------------------------------------------------- junit

    /**
     * JUnit XML: one test case per stream and check family (the layer: MPA, DDP, RDMAP, SECURITY); violations at
     * or above the fail level are its failures, the others go to its system-out.
     */
    static void junit(List<FileResult> all, Severity failLevel, boolean many, OutputStream os)
            throws IOException {
        JunitXmlWriter x = JunitXmlWriter.to(os).startDocument();
        if (many) x.startSuites(null).space("\n");
        for (FileResult r : all) junit(r, failLevel, x);
        if (many) x.end();
        x.space("\n").finish();
    }

    private static void junit(FileResult r, Severity failLevel, JunitXmlWriter x) throws IOException {
        String file = r.file();
        Analysis a = r.analysis();
        // test names unique across files: the file is part of the class name
        String prefix = "rddp." + file.replaceAll("[^A-Za-z0-9_.-]", "_") + ".";
        String suite = "rddp analyze " + file;
        if (a == null || r.nothing() != null) {
            x.startSuite(new JunitTotals(suite, 1, 0, 1, 0, null), null).space("\n  ");
            x.testcase(new JunitCase(prefix + "capture", a == null ? "read" : "iwarp", null,
                    JunitOutcome.error(a == null ? "cannot read: " + r.error() : r.nothing(), null, null), null));
            x.space("\n").end().space("\n");
            return;
        }
        Map<String, List<Violation>> cases = new LinkedHashMap<>();
        for (Analysis.Stream s : a.streams()) {
            for (Layer l : Layer.values()) {
                // an RPC-over-RDMA case only for streams that carried it
                if (l != Layer.RPCRDMA || s.summary().rpcRdmaMessages() > 0) cases.put(s.index() + "|" + l, new ArrayList<>());
            }
        }
        for (Violation v : a.violations()) {
            cases.computeIfAbsent(v.stream() + "|" + v.layer(), k -> new ArrayList<>()).add(v);
        }
        long failures = cases.values().stream().filter(vs -> vs.stream().anyMatch(v -> fails(v, failLevel))).count();
        x.startSuite(new JunitTotals(suite, cases.size() + (a.notices().isEmpty() ? 0 : 1), failures,
                a.error() != null ? 1 : 0, 0, null), null).space("\n");
        for (Map.Entry<String, List<Violation>> c : cases.entrySet()) {
            String[] key = c.getKey().split("\\|");
            List<Violation> failing = c.getValue().stream().filter(v -> fails(v, failLevel)).toList();
            List<Violation> rest = c.getValue().stream().filter(v -> !fails(v, failLevel)).toList();
            JunitOutcome failure = failing.isEmpty() ? null : JunitOutcome.failure(failing.size()
                    + " violation(s), first: " + failing.get(0), failing.get(0).id(), lines(failing));
            x.space("  ").testcase(new JunitCase(prefix + "stream" + key[0], key[1], null, failure,
                    rest.isEmpty() ? null : lines(rest))).space("\n");
        }
        if (!a.notices().isEmpty()) {
            // notices are facts, not failures: a passing case whose output lists them
            String out = a.notices().stream().map(Notice::toString).collect(Collectors.joining("\n"))
                    + (a.noticesDropped() > 0 ? "\n... and " + a.noticesDropped() + " more" : "");
            x.space("  ").testcase(new JunitCase(prefix + "capture", "notices", null, null, out)).space("\n");
        }
        if (a.error() != null) {
            x.space("  ").testcase(new JunitCase(prefix + "capture", "read", null,
                    JunitOutcome.error(a.error(), null, null), null)).space("\n");
        }
        x.end().space("\n");
    }

    private static String lines(List<Violation> vs) {
        return vs.stream().map(Violation::toString).collect(Collectors.joining("\n"));
    }

    private static boolean fails(Violation v, Severity level) {
        return level != null && v.severity().atLeast(level);
    }
}
