package io.rddp.conformance;

import java.util.List;
import java.util.Locale;

/**
 * How one scenario went against the DUT. The reaction and the close are separate axes (Autobahn's split).
 *
 * @param info      the scenario
 * @param profile   the profile it ran in
 * @param verdict   pass, fail, skip, or error (the suite could not run or judge it: never the DUT's fault)
 * @param grade     for a pass: how well ({@link Grade#passes()}); for a skip: why; else null
 * @param close     how the DUT's side ended: fin, rst, rst-after-data, open (with the time), or null
 * @param observed  what the DUT did, in words
 * @param findings  the judge's errors about what the DUT sent
 * @param notes     other remarks (liveness, placement, downgrades)
 * @param pcap      the recorded exchange, relative to the report folder, or null
 * @param millis    how long it ran
 * @param liveness  what the liveness check after a negative scenario found
 * @param truncated the DUT sent more than the record cap: the recording and what the tester kept end there
 * @param compared  what the scenario's checks compared and found as they should be ("1 MiB read back, equal")
 * @param marks     marks on PDUs of the recording: the tester's injected fields, the DUT's faulty ones
 */
public record Result(ScenarioInfo info, String profile, Verdict verdict, Grade grade, String close,
                     String observed, List<String> findings, List<String> notes, String pcap, long millis,
                     Liveness liveness, boolean truncated, List<String> compared, List<WireMark> marks) {

    public Result(ScenarioInfo info, String profile, Verdict verdict, Grade grade, String close, String observed,
                  List<String> findings, List<String> notes, String pcap, long millis, Liveness liveness) {
        this(info, profile, verdict, grade, close, observed, findings, notes, pcap, millis, liveness, false);
    }

    public Result(ScenarioInfo info, String profile, Verdict verdict, Grade grade, String close, String observed,
                  List<String> findings, List<String> notes, String pcap, long millis, Liveness liveness,
                  boolean truncated) {
        this(info, profile, verdict, grade, close, observed, findings, notes, pcap, millis, liveness, truncated,
                List.of(), List.of());
    }

    public enum Verdict {
        PASS, FAIL, SKIP, ERROR;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Verdict byWireName(String s) {
            for (Verdict v : values()) if (v.wireName().equals(s)) return v;
            return null;
        }
    }

    /** How a pass passed, or why a skip skipped. */
    public enum Grade {
        /** the RFC's own answer, in the form the RFC gives it */
        STRICT("strict", Verdict.PASS),
        /** an answer the RFC's words allow, though not its first one */
        LENIENT("lenient", Verdict.PASS),
        /** the reaction a SHOULD asks for did not come (the scenario proves only SHOULD-level requirements) */
        NON_STRICT("non-strict", Verdict.PASS),
        /** the reaction a MAY describes did not come (the scenario proves only MAY-level requirements) */
        INFORMATIONAL("informational", Verdict.PASS),
        /** the DUT declared it lacks a feature the scenario needs */
        NOT_SUPPORTED("not-supported", Verdict.SKIP),
        /** the profile gives no way to run the scenario */
        PROFILE("profile", Verdict.SKIP);

        private final String wireName;
        private final Verdict verdict;

        Grade(String wireName, Verdict verdict) {
            this.wireName = wireName;
            this.verdict = verdict;
        }

        public String wireName() {
            return wireName;
        }

        /** The verdict this grade belongs to. */
        public Verdict verdict() {
            return verdict;
        }

        public static Grade byWireName(String s) {
            for (Grade g : values()) if (g.wireName.equals(s)) return g;
            return null;
        }
    }

    /** The liveness round trip after a negative scenario (a DUT that crashed or hangs fails it). */
    public enum Liveness {
        /** not a negative scenario, or it ended before the check */
        NOT_CHECKED,
        LIVE,
        DEAD
    }

    public Result {
        findings = List.copyOf(findings);
        notes = List.copyOf(notes);
        compared = compared == null ? List.of() : List.copyOf(compared);
        marks = marks == null ? List.of() : List.copyOf(marks);
        if (liveness == null) liveness = Liveness.NOT_CHECKED;
        if (verdict == Verdict.PASS || verdict == Verdict.SKIP) {
            if (grade == null || grade.verdict() != verdict) {
                throw new IllegalArgumentException("a " + verdict.wireName() + " needs a grade of its own, not "
                        + grade);
            }
        } else if (grade != null) {
            throw new IllegalArgumentException("a " + verdict.wireName() + " has no grade, not " + grade);
        }
    }

    public String id() {
        return info.id();
    }

    /** "pass/strict", "fail": the verdict with its grade, as baselines compare them. */
    public String verdictText() {
        return verdict.wireName() + (grade != null ? "/" + grade.wireName() : "");
    }

    public Result withNotes(List<String> more) {
        return new Result(info, profile, verdict, grade, close, observed, findings, more, pcap, millis, liveness,
                truncated, compared, marks);
    }

    public Result withRecording(String pcapPath, long ms) {
        return new Result(info, profile, verdict, grade, close, observed, findings, notes, pcapPath, ms, liveness,
                truncated, compared, marks);
    }

    /** With what the checks compared and the marks on the recording's PDUs. */
    public Result withDetail(List<String> comparedNow, List<WireMark> marksNow) {
        return new Result(info, profile, verdict, grade, close, observed, findings, notes, pcap, millis, liveness,
                truncated, comparedNow, marksNow);
    }
}
