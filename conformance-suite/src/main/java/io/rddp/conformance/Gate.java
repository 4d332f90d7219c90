package io.rddp.conformance;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The CI gate of a run: what each scenario's verdict means for the exit code, after the baseline and the grading
 * policy. The console, report.json, junit.xml and report.html all render these decisions, so they cannot disagree
 * with the exit code.
 */
public final class Gate {

    /**
     * What a lab asks of a run.
     *
     * @param strict        lenient and non-strict passes fail (the RFC's first answer only)
     * @param failNonStrict non-strict passes (a SHOULD missed) fail
     * @param exact         with a baseline: any change of verdict or grade fails, either way
     * @param failStale     with a baseline: an improvement fails (the baseline must be updated)
     */
    public record Policy(boolean strict, boolean failNonStrict, boolean exact, boolean failStale) {
        public static Policy defaults() {
            return new Policy(false, false, false, false);
        }
    }

    public enum Status {
        /** a pass the policy accepts, as the baseline has it or better than nothing */
        PASSED("passed"),
        /** the scenario did not run here (its grade says why) */
        SKIPPED("skipped"),
        /** a failure (or a pass the policy does not accept), with no baseline entry to waive it */
        FAILED("failed"),
        /** a failure or error the baseline lists with its reason */
        WAIVED("waived"),
        /** worse than the baseline */
        REGRESSION("regression"),
        /** better than the baseline */
        IMPROVEMENT("improvement"),
        /** the suite could not judge the scenario */
        ERROR("error");

        private final String wireName;

        Status(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    /**
     * One scenario at the gate.
     *
     * @param result   what it gave
     * @param status   what that means here
     * @param failing  whether it fails the gate (exit 1)
     * @param baseline the baseline's verdict for it ("pass/strict"), or null
     * @param why      one line: the waiver's reason, what the baseline had, what the policy refuses; or null
     */
    public record Line(Result result, Status status, boolean failing, String baseline, String why) {
    }

    private final List<Line> lines;
    private final Policy policy;
    private final boolean withBaseline;

    private Gate(List<Line> lines, Policy policy, boolean withBaseline) {
        this.lines = List.copyOf(lines);
        this.policy = policy;
        this.withBaseline = withBaseline;
    }

    /** Decides every result, against {@code base} (or null: none). */
    public static Gate decide(List<Result> results, Baseline base, Policy policy) {
        List<Line> out = new ArrayList<>();
        for (Result r : results) out.add(base == null ? alone(r, policy) : against(r, base.entry(r.id()), policy));
        return new Gate(out, policy, base != null);
    }

    /** Why the policy refuses a pass, or null when it accepts it. */
    static String refused(Result r, Policy p) {
        if (r.verdict() != Result.Verdict.PASS) return null;
        if (r.grade() == Result.Grade.LENIENT && p.strict()) return "a lenient pass (--strict)";
        if (r.grade() == Result.Grade.NON_STRICT && (p.strict() || p.failNonStrict())) {
            return "a SHOULD missed (" + (p.strict() ? "--strict" : "--fail-non-strict") + ")";
        }
        return null;
    }

    private static Line alone(Result r, Policy p) {
        return switch (r.verdict()) {
            case PASS -> {
                String no = refused(r, p);
                yield no == null ? new Line(r, Status.PASSED, false, null, null)
                        : new Line(r, Status.FAILED, true, null, no);
            }
            case SKIP -> new Line(r, Status.SKIPPED, false, null, null);
            case FAIL -> new Line(r, Status.FAILED, true, null, null);
            case ERROR -> new Line(r, Status.ERROR, false, null, null);
        };
    }

    private static Line against(Result r, Baseline.Entry e, Policy p) {
        Line plain = alone(r, p);
        if (e == null) {
            if (plain.failing() || plain.status() == Status.ERROR) {
                return new Line(r, plain.status(), plain.failing(), null, "not in the baseline"
                        + (plain.why() == null ? "" : "; " + plain.why()));
            }
            return plain;
        }
        int then = rank(e.verdict(), e.grade()), now = rank(r.verdict(), r.grade());
        boolean same = e.verdict() == r.verdict() && (e.grade() == null || e.grade() == r.grade());
        if (same || !p.exact() && now == then) {
            if (plain.failing() || plain.status() == Status.ERROR) {
                String reason = e.reason() != null ? e.reason() : "the baseline has " + e.text();
                return new Line(r, Status.WAIVED, false, e.text(), reason);
            }
            return new Line(r, plain.status(), false, e.text(), null);
        }
        if (now < then) {
            return new Line(r, Status.REGRESSION, true, e.text(), "the baseline has " + e.text() + ", this run "
                    + r.verdictText());
        }
        boolean fails = p.exact() || p.failStale();
        return new Line(r, Status.IMPROVEMENT, fails, e.text(), "the baseline has " + e.text() + ", this run "
                + r.verdictText() + (fails ? " (" + (p.exact() ? "--exact-baseline" : "--fail-stale-baseline")
                + ": update the baseline)" : ""));
    }

    /** Better is higher. Grades rank within a pass; a skip ranks below a pass and above a failure. */
    static int rank(Result.Verdict v, Result.Grade g) {
        return switch (v) {
            case PASS -> g == null || g == Result.Grade.STRICT ? 6 : g == Result.Grade.LENIENT ? 5 : 4;
            case SKIP -> 2;
            case FAIL -> 1;
            case ERROR -> 0;
        };
    }

    public List<Line> lines() {
        return lines;
    }

    public Line line(String id) {
        for (Line l : lines) if (l.result().id().equals(id)) return l;
        return null;
    }

    public Policy policy() {
        return policy;
    }

    public boolean withBaseline() {
        return withBaseline;
    }

    public Map<Status, Integer> counts() {
        Map<Status, Integer> m = new EnumMap<>(Status.class);
        for (Status s : Status.values()) m.put(s, 0);
        for (Line l : lines) m.merge(l.status(), 1, Integer::sum);
        return m;
    }

    /** 1: a scenario fails the gate; 2: none does, but the suite could not judge one; 0: the gate passes. */
    public int exitCode() {
        boolean errors = false;
        for (Line l : lines) {
            if (l.failing()) return 1;
            errors |= l.status() == Status.ERROR;
        }
        return errors ? 2 : 0;
    }
}
