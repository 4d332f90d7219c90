package io.rddp.conformance;

/** A conformance scenario: metadata and the steps that run it against a DUT. */
public interface Scenario {

    ScenarioInfo info();

    /**
     * Runs the scenario: opens connections through the context, sends, and checks what it can itself (positive
     * scenarios compare data). The DUT's reaction to a fault is judged afterwards from the primary connection.
     *
     * @throws ScenarioFailure when the DUT did something the scenario itself rules out
     * @throws Skip            when the DUT or profile cannot run it
     */
    void run(ScenarioContext ctx) throws Exception;

    /** The DUT failed a check of the scenario's own. */
    final class ScenarioFailure extends Exception {
        public ScenarioFailure(String message) {
            super(message);
        }
    }

    /**
     * The DUT did not answer a valid MPA Request at the start of a scenario: it is hung (or was left hung by the
     * scenario before). The runner may restart it and try the scenario once more.
     */
    final class DutSilent extends Exception {
        public DutSilent(String message) {
            super(message);
        }
    }

    /** The scenario cannot run here: the DUT lacks a feature, or the profile gives no way to do it. */
    final class Skip extends Exception {
        private final boolean notSupported;

        public Skip(String message, boolean notSupported) {
            super(message);
            this.notSupported = notSupported;
        }

        /** The DUT declared it lacks the feature (as opposed to the profile lacking a way). */
        public boolean notSupported() {
            return notSupported;
        }
    }
}
