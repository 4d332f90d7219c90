package io.rddp.sink;

import io.rddp.mpa.MpaStartFrame;
import io.rddp.tcp.Direction;

/** One TCP stream as the model sees it: its MPA exchange and the state of both directions. */
final class StreamState {
    final int index;
    final DirectionState c2s, s2c;
    /** keys of each side's STag namespace: its IP address when known (RFC 5042 §2.2.5), else this stream's */
    private String clientKey, serverKey;

    // MPA start frames (RFC 5044 §7.1, RFC 6581)
    MpaStartFrame request, reply;
    Direction requestDirection, replyDirection;
    long requestFrame = -1, replyFrame = -1;
    /** a start frame was seen: the stream was captured from its MPA startup on */
    boolean startSeen;
    /** MPA was left: Reply with R set, or a malformed start frame (RFC 5044 §7.1.2) */
    long exitFrame = -1;
    String exitReason;
    /** a gap was seen: which responses answer which requests is no longer certain */
    boolean readsUncertain;
    /** RPC-over-RDMA state, once the stream carries it */
    RpcRdmaRules.State rpcrdma;

    final int[] reports = new int[Check.values().length];
    final int[] suppressed = new int[Check.values().length];

    StreamState(int index, int maxBuffers) {
        this.index = index;
        this.c2s = new DirectionState(Direction.CLIENT_TO_SERVER, maxBuffers);
        this.s2c = new DirectionState(Direction.SERVER_TO_CLIENT, maxBuffers);
        addresses(null, null);
    }

    DirectionState dir(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? c2s : s2c;
    }

    /** Key of the STag namespace of {@code side}: by address when known, else private to this stream. */
    String ownerKey(Side side) {
        return side == Side.CLIENT ? clientKey : serverKey;
    }

    /**
     * The sides' IP addresses (null: unknown), which make STags of one host known across its streams. The keys are
     * built here once: STag lookups ask for them per message, and a fresh string would be hashed each time.
     */
    void addresses(String client, String server) {
        clientKey = client != null ? "ip " + client : "stream " + index + " " + Side.CLIENT;
        serverKey = server != null ? "ip " + server : "stream " + index + " " + Side.SERVER;
    }

    /** Whether request/response matching can be trusted: captured from the start and no gap since. */
    boolean readsReliable() {
        return startSeen && !readsUncertain;
    }
}
