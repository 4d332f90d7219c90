package io.rddp.tcp;

/**
 * Direction within a TCP connection. The client is the side that sent the SYN, or, when the capture starts
 * mid-connection, the source of the first segment seen.
 */
public enum Direction {
    CLIENT_TO_SERVER, SERVER_TO_CLIENT;

    public Direction reverse() {
        return this == CLIENT_TO_SERVER ? SERVER_TO_CLIENT : CLIENT_TO_SERVER;
    }
}
