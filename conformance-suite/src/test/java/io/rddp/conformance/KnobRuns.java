package io.rddp.conformance;

import io.rddp.conformance.ControlClient;
import io.rddp.dut.ControlServer;
import io.rddp.rnic.Bug;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicControl;
import io.rddp.rnic.RnicListener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The suite against emulated RNICs that each have one bug knob, many at once: every knob's run is cut into shards,
 * each against an RNIC of its own (its own listener and control channel), so that a knob that makes every scenario
 * wait for a reaction costs no more than the others. Scenarios run in the agent profile, those without it in the
 * rping profile, and those of the rpcrdma profile against the reference RPC-over-RDMA responder on the knob's RNIC.
 * An rpcrdma-* knob changes only that responder, so it runs only the rpcrdma scenarios; the RNIC's knobs run only the
 * agent and rping ones (under the responder they would fail rpcrdma scenarios for what its RDMA layer does, which
 * those scenarios do not claim to prove). Results come back per knob: the agent shards in order, then the rping ones,
 * then the rpcrdma ones.
 */
final class KnobRuns {

    private KnobRuns() {
    }

    /** What a test does with the agent profile's DUT. */
    interface AgentBody<T> {
        T run(AgentDut dut) throws Exception;
    }

    /** An emulated RNIC with {@code config} behind its control channel, as the agent profile reaches a DUT. */
    static <T> T withAgent(RnicConfig config, AgentBody<T> body) throws Exception {
        try (Rnic rnic = new Rnic(config, null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    ConnectionSettings.defaults(rnic));
            try (ControlServer cs = new ControlServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    () -> new RnicControl(rnic, "test"));
                 AgentDut dut = new AgentDut(ControlClient.connect(cs.address(), 2000),
                         new InetSocketAddress(InetAddress.getLoopbackAddress(), l.port()), l.port())) {
                return body.run(dut);
            }
        }
    }

    /** One emulated RNIC with {@code config}, driven through its control channel, running {@code scenarios}. */
    static List<Result> agent(RnicConfig config, List<Scenario> scenarios, Timeouts t) throws Exception {
        return withAgent(config, dut -> new Runner(dut, t, null, r -> { }).run(scenarios));
    }

    /** One emulated RNIC with {@code config} serving stock rping's server, running {@code scenarios} (rping profile). */
    static List<Result> rping(RnicConfig config, List<Scenario> scenarios, Timeouts t) throws Exception {
        try (Rnic rnic = new Rnic(config, null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    io.rddp.rnic.app.Rping.serverSettings(rnic));
            Thread server = io.rddp.rnic.app.Rping.serveInBackground(rnic, l);
            try {
                RpingDut dut = new RpingDut(l.address(), Set.of("mpa-rev2", "crc", "markers"));
                return new Runner(dut, t, null, r -> { }).run(scenarios);
            } finally {
                server.interrupt();
            }
        }
    }

    /**
     * Runs {@code scenarios} once per knob of {@code knobs} (null: no knob), {@code threads} shards at a time.
     *
     * @param shard scenarios per shard
     */
    static Map<Bug, List<Result>> run(Collection<Bug> knobs, List<Scenario> scenarios, Timeouts t, int threads,
                                      int shard) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread th = new Thread(r, "knob-run");
            th.setDaemon(true);
            return th;
        });
        try {
            Map<Bug, List<Future<List<Result>>>> futures = new LinkedHashMap<>();
            for (Bug b : knobs) {
                RnicConfig c = RnicConfig.defaults().withBugs(b == null ? Set.of() : Set.of(b));
                List<Future<List<Result>>> parts = new ArrayList<>();
                // an rpcrdma-* knob changes only the RPC-over-RDMA responder: it runs the rpcrdma scenarios, and the
                // other knobs (the RNIC's) run the agent and rping ones
                boolean rpcKnob = b != null && b.knob().startsWith("rpcrdma-");
                List<Scenario> agent = scenarios.stream().filter(s -> !rpcKnob && s.info().profiles().contains("agent"))
                        .toList();
                List<Scenario> rping = scenarios.stream().filter(s -> !rpcKnob && !s.info().profiles().contains("agent")
                        && s.info().profiles().contains("rping")).toList();
                List<Scenario> rpc = scenarios.stream().filter(s -> (b == null || rpcKnob)
                        && s.info().profiles().contains("rpcrdma")).toList();
                for (int i = 0; i < agent.size(); i += shard) {
                    List<Scenario> part = agent.subList(i, Math.min(agent.size(), i + shard));
                    parts.add(pool.submit(() -> agent(c, part, t)));
                }
                if (!rping.isEmpty()) parts.add(pool.submit(() -> rping(c, rping, t)));
                if (!rpc.isEmpty()) parts.add(pool.submit(() -> RpcRdmaRuns.run(c, rpc, t, 4, null)));
                futures.put(b, parts);
            }
            Map<Bug, List<Result>> out = new LinkedHashMap<>();
            for (Map.Entry<Bug, List<Future<List<Result>>>> e : futures.entrySet()) {
                List<Result> all = new ArrayList<>();
                for (Future<List<Result>> f : e.getValue()) all.addAll(f.get());
                out.put(e.getKey(), all);
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
