package io.rddp.conformance.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.Scenario;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.Session;
import io.rddp.conformance.Setup;
import io.rddp.mpa.FpduEncoder;
import io.rddp.rdmap.Opcode;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Random;
import java.util.Set;

/**
 * Garbage where the first FPDU of a fresh connection belongs (the state in which Linux siw dereferenced NULL before
 * Debian 6.1.170, CVE-2026-23242): {@value #CONNECTIONS} connections, each right after its MPA exchange gets one
 * correctly framed FPDU whose ULPDU is 1 to 64 random octets (seeded, so every run sends the same). Each connection
 * must end - a Terminate then a close, or a close - within the reaction time; the liveness check that follows every
 * negative scenario shows the DUT still serves.
 */
@ScenarioKeys({})
public final class RandomUlpduScenario implements Scenario {

    static final int CONNECTIONS = 16;
    static final long SEED = 0x5EED_7306L;

    private final ScenarioInfo info;

    public RandomUlpduScenario(ScenarioInfo info, JsonNode spec) {
        this.info = info;
    }

    @Override
    public ScenarioInfo info() {
        return info;
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        Random random = new Random(SEED);
        int terminated = 0;
        for (int i = 0; i < CONNECTIONS; i++) {
            byte[] ulpdu = new byte[1 + random.nextInt(64)];
            random.nextBytes(ulpdu);
            Session s = ctx.open(Setup.defaults().withBuffer(0, Set.of()));
            if (s.conn().peerStartFrame() == null || s.conn().peerStartFrame().reject()) {
                throw new ScenarioFailure("connection " + (i + 1) + ": the DUT gave no usable MPA Reply");
            }
            s.conn().write(s.conn().fpdu(ByteBuffer.wrap(ulpdu), FpduEncoder.Faults.NONE));
            if (!s.conn().awaitClose(ctx.timeouts().reaction())) {
                throw new ScenarioFailure("connection " + (i + 1) + ": the DUT neither terminated nor closed within "
                        + ctx.timeouts().reaction() + " ms after the random ULPDU " + HexFormat.of().formatHex(ulpdu));
            }
            for (var p : s.conn().dutPdus()) {
                if (p.rdmap() != null && p.rdmap().opcode() == Opcode.TERMINATE) {
                    terminated++;
                    break;
                }
            }
            if (i > 0) s.close();
        }
        ctx.note(terminated + " of " + CONNECTIONS + " connections ended with a Terminate, the others with a close");
    }
}
