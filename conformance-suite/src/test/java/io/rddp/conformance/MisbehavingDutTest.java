package io.rddp.conformance;

import io.rddp.testing.LoopbackServer;
import io.rddp.mpa.MpaStartFrame;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DUTs that misbehave without flooding (FloodingDutTest has those): silent after accepting, resetting every
 * connection, trickling its MPA Reply one octet a second, resetting right after its Reply. Each scenario against them
 * ends with a verdict on the DUT in bounded time, never hangs the tester nor passes, and the run goes on.
 */
@org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
class MisbehavingDutTest {

    enum Misbehaviour { SILENT, RESET_AT_ONCE, TRICKLE, RESET_AFTER_REPLY }

    /** What the misbehaving DUT does with every connection: the same wrong thing. */
    static final class Server {
        private Server() {
        }

        static void serve(Socket s, Misbehaviour how) {
            try {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                byte[] reply = MpaStartFrame.reply(false, false, false, 2,
                        new MpaStartFrame.Enhanced(1, 1, false, false, false, false), new byte[0]).toBytes();
                switch (how) {
                    case SILENT -> in.transferTo(OutputStream.nullOutputStream());
                    case RESET_AT_ONCE -> reset(s);
                    case TRICKLE -> {
                        for (byte b : reply) {
                            out.write(b);
                            out.flush();
                            Thread.sleep(1000);
                        }
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                    case RESET_AFTER_REPLY -> {
                        Thread.sleep(20); // the tester's Request first
                        out.write(reply);
                        out.flush();
                        Thread.sleep(50);
                        reset(s);
                    }
                }
            } catch (IOException | InterruptedException ignored) {
                // the tester went away
            }
        }

        private static void reset(Socket s) throws IOException {
            s.setSoLinger(true, 0);
            s.close();
        }
    }

    private static List<Scenario> scenarios() {
        return Catalog.load().scenarios().stream().filter(s -> List.of("positive.write-then-read",
                "ddp.tagged.invalid-stag", "mpa.startup.bad-key").contains(s.info().id())).toList();
    }

    @ParameterizedTest
    @EnumSource(Misbehaviour.class)
    void everyScenarioEndsWithAVerdictOnTheDutInBoundedTime(Misbehaviour how) throws Exception {
        try (LoopbackServer server = new LoopbackServer("misbehaving", (s, srv) -> Server.serve(s, how))) {
            FloodingDutTest.PlainDut dut = new FloodingDutTest.PlainDut(server.address());
            long t0 = System.nanoTime();
            List<Result> rs = new Runner(dut, Timeouts.defaults().scaled(0.5), null, r -> { }).run(scenarios());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(rs).as(PeerSuiteTest.table(rs)).hasSize(3)
                    .allMatch(r -> r.verdict() == Result.Verdict.FAIL, "each failed by the DUT's misbehaviour");
            assertThat(ms).as("three scenarios against a " + how + " DUT").isLessThan(60_000);
            for (ScriptedConnection c : dut.opened) c.close();
        }
    }
}
