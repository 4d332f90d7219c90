package io.rddp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.ControlClient;
import io.rddp.dut.ControlServer;
import io.rddp.dut.ControlToken;
import io.rddp.dut.DutException;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicControl;
import io.rddp.rnic.RnicListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The token options of {@code rddp peer} and {@code rddp conform} as a user meets them: a bind beyond loopback
 * without a token and a token file others can read stop the peer with one line; conform says in one line that the
 * DUT needs a token or refused the one given, and runs with the right one. And the peer as launched with a small
 * heap: requests for more memory than it has are refused, never an OutOfMemoryError.
 */
@Timeout(120)
class ControlTokenCliTest {

    @TempDir
    Path tmp;

    private static Object[] run(String... args) {
        return CliRun.run(args);
    }

    @Test
    void thePeerRefusesANonLoopbackControlWithoutATokenAndAnOpenTokenFile() throws Exception {
        Object[] r = run("peer", "--listen", "127.0.0.1:0", "--control", "0.0.0.0:0");
        assertThat(r[0]).isEqualTo(Main.EXIT_BAD_INPUT);
        String err = ((String) r[2]).strip();
        assertThat(err).doesNotContain("\n").contains("not a loopback address").contains("--token-file");
        assertThat((String) r[1]).as("nothing listened").doesNotContain("listening");

        Path open = tmp.resolve("open.token");
        Files.writeString(open, "00112233445566778899aabbccddeeff\n");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        r = run("peer", "--listen", "127.0.0.1:0", "--control", "0.0.0.0:0", "--token-file", open.toString());
        assertThat(r[0]).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(((String) r[2]).strip()).doesNotContain("\n").contains("chmod 600");
    }

    @Test
    void conformSaysInOneLineThatATokenIsMissingOrWrongAndRunsWithTheRightOne() throws Exception {
        Path token = tmp.resolve("dut.token");
        byte[] secret = ControlToken.readOrCreate(token);
        Path wrong = tmp.resolve("wrong.token");
        ControlToken.readOrCreate(wrong);
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    ConnectionSettings.defaults(rnic));
            try (ControlServer cs = new ControlServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    ControlServer.Options.defaults().withSecret(secret), () -> new RnicControl(rnic, "test"))) {
                String[] dut = {"conform", "--profile", "agent", "--target", "127.0.0.1:" + l.port(), "--control",
                        "127.0.0.1:" + cs.port(), "--only", "positive.write.1"};
                Object[] none = run(dut);
                assertThat(none[0]).isEqualTo(Main.EXIT_BAD_INPUT);
                assertThat(((String) none[2]).strip()).doesNotContain("\n").contains("needs a token")
                        .contains("--control-token-file");
                Object[] bad = run(concat(dut, "--control-token-file", wrong.toString()));
                assertThat(bad[0]).isEqualTo(Main.EXIT_BAD_INPUT);
                assertThat(((String) bad[2]).strip()).doesNotContain("\n").contains("refused the token");
                Object[] good = run(concat(dut, "--control-token-file", token.toString()));
                assertThat(good[0]).as(good[1] + "\n" + good[2]).isEqualTo(Main.EXIT_OK);
                assertThat((String) good[1]).contains("positive.write.1");
            }
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** rddp peer in a JVM of 64 MiB: its caps are about 16 MiB in all, 8 MiB a region, whatever a client asks. */
    @Test
    void aPeerWithASmallHeapRefusesWhatWouldExhaustIt() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), "io.rddp.cli.Main", "peer", "--listen", "127.0.0.1:0",
                "--control", "127.0.0.1:0", "--duration", "60").redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            int port = -1;
            StringBuilder seen = new StringBuilder(); // everything the peer printed
            Pattern at = Pattern.compile("DUT control protocol on 127\\.0\\.0\\.1:(\\d+).*memory cap ([\\d.]+) MiB,"
                    + " ([\\d.]+) MiB a region");
            for (String line; port < 0 && (line = out.readLine()) != null; ) {
                seen.append(line).append('\n');
                Matcher m = at.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                    // a quarter and an eighth of what the JVM reports as its heap (a little under 64 MiB)
                    assertThat(Double.parseDouble(m.group(2))).isBetween(14.0, 16.0);
                    assertThat(Double.parseDouble(m.group(3))).isBetween(7.0, 8.0);
                }
            }
            assertThat(port).as(seen.toString()).isPositive();
            Thread drain = new Thread(() -> {
                try {
                    for (String line; (line = out.readLine()) != null; ) {
                        synchronized (seen) {
                            seen.append(line).append('\n');
                        }
                    }
                } catch (java.io.IOException e) {
                    // the process was stopped
                }
            });
            drain.setDaemon(true);
            drain.start();
            InetSocketAddress control = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            try (ControlClient c = ControlClient.connect(control, 2000)) {
                c.hello("test");
                JsonNode lst = c.call(ControlClient.request("listen").put("port", 0).put("host", "127.0.0.1"));
                int qp = c.call(ControlClient.request("connect").put("host", "127.0.0.1")
                        .put("port", lst.path("port").asInt()).put("timeout_ms", 5000)).path("qp").asInt();
                // the old defaults (1 GiB, 64 MiB a region) let these take the 64 MiB heap down
                for (int i = 0; i < 2; i++) c.call(ControlClient.request("register").put("length", 7 << 20));
                assertThat(code(c, ControlClient.request("register").put("length", 7 << 20))).isEqualTo("resource-limit");
                assertThat(code(c, ControlClient.request("register").put("length", 64 << 20)))
                        .isEqualTo("resource-limit");
                assertThat(code(c, ControlClient.request("post_recv").put("qp", qp).put("length", 8 << 20)
                        .put("count", 64))).isEqualTo("resource-limit");
                c.call("bye");
            }
            try (ControlClient c = ControlClient.connect(control, 2000)) {
                c.hello("next");
                for (int i = 0; i < 2; i++) c.call(ControlClient.request("register").put("length", 7 << 20));
                c.call("bye");
            }
            assertThat(p.isAlive()).isTrue();
            Thread.sleep(200);
            synchronized (seen) {
                assertThat(seen.toString()).doesNotContain("OutOfMemoryError").doesNotContain("Exception");
            }
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            if (p.isAlive()) p.destroyForcibly();
        }
    }

    private static String code(ControlClient c, com.fasterxml.jackson.databind.node.ObjectNode req)
            throws Exception {
        try {
            c.call(req);
            return "ok";
        } catch (DutException e) {
            return e.code();
        }
    }
}
