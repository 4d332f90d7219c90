package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;

/** The steps that run nested steps: only with (or without) a DUT control channel, or in one TCP write. */
final class NestingSteps {

    private NestingSteps() {
    }

    /**
     * The nested steps, only with a DUT control channel ({@code agent-only}) or only without ({@code rping-only}):
     * the capability "control" the profile declares, as {@code needs: [control]} uses it.
     */
    static StepHandler onlyIf(boolean control) {
        return (r, a) -> {
            if (r.ctx().dut().capabilities().contains("control") == control) r.steps(a);
        };
    }

    /** The nested steps' octets go out in one TCP write (several FPDUs, or a start frame and an FPDU, in a segment). */
    static void together(ScenarioRun r, JsonNode a) throws Exception {
        r.conn().hold();
        try {
            r.steps(a);
        } finally {
            r.conn().release();
        }
    }
}
