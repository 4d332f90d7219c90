package io.rddp.decode;

import io.rddp.Notice;
import io.rddp.ddp.DdpMessage;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

/** What the decode pipeline emits, in capture order. Analyzers, writers and the GUI implement this. */
public interface PduListener {

    void onPdu(Pdu pdu);

    /** A DDP message whose last segment (or abandonment) was just seen. */
    default void onMessage(TcpConnection connection, Direction direction, DdpMessage message) {
    }

    /** Decode facts from any layer: gaps, bad CRCs, truncated frames, inferred parameters. */
    default void onNotice(Notice notice) {
    }

    default void onConnection(TcpConnection connection) {
    }

    /** Bytes [offset, offset + length) of a direction are missing from the capture (see TcpListener#onGap). */
    default void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
    }

    /** MPA framing error that is not visible in a PDU's own fields, e.g. a Marker pointing wrong (RFC 5044 §4.2). */
    default void onFramingError(TcpConnection connection, Direction direction, long frame, String detail) {
    }

    /**
     * The TCP layer let go of a connection (closed both ways, reset, evicted under its connection cap, 4-tuple
     * reused, or the capture ended): every later layer frees its state for it.
     *
     * @param captureEnded whether it ends only because the capture does
     */
    default void onConnectionEnd(TcpConnection connection, long frame, boolean captureEnded) {
    }

    /** FIN (reset = false) or RST of a direction. */
    default void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
    }
}
