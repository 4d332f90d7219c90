package io.rddp.conformance;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The verdicts of a run counted the one way every artifact shows them: passes by grade, with a missed SHOULD and a
 * MAY not taken counted apart from the passes that met their MUSTs.
 */
public record Tally(Map<Result.Verdict, Integer> verdicts, Map<Result.Grade, Integer> grades) {

    public static Tally of(List<Result> results) {
        Map<Result.Verdict, Integer> v = new EnumMap<>(Result.Verdict.class);
        Map<Result.Grade, Integer> g = new EnumMap<>(Result.Grade.class);
        for (Result.Verdict x : Result.Verdict.values()) v.put(x, 0);
        for (Result.Grade x : Result.Grade.values()) g.put(x, 0);
        for (Result r : results) {
            v.merge(r.verdict(), 1, Integer::sum);
            if (r.grade() != null) g.merge(r.grade(), 1, Integer::sum);
        }
        return new Tally(java.util.Collections.unmodifiableMap(v), java.util.Collections.unmodifiableMap(g));
    }

    public int verdict(Result.Verdict v) {
        return verdicts.get(v);
    }

    public int grade(Result.Grade g) {
        return grades.get(g);
    }

    /** Passes that met what their scenario asks, at some grade: strict, lenient or non-strict. */
    public int passes() {
        return verdict(Result.Verdict.PASS) - grade(Result.Grade.INFORMATIONAL);
    }

    /**
     * "pass 180 (164 strict, 12 lenient, 4 non-strict: SHOULD missed), 3 informational (MAY), 5 fail, 40 skip,
     * 0 error".
     */
    public String text() {
        StringBuilder sb = new StringBuilder("pass ").append(passes()).append(" (")
                .append(grade(Result.Grade.STRICT)).append(" strict, ")
                .append(grade(Result.Grade.LENIENT)).append(" lenient, ")
                .append(grade(Result.Grade.NON_STRICT)).append(" non-strict: SHOULD missed)");
        if (grade(Result.Grade.INFORMATIONAL) > 0) {
            sb.append(", ").append(grade(Result.Grade.INFORMATIONAL)).append(" informational (MAY)");
        }
        return sb.append(", ").append(verdict(Result.Verdict.FAIL)).append(" fail, ")
                .append(verdict(Result.Verdict.SKIP)).append(" skip, ")
                .append(verdict(Result.Verdict.ERROR)).append(" error").toString();
    }
}
