package io.rddp.decode;

import io.rddp.mpa.MpaListener;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

/**
 * Everything the layers above MPA framing receive from below, in capture order: what MPA framed, and the TCP facts
 * about connections. {@link PduEmitter} handles them on the reading thread, {@link AboveMpaThread} on a thread of
 * its own.
 */
interface Downstream extends MpaListener {
    void onConnection(TcpConnection connection);

    void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame);

    void onClose(TcpConnection connection, Direction direction, boolean reset, long frame);

    /** @param captureEnded whether the connection ends only because the capture does */
    void onConnectionEnd(TcpConnection connection, long frame, boolean captureEnded);

    /** The capture ended: unfinished DDP messages are reported abandoned. */
    void endAll();
}
