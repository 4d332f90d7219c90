package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.dut.ControlToken;
import io.rddp.dut.DutException;
import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The tester's own control client against the Python DUT agent (agent/rddp-dut-agent) over loopback TCP: companion
 * sessions as docs/dut-control.md says and as {@link CompanionSessionsTest} checks them on {@code rddp peer}. The agent
 * runs on agent/tests/agent_without_rdma.py, a stand-in of pyverbs and librdmacm for tests (no RDMA device, no data
 * moves): what is tested is its control server, authentication and session bookkeeping. Skipped without python3.
 */
class AgentCompanionSessionsTest {

    private static final Pattern CONTROL_ON = Pattern.compile("control on 127\\.0\\.0\\.1:(\\d+)");

    @TempDir
    Path dir;
    private Process agent;
    private InetSocketAddress address;
    private byte[] secret;

    @BeforeEach
    void start() throws Exception {
        assumeTrue(python3(), "python3 is not installed");
        secret = ControlToken.random(32);
        Path token = dir.resolve("dut.token");
        Files.writeString(token, HexFormat.of().formatHex(secret) + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        Path launcher = RepoPaths.root().resolve("agent/tests/agent_without_rdma.py");
        agent = new ProcessBuilder("python3", launcher.toString(), "--control", "127.0.0.1:0", "--token-file",
                token.toString(), "--sessions", "3", "--max-memory", "64").redirectErrorStream(true).start();
        BufferedReader log = new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        StringBuilder seen = new StringBuilder();
        while (address == null && System.nanoTime() < deadline) {
            String line = log.readLine();
            if (line == null) break;
            seen.append(line).append('\n');
            Matcher m = CONTROL_ON.matcher(line);
            if (m.find()) address = new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(m.group(1)));
        }
        assertThat(address).as("the agent's log: %s", seen).isNotNull();
        Thread drain = new Thread(() -> {
            try {
                while (log.readLine() != null) {
                    // the agent's session log: read so that it never blocks on a full pipe
                }
            } catch (IOException e) {
                // the agent ended
            }
        }, "agent-log");
        drain.setDaemon(true);
        drain.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.destroy();
            if (!agent.waitFor(5, TimeUnit.SECONDS)) agent.destroyForcibly();
        }
    }

    private static boolean python3() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private ControlClient client() throws IOException {
        return ControlClient.connect(address, 2000, secret);
    }

    @Test
    void aCompanionJoinsWithTheTicketAndResetsOnlyWhatItMade() throws Exception {
        try (ControlClient holder = client(); ControlClient companion = client()) {
            JsonNode hello = holder.hello("test");
            assertThat(hello.path("auth").asText()).isEqualTo("hmac-sha256");
            assertThat(hello.path("caps").path("sessions").asInt()).isEqualTo(3);
            assertThat(hello.path("device").path("name").asText()).isEqualTo("no-rdma0");
            JsonNode joined = companion.hello("test", hello.path("ticket").asText());
            assertThat(joined.has("ticket")).isFalse();
            int mine = holder.call(ControlClient.request("register").put("length", 64).put("fill", "aa"))
                    .path("mr").asInt();
            int theirs = companion.call(ControlClient.request("register").put("length", 64)).path("mr").asInt();
            int port = holder.call(ControlClient.request("listen").put("port", 0)).path("port").asInt();
            assertThatThrownBy(() -> companion.call(ControlClient.request("listen").put("port", port)))
                    .isInstanceOfSatisfying(DutException.class, e -> assertThat(e.code()).isEqualTo("state"))
                    .hasMessageContaining("another session's listener");

            companion.call("reset");

            assertThat(holder.call(ControlClient.request("read_mem").put("mr", mine).put("length", 2))
                    .path("data").asText()).isEqualTo("aaaa");
            assertThatThrownBy(() -> holder.call(ControlClient.request("read_mem").put("mr", theirs).put("length", 1)))
                    .isInstanceOfSatisfying(DutException.class, e -> assertThat(e.code()).isEqualTo("not-found"));
        }
    }

    @Test
    void aWrongTicketOrOneSessionTooManyIsRefusedWithState() throws Exception {
        try (ControlClient holder = client(); ControlClient wrong = client(); ControlClient first = client();
             ControlClient second = client(); ControlClient third = client()) {
            String ticket = holder.hello("test").path("ticket").asText();
            assertThatThrownBy(() -> wrong.hello("test", "00" + ticket.substring(2)))
                    .isInstanceOfSatisfying(DutException.class, e -> assertThat(e.code()).isEqualTo("state"))
                    .hasMessageContaining("no session holds that ticket, or it has 3 sessions already");
            first.hello("test", ticket);
            second.hello("test", ticket);
            assertThatThrownBy(() -> third.hello("test", ticket))
                    .isInstanceOfSatisfying(DutException.class, e -> assertThat(e.code()).isEqualTo("state"));
        }
    }

    @Test
    void theHoldersEndEndsItsCompanions() throws Exception {
        try (ControlClient companion = client()) {
            ControlClient holder = client();
            companion.hello("test", holder.hello("test").path("ticket").asText());
            int port = companion.call(ControlClient.request("listen").put("port", 0)).path("port").asInt();
            holder.call("bye");
            holder.close();
            assertThatThrownBy(() -> companion.call("reset")).isInstanceOf(IOException.class);
            try (ControlClient next = client()) {
                JsonNode hello = next.hello("test");
                assertThat(hello.path("listeners")).isEmpty();
                next.call(ControlClient.request("listen").put("port", port));
            }
        }
    }

    @Test
    void theAgentProfileOpensAsManyLanesAsTheAgentServesSessions() throws Exception {
        try (AgentDut dut = new AgentDut(client(), new InetSocketAddress(InetAddress.getLoopbackAddress(), 1), 1)) {
            assertThat(dut.jobLimit().max()).isEqualTo(3);
            try (AgentDut lane = dut.lane(2)) {
                assertThat(lane.laneNumber()).isEqualTo(2);
                assertThat(lane.capabilities()).isEqualTo(dut.capabilities());
            }
        }
    }
}
