package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.conformance.ControlClient;
import io.rddp.dut.DutException;
import io.rddp.rnic.link.Recorder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.sink.StagRegistration;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The agent profile: the DUT is driven through the DUT control protocol (docs/dut-control.md), by
 * `rddp peer --control` or the DUT agent on a host with a real RNIC. The tester asks it to listen, register a
 * canary-filled buffer, post receives, and reads its memory back after the scenario.
 */
public final class AgentDut implements Dut, ActiveDut {

    private ControlClient control;
    private final InetSocketAddress target;
    private final int dutPort;
    private final Set<String> caps = new HashSet<>();
    private String description;
    private boolean bigEndianAtomics;
    /** sessions the DUT's control server serves this tester at once (caps.sessions), and the ticket to join it */
    private int sessions = 1;
    private String ticket;
    /** the ticket this lane joined with (null: the holder's own session) */
    private final String joined;
    private final int lane;
    private boolean forwardedLanes;
    /** DUT-active sessions: where the tester listens, and the address the DUT is told to connect to */
    private InetSocketAddress testerBind = new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0);
    private InetSocketAddress testerAdvertised;
    /** the DUT's connect of each DUT-active session, answered in the background */
    private final java.util.Map<ScriptedConnection, CompletableFuture<JsonNode>> connecting =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** passive sessions whose MPA exchange the scenario ran itself: the listener to take their queue pair from */
    private final java.util.Map<ScriptedConnection, Integer> lateAccept = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<ScriptedConnection, Integer> acceptedLate =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param control  the DUT's control channel
     * @param target   where the tester reaches the DUT's iWARP listener
     * @param dutPort  the port the DUT listens on (the target's, unless something forwards it)
     */
    public AgentDut(ControlClient control, InetSocketAddress target, int dutPort) throws IOException, DutException {
        this(control, target, dutPort, null, 0);
    }

    private AgentDut(ControlClient control, InetSocketAddress target, int dutPort, String joined, int lane)
            throws IOException, DutException {
        this.control = control;
        this.target = target;
        this.dutPort = dutPort;
        this.joined = joined;
        this.lane = lane;
        try {
            hello();
        } catch (IOException | DutException | RuntimeException e) {
            control.close();
            throw e;
        }
    }

    /** The control protocol's hello: the DUT's capabilities and description. */
    private void hello() throws IOException, DutException {
        caps.clear();
        JsonNode hello = control.hello("rddp conform", joined);
        JsonNode c = hello.path("caps");
        sessions = Math.max(1, c.path("sessions").asInt(1));
        ticket = hello.path("ticket").asText(null);
        caps.add("control");
        for (JsonNode r : c.path("mpa_revisions")) caps.add("mpa-rev" + r.asInt());
        if (c.path("crc").asBoolean()) caps.add("crc");
        if (c.path("crc_off").asBoolean(true)) caps.add("crc-off");
        if (c.path("markers").asBoolean()) caps.add("markers");
        if (c.path("atomics").asBoolean()) caps.add("atomics");
        if (c.path("immediate").asBoolean()) caps.add("immediate");
        if (c.path("send_invalidate").asBoolean()) caps.add("send-invalidate");
        if (c.path("local_invalidate").asBoolean()) caps.add("local-invalidate");
        if (c.path("manual_accept").asBoolean()) caps.add("manual-accept");
        if (c.path("mpa_params").asBoolean()) caps.add("mpa-params");
        for (JsonNode r : c.path("rtr")) caps.add("rtr-" + r.asText());
        bigEndianAtomics = !"little".equals(c.path("atomic_byte_order").asText("big"));
        description = hello.path("server").asText("?") + ", device " + hello.path("device").path("name").asText("?")
                + (c.path("bugs").size() > 0 ? ", bugs " + c.path("bugs") : "");
    }

    @Override
    public String profile() {
        return "agent";
    }

    /** A restarted agent: a new control channel to the same address (with the same token), and hello again. */
    @Override
    public void revived() throws IOException, DutException {
        ControlClient old = control;
        old.close();
        connecting.clear();
        lateAccept.clear();
        acceptedLate.clear();
        control = old.reopen(5000);
        hello();
    }

    /** As many scenarios as the control server serves this tester sessions (caps.sessions), each with its own. */
    @Override
    public JobLimit jobLimit() {
        if (sessions > 1 && ticket != null) {
            return new JobLimit(sessions, "the DUT's control server serves " + sessions + " sessions at once");
        }
        return new JobLimit(1, "the DUT's control server serves one session at a time (its hello declares no"
                + " caps.sessions): each scenario needs a session of its own");
    }

    /**
     * Lane {@code k}: a companion session of this one (its ticket). When the tester reaches the DUT at the port it
     * listens on ({@code forwarded} false), the lane's DUT listens on a port of its choice and is reached there; behind
     * a port forward it listens on {@code dutPort + k}, reached at the target's port + k. The tester listens, for
     * DUT-active scenarios, on its port + k (any when 0), advertised at the advertised port + k. So a DUT behind a
     * port forward needs as many consecutive forwarded ports as jobs, both ways.
     */
    public AgentDut lane(int k, boolean forwarded) throws IOException, DutException {
        if (k < 1 || k >= jobLimit().max()) throw new IllegalArgumentException(jobLimit().why());
        AgentDut a = new AgentDut(control.reopen(5000), forwarded ? plus(target, k) : target, forwarded
                ? dutPort + k : 0, ticket, k);
        a.testerListen(testerBind.getPort() == 0 ? testerBind : plus(testerBind, k),
                testerAdvertised == null ? null : plus(testerAdvertised, k));
        return a;
    }

    private static InetSocketAddress plus(InetSocketAddress a, int k) {
        return a.getAddress() != null ? new InetSocketAddress(a.getAddress(), a.getPort() + k)
                : InetSocketAddress.createUnresolved(a.getHostString(), a.getPort() + k);
    }

    /**
     * As {@link #lane(int, boolean)}: forwarded when told so, or when the DUT listens on another port than the tester
     * reaches.
     */
    @Override
    public AgentDut lane(int k) throws IOException, DutException {
        return lane(k, forwardedLanes || dutPort != target.getPort());
    }

    /** The DUT is reached through port forwards (the lab's qemu guest): lanes take consecutive ports. */
    public void forwardedLanes(boolean v) {
        this.forwardedLanes = v;
    }

    /** 0 for the session that holds the DUT, k for the companion of {@link #lane(int)}. */
    public int laneNumber() {
        return lane;
    }

    @Override
    public Set<String> capabilities() {
        return caps;
    }

    @Override
    public String describe() {
        return description;
    }

    public ControlClient control() {
        return control;
    }

    public boolean bigEndianAtomics() {
        return bigEndianAtomics;
    }

    @Override
    public Session open(Setup s, Recorder recorder, Timeouts t) throws Exception {
        return open(s, recorder, t, null, null);
    }

    /**
     * As {@link #open(Setup, Recorder, Timeouts)}, with extra fields for the DUT's {@code listen} request (e.g. its
     * {@code mpa} choices, the {@code private_data} of its Reply) and, with a manual accept, for its {@code accept}
     * (e.g. {@code reject}); either may be null.
     */
    public Session open(Setup s, Recorder recorder, Timeouts t, ObjectNode listenExtra, ObjectNode acceptExtra)
            throws Exception {
        Session.DutBuffer buffer = register(s);
        ObjectNode listen = ControlClient.request("listen").put("port", dutPort)
                .put("accept", s.manualAccept() ? "manual" : "auto");
        listen.putObject("recv").put("count", s.receives()).put("length", s.receiveLength());
        if (s.ird() >= 0) listen.put("ird", s.ird());
        if (s.ord() >= 0) listen.put("ord", s.ord());
        if (listenExtra != null) listen.setAll(listenExtra);
        JsonNode listening = control.call(listen);
        int listener = listening.path("listener").asInt();
        // a lane whose DUT chose its port is reached there (the DUT is the target host itself, nothing forwards)
        InetSocketAddress to = dutPort != 0 ? target : plus(target, listening.path("port").asInt() - target.getPort());
        ScriptedConnection conn = ScriptedConnection.connect(to, t.connect(), recorder);
        try {
            if (buffer != null) conn.dutStag(buffer.stag(), buffer.to(), buffer.length(), rights(s.bufferAccess()));
            conn.dutReceives(s.receives(), s.receiveLength());
            int qp = -1;
            if (s.request() != null) {
                conn.sendStartFrame(s.request());
                if (s.manualAccept()) {
                    try {
                        qp = accept(listener, t, conn, acceptExtra);
                    } catch (DutException e) {
                        // a rejecting accept fails the connection on purpose; the Reply says what happened
                        if (acceptExtra == null || !acceptExtra.path("reject").asBoolean(false)) throw e;
                    }
                }
                MpaStartFrame reply = conn.awaitStartFrame(t.connect());
                if (reply != null && !reply.reject()) {
                    conn.fullOperation();
                    if (qp < 0) qp = accept(listener, t, conn, null);
                }
            } else if (!s.manualAccept()) {
                // the scenario runs the MPA exchange itself; the queue pair is taken from the listener when needed
                lateAccept.put(conn, listener);
            }
            return new Session(conn, buffer, qp, s.receives());
        } catch (Exception | Error e) {
            conn.close(); // no session holds the connection: the DUT sees it end
            throw e;
        }
    }

    /**
     * The DUT's queue pair of a session: a passive one whose MPA exchange the scenario ran itself is taken from the
     * DUT's listener now; an active one once the DUT's connect returned. -1 when there is none.
     */
    public int qp(Session s, Timeouts t) throws Exception {
        if (s.qp() >= 0) return s.qp();
        Integer taken = acceptedLate.get(s.conn());
        if (taken != null) return taken;
        Integer listener = lateAccept.remove(s.conn());
        if (listener != null) {
            int qp;
            try {
                qp = accept(listener, t, s.conn(), null);
            } catch (DutException e) {
                qp = -1; // the connection failed before it was ready, or never became ready
            }
            acceptedLate.put(s.conn(), qp);
            return qp;
        }
        return activeQp(s, t.control());
    }

    /**
     * A connection the DUT's listener made ready but no accept took would be handed to the next accept (a later
     * scenario's, or the liveness check's): take it now.
     */
    private void drainLateAccepts() {
        for (Integer listener : lateAccept.values()) {
            try {
                control.call(ControlClient.request("accept").put("listener", listener).put("timeout_ms", 0));
            } catch (IOException | DutException e) {
                // none was ready: the connection failed during the MPA exchange
            }
        }
        lateAccept.clear();
        acceptedLate.clear();
    }

    /** The canary-filled DUT buffer a setup asks for, or null. */
    private Session.DutBuffer register(Setup s) throws IOException, DutException {
        if (s.bufferLength() <= 0) return null;
        ObjectNode reg = ControlClient.request("register").put("length", s.bufferLength()).put("fill", Setup.CANARY);
        var access = reg.putArray("access").add("local_write");
        for (String a : s.bufferAccess()) access.add(a);
        JsonNode mr = control.call(reg);
        return new Session.DutBuffer(mr.path("stag").asLong(), Long.parseUnsignedLong(
                mr.path("to").asText().substring(2), 16), mr.path("length").asInt(), mr.path("mr").asInt());
    }

    // ------------------------------------------------------------------ DUT active (the DUT is the MPA Initiator)

    /**
     * Where the tester listens for DUT-active scenarios ({@code bind}, port 0: any) and the address the DUT must
     * connect to ({@code advertised}, null: the bound address), for a DUT behind a port forward (the siw lab: the
     * tester listens on 127.0.0.1:7174, the guest reaches it as 10.0.2.100:7174).
     */
    public void testerListen(InetSocketAddress bind, InetSocketAddress advertised) {
        this.testerBind = bind;
        this.testerAdvertised = advertised;
    }

    @Override
    public Session openActive(ActiveSetup a, Recorder recorder, Timeouts t) throws Exception {
        Setup s = a.base();
        Session.DutBuffer buffer = register(s);
        ScriptedConnection conn;
        CompletableFuture<JsonNode> answer;
        try (java.net.ServerSocket server = new java.net.ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(testerBind);
            InetSocketAddress at = testerAdvertised != null ? testerAdvertised
                    : new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
            int timeout = a.timeoutMs() > 0 ? a.timeoutMs() : t.connect();
            ObjectNode req = ControlClient.request("connect").put("host", at.getAddress() != null
                    ? at.getAddress().getHostAddress() : at.getHostString()).put("port", at.getPort() != 0
                    ? at.getPort() : server.getLocalPort()).put("timeout_ms", timeout);
            req.putObject("recv").put("count", s.receives()).put("length", s.receiveLength());
            if (s.ird() >= 0) req.put("ird", s.ird());
            if (s.ord() >= 0) req.put("ord", s.ord());
            if (a.connect() != null) req.setAll(a.connect());
            answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return control.call(req);
                } catch (DutException e) {
                    ObjectNode failed = ControlClient.request("connect");
                    failed.put("ok", false).put("code", e.code()).put("message", e.getMessage());
                    return failed;
                } catch (IOException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            try {
                conn = ScriptedConnection.accept(server, t.connect(), recorder);
            } catch (java.net.SocketTimeoutException e) {
                JsonNode r = answer.get(t.control() + 1000L, java.util.concurrent.TimeUnit.MILLISECONDS);
                if ("not-supported".equals(r.path("code").asText())) {
                    throw new Scenario.Skip("the DUT cannot connect: " + r.path("message").asText(), true);
                }
                throw new Scenario.ScenarioFailure("the DUT did not connect to the tester at " + at
                        + " within " + t.connect() + " ms" + (r.path("ok").asBoolean(true) ? ""
                        : " (" + r.path("message").asText() + ")"));
            }
        }
        if (buffer != null) conn.dutStag(buffer.stag(), buffer.to(), buffer.length(), rights(s.bufferAccess()));
        conn.dutReceives(s.receives(), s.receiveLength());
        connecting.put(conn, answer);
        return new Session(conn, buffer, -1, s.receives());
    }

    @Override
    public int activeQp(Session s, long timeoutMs) throws Exception {
        if (s.qp() >= 0) return s.qp();
        CompletableFuture<JsonNode> f = connecting.get(s.conn());
        if (f == null) return -1;
        try {
            JsonNode r = f.get(Math.max(1, timeoutMs), java.util.concurrent.TimeUnit.MILLISECONDS);
            return r.path("ok").asBoolean(true) && r.has("qp") ? r.path("qp").asInt() : -1;
        } catch (java.util.concurrent.TimeoutException e) {
            return -1;
        }
    }

    @Override
    public String connectOutcome(Session s) {
        CompletableFuture<JsonNode> f = connecting.get(s.conn());
        if (f == null) return "no connect";
        if (!f.isDone()) return "pending";
        try {
            JsonNode r = f.join();
            return r.path("ok").asBoolean(true) ? "established (qp " + r.path("qp").asInt() + ")"
                    : r.path("code").asText() + ": " + r.path("message").asText();
        } catch (RuntimeException e) {
            return "the control channel failed: " + e.getMessage();
        }
    }

    /** The DUT's queue pair for the connection just made (its listener hands connections out in order). */
    int accept(int listener, Timeouts t) throws IOException, DutException {
        return accept(listener, t, null, null);
    }

    /**
     * The DUT's queue pair for {@code conn} (null: the next one), with {@code extra} fields for the accept request
     * (e.g. reject): connections of earlier scenarios that nobody took and that are no longer operational (a scenario
     * that ran the MPA exchange itself, then failed) are skipped.
     */
    int accept(int listener, Timeouts t, ScriptedConnection conn, ObjectNode extra) throws IOException, DutException {
        long deadline = System.nanoTime() + t.control() * 1_000_000L;
        while (true) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
            ObjectNode req = ControlClient.request("accept").put("listener", listener).put("timeout_ms", left);
            if (extra != null) req.setAll(extra);
            try {
                JsonNode r = control.call(req);
                // behind NAT (an emulated DUT) the peer port differs: then a live connection is taken as the tester's
                if (conn == null || r.path("peer").asText("").endsWith(":" + conn.localAddress().getPort())
                        || "rts".equals(r.path("state").asText())) {
                    return r.path("qp").asInt();
                }
            } catch (DutException e) {
                if (!"failed".equals(e.code()) || extra != null || System.nanoTime() > deadline) throw e;
            }
            if (System.nanoTime() > deadline) {
                throw new DutException("timeout", "the DUT handed out no connection from the tester's port "
                        + conn.localAddress().getPort());
            }
        }
    }

    /** Accepts in the background (a manual accept waits for the Request the scenario is about to send). */
    public CompletableFuture<Integer> acceptLater(int listener, Timeouts t) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return accept(listener, t);
            } catch (IOException | DutException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    static Set<StagRegistration.Access> rights(Set<String> access) {
        Set<StagRegistration.Access> out = EnumSet.noneOf(StagRegistration.Access.class);
        if (access.contains("remote_read")) out.add(StagRegistration.Access.READ);
        if (access.contains("remote_write")) out.add(StagRegistration.Access.WRITE);
        if (access.contains("remote_atomic")) out.add(StagRegistration.Access.ATOMIC);
        return out;
    }

    @Override
    public String liveness(Recorder recorder, Timeouts t) throws Exception {
        drainLateAccepts();
        Setup s = Setup.defaults();
        try (Session ses = open(s, recorder, t)) {
            ScriptedConnection c = ses.conn();
            if (ses.qp() < 0) return "the DUT did not answer a fresh MPA Request"
                    + (c.peerStartFrame() != null ? " (it rejected it)" : "");
            byte[] hello = "liveness".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            c.send(RdmapEncoder.send(c.nextMsn(0), java.nio.ByteBuffer.wrap(hello), c.mulpdu(1460)));
            JsonNode wcs = control.call(ControlClient.request("poll").put("qp", ses.qp()).put("timeout_ms",
                    t.reaction()));
            JsonNode wc = wcs.path("completions").path(0);
            if (!"success".equals(wc.path("status").asText()) || wc.path("byte_len").asInt() != hello.length) {
                return "a Send on a fresh connection did not complete at the DUT: " + wcs.path("completions");
            }
            byte[] data = new byte[64];
            for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 3 + 1);
            Session.DutBuffer b = ses.buffer();
            c.send(RdmapEncoder.write(b.stag(), b.to(), java.nio.ByteBuffer.wrap(data), c.mulpdu(1460)));
            long sinkStag = 0x5EED00L, sinkTo = 0x1000;
            c.testerStag(sinkStag, sinkTo, 64, Set.of(StagRegistration.Access.WRITE));
            c.send(RdmapEncoder.readRequest(c.nextMsn(1), new ReadRequest(sinkStag, sinkTo, 64, b.stag(), b.to())));
            if (!c.await(x -> readResponseBytes(x) >= 64 || x.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN,
                    t.reaction())) {
                return "no RDMA Read Response on a fresh connection within " + t.reaction() + " ms";
            }
            byte[] got = readResponseData(c, 64);
            if (!java.util.Arrays.equals(got, data)) {
                return "RDMA Write then Read on a fresh connection gave back " + HexFormat.of().formatHex(got)
                        + " instead of " + HexFormat.of().formatHex(data);
            }
            c.finish();
            return null;
        }
    }

    static long readResponseBytes(ScriptedConnection c) {
        long n = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() != null && p.rdmap().opcode() == io.rddp.rdmap.Opcode.RDMA_READ_RESPONSE) {
                n += p.payload().length;
            }
        }
        return n;
    }

    static byte[] readResponseData(ScriptedConnection c, int n) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() != null && p.rdmap().opcode() == io.rddp.rdmap.Opcode.RDMA_READ_RESPONSE) {
                out.writeBytes(p.payload());
            }
        }
        byte[] all = out.toByteArray();
        return java.util.Arrays.copyOf(all, Math.min(all.length, n));
    }

    @Override
    public String placement(Session s, List<long[]> allowed) throws Exception {
        Session.DutBuffer b = s.buffer();
        if (b == null || b.mr() < 0) return null;
        byte[] canary = HexFormat.of().parseHex(Setup.CANARY);
        StringBuilder found = new StringBuilder();
        int chunk = 256 * 1024;
        for (int off = 0; off < b.length(); off += chunk) {
            int n = Math.min(chunk, b.length() - off);
            byte[] mem = HexFormat.of().parseHex(control.call(ControlClient.request("read_mem").put("mr", b.mr())
                    .put("offset", off).put("length", n)).path("data").asText());
            long firstBad = -1, lastBad = -1, bad = 0;
            for (int i = 0; i < n; i++) {
                long at = off + i;
                if (mem[i] == canary[(int) (at % canary.length)] || inside(at, allowed)) continue;
                if (firstBad < 0) firstBad = at;
                lastBad = at;
                bad++;
            }
            if (bad > 0) {
                found.append(bad).append(" octets changed outside what the scenario may place, from offset ")
                        .append(firstBad).append(" to ").append(lastBad).append(" of the ").append(b.length())
                        .append("-octet buffer; ");
            }
        }
        return found.length() == 0 ? null : found.toString().trim();
    }

    private static boolean inside(long at, List<long[]> allowed) {
        for (long[] r : allowed) if (at >= r[0] && at < r[1]) return true;
        return false;
    }

    @Override
    public void reset() throws Exception {
        drainLateAccepts();
        control.call("reset"); // waits behind any connect still under way (the control channel is one at a time)
        connecting.clear();
    }

    @Override
    public void close() {
        try {
            control.call("bye");
        } catch (IOException | DutException e) {
            // going away anyway
        }
        control.close();
    }
}
