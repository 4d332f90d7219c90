package io.rddp.cli;

import io.rddp.Notice;
import io.rddp.analyze.Analysis;
import io.rddp.report.JunitCase;
import io.rddp.report.JunitOutcome;
import io.rddp.report.JunitTotals;
import io.rddp.report.JunitXmlWriter;
import io.rddp.sink.Layer;
import io.rddp.sink.Severity;
import io.rddp.sink.Violation;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** {@code rddp analyze --format junit}: a test suite per capture, a {@code <testsuites>} of them for several. */
final class AnalysisJunit {

    private AnalysisJunit() {
    }

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
            x.startSuite(new JunitTotals(suite, 1, 0, 1, 0, r.time()), null).space("\n  ");
            x.testcase(new JunitCase(prefix + "capture", a == null ? "read" : "iwarp", r.time(),
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
                a.error() != null ? 1 : 0, 0, r.time()), null).space("\n");
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
