package io.rddp.conformance;

import io.rddp.conformance.rpcrdma.Export;
import io.rddp.conformance.rpcrdma.RpcRdmaDut;
import io.rddp.rnic.Bug;
import io.rddp.rnic.RnicConfig;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every verdict of the rpcrdma profile reached against a real responder over loopback (pass is
 * {@link RpcRdmaProfileTest}'s): a fail for a broken rule (the scenario's own check, an analyzer finding on a
 * positive exchange, an answer the scenario does not accept), a skip where the export gives no file and where the
 * scenario is another profile's, an error where the suite cannot reach the DUT. Nothing passes because a check could
 * not run.
 */
@org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
class RpcRdmaVerdictPathsTest {

    private static Map<String, Scenario> byId() {
        return Catalog.load().scenarios().stream().collect(Collectors.toMap(s -> s.info().id(),
                Function.identity()));
    }

    private static List<Result> run(RnicConfig config, Export export, String... ids) throws Exception {
        Map<String, Scenario> all = byId();
        List<Scenario> picked = java.util.Arrays.stream(ids).map(all::get).toList();
        return RpcRdmaRuns.withResponder(config, a -> new Runner(new RpcRdmaDut(a, export), Timeouts.defaults(),
                null, r -> { }).run(picked));
    }

    private static RnicConfig with(Bug b) {
        return RnicConfig.defaults().withBugs(Set.of(b));
    }

    @Test
    void anErrVersWhoseRangeHoldsTheRejectedVersionFailsByTheScenariosOwnCheck() throws Exception {
        Result r = run(with(Bug.RPCRDMA_ERR_VERS_RANGE), Export.defaults(), "rpcrdma.header.version-2").get(0);
        assertThat(r.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(r.notes()).anyMatch(n -> n.contains("range 2..2"));
    }

    @Test
    void aPositiveExchangeWhoseReplyBreaksAnRfc8166MustFailsOnTheAnalyzersFinding() throws Exception {
        Result r = run(with(Bug.RPCRDMA_CREDITS_ZERO), Export.defaults(), "rpcrdma.positive.null").get(0);
        assertThat(r.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(r.findings()).anyMatch(f -> f.startsWith("rpcrdma.credits-zero"));
    }

    @Test
    void anAnswerTheScenarioDoesNotAcceptFailsIt() throws Exception {
        Result r = run(with(Bug.RPCRDMA_DISCARDS_ANSWERED), Export.defaults(), "rpcrdma.header.done").get(0);
        assertThat(r.verdict()).isEqualTo(Result.Verdict.FAIL);
        assertThat(r.observed()).contains("RDMA_ERROR ERR_CHUNK");
        assertThat(r.notes()).anyMatch(n -> n.contains("expected the message discarded"));
    }

    @Test
    void withoutTheExportsFileOrDirectoryThoseScenariosSkipSayingWhichOptionAndTheRestStillRun() throws Exception {
        List<Result> rs = run(RnicConfig.defaults(), new Export(null, "no-such-file", "no-such-dir"),
                "rpcrdma.positive.write-read-chunk", "rpcrdma.positive.readdir-reply-chunk", "rpcrdma.positive.null",
                "rpcrdma.header.version-2", "rpcrdma.credits.zero-requested", "rpcrdma.chunk.nomsg-without-chunks");
        assertThat(rs.get(0).verdict()).isEqualTo(Result.Verdict.SKIP);
        assertThat(rs.get(0).grade()).isEqualTo(Result.Grade.PROFILE);
        assertThat(rs.get(0).observed()).contains("no-such-file").contains("--rpcrdma-file");
        assertThat(rs.get(1).verdict()).isEqualTo(Result.Verdict.SKIP);
        assertThat(rs.get(1).observed()).contains("no-such-dir").contains("--rpcrdma-dir");
        assertThat(rs.subList(2, rs.size())).allMatch(r -> r.verdict() == Result.Verdict.PASS);
    }

    @Test
    void aRootHandleGivenThatTheServerDoesNotKnowSkipsNamingTheOption() throws Exception {
        Export wrong = new Export(HexFormat.of().parseHex("00000000000000ff"), "scratch", "many");
        List<Result> rs = run(RnicConfig.defaults(), wrong, "rpcrdma.positive.getattr", "rpcrdma.positive.lookup");
        assertThat(rs).allMatch(r -> r.verdict() == Result.Verdict.SKIP);
        assertThat(rs).allMatch(r -> r.observed().contains("--rpcrdma-root-fh 00000000000000ff is no root handle"));
    }

    @Test
    void withoutARootHandleOnAServerWhoseTriedHandleIsNoDirectoryTheFileScenariosSkipAskingForIt() throws Exception {
        // the reference tree's fileid 2 is a regular file: a server where the tried handle is no directory
        Export noRoot = new Export(null, "scratch", "many", HexFormat.of().parseHex("0000000000000002"));
        List<Result> rs = run(RnicConfig.defaults(), noRoot, "rpcrdma.positive.getattr",
                "rpcrdma.positive.readdir-reply-chunk", "rpcrdma.header.version-2");
        assertThat(rs.subList(0, 2)).allMatch(r -> r.verdict() == Result.Verdict.SKIP
                && r.observed().contains("needs the export's root file handle: --rpcrdma-root-fh HEX")
                && r.observed().contains("not a directory"));
        assertThat(rs.get(2).verdict()).isEqualTo(Result.Verdict.PASS);
    }

    @Test
    void theRootHandleGivenAsAnOptionIsUsed() throws Exception {
        Export given = new Export(Export.REFERENCE_ROOT, "scratch", "many");
        List<Result> rs = run(RnicConfig.defaults(), given, "rpcrdma.positive.getattr",
                "rpcrdma.positive.read-write-chunk");
        assertThat(rs).allMatch(r -> r.verdict() == Result.Verdict.PASS);
    }

    @Test
    void anotherProfilesScenarioSkipsInTheRpcrdmaProfile() throws Exception {
        Result r = run(RnicConfig.defaults(), Export.defaults(), "positive.write.1").get(0);
        assertThat(r.verdict()).isEqualTo(Result.Verdict.SKIP);
        assertThat(r.grade()).isEqualTo(Result.Grade.PROFILE);
    }

    @Test
    void aResponderThatCannotBeReachedIsAnErrorOfTheSuiteNeverAPass() throws Exception {
        InetSocketAddress closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
        Map<String, Scenario> all = byId();
        List<Result> rs = new Runner(new RpcRdmaDut(closed, Export.defaults()), Timeouts.defaults(), null, r -> { })
                .run(List.of(all.get("rpcrdma.positive.null"), all.get("rpcrdma.header.done")));
        assertThat(rs).allMatch(r -> r.verdict() == Result.Verdict.ERROR);
        assertThat(rs.get(0).notes()).anyMatch(n -> n.contains("could not run"));
    }
}
