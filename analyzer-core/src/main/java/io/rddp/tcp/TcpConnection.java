package io.rddp.tcp;

/**
 * A TCP connection seen in the capture, identified by its 4-tuple. {@link #index()} counts connections in order of
 * first appearance from 0, as tshark's tcp.stream does.
 */
public interface TcpConnection {
    int index();

    Endpoint client();

    Endpoint server();

    default Endpoint source(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? client() : server();
    }

    default Endpoint destination(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? server() : client();
    }

    /** True when the SYN of this direction was captured, so stream offset 0 is the first byte after it. */
    boolean synSeen(Direction d);

    /**
     * TCP sequence number of stream offset 0 in direction {@code d} (ISN + 1 when the SYN was seen, else the
     * sequence number of the first byte seen), so that seq = (initialSequence + offset) mod 2^32.
     */
    long initialSequence(Direction d);
}
