package io.rddp.conformance;

import io.rddp.rnic.link.SocketConnection;
import io.rddp.decode.PduListener;
import io.rddp.decode.StreamDecoder;
import io.rddp.tcp.Direction;
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
        this.decoder = new StreamDecoder(SocketConnection.of(client, server), listener);
    }

    TcpConnection connection() {
        return decoder.connection();
    }

    /** Octets read or written in direction {@code d}, as the next frame. */
    void data(Direction d, ByteBuffer octets) {
        decoder.data(d, octets, ++frame, SocketConnection.now());
    }

    /** Direction {@code d} ended: FIN, or RST when {@code reset}. */
    void close(Direction d, boolean reset) {
        decoder.close(d, reset, ++frame, SocketConnection.now());
    }

    /** The connection's end: what is unfinished is settled. */
    void end() {
        decoder.end(++frame, SocketConnection.now());
    }

    /** The last frame number given. */
    long frame() {
        return frame;
    }

    /** Stream offset of the next octet in direction {@code d}. */
    long offset(Direction d) {
        return decoder.offset(d);
    }
}
