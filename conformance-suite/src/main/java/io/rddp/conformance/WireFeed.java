package io.rddp.conformance;

import io.rddp.decode.PduListener;
import io.rddp.decode.StreamDecoder;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpConnection;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * Both directions of a scripted connection into one decoder, in the order they are on the wire, each read or write
 * numbered as a frame: the judge sees the connection exactly as a capture would show it. Not thread-safe: callers
 * hold the connection's lock.
 */
final class WireFeed {

    private final StreamDecoder decoder;
    private long frame;

    WireFeed(InetSocketAddress client, InetSocketAddress server, PduListener listener) {
        this.decoder = new StreamDecoder(new Conn(endpoint(client), endpoint(server)), listener);
    }

    TcpConnection connection() {
        return decoder.connection();
    }

    /** Octets read or written in direction {@code d}, as the next frame. */
    void data(Direction d, ByteBuffer octets) {
        decoder.data(d, octets, ++frame, now());
    }

    /** Direction {@code d} ended: FIN, or RST when {@code reset}. */
    void close(Direction d, boolean reset) {
        decoder.close(d, reset, ++frame, now());
    }

    /** The connection's end: what is unfinished is settled. */
    void end() {
        decoder.end(++frame, now());
    }

    /** The last frame number given. */
    long frame() {
        return frame;
    }

    /** Stream offset of the next octet in direction {@code d}. */
    long offset(Direction d) {
        return decoder.offset(d);
    }

    static long now() {
        java.time.Instant t = java.time.Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static Endpoint endpoint(InetSocketAddress a) {
        return new Endpoint(a.getAddress().getAddress(), a.getPort());
    }

    /** One connection, seen from its start: the decoder needs no SYN or sequence numbers. */
    private record Conn(Endpoint client, Endpoint server) implements TcpConnection {
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
}
