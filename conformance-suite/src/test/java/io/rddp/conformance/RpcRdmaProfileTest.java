package io.rddp.conformance;

import io.rddp.rnic.RnicConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rpcrdma profile against the reference RPC-over-RDMA responder ({@code rddp peer --app rpcrdma}). */
@org.junit.jupiter.api.Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class RpcRdmaProfileTest {

    @Test
    void everyRpcRdmaScenarioPassesAgainstTheReferenceResponder() throws Exception {
        long t0 = System.nanoTime();
        List<Result> rs = RpcRdmaRuns.run(RnicConfig.defaults(), PeerSuiteTest.scenarios(), Timeouts.defaults(), 4,
                null);
        System.out.println("rpcrdma profile: " + rs.size() + " scenarios in " + (System.nanoTime() - t0) / 1_000_000
                + " ms");
        String table = PeerSuiteTest.table(rs);
        assertThat(rs).hasSizeGreaterThanOrEqualTo(40);
        assertThat(rs).as(table).allMatch(r -> r.verdict() == Result.Verdict.PASS);
    }
}
