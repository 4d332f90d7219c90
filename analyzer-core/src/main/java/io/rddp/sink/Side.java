package io.rddp.sink;

import io.rddp.tcp.Direction;

/** One end of a TCP connection: the client sent the SYN (see {@link Direction}). */
public enum Side {
    CLIENT, SERVER;

    /** The side that sends in direction d. */
    public static Side senderOf(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? CLIENT : SERVER;
    }

    /** The side that receives in direction d: the owner of the STags that d's tagged segments target. */
    public static Side receiverOf(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? SERVER : CLIENT;
    }

    /** The direction in which this side sends. */
    public Direction sends() {
        return this == CLIENT ? Direction.CLIENT_TO_SERVER : Direction.SERVER_TO_CLIENT;
    }
}
