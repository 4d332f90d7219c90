package io.rddp.dut;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Serves the DUT control protocol, version 2 (docs/dut-control.md): JSON lines over TCP, one holder at a time, one
 * response per request. The holder may open up to {@link Options#sessions()} - 1 companion sessions by presenting the
 * ticket of its hello answer (a tester running scenarios concurrently); they end with it.
 *
 * <p>A connection must authenticate with {@code hello} within {@link Options#helloTimeout()} (default 5 s) or it is
 * closed; until then every other request is answered {@code unauthorized}, and lines are at most
 * {@value #MAX_HELLO_LINE} characters. With a token the hello is a challenge-response ({@link ControlToken}); without
 * one (a loopback bind only) the first hello authenticates. An authenticated client becomes the session; when another
 * session is active it takes that one over if it has been idle for {@link Options#takeoverAfter()} (default 30 s),
 * else it is refused at once with {@code state}. A session silent for {@link Options#idleTimeout()} is closed;
 * {@code bye} cleans the session up before it is answered, so the next client gets in at once. A line that is not
 * JSON, or longer than 1 MiB, ends the connection; JSON nested deeper than {@value #MAX_DEPTH} levels is answered
 * {@code bad-request}. Whatever a request throws is answered as an error: a session thread never dies of it.
 */
public final class ControlServer implements Closeable {

    /** The DUT side of a session. */
    public interface Session extends Closeable {
        /** Answers one request: the fields to add to {@code {"ok":true}}, or throws a {@link DutException}. */
        ObjectNode handle(String op, JsonNode request) throws DutException, InterruptedException;

        /** The session ended (bye, or the client went away): undo what it set up. */
        @Override
        void close();
    }

    /**
     * How the server guards its one holder.
     *
     * @param secret        the shared secret (a token file's), or null: no challenge (allowed on loopback only)
     * @param helloTimeout  a new connection must be authenticated by then, or it is closed
     * @param idleTimeout   a session that sends no request for this long is closed
     * @param takeoverAfter an authenticated newcomer replaces a session idle this long (else it is refused)
     * @param maxWaiting    connections that have not authenticated yet, at once; more are refused
     * @param sessions      sessions the holder may have at once: the first, and companions that join it with its
     *                      ticket (a tester running scenarios concurrently); 1: one session, no ticket
     */
    public record Options(byte[] secret, Duration helloTimeout, Duration idleTimeout, Duration takeoverAfter,
                          int maxWaiting, int sessions) {
        /** Sessions a holder may have at once unless told otherwise. */
        public static final int DEFAULT_SESSIONS = 8;
        /** The most sessions a server serves at once: each is a thread and its resources. */
        public static final int MAX_SESSIONS = 64;

        public Options {
            if (secret != null && secret.length < ControlToken.MIN_OCTETS) {
                throw new IllegalArgumentException("a secret of at least " + ControlToken.MIN_OCTETS + " octets");
            }
            secret = secret == null ? null : secret.clone();
            if (helloTimeout.isNegative() || helloTimeout.isZero() || idleTimeout.isNegative() || idleTimeout.isZero()
                    || takeoverAfter.isNegative() || maxWaiting < 1) {
                throw new IllegalArgumentException("timeouts must be positive and maxWaiting at least 1");
            }
            if (sessions < 1 || sessions > MAX_SESSIONS) {
                throw new IllegalArgumentException("sessions must be 1 to " + MAX_SESSIONS);
            }
        }

        public static Options defaults() {
            return new Options(null, Duration.ofSeconds(5), Duration.ofMinutes(10), Duration.ofSeconds(30), 16,
                    DEFAULT_SESSIONS);
        }

        public Options withSecret(byte[] v) {
            return new Options(v, helloTimeout, idleTimeout, takeoverAfter, maxWaiting, sessions);
        }

        public Options withHelloTimeout(Duration v) {
            return new Options(secret, v, idleTimeout, takeoverAfter, maxWaiting, sessions);
        }

        public Options withIdleTimeout(Duration v) {
            return new Options(secret, helloTimeout, v, takeoverAfter, maxWaiting, sessions);
        }

        public Options withTakeoverAfter(Duration v) {
            return new Options(secret, helloTimeout, idleTimeout, v, maxWaiting, sessions);
        }

        public Options withMaxWaiting(int v) {
            return new Options(secret, helloTimeout, idleTimeout, takeoverAfter, v, sessions);
        }

        public Options withSessions(int v) {
            return new Options(secret, helloTimeout, idleTimeout, takeoverAfter, maxWaiting, v);
        }
    }

    /** The protocol version this server speaks (docs/dut-control.md). */
    public static final int VERSION = 2;
    public static final int MAX_LINE = 1 << 20;
    /** Characters of a line before authentication: a hello is small. */
    public static final int MAX_HELLO_LINE = 4096;
    /** JSON nesting a request may have (the protocol's own is 3 levels deep). */
    public static final int MAX_DEPTH = 32;
    static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build()).build());

    private final ServerSocket server;
    private final Options options;
    private final Supplier<Session> sessions;
    private final Thread thread;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger waiting = new AtomicInteger();
    private final Object slot = new Object();
    /** How long an authenticated newcomer waits for a session that is ending before it is refused. */
    static final long CLOSING_GRACE_MS = 500;
    private Active active;
    private volatile boolean closed;

    /** The session of the client that holds the slot, or one of its companions (guarded by {@code slot}). */
    private static final class Active {
        final Socket socket;
        final CountDownLatch done = new CountDownLatch(1);
        /** the holder this companion joined, or null for the holder itself */
        final Active holder;
        /** what a companion presents to join this holder (hex), or null */
        final String ticket;
        final Set<Active> companions = new java.util.HashSet<>();
        long last = System.nanoTime();
        boolean busy;
        /** companions answering a request: the holder is not idle meanwhile */
        int busyCompanions;
        boolean evicted;

        Active(Socket socket, Active holder, String ticket) {
            this.socket = socket;
            this.holder = holder;
            this.ticket = ticket;
        }
    }

    /** A server without a token: {@code bind} must be a loopback address. */
    public ControlServer(InetSocketAddress bind, Supplier<Session> sessions) throws IOException {
        this(bind, Options.defaults(), sessions);
    }

    /**
     * @throws IllegalArgumentException {@code bind} is not a loopback address and {@code options} has no secret
     */
    public ControlServer(InetSocketAddress bind, Options options, Supplier<Session> sessions) throws IOException {
        if (options.secret() == null && (bind.getAddress() == null || !bind.getAddress().isLoopbackAddress())) {
            throw new IllegalArgumentException(bind.getHostString() + " is not a loopback address: a token is"
                    + " required to serve the DUT control protocol there");
        }
        this.options = options;
        this.sessions = sessions;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        try {
            server.bind(bind, 16);
        } catch (IOException e) {
            server.close();
            throw e;
        }
        thread = new Thread(this::acceptLoop, "dut-control-" + port());
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    public Options options() {
        return options;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return;
            }
            if (waiting.incrementAndGet() > options.maxWaiting()) {
                waiting.decrementAndGet();
                refuse(s, error(null, "state", "too many connections are waiting to authenticate ("
                        + options.maxWaiting() + "); try again in a few seconds"));
                continue;
            }
            sockets.add(s);
            Thread t = new Thread(() -> connection(s), "dut-control-connection");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void refuse(Socket s, ObjectNode why) {
        try (s) {
            s.getOutputStream().write((JSON.writeValueAsString(why) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // it went away anyway
        }
    }

    /** One connection: authentication, then (if it gets the slot) its session. */
    private void connection(Socket s) {
        boolean counted = true;
        Active me = null;
        Session session = null;
        try (s) {
            s.setTcpNoDelay(true);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = s.getOutputStream();
            long helloDeadline = System.nanoTime() + options.helloTimeout().toNanos();
            byte[] serverNonce = null, clientNonce = null;
            // ---- until authenticated: hello only
            while (me == null) {
                String line = ControlLines.readLine(in, s, helloDeadline, MAX_HELLO_LINE);
                if (line == null) return;
                if (line.isBlank()) continue;
                JsonNode req = parse(out, line);
                if (req == null) return;
                if (req.isMissingNode()) continue; // answered bad-request
                JsonNode id = req.get("id");
                String op = req.path("op").asText("");
                if (!op.equals("hello")) {
                    send(out, error(id, "unauthorized", "authenticate first: a session starts with hello (version "
                            + VERSION + (options.secret() != null ? ", with the DUT's token" : "") + ")"));
                    continue;
                }
                JsonNode v = req.get("version");
                if (v == null || !v.canConvertToInt() || v.asInt() != VERSION) {
                    ObjectNode e = error(id, "not-supported", "this DUT speaks version " + VERSION + " of the DUT"
                            + " control protocol, not " + (v == null ? "none" : v.toString()) + ": version 2"
                            + " authenticates hello with a shared token (challenge-response); update the client and"
                            + " give it the DUT's token file (rddp conform --control-token-file)");
                    e.put("version", VERSION);
                    send(out, e);
                    continue;
                }
                byte[] cn;
                try {
                    cn = nonce(req, "client_nonce", options.secret() != null);
                } catch (DutException e) {
                    send(out, error(id, e.code(), e.getMessage()));
                    continue;
                }
                JsonNode proof = req.get("proof");
                if (options.secret() != null) {
                    if (proof == null || proof.isNull()) {
                        serverNonce = ControlToken.random(ControlToken.OCTETS);
                        clientNonce = cn;
                        ObjectNode c = ok(id);
                        c.put("version", VERSION);
                        c.put("auth", "hmac-sha256");
                        c.put("challenge", HexFormat.of().formatHex(serverNonce));
                        send(out, c);
                        continue;
                    }
                    if (serverNonce == null) {
                        send(out, error(id, "bad-request", "no challenge to answer: send hello without \"proof\""
                                + " first"));
                        continue;
                    }
                    byte[] got = hexOrNull(proof.asText(""));
                    boolean right = ControlToken.verify(options.secret(), serverNonce, clientNonce,
                            ControlToken.CLIENT_LABEL, got);
                    if (!right) {
                        send(out, error(id, "unauthorized", "wrong token: the proof does not match this DUT's"
                                + " token (the tester's --control-token-file must hold the DUT's --token-file)"));
                        return;
                    }
                }
                // authenticated: the slot (or a companion's place beside its holder), then the session's own hello
                JsonNode join = req.get("join");
                if (join != null && !join.isNull()) {
                    me = joinHolder(s, join.asText(""));
                    if (me == null) {
                        send(out, error(id, "state", "no session holds that ticket, or it has "
                                + options.sessions() + " sessions already"));
                        return;
                    }
                } else {
                    me = claim(s);
                }
                if (me == null) {
                    send(out, error(id, "state", "another session is active and was busy or idle for less than "
                            + options.takeoverAfter().toSeconds() + " s; one session at a time"));
                    return;
                }
                waiting.decrementAndGet();
                counted = false;
                session = sessions.get();
                ObjectNode resp = answer(session, "hello", req, id);
                if (resp.path("ok").asBoolean()) {
                    resp.put("auth", options.secret() != null ? "hmac-sha256" : "none");
                    if (options.secret() != null) {
                        resp.put("server_proof", HexFormat.of().formatHex(ControlToken.proof(options.secret(),
                                serverNonce, clientNonce, ControlToken.SERVER_LABEL)));
                    }
                    if (resp.path("caps").isObject()) {
                        ((ObjectNode) resp.get("caps")).put("sessions", options.sessions());
                    }
                    if (me.ticket != null) resp.put("ticket", me.ticket);
                }
                send(out, resp);
            }
            // ---- the session
            while (true) {
                String line;
                try {
                    line = ControlLines.readLine(in, s, System.nanoTime() + options.idleTimeout().toNanos(),
                            MAX_LINE);
                } catch (SocketTimeoutException e) {
                    return; // idle for too long: the session ends
                }
                if (line == null) return;
                synchronized (slot) {
                    if (me.evicted) return;
                    me.busy = true;
                    if (me.holder != null) me.holder.busyCompanions++;
                }
                try {
                    if (line.isBlank()) continue;
                    JsonNode req = parse(out, line);
                    if (req == null) return;
                    if (req.isMissingNode()) continue;
                    JsonNode id = req.get("id");
                    String op = req.path("op").asText("");
                    if (op.equals("bye")) {
                        // cleaned up before the answer: a client that connects right after it gets in
                        endSession(me, session);
                        session = null;
                        send(out, ok(id));
                        return;
                    }
                    send(out, answer(session, op, req, id));
                } finally {
                    synchronized (slot) {
                        me.busy = false;
                        me.last = System.nanoTime();
                        if (me.holder != null) {
                            me.holder.busyCompanions--;
                            me.holder.last = me.last;
                        }
                    }
                }
            }
        } catch (IOException e) {
            // the client went away, sent a line too long, or took too long to authenticate
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (counted) waiting.decrementAndGet();
            sockets.remove(s);
            if (me != null) endSession(me, session);
        }
    }

    /**
     * Frees the slot once the session is cleaned up (idempotent). A holder's companions end first: whatever they made
     * belongs to the tester that is going away.
     */
    private void endSession(Active me, Session session) {
        java.util.List<Active> companions;
        synchronized (slot) {
            me.evicted = true; // no companion joins a holder that is ending
            companions = new java.util.ArrayList<>(me.companions);
        }
        for (Active c : companions) {
            try {
                c.socket.close(); // its thread wakes up from its read and cleans its session up
            } catch (IOException e) {
                // closed anyway
            }
        }
        try {
            for (Active c : companions) c.done.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (session != null) session.close();
        } catch (RuntimeException | Error e) {
            // a clean-up that failed must not keep the slot taken
        } finally {
            synchronized (slot) {
                if (active == me) active = null;
                if (me.holder != null) me.holder.companions.remove(me);
                slot.notifyAll();
            }
            me.done.countDown();
        }
    }

    /** A fresh ticket for a holder when companions are allowed, else null. */
    private String ticket() {
        return options.sessions() > 1 ? HexFormat.of().formatHex(ControlToken.random(ControlToken.OCTETS)) : null;
    }

    /**
     * A companion's place beside the active holder whose ticket it presents (compared in constant time), or null:
     * no such holder, or it has {@link Options#sessions()} sessions already.
     */
    private Active joinHolder(Socket s, String ticket) {
        synchronized (slot) {
            Active h = active;
            if (h == null || h.evicted || h.ticket == null || !java.security.MessageDigest.isEqual(
                    h.ticket.getBytes(StandardCharsets.US_ASCII), ticket.getBytes(StandardCharsets.US_ASCII))
                    || h.companions.size() + 1 >= options.sessions()) {
                return null;
            }
            Active c = new Active(s, h, null);
            h.companions.add(c);
            return c;
        }
    }

    /**
     * The slot for an authenticated client: free, or taken over from a session idle for
     * {@link Options#takeoverAfter()} (closed and cleaned up first); null when the active session is in use.
     */
    private Active claim(Socket s) throws InterruptedException {
        Active old;
        synchronized (slot) {
            // a client that just closed its session (no bye) is still being cleaned up: a moment for that
            long until = System.nanoTime() + CLOSING_GRACE_MS * 1_000_000L;
            while (active != null && !active.evicted && System.nanoTime() < until) {
                long idle = System.nanoTime() - active.last;
                if (!active.busy && active.busyCompanions == 0 && idle >= options.takeoverAfter().toNanos()) break;
                slot.wait(Math.max(1, (until - System.nanoTime()) / 1_000_000L));
            }
            if (active == null) return active = new Active(s, null, ticket());
            old = active;
            long idle = System.nanoTime() - old.last;
            if (old.busy || old.busyCompanions > 0 || old.evicted || idle < options.takeoverAfter().toNanos()) {
                return null;
            }
            old.evicted = true;
        }
        try {
            old.socket.close(); // its thread wakes up from its read and cleans the session up
        } catch (IOException e) {
            // closed anyway
        }
        if (!old.done.await(10, TimeUnit.SECONDS)) return null;
        synchronized (slot) {
            if (active == null) return active = new Active(s, null, ticket());
            return null;
        }
    }

    /** The request as JSON; null (the connection ends) when it is not JSON; a missing node when answered. */
    private static JsonNode parse(OutputStream out, String line) throws IOException {
        JsonNode req;
        try {
            req = JSON.readTree(line);
        } catch (StreamConstraintsException e) {
            send(out, error(null, "bad-request", "a request nested deeper than " + MAX_DEPTH + " levels"));
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        } catch (IOException e) {
            send(out, error(null, "bad-request", "not JSON: " + firstLine(e.getMessage())));
            return null;
        }
        if (req == null || !req.isObject() || req.path("op").asText("").isEmpty()) {
            send(out, error(req != null ? req.get("id") : null, "bad-request",
                    "a request is a JSON object with \"op\""));
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        return req;
    }

    /** One request answered by the session; whatever it throws is an error answer. */
    private static ObjectNode answer(Session session, String op, JsonNode req, JsonNode id) throws InterruptedException {
        try {
            ObjectNode fields = session.handle(op, req);
            ObjectNode resp = ok(id);
            resp.setAll(fields);
            return resp;
        } catch (DutException e) {
            return error(id, e.code(), e.getMessage());
        } catch (InterruptedException e) {
            throw e;
        } catch (OutOfMemoryError e) {
            return error(id, "resource-limit", "out of memory while answering " + op);
        } catch (Exception | Error e) {
            return error(id, "failed", "internal error: " + e);
        }
    }

    private static byte[] nonce(JsonNode req, String field, boolean required) throws DutException {
        JsonNode n = req.get(field);
        if (n == null || n.isNull()) {
            if (required) throw DutException.bad("\"" + field + "\" (" + ControlToken.OCTETS + " random octets as hex)"
                    + " is required");
            return new byte[0];
        }
        byte[] b = hexOrNull(n.asText(""));
        if (b == null || b.length < 16 || b.length > 64) {
            throw DutException.bad("\"" + field + "\" must be 16 to 64 octets as hex");
        }
        return b;
    }

    private static byte[] hexOrNull(String s) {
        try {
            return HexFormat.of().parseHex(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static void send(OutputStream out, ObjectNode r) throws IOException {
        out.write((JSON.writeValueAsString(r) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static ObjectNode ok(JsonNode id) {
        ObjectNode r = JSON.createObjectNode();
        if (id != null) r.set("id", id);
        r.put("ok", true);
        return r;
    }

    static ObjectNode error(JsonNode id, String code, String message) {
        ObjectNode r = JSON.createObjectNode();
        if (id != null) r.set("id", id);
        r.put("ok", false);
        ObjectNode e = r.putObject("error");
        e.put("code", code);
        e.put("message", message);
        return r;
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // nothing to do
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }
}
