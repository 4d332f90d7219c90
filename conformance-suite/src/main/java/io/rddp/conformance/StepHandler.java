package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;

/** What a step does: the run it belongs to and the step's argument (a map, a scalar or a list of steps). */
@FunctionalInterface
interface StepHandler {
    void run(ScenarioRun run, JsonNode argument) throws Exception;
}
