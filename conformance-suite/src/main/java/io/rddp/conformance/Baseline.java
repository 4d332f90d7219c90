package io.rddp.conformance;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.rddp.report.JsonReports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Expected verdicts per scenario (TLS-Anvil's expected-results file), for a CI gate that fails only when a verdict
 * changes for the worse. A failure or error in a baseline is a waiver: the DUT's known deviation, with its reason.
 * <pre>{"scenarios": {"ddp.untagged.too-long": {"verdict": "fail", "reason": "answers 1/2/2 (no buffer)"}}}</pre>
 * A baseline is checked when read: an unknown verdict, grade or scenario id, a value of the wrong type or a waiver
 * without a reason is an error naming the file, line and column.
 */
public final class Baseline {

    /**
     * One scenario's expected verdict.
     *
     * @param verdict what the scenario gave
     * @param grade   its grade (pass or skip), or null when the baseline does not pin it
     * @param reason  why a failure is accepted (a waiver), or null
     */
    public record Entry(Result.Verdict verdict, Result.Grade grade, String reason) {

        /** "pass/strict", "fail": as {@link Result#verdictText()} writes it. */
        public String text() {
            return verdict.wireName() + (grade != null ? "/" + grade.wireName() : "");
        }
    }

    /** A baseline that cannot be used, with where in the file. */
    public static final class Invalid extends Exception {
        public Invalid(String message) {
            super(message);
        }
    }

    private static final Set<String> ENTRY_KEYS = Set.of("verdict", "grade", "reason");
    private final Map<String, Entry> entries;

    private Baseline(Map<String, Entry> entries) {
        this.entries = entries;
    }

    /**
     * Reads and checks a baseline.
     *
     * @param known the scenario ids of the catalogue: any other id is an error
     * @throws Invalid     the file is not a baseline, with file, line and column
     * @throws IOException it cannot be read
     */
    public static Baseline read(Path file, Set<String> known) throws IOException, Invalid {
        Map<String, Entry> m = new LinkedHashMap<>();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new Invalid(file + ": no such file");
        }
        try (JsonParser p = new JsonFactory().createParser(bytes)) {
            expect(p, p.nextToken(), JsonToken.START_OBJECT, file, "the baseline: an object {\"scenarios\": {...}}");
            boolean sawScenarios = false;
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String key = p.currentName();
                if (!key.equals("scenarios")) {
                    throw new Invalid(where(file, p) + ": unknown key \"" + key + "\" (a baseline has \"scenarios\")");
                }
                JsonToken v = p.nextToken();
                expect(p, v, JsonToken.START_OBJECT, file, "\"scenarios\": an object of scenario id to verdict");
                sawScenarios = true;
                for (JsonToken s = p.nextToken(); s != JsonToken.END_OBJECT; s = p.nextToken()) {
                    String id = p.currentName();
                    String at = where(file, p);
                    if (!known.contains(id)) throw new Invalid(at + ": unknown scenario \"" + id + "\"");
                    if (m.containsKey(id)) throw new Invalid(at + ": scenario \"" + id + "\" twice");
                    m.put(id, entry(p, p.nextToken(), file, id));
                }
            }
            if (!sawScenarios) throw new Invalid(file + ": no \"scenarios\" object");
        } catch (JsonParseException e) {
            JsonLocation l = e.getLocation();
            throw new Invalid(file + ":" + l.getLineNr() + ":" + l.getColumnNr() + ": not JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        return new Baseline(m);
    }

    /** One entry: "fail", or {"verdict": "pass", "grade": "strict"}, or {"verdict": "fail", "reason": "..."}. */
    private static Entry entry(JsonParser p, JsonToken t, Path file, String id) throws IOException, Invalid {
        String at = where(file, p);
        String verdict = null, grade = null, reason = null;
        if (t == JsonToken.VALUE_STRING) {
            verdict = p.getText();
        } else {
            expect(p, t, JsonToken.START_OBJECT, file, id + ": a verdict string or an object {\"verdict\": ...}");
            for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
                String key = p.currentName();
                String keyAt = where(file, p);
                JsonToken v = p.nextToken();
                if (!ENTRY_KEYS.contains(key)) {
                    throw new Invalid(keyAt + ": " + id + ": unknown key \"" + key
                            + "\" (known: verdict, grade, reason)");
                }
                if (v != JsonToken.VALUE_STRING) {
                    throw new Invalid(where(file, p) + ": " + id + ": \"" + key + "\" must be a string, not "
                            + describe(v));
                }
                switch (key) {
                    case "verdict" -> verdict = p.getText();
                    case "grade" -> grade = p.getText();
                    default -> reason = p.getText().isBlank() ? null : p.getText();
                }
            }
        }
        if (verdict == null) throw new Invalid(at + ": " + id + ": no \"verdict\"");
        Result.Verdict v = Result.Verdict.byWireName(verdict);
        if (v == null) {
            throw new Invalid(at + ": " + id + ": unknown verdict \"" + verdict
                    + "\" (known: pass, fail, skip, error)");
        }
        Result.Grade g = null;
        if (grade != null) {
            g = Result.Grade.byWireName(grade);
            if (g == null || g.verdict() != v) {
                throw new Invalid(at + ": " + id + ": \"" + grade + "\" is not a grade of " + verdict + " (known: "
                        + grades(v) + ")");
            }
        }
        if ((v == Result.Verdict.FAIL || v == Result.Verdict.ERROR) && reason == null) {
            throw new Invalid(at + ": " + id + ": a " + verdict + " in a baseline is a waiver and needs its"
                    + " \"reason\"");
        }
        return new Entry(v, g, reason);
    }

    private static String grades(Result.Verdict v) {
        StringBuilder sb = new StringBuilder();
        for (Result.Grade g : Result.Grade.values()) {
            if (g.verdict() != v) continue;
            if (sb.length() > 0) sb.append(", ");
            sb.append(g.wireName());
        }
        return sb.length() == 0 ? "none: a " + v.wireName() + " has no grade" : sb.toString();
    }

    private static void expect(JsonParser p, JsonToken got, JsonToken want, Path file, String what)
            throws Invalid {
        if (got != want) throw new Invalid(where(file, p) + ": expected " + what + ", found " + describe(got));
    }

    private static String describe(JsonToken t) {
        if (t == null) return "the end of the file";
        return switch (t) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> t.asString() == null ? t.name() : "'" + t.asString() + "'";
        };
    }

    private static String where(Path file, JsonParser p) {
        JsonLocation l = p.currentTokenLocation();
        return file + ":" + l.getLineNr() + ":" + l.getColumnNr();
    }

    /**
     * Writes the verdicts of {@code results} as a baseline. A failure or error is written as a waiver: with the
     * reason {@code previous} gave it, else with what was observed, to be reviewed.
     *
     * @return how many waivers (failures and errors) it recorded
     */
    public static int write(Path file, List<Result> results, Baseline previous) throws IOException {
        int[] waivers = {0};
        String json = JsonReports.render(j -> {
            j.writeStartObject();
            j.writeObjectFieldStart("scenarios");
            for (Result r : results) {
                j.writeObjectFieldStart(r.id());
                j.writeStringField("verdict", r.verdict().wireName());
                if (r.grade() != null) j.writeStringField("grade", r.grade().wireName());
                Entry old = previous == null ? null : previous.entries.get(r.id());
                boolean waiver = r.verdict() == Result.Verdict.FAIL || r.verdict() == Result.Verdict.ERROR;
                if (old != null && old.reason() != null && (waiver || old.verdict() == r.verdict())) {
                    j.writeStringField("reason", old.reason());
                } else if (waiver) {
                    j.writeStringField("reason", "recorded: " + recorded(r));
                }
                if (waiver) waivers[0]++;
                j.writeEndObject();
            }
            j.writeEndObject();
            j.writeEndObject();
        });
        Files.writeString(file, json + "\n");
        return waivers[0];
    }

    /** What a recorded failure showed, in one line. */
    private static String recorded(Result r) {
        String first = r.notes().isEmpty() ? "" : r.notes().get(0);
        String s = r.verdict() == Result.Verdict.ERROR ? first : r.observed() + (first.isEmpty() ? "" : "; " + first);
        return s.length() > 240 ? s.substring(0, 239) + "…" : s;
    }

    public Entry entry(String id) {
        return entries.get(id);
    }

    public Map<String, Entry> entries() {
        return java.util.Collections.unmodifiableMap(entries);
    }
}
