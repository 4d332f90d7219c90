package io.rddp.conformance.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.Scenario;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.Session;
import io.rddp.conformance.Setup;
import io.rddp.rdmap.RdmapEncoder;

import java.nio.ByteBuffer;

/**
 * RFC 5042 §6.2.2 across connections: a first connection to {@code rping -s} learns the STag of rping's buffer and
 * ends (rping deregisters the buffer with it); a second connection then RDMA Writes with that STag. The DUT must
 * refuse it (RFC 5041 §7.1 tagged check 1): the second connection is the one judged.
 */
@ScenarioKeys({})
public final class StaleStagScenario implements Scenario {

    private final ScenarioInfo info;

    public StaleStagScenario(ScenarioInfo info, JsonNode spec) {
        this.info = info;
    }

    @Override
    public ScenarioInfo info() {
        return info;
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        Session first = ctx.open(Setup.defaults());
        Session.DutBuffer stale = first.buffer();
        if (stale == null) throw new Skip("the first connection learned no DUT buffer", false);
        first.conn().finish();
        if (!first.conn().awaitClose(ctx.timeouts().reaction())) {
            throw new ScenarioFailure("the DUT did not close the first connection after the tester's FIN");
        }
        Session second = ctx.open(Setup.defaults());
        ctx.judge(second);
        if (second.buffer() != null && second.buffer().stag() == stale.stag()) {
            throw new ScenarioFailure("the new connection's buffer has the STag of the old one, 0x"
                    + Long.toHexString(stale.stag()) + ": STags are reused at once");
        }
        ctx.note("STag 0x" + Long.toHexString(stale.stag()) + " of the first connection's buffer used on the second");
        byte[] data = new byte[16];
        java.util.Arrays.fill(data, (byte) 0x5A);
        second.conn().send(RdmapEncoder.write(stale.stag(), stale.to(), ByteBuffer.wrap(data),
                second.conn().mulpdu(1460)));
    }
}
