package io.rddp.dut;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
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
    private int nextId = 1;

    private ControlClient(Socket socket, InetSocketAddress address) throws IOException {
        this.socket = socket;
        this.address = address;
        this.where = address.getHostString() + ":" + address.getPort();
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.out = socket.getOutputStream();
    }

    public static ControlClient connect(InetSocketAddress address, int timeoutMs) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(address, timeoutMs);
            s.setTcpNoDelay(true);
            return new ControlClient(s, address);
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
            line = readLine(in, socket, System.nanoTime() + limit * 1_000_000L, MAX_LINE);
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

    /**
     * One line of {@code in}, null at the end of the stream. The whole line must come by {@code deadlineNanos}, not
     * each read: a DUT that trickles a byte a second times out as one that says nothing; and it has at most
     * {@code max} characters.
     */
    static String readLine(BufferedReader in, Socket socket, long deadlineNanos, int max) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (!in.ready()) {
                long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
                if (left <= 0) throw new SocketTimeoutException("the line did not end in time");
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            }
            int c = in.read();
            if (c < 0) return sb.length() == 0 ? null : sb.toString();
            if (c == '\n') return sb.length() > 0 && sb.charAt(sb.length() - 1) == '\r'
                    ? sb.substring(0, sb.length() - 1) : sb.toString();
            if (sb.length() >= max) throw new IOException("a response longer than " + max + " characters");
            sb.append((char) c);
        }
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
