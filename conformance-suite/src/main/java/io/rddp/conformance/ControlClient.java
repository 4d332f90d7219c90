package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import io.rddp.dut.ControlChannelException;
import io.rddp.dut.ControlLines;
import io.rddp.dut.ControlServer;
import io.rddp.dut.ControlToken;
import io.rddp.dut.DutException;
import io.rddp.dut.Values;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * The tester's end of the DUT control protocol: one request, one response, every read with a timeout (the request's
 * own {@code timeout_ms} plus a margin), so a DUT that goes silent is an error the caller sees, not a hang.
 * {@link #hello(String)} opens the session (version 2): with the DUT's token it answers the DUT's challenge and checks
 * the DUT's proof in turn (docs/dut-control.md, Authentication).
 */
public final class ControlClient implements Closeable {

    /** Added to a request's own timeout before the DUT is declared silent. */
    static final int MARGIN_MS = 10_000;
    /** Characters of one response at most: a DUT that floods its control channel cannot fill the tester's memory. */
    static final int MAX_LINE = 16 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;
    private final String where;
    private final InetSocketAddress address;
    private final byte[] secret;
    private int nextId = 1;

    private ControlClient(Socket socket, InetSocketAddress address, byte[] secret) throws IOException {
        this.socket = socket;
        this.address = address;
        this.secret = secret == null ? null : secret.clone();
        this.where = address.getHostString() + ":" + address.getPort();
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = socket.getOutputStream();
    }

    /** A channel to a DUT that needs no token (a loopback one started without --token-file). */
    public static ControlClient connect(InetSocketAddress address, int timeoutMs) throws IOException {
        return connect(address, timeoutMs, null);
    }

    /** A channel to the DUT at {@code address}; {@code secret}: the DUT's token ({@link ControlToken}), or null. */
    public static ControlClient connect(InetSocketAddress address, int timeoutMs, byte[] secret) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(address, timeoutMs);
            s.setTcpNoDelay(true);
            return new ControlClient(s, address, secret);
        } catch (IOException e) {
            s.close();
            throw new IOException("cannot reach the DUT control channel at " + address.getHostString() + ":"
                    + address.getPort() + ": " + e.getMessage(), e);
        }
    }

    /** Where this channel is connected: a restarted DUT is reached again there. */
    public InetSocketAddress address() {
        return address;
    }

    /** A new channel to the same DUT with the same token (a restarted DUT); this one is left as it is. */
    public ControlClient reopen(int timeoutMs) throws IOException {
        return connect(address, timeoutMs, secret);
    }

    /**
     * Opens the session: {@code hello} of version {@value ControlServer#VERSION}, with the challenge-response when the
     * DUT asks for it. Returns the DUT's hello answer (device, caps, listeners).
     *
     * @throws DutException {@code unauthorized}: the DUT needs a token and none was given, refused the token, asked
     *                      for none while one was given, or did not prove it has it; {@code not-supported}: the DUT
     *                      speaks another version; each with a message that says what to do
     */
    public JsonNode hello(String client) throws IOException, DutException {
        return hello(client, null);
    }

    /**
     * As {@link #hello(String)}; with {@code join}, the ticket of the session this tester holds, the new session is
     * one of its companions (docs/dut-control.md, Sessions).
     */
    public JsonNode hello(String client, String join) throws IOException, DutException {
        byte[] clientNonce = ControlToken.random(ControlToken.OCTETS);
        ObjectNode req = request("hello").put("version", ControlServer.VERSION).put("client", client)
                .put("client_nonce", Values.hex(clientNonce));
        if (join != null) req.put("join", join);
        JsonNode r;
        try {
            r = call(req);
        } catch (DutException e) {
            if (e.code().equals("not-supported")) {
                throw new DutException("not-supported", "the DUT control channel at " + where + " does not speak"
                        + " version " + ControlServer.VERSION + " of the protocol (" + e.getMessage() + "): update the"
                        + " DUT agent (agent) or rddp peer");
            }
            throw e;
        }
        if (r.hasNonNull("challenge")) {
            if (secret == null) {
                throw new DutException("unauthorized", "the DUT control channel at " + where + " needs a token: give"
                        + " --control-token-file F, F holding the DUT's token (its --token-file)");
            }
            byte[] serverNonce;
            try {
                serverNonce = java.util.HexFormat.of().parseHex(r.path("challenge").asText());
            } catch (IllegalArgumentException e) {
                throw new DutException("failed", "the DUT at " + where + " sent a challenge that is not hex");
            }
            ObjectNode answer = request("hello").put("version", ControlServer.VERSION).put("client", client)
                    .put("client_nonce", Values.hex(clientNonce))
                    .put("proof", Values.hex(ControlToken.proof(secret, serverNonce, clientNonce,
                            ControlToken.CLIENT_LABEL)));
            if (join != null) answer.put("join", join);
            try {
                r = call(answer);
            } catch (DutException e) {
                if (e.code().equals("unauthorized")) {
                    throw new DutException("unauthorized", "the DUT control channel at " + where + " refused the"
                            + " token: --control-token-file must hold the same secret as the DUT's --token-file");
                }
                throw e;
            }
            byte[] theirs;
            try {
                theirs = java.util.HexFormat.of().parseHex(r.path("server_proof").asText(""));
            } catch (IllegalArgumentException e) {
                theirs = null;
            }
            if (!ControlToken.verify(secret, serverNonce, clientNonce, ControlToken.SERVER_LABEL, theirs)) {
                throw new DutException("unauthorized", "the DUT at " + where + " did not prove that it has the token"
                        + " (not the DUT you meant, or a different token)");
            }
        } else if (secret != null) {
            throw new DutException("unauthorized", "the DUT control channel at " + where + " asks for no token but"
                    + " one was given: it was started without --token-file (or it is not the DUT you meant)");
        }
        return r;
    }

    /** A request object for {@code op}, to add fields to. */
    public static ObjectNode request(String op) {
        ObjectNode r = JSON.createObjectNode();
        r.put("op", op);
        return r;
    }

    /**
     * Sends {@code req} and returns the response's fields.
     *
     * @throws DutException the DUT refused the request (its code and message)
     * @throws IOException  the control channel broke or the DUT did not answer in time
     */
    public synchronized JsonNode call(ObjectNode req) throws IOException, DutException {
        int id = nextId++;
        req.put("id", id);
        String op = req.path("op").asText();
        String line;
        try {
            int limit = req.path("timeout_ms").asInt(0) + MARGIN_MS;
            out.write((JSON.writeValueAsString(req) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            line = ControlLines.readLine(in, socket, System.nanoTime() + limit * 1_000_000L, MAX_LINE);
        } catch (SocketTimeoutException e) {
            throw new ControlChannelException("the DUT at " + where + " did not answer \"" + op + "\" within "
                    + (req.path("timeout_ms").asInt(0) + MARGIN_MS) / 1000 + " s", e);
        } catch (IOException e) {
            throw new ControlChannelException("the control channel to the DUT at " + where + " broke during \"" + op
                    + "\": " + e.getMessage(), e);
        }
        if (line == null) throw new ControlChannelException("the DUT at " + where
                + " closed the control channel during \"" + op + "\"", null);
        JsonNode resp = JSON.readTree(line);
        if (resp.path("id").asInt(-1) != id) {
            throw new IOException("the DUT answered request " + resp.path("id") + " while " + id + " (" + op
                    + ") was asked");
        }
        if (!resp.path("ok").asBoolean(false)) {
            JsonNode e = resp.path("error");
            throw new DutException(e.path("code").asText("failed"), op + ": " + e.path("message").asText(line));
        }
        return resp;
    }

    public JsonNode call(String op) throws IOException, DutException {
        return call(request(op));
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
