package io.rddp.conformance;

import io.rddp.testing.LoopbackServer;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.app.Rping;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A DUT that hangs (accepts TCP, never answers the MPA Request, as siw's rping -s does after some faults) is brought
 * back by the runner's restart hook, and the scenario that found it hung runs again; without the hook the scenario
 * fails and says why.
 */
class DeadDutRestartTest {

    /** A TCP relay in front of the emulated rping server that can be switched to swallow everything. */
    static final class Gate implements AutoCloseable {
        final LoopbackServer server;
        final InetSocketAddress backend;
        volatile boolean hung;

        Gate(InetSocketAddress backend) throws IOException {
            this.backend = backend;
            this.server = new LoopbackServer("gate", this::relay);
        }

        InetSocketAddress address() {
            return server.address();
        }

        private void relay(Socket s, LoopbackServer srv) throws IOException {
            if (hung) {
                pump(s.getInputStream(), OutputStream.nullOutputStream());
                return;
            }
            Socket b = srv.track(new Socket(backend.getAddress(), backend.getPort()));
            pump(s.getInputStream(), b.getOutputStream());
            pump(b.getInputStream(), s.getOutputStream());
        }

        private void pump(InputStream in, OutputStream out) {
            Thread t = new Thread(() -> {
                try (in; out) {
                    in.transferTo(out);
                } catch (IOException ignored) {
                    // the other side went away: the relay ends with it
                }
            }, "gate-pump");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private interface Body {
        void run(Gate gate, RpingDut dut) throws Exception;
    }

    private static void withHangingRping(Body body) throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    Rping.serverSettings(rnic));
            Thread server = Rping.serveInBackground(rnic, l);
            try (Gate gate = new Gate(l.address())) {
                body.run(gate, new RpingDut(gate.address(), Set.of("mpa-rev2", "crc")));
            } finally {
                server.interrupt();
            }
        }
    }

    private static List<Scenario> pick(String... ids) {
        List<Scenario> out = new ArrayList<>();
        for (String id : ids) {
            out.add(Catalog.load().scenarios().stream().filter(s -> s.info().id().equals(id)).findFirst()
                    .orElseThrow(() -> new AssertionError("no scenario " + id)));
        }
        return out;
    }

    @Test
    void aScenarioThatFindsTheDutHungRestartsItAndRunsAgain() throws Exception {
        withHangingRping((gate, dut) -> {
            AtomicInteger restarts = new AtomicInteger();
            // hang the DUT after the first scenario: the second finds it silent
            Runner runner = new Runner(dut, Timeouts.defaults().scaled(0.3), null, r -> gate.hung = true)
                    .onDead(() -> {
                        restarts.incrementAndGet();
                        gate.hung = false;
                        return "reopened the relay";
                    });
            List<Result> rs = runner.run(pick("positive.crc-both-ways", "mpa.framing.bad-crc"));
            assertThat(restarts).hasValue(1);
            assertThat(rs.get(1).verdict()).as(PeerSuiteTest.table(rs)).isEqualTo(Result.Verdict.PASS);
            assertThat(rs.get(1).notes()).anyMatch(n -> n.contains("was restarted (reopened the relay) and is live again")
                    && n.contains("the scenario ran again"));
        });
    }

    @Test
    void withoutARestartHookAHungDutFailsTheScenarioWithTheReason() throws Exception {
        withHangingRping((gate, dut) -> {
            gate.hung = true;
            Result r = new Runner(dut, Timeouts.defaults().scaled(0.3), null, x -> { })
                    .run(pick("mpa.framing.bad-crc").get(0));
            assertThat(r.verdict()).isEqualTo(Result.Verdict.FAIL);
            assertThat(r.notes()).anyMatch(n -> n.contains("gave no MPA Reply to a valid Request"));
        });
    }

    @Test
    void aRestartThatDoesNotHelpLeavesTheScenarioInError() throws Exception {
        withHangingRping((gate, dut) -> {
            gate.hung = true;
            Result r = new Runner(dut, Timeouts.defaults().scaled(0.3), null, x -> { }).onDead(() -> {
                throw new java.io.IOException("the restart command failed");
            })
                    .run(pick("mpa.framing.bad-crc").get(0));
            assertThat(r.verdict()).isEqualTo(Result.Verdict.ERROR);
            assertThat(r.notes()).anyMatch(n -> n.contains("restarting it failed: the restart command failed"));
        });
    }

    @Test
    void aRestartedAgentIsReachedThroughANewControlChannel() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    io.rddp.rnic.ConnectionSettings.defaults(rnic));
            io.rddp.dut.ControlServer first = new io.rddp.dut.ControlServer(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    () -> new io.rddp.rnic.RnicControl(rnic, "test"));
            InetSocketAddress at = first.address();
            io.rddp.dut.ControlServer[] second = new io.rddp.dut.ControlServer[1];
            AgentDut dut = new AgentDut(io.rddp.conformance.ControlClient.connect(at, 2000),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), l.port()), l.port());
            try (dut) {
                first.close(); // the agent died: its control channel is gone
                Result r = new Runner(dut, Timeouts.defaults(), null, x -> { }).onDead(() -> {
                    second[0] = new io.rddp.dut.ControlServer(at, () -> new io.rddp.rnic.RnicControl(rnic, "test"));
                    return "started the agent again";
                }).run(pick("mpa.framing.bad-crc").get(0));
                assertThat(second[0]).as("the restart hook ran").isNotNull();
                assertThat(r.notes()).anyMatch(n -> n.contains("started the agent again") && n.contains("live again"));
                Result after = new Runner(dut, Timeouts.defaults(), null, x -> { })
                        .run(pick("positive.send-read-back").get(0));
                assertThat(after.verdict()).as(after.notes().toString()).isEqualTo(Result.Verdict.PASS);
            } finally {
                if (second[0] != null) second[0].close();
            }
        }
    }
}
