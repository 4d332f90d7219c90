package io.rddp.tcp;

import io.rddp.Notice;

import java.nio.ByteBuffer;

/** Receives the reassembled, in-order byte stream of each direction of each TCP connection. */
public interface TcpListener {

    /** A connection was seen for the first time. */
    default void onConnection(TcpConnection connection) {
    }

    /**
     * In-order bytes of one direction. Calls for a direction have strictly increasing, contiguous offsets except
     * across a reported {@link #onGap gap}.
     *
     * @param offset stream offset of data's first byte (0 = first byte after the SYN)
     * @param data   a view valid only during the call
     * @param frame  the frame that carried these bytes (for bytes released from the out-of-order queue: the frame
     *               that originally carried them)
     */
    void onData(TcpConnection connection, Direction direction, long offset, ByteBuffer data, long frame);

    /**
     * Bytes [offset, offset + length) of the direction were never captured; data continues after them.
     *
     * @param frame the frame whose arrival (or the end of the capture, then the last frame) proved the gap
     */
    void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame);

    /** FIN (reset = false) or RST (reset = true) at the given stream offset. */
    default void onClose(TcpConnection connection, Direction direction, long offset, boolean reset, long frame) {
    }

    /** Retransmission with different bytes, zero-window probes, and other facts worth reporting. */
    default void onNotice(Notice notice) {
    }

    /**
     * The connection's state may be freed: no further calls for it follow. Called once per connection: when it is
     * evicted, when its 4-tuple is reused by a new connection, and at the end of the capture.
     */
    default void onConnectionEnd(TcpConnection connection, long frame) {
    }
}
