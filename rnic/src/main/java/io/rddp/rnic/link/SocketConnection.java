package io.rddp.rnic.link;

import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpConnection;

import java.net.InetSocketAddress;

/**
 * A TCP connection as a socket shows it, for decoding what crosses it live: seen from its start, so the decoder needs
 * no SYN, and its octets counted from 0 (Markers only need stream offsets modulo 512, RFC 5044 §4.3).
 */
public record SocketConnection(Endpoint client, Endpoint server) implements TcpConnection {

    public static SocketConnection of(InetSocketAddress client, InetSocketAddress server) {
        return new SocketConnection(endpoint(client), endpoint(server));
    }

    private static Endpoint endpoint(InetSocketAddress a) {
        return new Endpoint(a.getAddress().getAddress(), a.getPort());
    }

    /** The wall clock in nanoseconds since the epoch: the time stamps of live PDUs and recorded frames. */
    public static long now() {
        java.time.Instant t = java.time.Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Override
    public int index() {
        return 0;
    }

    @Override
    public boolean synSeen(Direction d) {
        return true;
    }

    @Override
    public long initialSequence(Direction d) {
        return 0;
    }
}
