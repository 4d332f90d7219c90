package io.rddp.dut;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Serves the DUT control protocol (conformance-suite/DUT-CONTROL.md): JSON lines over TCP, one session at a time,
 * one response per request. A second client is told so and closed; a line that is not JSON or longer than 1 MiB,
 * or a session silent for 10 minutes, ends the session. What the requests do is the {@link Session}'s business.
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

    public static final int MAX_LINE = 1 << 20;
    static final int IDLE_MS = 10 * 60 * 1000;
    static final ObjectMapper JSON = new ObjectMapper();

    private final ServerSocket server;
    private final Supplier<Session> sessions;
    private final Thread thread;
    private volatile boolean closed;
    private volatile Socket current;

    public ControlServer(InetSocketAddress bind, Supplier<Session> sessions) throws IOException {
        this.sessions = sessions;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        try {
            server.bind(bind, 4);
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

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return;
            }
            if (current != null) {
                refuse(s);
                continue;
            }
            current = s;
            Thread t = new Thread(() -> serve(s), "dut-control-session");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void refuse(Socket s) {
        try (s) {
            ObjectNode r = error(null, "state", "another session is in progress; one at a time");
            s.getOutputStream().write((JSON.writeValueAsString(r) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // it went away anyway
        }
    }

    private void serve(Socket s) {
        Session session = null;
        try (s) {
            s.setSoTimeout(IDLE_MS);
            s.setTcpNoDelay(true);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = s.getOutputStream();
            boolean greeted = false;
            while (true) {
                String line = readLine(in);
                if (line == null) return;
                if (line.isBlank()) continue;
                JsonNode req;
                try {
                    req = JSON.readTree(line);
                } catch (IOException e) {
                    send(out, error(null, "bad-request", "not JSON: " + e.getMessage()));
                    return;
                }
                JsonNode id = req.get("id");
                String op = req.path("op").asText("");
                ObjectNode resp;
                if (!req.isObject() || op.isEmpty()) {
                    resp = error(id, "bad-request", "a request is a JSON object with \"op\"");
                } else if (!greeted && !op.equals("hello")) {
                    resp = error(id, "state", "the first request of a session must be hello");
                } else {
                    if (session == null) session = sessions.get();
                    try {
                        ObjectNode fields = session.handle(op, req);
                        resp = JSON.createObjectNode();
                        if (id != null) resp.set("id", id);
                        resp.put("ok", true);
                        resp.setAll(fields);
                        if (op.equals("hello")) greeted = true;
                    } catch (DutException e) {
                        resp = error(id, e.code(), e.getMessage());
                    } catch (RuntimeException e) {
                        resp = error(id, "failed", "internal error: " + e);
                    }
                }
                send(out, resp);
                if (op.equals("bye")) return;
            }
        } catch (SocketTimeoutException e) {
            // idle for too long: the session ends
        } catch (IOException e) {
            // the client went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (session != null) session.close();
            current = null;
        }
    }

    /** A line of at most {@link #MAX_LINE} characters, null at the end; longer lines end the session. */
    private static String readLine(Reader in) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int c = in.read();
            if (c < 0) return sb.length() == 0 ? null : sb.toString();
            if (c == '\n') return sb.toString();
            if (sb.length() >= MAX_LINE) throw new IOException("request line longer than " + MAX_LINE);
            sb.append((char) c);
        }
    }

    private static void send(OutputStream out, ObjectNode r) throws IOException {
        out.write((JSON.writeValueAsString(r) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
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
        Socket s = current;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }
}
