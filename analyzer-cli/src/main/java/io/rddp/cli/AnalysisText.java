package io.rddp.cli;

import io.rddp.Notice;
import io.rddp.analyze.Analysis;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.Plural;
import io.rddp.sink.Severity;
import io.rddp.sink.StreamSummary;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The text report of {@code rddp analyze} (the other formats: {@link AnalysisJson}, {@link AnalysisJunit}). */
final class AnalysisText {
    private static final int FRAMES_SHOWN = 12;

    private AnalysisText() {
    }

    static void text(FileResult r, boolean verbose, OutputStream os) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8));
        String file = r.file();
        Analysis a = r.analysis();
        if (a == null) {
            out.printf("%s: cannot read: %s%n", file, Outputs.withoutFile(file, r.error()));
            out.flush();
            return;
        }
        out.printf("%s: %s, %s, %s, %s%n", file, Plural.of(a.frames(), "frame"),
                Plural.of(a.streams().size(), "MPA stream"), Plural.of(a.pdus(), "PDU"), Plural.of(a.messages(), "DDP message"));
        for (Analysis.Stream s : a.streams()) {
            StreamSummary sum = s.summary();
            out.printf("%nstream %d  %s → %s  %s%n", s.index(), s.client(), s.server(), mpa(sum));
            for (Direction d : Direction.values()) {
                StreamSummary.Counters c = sum.counters(d);
                out.printf("  %s  %s%s, %s placed, %s delivered%s%n",
                        d == Direction.CLIENT_TO_SERVER ? "client → server" : "server → client",
                        Plural.of(c.messages(), "message"), byOpcode(c), Plural.of(c.bytesPlaced(), "byte"),
                        Plural.of(c.bytesDelivered(), "byte"),
                        c.terminateFrame() > 0 ? ", Terminate in frame " + c.terminateFrame() : "");
            }
            if (sum.rpcRdmaMessages() > 0) out.printf("  RPC-over-RDMA  %s%n", Plural.of(sum.rpcRdmaMessages(), "message"));
            List<String> closed = r.closes().getOrDefault(s.index(), List.of());
            if (!closed.isEmpty()) out.printf("  closed  %s%n", String.join(", ", closed));
        }
        if (r.nothing() != null) out.printf("%nnothing analysed: %s%n", r.nothing());
        out.printf("%nviolations: %s, %s, %d info%n", Plural.of(a.count(Severity.ERROR), "error"),
                Plural.of(a.count(Severity.WARNING), "warning"), a.count(Severity.INFO));
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
            String frames = frames(group);
            out.printf("  %-7s %s  %s %s%s  ×%d  %s %s%n", v.severity().name().toLowerCase(), v.id(), v.rfc(),
                    v.section(), v.errorType() != null ? "  Terminate " + v.errorType().triple() : "", group.size(),
                    frames.matches("\\d+") ? "frame" : "frames", frames);
            out.printf("          %s%n", v.message());
        }
        if (!a.notices().isEmpty()) {
            out.printf("%nnotices: %d%s%n", a.notices().size() + a.noticesDropped(),
                    a.noticesDropped() > 0 ? " (first " + a.notices().size() + " kept)" : "");
            for (Notice n : a.notices().subList(0, Math.min(verbose ? a.notices().size() : 20, a.notices().size()))) out.println("  " + n);
            if (!verbose && a.notices().size() > 20) out.println("  ... (-V lists them all)");
        }
        if (a.error() != null) {
            out.printf("%nincomplete: %s; everything before that point was analysed%n", Outputs.withoutFile(file, a.error()));
        }
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
        out.printf("%ntotal: %s (%s), %s, %s; violations: %s, %s, %d info%n", Plural.of(all.size(), "file"),
                byStatus.entrySet().stream()
                        .map(e -> e.getValue() + " " + (e.getKey().equals("violations") ? "with violations" : e.getKey()))
                        .collect(Collectors.joining(", ")), Plural.of(frames, "frame"), Plural.of(streams, "MPA stream"),
                Plural.of(errors, "error"), Plural.of(warnings, "warning"), info);
        out.flush();
    }
}
