package io.rddp.gui.model;

import io.rddp.count.DirectionCounter;
import io.rddp.count.DirectionCounts;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.sink.Delivery;
import io.rddp.tcp.Direction;

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
    /** counted on the loading thread; a {@link #copy()} carries their snapshots */
    private final DirectionCounter c2s = new DirectionCounter();
    private final DirectionCounter s2c = new DirectionCounter();
    private DirectionCounts clientToServer = DirectionCounts.NONE;
    private DirectionCounts serverToClient = DirectionCounts.NONE;
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
        // the same counts as the analyzer's summary (messages per opcode, ULP message octets), live
        (d.direction() == Direction.CLIENT_TO_SERVER ? c2s : s2c).add(op.code(), d.segments(), 1, d.length(), 0);
    }

    public StreamStats copy() {
        StreamStats s = new StreamStats(stream, client, server);
        s.request = request;
        s.reply = reply;
        s.clientToServer = c2s.snapshot();
        s.serverToClient = s2c.snapshot();
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

    /** Terminate messages both ways, as of this copy. */
    public long terminates() {
        return clientToServer.messagesByOpcode().getOrDefault(Opcode.TERMINATE, 0L)
                + serverToClient.messagesByOpcode().getOrDefault(Opcode.TERMINATE, 0L);
    }

    /** Messages and octets the client sent, as of this copy. */
    public DirectionCounts clientToServer() {
        return clientToServer;
    }

    /** Messages and octets the server sent, as of this copy. */
    public DirectionCounts serverToClient() {
        return serverToClient;
    }
}
