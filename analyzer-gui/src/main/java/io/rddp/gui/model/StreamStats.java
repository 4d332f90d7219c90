package io.rddp.gui.model;

import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.sink.Delivery;
import io.rddp.tcp.Direction;

import java.util.EnumMap;
import java.util.Map;

/**
 * One row of the Streams pane, counted from the same events as the analyzer's report: MPA parameters from the
 * Request/Reply, messages and bytes per opcode each way from the DDP deliveries, Terminates, how the stream ended,
 * violations. Mutable, confined to the loading thread; the view gets {@link #copy()}s.
 */
public final class StreamStats {
    public final int stream;
    public final String client;
    public final String server;
    public MpaStartFrame request;
    public MpaStartFrame reply;
    public final Map<Opcode, long[]> clientToServer = new EnumMap<>(Opcode.class); // {messages, bytes}
    public final Map<Opcode, long[]> serverToClient = new EnumMap<>(Opcode.class);
    public int terminates;
    public String state = "open";
    public int violations;
    public int errors;

    public StreamStats(int stream, String client, String server) {
        this.stream = stream;
        this.client = client;
        this.server = server;
    }

    void add(Delivery d) {
        Opcode op = d.kind();
        if (op == null) return;
        long[] c = (d.direction() == Direction.CLIENT_TO_SERVER ? clientToServer : serverToClient)
                .computeIfAbsent(op, k -> new long[2]);
        c[0]++;
        c[1] += d.length();
        if (op == Opcode.TERMINATE) terminates++;
    }

    public StreamStats copy() {
        StreamStats s = new StreamStats(stream, client, server);
        s.request = request;
        s.reply = reply;
        clientToServer.forEach((k, v) -> s.clientToServer.put(k, v.clone()));
        serverToClient.forEach((k, v) -> s.serverToClient.put(k, v.clone()));
        s.terminates = terminates;
        s.state = state;
        s.violations = violations;
        s.errors = errors;
        return s;
    }

    /** "rev 2, CRC, IRD 1/ORD 1, P2P" from the Request and Reply. */
    public String mpa() {
        MpaStartFrame f = reply != null ? reply : request;
        if (f == null) return "no handshake seen";
        StringBuilder sb = new StringBuilder("rev ").append(f.revision());
        boolean crc = request != null && reply != null ? request.crc() && reply.crc() : f.crc();
        sb.append(crc ? ", CRC" : ", no CRC");
        boolean m = (request != null && request.markers()) || (reply != null && reply.markers());
        if (m) sb.append(", Markers");
        if (f.enhanced() != null) {
            sb.append(", IRD ").append(f.enhanced().ird()).append("/ORD ").append(f.enhanced().ord());
            if (f.enhanced().peerToPeer()) sb.append(", P2P");
        }
        if (reply != null && reply.reject()) sb.append(", REJECTED");
        return sb.toString();
    }

    /** "Send 10, Write 10 (640 B)" of one direction. */
    public static String messages(Map<Opcode, long[]> m) {
        if (m.isEmpty()) return "";
        StringBuilder sb = new StringBuilder();
        m.forEach((op, c) -> {
            if (sb.length() > 0) sb.append(", ");
            sb.append(op.shortName()).append(' ').append(c[0]);
        });
        return sb.toString();
    }

    public static long bytes(Map<Opcode, long[]> m) {
        long n = 0;
        for (long[] c : m.values()) n += c[1];
        return n;
    }
}
