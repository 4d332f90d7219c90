package io.rddp.tcp;

/**
 * A connection as {@link TcpReassembler} tracks it: its stream number, its endpoints (client: the side that sent the
 * SYN, else the first sender seen) and the state of its two directions.
 */
final class TrackedConnection implements TcpConnection {
    final int index;
    final Endpoint client;
    final Endpoint server;
    final ConnectionTable.Key key;
    final DirectionState c2s = new DirectionState();
    final DirectionState s2c = new DirectionState();

    TrackedConnection(int index, Endpoint client, Endpoint server) {
        this.index = index;
        this.client = client;
        this.server = server;
        this.key = new ConnectionTable.Key().set(client, server);
    }

    Direction directionFrom(Endpoint source) {
        return source == client || source.equals(client) ? Direction.CLIENT_TO_SERVER
                : Direction.SERVER_TO_CLIENT;
    }

    DirectionState half(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? c2s : s2c;
    }

    boolean closed() {
        return c2s.reset || s2c.reset || (c2s.finDelivered && s2c.finDelivered);
    }

    void releaseBoth() {
        if (c2s.pendingBytes == 0 && s2c.pendingBytes == 0) {
            c2s.history = null;
            s2c.history = null;
        }
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public Endpoint client() {
        return client;
    }

    @Override
    public Endpoint server() {
        return server;
    }

    @Override
    public boolean synSeen(Direction d) {
        return half(d).synSeen;
    }

    /** {@inheritDoc} -1 while nothing was seen in that direction. */
    @Override
    public long initialSequence(Direction d) {
        DirectionState h = half(d);
        return h.started ? h.initialSeq : -1;
    }

    /** "10.0.0.1:40000 -> 10.0.0.2:4420:", the direction's endpoints, to start a notice with. */
    String describe(Direction d) {
        return source(d) + " -> " + destination(d) + ":";
    }

    @Override
    public String toString() {
        return "stream " + index + " (" + client + " -> " + server + ")";
    }
}
