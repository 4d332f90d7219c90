package io.rddp.conformance.rpcrdma;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.Scenario;
import io.rddp.conformance.ScenarioInfo;

/** A scenario class of the rpcrdma profile whose catalogue entries name the case they run ({@code case:}). */
abstract class CaseScenario implements Scenario {
    protected final ScenarioInfo info;
    protected final String kase;

    CaseScenario(ScenarioInfo info, JsonNode spec) {
        this.info = info;
        this.kase = spec.path("case").asText();
    }

    @Override
    public final ScenarioInfo info() {
        return info;
    }
}
