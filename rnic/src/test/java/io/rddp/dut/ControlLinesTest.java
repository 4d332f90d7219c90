package io.rddp.dut;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A DUT agent that trickles or floods its control channel holds the tester neither for ever nor in memory. */
class ControlLinesTest {

    private interface Agent {
        void talk(OutputStream out) throws Exception;
    }

    /** A control "agent" that writes as {@code agent} says, and the tester's reader of its first line. */
    private static void against(Agent agent, Check check) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket tester = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket dut = server.accept()) {
            Thread t = new Thread(() -> {
                try {
                    agent.talk(dut.getOutputStream());
                } catch (Exception ignored) {
                    // the tester went away
                }
            }, "agent");
            t.setDaemon(true);
            t.start();
            check.run(tester, new BufferedReader(new InputStreamReader(tester.getInputStream(),
                    StandardCharsets.UTF_8)));
        }
    }

    private interface Check {
        void run(Socket s, BufferedReader in) throws Exception;
    }

    @Test
    void aResponseTrickledAByteAtATimeTimesOutAtTheDeadlineOfTheWholeLine() throws Exception {
        against(out -> {
            while (true) {
                out.write('{');
                out.flush();
                Thread.sleep(100); // each read comes well within any per-read timeout
            }
        }, (s, in) -> {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> ControlLines.readLine(in, s, System.nanoTime() + 700_000_000L, 1 << 20))
                    .isInstanceOf(SocketTimeoutException.class);
            assertThat((System.nanoTime() - t0) / 1_000_000L).isBetween(600L, 3000L);
        });
    }

    @Test
    void aResponseThatNeverEndsIsRefusedPastTheLineCap() throws Exception {
        against(out -> {
            byte[] x = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
            while (true) out.write(x);
        }, (s, in) -> assertThatThrownBy(() -> ControlLines.readLine(in, s, System.nanoTime() + 10_000_000_000L,
                1 << 20)).hasMessageContaining("longer than 1048576 characters"));
    }

    @Test
    void anOrdinaryResponseLineIsReadWithoutItsLineEnd() throws Exception {
        against(out -> out.write("{\"id\":1,\"ok\":true}\r\n{\"id\":2}\n".getBytes(StandardCharsets.US_ASCII)),
                (s, in) -> {
                    long deadline = System.nanoTime() + 5_000_000_000L;
                    assertThat(ControlLines.readLine(in, s, deadline, 1 << 20)).isEqualTo("{\"id\":1,\"ok\":true}");
                    assertThat(ControlLines.readLine(in, s, deadline, 1 << 20)).isEqualTo("{\"id\":2}");
                });
    }
}
