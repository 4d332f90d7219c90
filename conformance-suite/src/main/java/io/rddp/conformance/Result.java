package io.rddp.conformance;

import java.util.List;

/**
 * How one scenario went against the DUT. The reaction and the close are separate axes (Autobahn's split).
 *
 * @param info      the scenario
 * @param profile   the profile it ran in
 * @param verdict   pass, fail, skip, or error (the suite could not run it: never the DUT's fault)
 * @param grade     for a pass: strict, lenient, non-strict (a SHOULD missed) or informational (a MAY); for a skip:
 *                  not-supported or profile; else null
 * @param close     how the DUT's side ended: fin, rst, rst-after-data, open (with the time), or null
 * @param observed  what the DUT did, in words
 * @param findings  the judge's errors about what the DUT sent
 * @param notes     other remarks (liveness, placement, downgrades)
 * @param pcap      the recorded exchange, relative to the report folder, or null
 * @param millis    how long it ran
 * @param truncated the DUT sent more than the record cap: the recording and what the tester kept end there
 */
public record Result(ScenarioInfo info, String profile, Verdict verdict, String grade, String close,
                     String observed, List<String> findings, List<String> notes, String pcap, long millis,
                     boolean truncated) {

    public Result(ScenarioInfo info, String profile, Verdict verdict, String grade, String close, String observed,
                  List<String> findings, List<String> notes, String pcap, long millis) {
        this(info, profile, verdict, grade, close, observed, findings, notes, pcap, millis, false);
    }

    public enum Verdict {
        PASS, FAIL, SKIP, ERROR;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public Result {
        findings = List.copyOf(findings);
        notes = List.copyOf(notes);
    }

    public String id() {
        return info.id();
    }

    /** "pass/strict", "fail": the verdict with its grade, as baselines compare them. */
    public String verdictText() {
        return verdict.wireName() + (grade != null ? "/" + grade : "");
    }
}
