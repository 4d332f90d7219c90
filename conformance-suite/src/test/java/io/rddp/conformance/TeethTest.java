package io.rddp.conformance;

import io.rddp.rnic.Bug;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The suite has teeth, proven per scenario: every bug knob of the emulated RNIC fails exactly the scenarios whose
 * {@code catches:} name it, every scenario (negative or positive) names at least one knob, and every knob fails at
 * least one scenario. The rpcrdma-* knobs of the reference RPC-over-RDMA responder run over the rpcrdma profile's
 * scenarios: every one is caught, rpcrdma-credits-over-receives included (its grant is not wrong on the wire, but
 * rpcrdma.credits.grant-honoured sends as many calls at once as granted and the receives are not there). The knobs
 * run many at once with short reaction timeouts; a disagreement is run again alone with the default timeouts (at
 * most twice) before it counts, and the output says which were.
 */
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class TeethTest {

    /** The emulated RNIC answers in milliseconds: a reaction that takes a second has not come. */
    static final Timeouts FAST = new Timeouts(3000, 1000, 300, 3000);
    /** Knob runs at once: most of a knob's time is spent waiting for reactions that do not come. */
    static final int THREADS = 8;
    /** Scenarios per RNIC: a knob that stalls everything is spread over several. */
    static final int SHARD = 24;
    static final int RETRIES = 2;

    private static Set<String> knobNames() {
        Set<String> s = new TreeSet<>();
        for (Bug b : Bug.values()) s.add(b.knob());
        return s;
    }

    @Test
    void catchesNameOnlyKnobsOfTheEmulatedRnic() {
        Set<String> known = knobNames();
        List<String> unknown = new ArrayList<>();
        for (Scenario s : Catalog.load().scenarios()) {
            for (String k : s.info().catches()) if (!known.contains(k)) unknown.add(s.info().id() + ": " + k);
        }
        assertThat(unknown).as("catches: naming no knob of rddp peer --bug (known: " + known + ")").isEmpty();
    }

    @Test
    void everyKnobFailsExactlyTheScenariosThatDeclareItAndEveryScenarioIsFailedByOne() throws Exception {
        List<Scenario> scenarios = PeerSuiteTest.scenarios().stream().filter(s -> s.info().profiles().contains("agent")
                || s.info().profiles().contains("rping") || s.info().profiles().contains("rpcrdma")).toList();
        // The rpcrdma-* knobs change only the RPC-over-RDMA responder (rddp peer --app rpcrdma) and run over the
        // rpcrdma scenarios; the RNIC's knobs run over the agent and rping ones (KnobRuns).
        List<Bug> knobs = List.of(Bug.values());
        long t0 = System.nanoTime();
        Map<Bug, List<Result>> runs = KnobRuns.run(knobs, scenarios, FAST, THREADS, SHARD);
        long runMs = (System.nanoTime() - t0) / 1_000_000;

        Map<String, Scenario> byId = new LinkedHashMap<>();
        for (Scenario s : scenarios) byId.put(s.info().id(), s);
        List<String> errors = new ArrayList<>(), mismatches = new ArrayList<>(), retried = new ArrayList<>();
        Map<String, Set<String>> failedBy = new TreeMap<>();
        for (Map.Entry<Bug, List<Result>> e : runs.entrySet()) {
            Bug k = e.getKey();
            for (Result r : e.getValue()) {
                boolean declared = r.info().catches().contains(k.knob());
                Result settled = r;
                for (int i = 0; i < RETRIES && disagrees(settled, declared); i++) {
                    // many suites at once on two cores: a late reaction is run again alone before it counts
                    settled = KnobRuns.run(List.of(k), List.of(byId.get(r.id())), Timeouts.defaults(), 1, 1)
                            .get(k).get(0);
                    retried.add(k.knob() + " " + r.id() + ": " + r.verdictText() + " -> " + settled.verdictText());
                }
                if (settled.verdict() == Result.Verdict.ERROR) {
                    errors.add(k.knob() + " " + r.id() + ": " + settled.notes());
                } else if (disagrees(settled, declared)) {
                    mismatches.add((declared ? "declares " : "does not declare ") + k.knob() + " but "
                            + settled.verdictText() + " under it: " + r.id() + " | " + settled.observed() + " | "
                            + (settled.notes().isEmpty() ? "" : settled.notes().get(0)));
                }
                if (settled.verdict() == Result.Verdict.FAIL) {
                    failedBy.computeIfAbsent(r.id(), x -> new TreeSet<>()).add(k.knob());
                }
            }
        }
        System.out.println("teeth: " + knobs.size() + " knobs over " + scenarios.size() + " scenarios in " + runMs
                + " ms; " + retried.size() + " disagreements run again" + (retried.isEmpty() ? "" : ": " + retried));

        assertThat(errors).as("no scenario may err (the suite's own fault) under a knob").isEmpty();
        assertThat(mismatches).as("each knob fails exactly the scenarios whose catches: name it; the catches: each"
                + " scenario's failures call for:\n" + proposal(scenarios, failedBy)).isEmpty();
        List<String> toothless = scenarios.stream().map(s -> s.info().id()).filter(id -> !failedBy.containsKey(id))
                .toList();
        assertThat(toothless).as("scenarios no knob fails: give the emulated RNIC the wrong behaviour that breaks"
                + " their rule").isEmpty();
        Set<String> used = failedBy.values().stream().flatMap(Set::stream).collect(Collectors.toSet());
        assertThat(knobs.stream().map(Bug::knob).toList()).as("every knob fails some scenario")
                .allMatch(used::contains);
    }

    private static boolean disagrees(Result r, boolean declared) {
        return r.verdict() == Result.Verdict.ERROR || declared != (r.verdict() == Result.Verdict.FAIL);
    }

    /** "id: catches: [a, b]" for every scenario whose failures differ from its declaration. */
    private static String proposal(List<Scenario> scenarios, Map<String, Set<String>> failedBy) {
        StringBuilder sb = new StringBuilder();
        for (Scenario s : scenarios) {
            Set<String> want = failedBy.getOrDefault(s.info().id(), Set.of());
            if (!want.equals(new TreeSet<>(s.info().catches()))) {
                sb.append("  ").append(s.info().id()).append(": catches: ").append(want).append('\n');
            }
        }
        return sb.toString();
    }
}
