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

    /** FIN (reset = false) or RST of a direction. */
    default void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
    }
}
