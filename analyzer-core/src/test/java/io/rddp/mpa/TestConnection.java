package io.rddp.mpa;

import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpConnection;

/** A TCP connection as the reassembler would describe it. */
record TestConnection(int index, Endpoint client, Endpoint server, boolean syn, long clientIsn, long serverIsn)
        implements TcpConnection {

    static TestConnection of(int index) {
        return new TestConnection(index, new Endpoint(new byte[]{10, 0, 0, 1}, 40000),
                new Endpoint(new byte[]{10, 0, 0, 2}, 4791), true, 1000, 2000);
    }

    @Override
    public boolean synSeen(Direction d) {
        return syn;
    }

    @Override
    public long initialSequence(Direction d) {
        return ((d == Direction.CLIENT_TO_SERVER ? clientIsn : serverIsn) + (syn ? 1 : 0)) & 0xFFFFFFFFL;
    }
}
