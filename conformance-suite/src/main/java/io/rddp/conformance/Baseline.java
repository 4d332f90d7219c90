package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Expected verdicts per scenario (TLS-Anvil's expected-results file): a CI gate fails only when a verdict gets worse
 * than the baseline. An entry with a reason is a waiver: its failure is known, explained, and shown in the report.
 * <pre>{"scenarios": {"ddp.untagged.too-long": {"verdict": "fail", "reason": "siw answers 1/2/2"}}}</pre>
 */
public final class Baseline {

    /** @param verdict pass, fail, skip or error; @param grade for a pass, or null; @param reason a waiver's why, or null */
    public record Entry(String verdict, String grade, String reason) {
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Map<String, Entry> entries;

    private Baseline(Map<String, Entry> entries) {
        this.entries = entries;
    }

    public static Baseline read(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        Map<String, Entry> m = new LinkedHashMap<>();
        var it = root.path("scenarios").fields();
        while (it.hasNext()) {
            var e = it.next();
            JsonNode v = e.getValue();
            if (v.isTextual()) {
                m.put(e.getKey(), new Entry(v.asText(), null, null));
            } else {
                m.put(e.getKey(), new Entry(v.path("verdict").asText("pass"), v.path("grade").asText(null),
                        v.path("reason").asText(null)));
            }
        }
        return new Baseline(m);
    }

    /** Writes the verdicts of {@code results} as a baseline (keeping the reasons of {@code previous}, if any). */
    public static void write(Path file, List<Result> results, Baseline previous) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode sc = root.putObject("scenarios");
        for (Result r : results) {
            ObjectNode e = sc.putObject(r.id());
            e.put("verdict", r.verdict().wireName());
            if (r.grade() != null) e.put("grade", r.grade());
            Entry old = previous == null ? null : previous.entries.get(r.id());
            if (old != null && old.reason() != null) e.put("reason", old.reason());
        }
        Files.writeString(file, JSON.writeValueAsString(root) + "\n");
    }

    public Entry entry(String id) {
        return entries.get(id);
    }

    /** A failure the baseline knows about and explains. */
    public boolean waived(Result r) {
        Entry e = entries.get(r.id());
        return e != null && e.reason() != null && e.verdict().equals(r.verdict().wireName());
    }

    /**
     * Scenarios whose verdict is worse than the baseline's: a pass that became a fail or error, a fail the baseline
     * does not list, a strict pass that became lenient. With {@code changes} every difference counts (a lab that
     * pins a third-party stack's behaviour).
     */
    public List<String> regressions(List<Result> results, boolean changes) {
        List<String> out = new ArrayList<>();
        for (Result r : results) {
            Entry e = entries.get(r.id());
            String now = r.verdictText();
            if (e == null) {
                if (r.verdict() == Result.Verdict.FAIL || r.verdict() == Result.Verdict.ERROR) {
                    out.add(r.id() + ": " + now + " (not in the baseline)");
                }
                continue;
            }
            String then = e.verdict() + (e.grade() != null ? "/" + e.grade() : "");
            if (changes ? !now.equals(then) : worse(r, e)) out.add(r.id() + ": " + then + " -> " + now);
        }
        return out;
    }

    private static boolean worse(Result r, Entry e) {
        int a = rank(e.verdict(), e.grade()), b = rank(r.verdict().wireName(), r.grade());
        return b < a;
    }

    private static int rank(String verdict, String grade) {
        return switch (verdict) {
            case "pass" -> "strict".equals(grade) ? 4 : 3;
            case "skip" -> 2;
            case "fail" -> 1;
            default -> 0;
        };
    }
}
