package io.rddp.conformance;

import io.rddp.rnic.link.Recorder;
import io.rddp.rnic.RnicConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner's checks after the judge, against the emulated RNIC: a placement check that cannot run leaves the
 * scenario in error (the suite could not judge it), never a pass; a DUT that fails the liveness round trip fails the
 * scenario, and the result says so in a field, not only in a note.
 */
class RunnerVerdictPathsTest {

    /** The agent profile's DUT with its placement or liveness check replaced. */
    private record Broken(AgentDut dut, boolean placementThrows, boolean dead) implements Dut {
        public String profile() {
            return dut.profile();
        }

        public Set<String> capabilities() {
            return dut.capabilities();
        }

        public String describe() {
            return dut.describe();
        }

        public Session open(Setup setup, Recorder recorder, Timeouts t) throws Exception {
            return dut.open(setup, recorder, t);
        }

        public String liveness(Recorder recorder, Timeouts t) throws Exception {
            return dead ? "a Send on a fresh connection did not complete at the DUT" : dut.liveness(recorder, t);
        }

        public String placement(Session s, List<long[]> allowed) throws Exception {
            if (placementThrows) throw new IOException("read_mem: the control channel timed out");
            return dut.placement(s, allowed);
        }

        public void reset() throws Exception {
            dut.reset();
        }

        public void close() {
            dut.close();
        }
    }

    private interface Body {
        void run(AgentDut dut) throws Exception;
    }

    private static void withAgent(Body body) throws Exception {
        KnobRuns.withAgent(RnicConfig.defaults(), dut -> {
            body.run(dut);
            return null;
        });
    }

    private static Scenario scenario(String id) {
        return Catalog.load().scenarios().stream().filter(s -> s.info().id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void aPlacementCheckThatCannotRunIsAnErrorNotAPass() throws Exception {
        withAgent(dut -> {
            Result r = new Runner(new Broken(dut, true, false), Timeouts.defaults(), null, x -> { })
                    .run(scenario("ddp.tagged.past-end"));
            assertThat(r.verdict()).isEqualTo(Result.Verdict.ERROR);
            assertThat(r.grade()).isNull();
            assertThat(r.notes()).first().isEqualTo("the placement check could not run: read_mem: the control channel"
                    + " timed out");
        });
    }

    @Test
    void aDutThatFailsTheLivenessRoundTripFailsTheScenario() throws Exception {
        withAgent(dut -> {
            Result r = new Runner(new Broken(dut, false, true), Timeouts.defaults(), null, x -> { })
                    .run(scenario("ddp.tagged.past-end"));
            assertThat(r.verdict()).isEqualTo(Result.Verdict.FAIL);
            assertThat(r.liveness()).isEqualTo(Result.Liveness.DEAD);
            assertThat(r.notes()).contains("liveness check: a Send on a fresh connection did not complete at the DUT");
        });
    }

    @Test
    void aNegativeScenarioAgainstACorrectDutPassesWithTheDutLiveAfterIt() throws Exception {
        withAgent(dut -> {
            Result r = new Runner(dut, Timeouts.defaults(), null, x -> { }).run(scenario("ddp.tagged.past-end"));
            assertThat(r.verdictText()).as(r.notes().toString()).isEqualTo("pass/strict");
            assertThat(r.liveness()).isEqualTo(Result.Liveness.LIVE);
        });
    }
}
