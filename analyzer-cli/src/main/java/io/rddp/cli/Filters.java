package io.rddp.cli;

import io.rddp.analyze.Analyzer;
import io.rddp.capture.CaptureReader;
import io.rddp.filter.DisplayFilter;
import io.rddp.filter.FilterException;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.sink.Violation;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code -Y}: compiling a display filter with a pointed error, and the violations a filter on them needs. */
final class Filters {
    private Filters() {
    }

    /** The compiled filter, or null after printing where it is wrong (filter, caret under the column, reason). */
    static DisplayFilter compile(String text, PrintWriter err) {
        try {
            return DisplayFilter.compile(text);
        } catch (FilterException e) {
            err.println("rddp: -Y: " + e.getMessage());
            err.println("  " + text);
            err.println("  " + " ".repeat(Math.max(0, e.column() - 1)) + "^");
            return null;
        }
    }

    /**
     * -Y of decode and analyze: the compiled filter, or null (said on {@code err}) when it does not compile or names
     * violations, which takes a second pass, on input that can be read only once.
     */
    static DisplayFilter compileFor(String text, boolean readOnce, PrintWriter err) {
        DisplayFilter f = compile(text, err);
        if (f != null && f.uses("violation") && readOnce) {
            err.println("rddp: -Y: a filter on violation reads the capture twice, so it needs a file, not standard input or -i");
            return null;
        }
        return f;
    }

    /** Violations by key frame, from an analysis pass over the capture (a filter that mentions violation). */
    static Map<Long, List<Violation>> violationsByFrame(CaptureReader reader, RpcRdmaStage.DecodeAs decodeAs)
            throws IOException {
        Map<Long, List<Violation>> out = new HashMap<>();
        new Analyzer(io.rddp.sink.SinkModel.Options.defaults(), io.rddp.sink.StagRegistry.empty())
                .decodeAs(decodeAs)
                .observe(new Analyzer.Observer() {
                    @Override
                    public void onViolation(Violation v) {
                        if (v.frame() > 0) out.computeIfAbsent(v.frame(), k -> new ArrayList<>(1)).add(v);
                    }
                })
                .run(reader, () -> { });
        return out;
    }

    static List<String> checks(List<Violation> vs) {
        if (vs == null) return List.of();
        List<String> out = new ArrayList<>(vs.size());
        for (Violation v : vs) out.add(v.id());
        return out;
    }

    static List<String> severities(List<Violation> vs) {
        if (vs == null) return List.of();
        List<String> out = new ArrayList<>(vs.size());
        for (Violation v : vs) out.add(v.severity().name().toLowerCase());
        return out;
    }
}
