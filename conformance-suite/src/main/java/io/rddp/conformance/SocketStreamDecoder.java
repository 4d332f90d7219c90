package io.rddp.conformance;

import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpListener;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * Feeds the bytes a live peer sends on a real TCP socket to the analyzer's decode layers (normally
 * {@link io.rddp.mpa.MpaDecoder}), exactly as reassembled capture streams are fed: the tester judges a device under
 * test with the same decoder and sink model as the analyzer. "Frame" numbers are read() calls, counted from 1.
 */
public final class SocketStreamDecoder {
    private final Socket socket;
    private final TcpListener listener;
    private final Connection connection;
    private final Direction direction;
    private long offset;
    private long sentOffset;
    private long reads;

    /**
     * @param socket    our end of the connection
     * @param weAreClient whether we opened the connection (then the peer's bytes flow server → client)
     * @param listener  the decoder to feed, e.g. a {@code MpaDecoder}
     */
    public SocketStreamDecoder(Socket socket, boolean weAreClient, TcpListener listener) {
        this.socket = socket;
        this.listener = listener;
        Endpoint local = endpoint((InetSocketAddress) socket.getLocalSocketAddress());
        Endpoint remote = endpoint((InetSocketAddress) socket.getRemoteSocketAddress());
        this.connection = weAreClient ? new Connection(local, remote) : new Connection(remote, local);
        this.direction = weAreClient ? Direction.SERVER_TO_CLIENT : Direction.CLIENT_TO_SERVER;
        listener.onConnection(connection);
    }

    public TcpConnection connection() {
        return connection;
    }

    /**
     * Writes our bytes to the peer and shows them to the decoder too: the decoder needs both halves of the MPA
     * handshake to know which Markers and CRCs each direction carries (RFC 5044 §7.1).
     */
    public void send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        listener.onData(connection, direction.reverse(), sentOffset, ByteBuffer.wrap(bytes), reads);
        sentOffset += bytes.length;
    }

    /** Bytes of the peer decoded so far. */
    public long offset() {
        return offset;
    }

    /**
     * Reads what the peer sent until {@code until} is true after a read, the peer closes, or the socket's read
     * timeout expires (then {@link java.net.SocketTimeoutException}).
     *
     * @return false when the peer closed its side
     */
    public boolean readUntil(java.util.function.BooleanSupplier until) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[64 * 1024];
        while (!until.getAsBoolean()) {
            int n = in.read(buf);
            if (n < 0) {
                listener.onClose(connection, direction, offset, false, reads);
                return false;
            }
            reads++;
            listener.onData(connection, direction, offset, ByteBuffer.wrap(buf, 0, n), reads);
            offset += n;
        }
        return true;
    }

    private static Endpoint endpoint(InetSocketAddress a) {
        return new Endpoint(a.getAddress().getAddress(), a.getPort());
    }

    private record Connection(Endpoint client, Endpoint server) implements TcpConnection {
        @Override
        public int index() {
            return 0;
        }

        @Override
        public boolean synSeen(Direction d) {
            return true; // a socket starts at the first byte after the SYN
        }

        @Override
        public long initialSequence(Direction d) {
            return 0; // sequence numbers are not visible through a socket; only offsets mod 512 matter (Markers)
        }
    }
}
