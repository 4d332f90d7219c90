package io.rddp.conformance;

import io.rddp.conformance.rpcrdma.Export;
import io.rddp.conformance.rpcrdma.RpcRdmaDut;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.app.rpcrdma.RpcRdmaResponder;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/** The rpcrdma profile against the reference responder ({@code rddp peer --app rpcrdma}) on loopback. */
final class RpcRdmaRuns {

    private RpcRdmaRuns() {
    }

    /** What a test does with a running responder. */
    interface Body<T> {
        T run(InetSocketAddress address) throws Exception;
    }

    /** A reference responder on an emulated RNIC with {@code config}, for the time of {@code body}. */
    static <T> T withResponder(RnicConfig config, Body<T> body) throws Exception {
        try (Rnic rnic = new Rnic(config, null)) {
            RpcRdmaResponder responder = new RpcRdmaResponder(rnic, RpcRdmaResponder.Options.defaults());
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), true,
                    responder.listenerSettings());
            Thread t = responder.serveInBackground(l);
            try {
                return body.run(l.address());
            } finally {
                t.interrupt();
                t.join(5000);
            }
        }
    }

    /** The rpcrdma scenarios of {@code scenarios} against a responder with {@code config}, {@code jobs} at once. */
    static List<Result> run(RnicConfig config, List<Scenario> scenarios, Timeouts t, int jobs, Path report)
            throws Exception {
        List<Scenario> mine = scenarios.stream().filter(s -> s.info().profiles().contains("rpcrdma")).toList();
        return withResponder(config, a -> new Runner(new RpcRdmaDut(a, Export.defaults()), t, report, r -> { })
                .jobs(jobs).run(mine));
    }
}
