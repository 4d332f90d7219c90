package io.rddp.conformance.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.AgentDut;
import io.rddp.conformance.Scenario;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.Setup;
import io.rddp.conformance.ControlClient;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * RFC 5040 §8.1.1: "An RNIC MUST choose the value of STags in a way difficult to predict." The DUT registers
 * {@value #COUNT} buffers through the control channel, then deregisters and registers again {@value #CYCLES} times;
 * the STags must all differ, must not follow a few fixed strides (a counter, with or without a constant key), and a
 * re-registration must not hand out the STag just freed. How the 24-bit index and the 8-bit key behave on their own,
 * and how widely the STags spread over the 32-bit space (RECOMMENDED, RFC 5040 §8.1.1), go into the report.
 */
@ScenarioKeys({})
public final class StagPredictabilityScenario implements Scenario {

    static final int COUNT = 200;
    static final int CYCLES = 20;
    /** At most this many distinct differences between consecutive STags make them predictable. */
    static final int FEW_STRIDES = 8;

    private final ScenarioInfo info;

    public StagPredictabilityScenario(ScenarioInfo info, JsonNode spec) {
        this.info = info;
    }

    @Override
    public ScenarioInfo info() {
        return info;
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        AgentDut agent = ctx.agent();
        ctx.open(Setup.defaults().withBuffer(0, Set.of()));
        long[] stags = new long[COUNT];
        int[] mrs = new int[COUNT];
        for (int i = 0; i < COUNT; i++) {
            JsonNode mr = register(agent);
            stags[i] = mr.path("stag").asLong();
            mrs[i] = mr.path("mr").asInt();
        }
        Set<Long> distinct = new HashSet<>();
        for (long s : stags) distinct.add(s);
        if (distinct.size() < COUNT) {
            throw new ScenarioFailure(COUNT + " registrations got only " + distinct.size() + " distinct STags");
        }
        int strides = strides(stags, 0xFFFF_FFFFL, 0);
        int indexStrides = strides(stags, 0xFF_FFFFL, 8);
        int keyStrides = strides(stags, 0xFFL, 0);
        Set<Long> keys = new HashSet<>();
        for (long s : stags) keys.add(s & 0xFF);
        ctx.note(COUNT + " STags: " + strides + " distinct strides between consecutive STags, " + indexStrides
                + " between their 24-bit indices, " + keyStrides + " between their 8-bit keys; " + keys.size()
                + " distinct keys; " + spread(stags) + " distinct top octets (a uniform spread gives about 140)");
        if (strides <= FEW_STRIDES) {
            throw new ScenarioFailure("consecutive STags differ by only " + strides + " different amounts (e.g. "
                    + hex(stags[0]) + ", " + hex(stags[1]) + ", " + hex(stags[2]) + "): the next STag is predictable");
        }
        if (indexStrides <= FEW_STRIDES) {
            ctx.note("the 24-bit indices are sequential; only the 8-bit key varies, so a guess of the next STag"
                    + " succeeds once in " + keys.size() + " tries");
        }
        int reused = 0;
        for (int i = 0; i < CYCLES; i++) {
            agent.control().call(ControlClient.request("deregister").put("mr", mrs[i]));
            JsonNode mr = register(agent);
            if (mr.path("stag").asLong() == stags[i]) reused++;
        }
        if (reused > 1) {
            throw new ScenarioFailure(reused + " of " + CYCLES + " re-registrations got back the STag just freed:"
                    + " a stale STag reaches the new buffer");
        }
    }

    private static JsonNode register(AgentDut agent) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode r = ControlClient.request("register").put("length", 64)
                .put("fill", "00");
        r.putArray("access").add("local_write").add("remote_read").add("remote_write");
        return agent.control().call(r);
    }

    /** Distinct differences (mod the field) between consecutive values of one field of the STags. */
    static int strides(long[] stags, long mask, int shift) {
        Set<Long> d = new LinkedHashSet<>();
        for (int i = 1; i < stags.length; i++) {
            d.add((((stags[i] >>> shift) & mask) - ((stags[i - 1] >>> shift) & mask)) & mask);
        }
        return d.size();
    }

    static int spread(long[] stags) {
        Set<Long> top = new HashSet<>();
        for (long s : stags) top.add(s >>> 24);
        return top.size();
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
