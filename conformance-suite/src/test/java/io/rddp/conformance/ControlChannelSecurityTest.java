package io.rddp.conformance;

import io.rddp.dut.ControlChannelException;
import io.rddp.dut.ControlServer;
import io.rddp.dut.ControlToken;
import io.rddp.dut.DutException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.conformance.AgentDut;
import io.rddp.conformance.Catalog;
import io.rddp.conformance.Result;
import io.rddp.conformance.Runner;
import io.rddp.conformance.Timeouts;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicControl;
import io.rddp.rnic.RnicListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The control channel as a hostile network sees it (docs/dut-control.md version 2, docs/security.md): over real loopback
 * sockets against the emulated RNIC's {@link RnicControl}, an unauthenticated client gets nothing but hello, a wrong
 * token is refused, the right one works end to end; a silent client, a stale session and a quick reconnect after bye
 * do not keep the tester out; malformed lines, deep nesting and concurrent clients are answered, and no request,
 * however big, takes the server down.
 */
@Timeout(60)
class ControlChannelSecurityTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] SECRET = HexFormat.of().parseHex("00112233445566778899aabbccddeeff"
            + "0123456789abcdef0123456789abcdef");
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final List<String> OPS = List.of("alloc_pd", "listen", "accept", "connect", "register",
            "deregister", "post_recv", "post_send", "invalidate", "poll", "events", "read_mem", "write_mem", "qp",
            "close", "reset", "bye", "frobnicate");

    @TempDir
    Path tmp;

    private static ControlServer serve(Rnic rnic, ControlServer.Options o) throws IOException {
        return new ControlServer(LOOPBACK, o, () -> new RnicControl(rnic, "test"));
    }

    private static ControlServer.Options token() {
        return ControlServer.Options.defaults().withSecret(SECRET);
    }

    /** A raw line client: what an attacker without the tester's code sends. */
    private static final class Raw implements AutoCloseable {
        final Socket s;
        final BufferedReader in;
        final OutputStream out;

        Raw(InetSocketAddress at) throws IOException {
            s = new Socket();
            s.connect(at, 2000);
            s.setSoTimeout(10_000);
            in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            out = s.getOutputStream();
        }

        void sendRaw(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        JsonNode call(String line) throws IOException {
            sendRaw(line + "\n");
            String r = in.readLine();
            if (r == null) throw new IOException("closed");
            return JSON.readTree(r);
        }

        /** Milliseconds until the server closes the connection (reading whatever it says). */
        long closedWithin(long maxMs) throws IOException {
            long t0 = System.nanoTime();
            s.setSoTimeout((int) maxMs);
            try {
                while (in.readLine() != null) {
                    // answers before the close
                }
            } catch (SocketTimeoutException e) {
                return Long.MAX_VALUE;
            } catch (IOException e) {
                // reset: closed too
            }
            return (System.nanoTime() - t0) / 1_000_000L;
        }

        @Override
        public void close() throws IOException {
            s.close();
        }
    }

    private static String code(JsonNode r) {
        return r.path("error").path("code").asText("");
    }

    private static String hello(int version) {
        return "{\"op\":\"hello\",\"id\":1,\"version\":" + version + ",\"client_nonce\":\""
                + HexFormat.of().formatHex(ControlToken.random(32)) + "\"}";
    }

    // ---------------------------------------------------------------- authentication

    @Test
    void anUnauthenticatedClientGetsNothingButHello() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, token());
             Raw c = new Raw(cs.address())) {
            for (String op : OPS) {
                JsonNode r = c.call("{\"op\":\"" + op + "\",\"id\":7,\"length\":4096,\"host\":\"127.0.0.1\","
                        + "\"port\":9}");
                assertThat(code(r)).as(op).isEqualTo("unauthorized");
                assertThat(r.path("id").asInt()).isEqualTo(7);
            }
            // the first hello only brings a challenge: still nothing else is allowed
            JsonNode ch = c.call(hello(2));
            assertThat(ch.path("ok").asBoolean()).isTrue();
            assertThat(ch.path("challenge").asText()).hasSize(64);
            assertThat(ch.has("caps")).as("no capabilities before the proof").isFalse();
            assertThat(code(c.call("{\"op\":\"register\",\"length\":4096}"))).isEqualTo("unauthorized");
            assertThat(rnic.memory().size()).isZero();
        }
    }

    @Test
    void aVersionOneClientIsToldAboutVersionTwoAndTheToken() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, token());
             Raw c = new Raw(cs.address())) {
            JsonNode r = c.call("{\"op\":\"hello\",\"id\":1,\"version\":1,\"client\":\"old\"}");
            assertThat(code(r)).isEqualTo("not-supported");
            assertThat(r.path("version").asInt()).isEqualTo(2);
            assertThat(r.path("error").path("message").asText()).contains("version 2").contains("token");
        }
    }

    @Test
    void aWrongTokenIsRefusedAndTheConnectionClosed() throws Exception {
        byte[] wrong = SECRET.clone();
        wrong[0] ^= 1;
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, token())) {
            try (ControlClient c = ControlClient.connect(cs.address(), 2000, wrong)) {
                assertThatThrownBy(() -> c.hello("test")).isInstanceOf(DutException.class)
                        .hasMessageContaining("refused the token")
                        .extracting(e -> ((DutException) e).code()).isEqualTo("unauthorized");
                assertThatThrownBy(() -> c.call("reset")).isInstanceOf(ControlChannelException.class);
            }
            try (ControlClient c = ControlClient.connect(cs.address(), 2000)) {
                assertThatThrownBy(() -> c.hello("test")).isInstanceOf(DutException.class)
                        .hasMessageContaining("needs a token").hasMessageContaining("--control-token-file");
            }
            // a proof made up without the secret
            try (Raw c = new Raw(cs.address())) {
                c.call(hello(2));
                JsonNode r = c.call("{\"op\":\"hello\",\"version\":2,\"client_nonce\":\"" + "ab".repeat(32)
                        + "\",\"proof\":\"" + "00".repeat(32) + "\"}");
                assertThat(code(r)).isEqualTo("unauthorized");
                assertThat(c.closedWithin(2000)).isLessThan(2000);
            }
            assertThat(rnic.memory().size()).isZero();
        }
    }

    @Test
    void theRightTokenRunsAScenarioThroughAgentDut() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = rnic.listen(LOOPBACK, false, ConnectionSettings.defaults(rnic));
            try (ControlServer cs = serve(rnic, token());
                 AgentDut dut = new AgentDut(ControlClient.connect(cs.address(), 2000, SECRET),
                         new InetSocketAddress(InetAddress.getLoopbackAddress(), l.port()), l.port())) {
                assertThat(dut.capabilities()).contains("control", "mpa-rev2");
                Result r = new Runner(dut, Timeouts.defaults(), null, x -> { }).run(Catalog.load().scenarios()
                        .stream().filter(s -> s.info().id().equals("positive.write.1")).findFirst().orElseThrow());
                assertThat(r.verdict()).as(r.notes().toString()).isEqualTo(Result.Verdict.PASS);
                // a revived DUT is reached with the same token
                dut.revived();
                assertThat(dut.control().call("events").path("ok").asBoolean()).isTrue();
            }
        }
    }

    @Test
    void theTesterRefusesADutThatCannotProveItHasTheToken() throws Exception {
        // a fake DUT: it answers the challenge step, then claims success with a made-up proof
        try (ServerSocket fake = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = fake.accept()) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                            StandardCharsets.UTF_8));
                    OutputStream out = s.getOutputStream();
                    JsonNode first = JSON.readTree(in.readLine());
                    out.write(("{\"id\":" + first.path("id") + ",\"ok\":true,\"version\":2,\"auth\":\"hmac-sha256\","
                            + "\"challenge\":\"" + "11".repeat(32) + "\"}\n").getBytes(StandardCharsets.UTF_8));
                    JsonNode second = JSON.readTree(in.readLine());
                    out.write(("{\"id\":" + second.path("id") + ",\"ok\":true,\"version\":2,\"auth\":\"hmac-sha256\","
                            + "\"server_proof\":\"" + "22".repeat(32) + "\",\"caps\":{}}\n")
                            .getBytes(StandardCharsets.UTF_8));
                    in.readLine();
                } catch (IOException e) {
                    // the test is over
                }
            });
            t.setDaemon(true);
            t.start();
            try (ControlClient c = ControlClient.connect((InetSocketAddress) fake.getLocalSocketAddress(), 2000,
                    SECRET)) {
                assertThatThrownBy(() -> c.hello("test")).isInstanceOf(DutException.class)
                        .hasMessageContaining("did not prove");
            }
        }
        // and one that asks for no token while the tester has one
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null);
             ControlServer cs = serve(rnic, ControlServer.Options.defaults());
             ControlClient c = ControlClient.connect(cs.address(), 2000, SECRET)) {
            assertThatThrownBy(() -> c.hello("test")).isInstanceOf(DutException.class)
                    .hasMessageContaining("asks for no token");
        }
    }

    @Test
    void aNonLoopbackBindWithoutATokenIsRefused() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null)) {
            assertThatThrownBy(() -> new ControlServer(new InetSocketAddress("0.0.0.0", 0),
                    () -> new RnicControl(rnic, "test"))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("token");
            // with a token it may (bound to loopback here all the same: the test sends nothing beyond it)
            try (ControlServer cs = serve(rnic, token())) {
                assertThat(cs.port()).isPositive();
            }
        }
    }

    @Test
    void tokenFilesAreMadePrivateAndRefusedWhenOthersCanReadThem() throws Exception {
        Path f = tmp.resolve("dut.token");
        byte[] made = ControlToken.readOrCreate(f);
        assertThat(made).hasSize(32);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        assertThat(Files.readString(f).strip()).matches("[0-9a-f]{64}");
        assertThat(ControlToken.readOrCreate(f)).isEqualTo(made);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> ControlToken.read(f)).hasMessageContaining("chmod 600");
        Path shortOne = tmp.resolve("short.token");
        Files.writeString(shortOne, "abcd\n");
        Files.setPosixFilePermissions(shortOne, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> ControlToken.read(shortOne)).hasMessageContaining("at least 16");
        assertThatThrownBy(() -> ControlToken.read(tmp.resolve("missing"))).hasMessageContaining("does not exist");
    }

    // ---------------------------------------------------------------- squatting

    @Test
    void aSilentClientIsClosedAtTheHelloTimeoutAndNeverKeepsTheTesterOut() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null);
             ControlServer cs = serve(rnic, token().withHelloTimeout(Duration.ofSeconds(2)));
             Raw squatter = new Raw(cs.address()); Raw trickler = new Raw(cs.address())) {
            trickler.sendRaw("{\"op\":\"hel"); // a line that never ends
            // the tester gets in while they sit there
            try (ControlClient c = ControlClient.connect(cs.address(), 2000, SECRET)) {
                assertThat(c.hello("tester").path("caps").isObject()).isTrue();
                c.call("bye");
            }
            assertThat(squatter.closedWithin(4000)).as("the squatter is closed at the 2 s hello timeout")
                    .isBetween(500L, 3000L);
            assertThat(trickler.closedWithin(2000)).isLessThan(2000L);
            try (ControlClient c = ControlClient.connect(cs.address(), 2000, SECRET)) {
                assertThat(c.hello("tester").path("ok").asBoolean()).isTrue();
            }
        }
    }

    @Test
    void aStaleSessionIsTakenOverByAnAuthenticatedClientAndABusyOneIsNot() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null);
             ControlServer cs = serve(rnic, token().withTakeoverAfter(Duration.ofMillis(800)))) {
            ControlClient first = ControlClient.connect(cs.address(), 2000, SECRET);
            first.hello("first");
            first.call(ControlClient.request("register").put("length", 4096));
            try (ControlClient second = ControlClient.connect(cs.address(), 2000, SECRET)) {
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> second.hello("second")).isInstanceOf(DutException.class)
                        .extracting(e -> ((DutException) e).code()).isEqualTo("state");
                assertThat((System.nanoTime() - t0) / 1_000_000L).as("refused quickly").isLessThan(1500L);
            }
            // an unauthenticated client cannot take it over, however stale
            Thread.sleep(1000);
            try (Raw raw = new Raw(cs.address())) {
                assertThat(code(raw.call("{\"op\":\"reset\"}"))).isEqualTo("unauthorized");
            }
            assertThat(rnic.memory().size()).isEqualTo(1);
            try (ControlClient third = ControlClient.connect(cs.address(), 2000, SECRET)) {
                assertThat(third.hello("third").path("ok").asBoolean()).isTrue();
                assertThat(rnic.memory().size()).as("the stale session was cleaned up").isZero();
                assertThatThrownBy(() -> first.call("events")).isInstanceOf(ControlChannelException.class);
                third.call("bye");
            }
            first.close();
        }
    }

    @Test
    void anIdleSessionIsClosed() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null);
             ControlServer cs = serve(rnic, ControlServer.Options.defaults().withIdleTimeout(Duration.ofMillis(700))
                     .withTakeoverAfter(Duration.ofMinutes(5)));
             Raw idle = new Raw(cs.address())) {
            assertThat(idle.call(hello(2)).path("ok").asBoolean()).isTrue();
            assertThat(idle.call("{\"op\":\"register\",\"length\":64}").path("ok").asBoolean()).isTrue();
            assertThat(idle.closedWithin(3000)).isBetween(300L, 2000L);
            try (ControlClient c = ControlClient.connect(cs.address(), 2000)) {
                c.hello("next");
                assertThat(rnic.memory().size()).isZero();
            }
        }
    }

    @Test
    void aClientGetsInRightAfterByeAndFindsTheSessionCleanedUp() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, token())) {
            for (int i = 0; i < 25; i++) {
                try (ControlClient c = ControlClient.connect(cs.address(), 2000, SECRET)) {
                    c.hello("round " + i);
                    c.call(ControlClient.request("register").put("length", 4096));
                    c.call(ControlClient.request("listen").put("port", 0).put("host", "127.0.0.1"));
                    c.call("bye");
                    assertThat(rnic.memory().size()).as("cleaned up before bye was answered").isZero();
                    assertThat(rnic.listeners()).isEmpty();
                }
            }
        }
    }

    // ---------------------------------------------------------------- memory

    @Test
    void requestsBeyondTheMemoryCapsAreRefusedAndTheServerGoesOn() throws Exception {
        // the caps of a 64 MiB heap: 16 MiB in all, 8 MiB a region
        RnicConfig.Limits limits = RnicConfig.Limits.forHeap(64L << 20);
        assertThat(limits.maxMemory()).isEqualTo(16L << 20);
        assertThat(limits.maxMrSize()).isEqualTo(8 << 20);
        try (Rnic rnic = new Rnic(RnicConfig.defaults().withLimits(limits), null); ControlServer cs = serve(rnic,
                token()); ControlClient c = ControlClient.connect(cs.address(), 2000, SECRET)) {
            c.hello("tester");
            JsonNode lst = c.call(ControlClient.request("listen").put("port", 0).put("host", "127.0.0.1"));
            JsonNode qp = c.call(ControlClient.request("connect").put("host", "127.0.0.1")
                    .put("port", lst.path("port").asInt()).put("timeout_ms", 5000));
            int qpn = qp.path("qp").asInt();
            assertThat(limitCode(c, ControlClient.request("register").put("length", 9 << 20)))
                    .isEqualTo("resource-limit");
            c.call(ControlClient.request("register").put("length", 7 << 20));
            // receives without a region count: 64 x 8 MiB (512 MiB) would be an OutOfMemoryError without the cap
            assertThat(limitCode(c, ControlClient.request("post_recv").put("qp", qpn).put("length", 8 << 20)
                    .put("count", 64))).isEqualTo("resource-limit");
            c.call(ControlClient.request("post_recv").put("qp", qpn).put("length", 4 << 20).put("count", 2));
            assertThat(limitCode(c, ControlClient.request("register").put("length", 4 << 20)))
                    .isEqualTo("resource-limit");
            // 15 MiB held: 2 MiB more are over, 1 MiB fits
            assertThat(limitCode(c, ControlClient.request("post_recv").put("qp", qpn).put("length", 2 << 20)))
                    .isEqualTo("resource-limit");
            c.call(ControlClient.request("post_recv").put("qp", qpn).put("length", 1 << 20));
            assertThat(limitCode(c, ControlClient.request("listen").put("port", 0).put("host", "127.0.0.1")
                    .set("recv", JSON.createObjectNode().put("count", 1024).put("length", 1 << 20))))
                    .isEqualTo("resource-limit");
            assertThat(rnic.memory().used()).isLessThanOrEqualTo(16L << 20);
            // the session is alive and a reset gives the memory back
            c.call("reset");
            assertThat(rnic.memory().used()).isZero();
            c.call(ControlClient.request("register").put("length", 8 << 20));
            c.call("bye");
        }
    }

    @Test
    void whateverASessionThrowsIsAnsweredAndTheSessionGoesOn() throws Exception {
        ControlServer.Session session = new ControlServer.Session() {
            @Override
            public ObjectNode handle(String op, JsonNode request) {
                return switch (op) {
                    case "npe" -> throw new NullPointerException("a bug");
                    case "deep" -> throw new StackOverflowError();
                    case "oom" -> throw new OutOfMemoryError("Java heap space");
                    default -> JSON.createObjectNode().put("fine", true);
                };
            }

            @Override
            public void close() {
            }
        };
        try (ControlServer cs = new ControlServer(LOOPBACK, () -> session);
             ControlClient c = ControlClient.connect(cs.address(), 2000)) {
            c.hello("t");
            for (String[] op : new String[][]{{"npe", "failed"}, {"deep", "failed"}, {"oom", "resource-limit"}}) {
                assertThat(limitCode(c, ControlClient.request(op[0]))).as(op[0]).isEqualTo(op[1]);
                assertThat(c.call("ping").path("fine").asBoolean()).isTrue();
            }
        }
    }

    private static String limitCode(ControlClient c, ObjectNode req) throws IOException {
        try {
            c.call(req);
            return "ok";
        } catch (DutException e) {
            return e.code();
        }
    }

    // ---------------------------------------------------------------- malformed lines, concurrency

    @Test
    void malformedLinesAreAnsweredAndNeverTakeTheServerDown() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, token())) {
            try (Raw c = new Raw(cs.address())) {
                assertThat(code(c.call("this is not json"))).isEqualTo("bad-request");
                assertThat(c.closedWithin(2000)).isLessThan(2000L);
            }
            try (Raw c = new Raw(cs.address())) {
                String deep = "[".repeat(100_000) + "]".repeat(100_000);
                assertThat(code(c.call("{\"op\":\"hello\",\"id\":" + deep.substring(0, 1000) + "}")))
                        .isEqualTo("bad-request");
                try {
                    c.sendRaw(deep + "\n"); // longer than a line before authentication may be: closed
                } catch (IOException e) {
                    // the server closed while the 200 KB line was still going out: what the test wants
                }
                assertThat(c.closedWithin(2000)).isLessThan(2000L);
            }
            try (Raw c = new Raw(cs.address())) {
                try {
                    c.sendRaw("{\"op\":\"hello\"" + " ".repeat(10_000) + "}\n");
                } catch (IOException e) {
                    // closed at the 4 KiB limit while the rest was going out
                }
                assertThat(c.closedWithin(2000)).isLessThan(2000L);
            }
            // an authenticated session: deep nesting is refused and the session goes on
            try (ControlClient t = ControlClient.connect(cs.address(), 2000, SECRET)) {
                t.hello("tester");
                ObjectNode deep = ControlClient.request("register").put("length", 64);
                ObjectNode at = deep.putObject("x");
                for (int i = 0; i < 40; i++) at = at.putObject("x");
                assertThatThrownBy(() -> t.call(deep)).isInstanceOf(IOException.class);
                assertThat(t.call(ControlClient.request("register").put("length", 64)).path("ok").asBoolean())
                        .isTrue();
            }
            try (Raw c = new Raw(cs.address())) {
                c.call(hello(2));
            }
            try (ControlClient t = ControlClient.connect(cs.address(), 2000, SECRET)) {
                t.hello("tester");
                assertThat(t.call(ControlClient.request("register").put("length", 64)).path("ok").asBoolean())
                        .isTrue();
                t.call("bye");
            }
        }
    }

    @Test
    void concurrentClientsGetOneSessionAndTheRestAnAnswer() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, token())) {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<ControlClient> clients = new ArrayList<>();
                List<Future<String>> outcomes = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    ControlClient c = ControlClient.connect(cs.address(), 2000, SECRET);
                    clients.add(c);
                    Callable<String> hello = () -> {
                        try {
                            c.hello("racer");
                            return "in";
                        } catch (DutException e) {
                            return e.code();
                        }
                    };
                    outcomes.add(pool.submit(hello));
                }
                List<String> got = new ArrayList<>();
                for (Future<String> f : outcomes) got.add(f.get(10, TimeUnit.SECONDS));
                assertThat(got).containsOnly("in", "state");
                assertThat(got.stream().filter("in"::equals).count()).isEqualTo(1);
                ControlClient winner = clients.get(got.indexOf("in"));
                winner.call("bye");
                for (ControlClient c : clients) c.close();
                try (ControlClient next = ControlClient.connect(cs.address(), 2000, SECRET)) {
                    assertThat(next.hello("next").path("ok").asBoolean()).isTrue();
                }
            } finally {
                pool.shutdownNow();
            }
        }
        // more silent connections than may wait: the surplus is refused at once
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null);
             ControlServer cs = serve(rnic, token().withMaxWaiting(2));
             Raw a = new Raw(cs.address()); Raw b = new Raw(cs.address())) {
            Thread.sleep(200);
            try (Raw c = new Raw(cs.address())) {
                String line = c.in.readLine();
                assertThat(line).contains("too many connections");
            }
        }
    }
}
