package io.rddp.mpa;

import io.rddp.Notice;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

/** Receives what the MPA layer framed out of each direction's byte stream. */
public interface MpaListener {

    /** An MPA Request or Reply (RFC 5044 §7.1) ending in {@code frame}; {@code firstFrame} carried its first byte. */
    void onStartFrame(TcpConnection connection, Direction direction, MpaStartFrame startFrame,
                      long offset, long firstFrame, long frame);

    /** One FPDU; its ULPDU view is valid only during the call. */
    void onFpdu(TcpConnection connection, Direction direction, Fpdu fpdu);

    /**
     * A Marker whose FPDUPTR does not point where RFC 5044 §4.2 says, in an FPDU whose CRC is valid or not in use (RFC
     * 5044 §8 code 3; in an FPDU whose CRC fails the Marker is only a notice: code 2 is the error). Also a notice.
     */
    default void onMarkerError(TcpConnection connection, Direction direction, long offset, long frame, String detail) {
    }

    /** Framing facts: bad marker, CRC mismatch, lost synchronisation, inferred parameters. */
    default void onNotice(Notice notice) {
    }
}
