package io.rddp.conformance;

import io.rddp.rnic.Bug;
import io.rddp.rnic.RnicConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rddp conform --jobs}: scenarios run concurrently on lanes of the emulated RNIC give the verdicts a sequential
 * run gives, knobbed or not, in catalogue order (the whole agent profile unknobbed: {@link PeerSuiteTest}).
 */
@org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class ConcurrentRunTest {

    static final int JOBS = 4;
    /**
     * Runs again, at most, of the scenarios whose verdicts differ: a loopback DUT on a loaded 2-core machine may answer
     * past a wait now and then, in either run; a difference that stays is a real one.
     */
    static final int RETRIES = 2;

    /**
     * Knobs that fail many scenarios, among them ones that run alone: a close where a Terminate is owed (every failing
     * scenario waits out its reaction time, alongside others), guessable STags (judged across registrations).
     */
    static final List<Bug> KNOBS = List.of(Bug.CLOSE_SILENTLY, Bug.SEQUENTIAL_STAGS);

    @Test
    void knobbedRnicsGiveTheSequentialVerdictsWhenScenariosRunConcurrently() throws Exception {
        for (Bug b : KNOBS) {
            List<Scenario> some = new ArrayList<>();
            List<Scenario> agent = agentScenarios();
            for (int i = 0; i < agent.size(); i++) {
                Scenario s = agent.get(i);
                // every scenario the knob fails, every one that runs alone, and a sample of the others
                if (s.info().catches().contains(b.knob()) || s.info().alone() != null || i % 12 == 0) some.add(s);
            }
            assertSameVerdicts(RnicConfig.defaults().withBugs(Set.of(b)), some);
        }
    }

    @Test
    void scenariosWhoseFaultIsAnStagOfNoBufferOfTheirsOrThatRevokeOneRunAlone() {
        Map<String, String> alone = new LinkedHashMap<>();
        for (Scenario s : Catalog.load().scenarios()) if (s.info().alone() != null) alone.put(s.info().id(), s.info().alone());
        assertThat(alone).containsKeys("ddp.tagged.invalid-stag", "security.use-after-deregister",
                "rdmap.invalidate.sendse-inv", "security.stag-predictability", "robustness.random-ulpdus");
        assertThat(alone.get("ddp.tagged.invalid-stag")).contains("stag dut.stag+0x100");
        assertThat(alone.get("security.use-after-deregister")).contains("deregister");
        assertThat(alone).as("a buffer's own STag, a zero-length Write's, and the DUT's Writes to the tester's")
                .doesNotContainKeys("positive.write-then-read", "ddp.tagged.zero-length-stag-zero",
                        "mpa.enhanced.responder-ord-limit");
    }

    private static List<Scenario> agentScenarios() {
        return Catalog.load().scenarios().stream().filter(s -> s.info().profiles().contains("agent")).toList();
    }

    private static void assertSameVerdicts(RnicConfig config, List<Scenario> scenarios) throws Exception {
        assertSameVerdicts(config, scenarios, run(config, scenarios, 1));
    }

    /** Runs {@code scenarios} {@value #JOBS} at a time and compares with the {@code sequential} run's verdicts. */
    static void assertSameVerdicts(RnicConfig config, List<Scenario> scenarios, List<Result> sequential)
            throws Exception {
        List<String> order = new ArrayList<>();
        List<Result> concurrent = run(config, scenarios, JOBS, order);
        assertThat(order).as("progress in catalogue order").containsExactlyElementsOf(
                scenarios.stream().map(s -> s.info().id()).toList());
        Map<String, String> seq = verdicts(sequential), conc = verdicts(concurrent);
        for (int t = 1; t <= RETRIES && !seq.equals(conc); t++) {
            List<Scenario> differ = scenarios.stream().filter(s -> !java.util.Objects.equals(seq.get(s.info().id()),
                    conc.get(s.info().id()))).toList();
            System.err.println("ConcurrentRunTest: with " + config.bugs() + " the verdicts differ on " + differ.stream()
                    .map(s -> s.info().id() + " (sequential " + seq.get(s.info().id()) + ", concurrent "
                            + conc.get(s.info().id()) + ")").toList() + ": running them again both ways, " + t + " of "
                    + RETRIES + " (a loaded machine may answer past a wait)");
            seq.putAll(verdicts(run(config, differ, 1)));
            conc.putAll(verdicts(run(config, differ, JOBS)));
        }
        assertThat(conc).as("verdicts with " + config.bugs()).isEqualTo(seq);
    }

    private static List<Result> run(RnicConfig config, List<Scenario> scenarios, int jobs) throws Exception {
        return run(config, scenarios, jobs, new ArrayList<>());
    }

    private static List<Result> run(RnicConfig config, List<Scenario> scenarios, int jobs, List<String> order)
            throws Exception {
        return KnobRuns.withAgent(config, dut -> new Runner(dut, Timeouts.defaults(), null,
                r -> order.add(r.id())).jobs(jobs).run(scenarios));
    }

    /** What the report's verdict content is: verdict, grade and liveness, by scenario. */
    private static Map<String, String> verdicts(List<Result> rs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Result r : rs) m.put(r.id(), r.verdictText() + " " + r.liveness());
        return m;
    }
}
