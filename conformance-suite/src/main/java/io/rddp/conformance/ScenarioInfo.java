package io.rddp.conformance;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a scenario is, without how it runs: stable id, title, the requirements it proves, what the DUT must support,
 * the profiles it can run in, and the reactions it accepts (in order: the first strict one is the RFC's answer).
 *
 * @param id           stable id, e.g. "ddp.untagged.msn-skip"
 * @param title        one line
 * @param requirements what it proves
 * @param needs        DUT capabilities (crc, markers, atomics, immediate, send-invalidate, local-invalidate, mpa-rev1,
 *                     rtr-write, rtr-send, rtr-read, control)
 * @param profiles     profiles it runs in (agent, rping, rping-client)
 * @param expected     acceptable reactions; empty for positive scenarios judged by their own checks
 * @param negative     it injects a fault (a liveness check follows it)
 * @param source       where it is defined (file or class), for the report
 * @param partly       requirements it proves only in part, with what it leaves out
 * @param catches      knobs of the emulated RNIC ({@code rddp peer --bug}) that must make it fail: the proof that it
 *                     can fail
 * @param alone        why it must have the DUT to itself when scenarios run concurrently ({@link Alone}), or null
 */
public record ScenarioInfo(String id, String title, List<Requirement> requirements, Set<String> needs,
                           Set<String> profiles, List<Reaction> expected, boolean negative, String source,
                           Map<Requirement, String> partly, List<String> catches, String alone) {

    /** A scenario that may share the DUT with others. */
    public ScenarioInfo(String id, String title, List<Requirement> requirements, Set<String> needs,
                        Set<String> profiles, List<Reaction> expected, boolean negative, String source,
                        Map<Requirement, String> partly, List<String> catches) {
        this(id, title, requirements, needs, profiles, expected, negative, source, partly, catches, null);
    }

    public ScenarioInfo {
        requirements = List.copyOf(requirements);
        needs = Set.copyOf(needs);
        profiles = Set.copyOf(profiles);
        expected = List.copyOf(expected);
        partly = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(partly));
        catches = List.copyOf(catches);
    }

    /** The strongest level among the requirements, whole or in part (MUST beats SHOULD beats MAY). */
    public String level() {
        String best = "MAY";
        List<Requirement> all = new java.util.ArrayList<>(requirements);
        all.addAll(partly.keySet());
        for (Requirement r : all) {
            if (r.mandatory()) return "MUST";
            if (r.should()) best = "SHOULD";
        }
        return all.isEmpty() ? "MUST" : best;
    }

    /** Describes the accepted reactions in one line. */
    public String expectedText() {
        if (expected.isEmpty()) return "the exchange completes and what came back is right";
        StringBuilder sb = new StringBuilder();
        for (Reaction r : expected) {
            if (sb.length() > 0) sb.append("; or ");
            sb.append(r.describe()).append(r.grade() == Reaction.Grade.LENIENT ? " (lenient)" : "");
        }
        return sb.toString();
    }
}
