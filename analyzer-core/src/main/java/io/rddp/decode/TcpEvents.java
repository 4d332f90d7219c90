package io.rddp.decode;

import io.rddp.Notice;
import io.rddp.mpa.MpaDecoder;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpListener;

import java.nio.ByteBuffer;

/** Hands the reassembled TCP streams to the MPA layer, and connection facts to the layers above it. */
final class TcpEvents implements TcpListener {
    private final MpaDecoder mpa;
    private final Downstream above;
    /** set once the capture is read to its end: the connections ending now end with it */
    boolean captureEnded;

    TcpEvents(MpaDecoder mpa, Downstream above) {
        this.mpa = mpa;
        this.above = above;
    }

    @Override
    public void onConnection(TcpConnection connection) {
        above.onConnection(connection);
        mpa.onConnection(connection);
    }

    @Override
    public void onData(TcpConnection connection, Direction direction, long offset, ByteBuffer data, long frame) {
        mpa.onData(connection, direction, offset, data, frame);
    }

    @Override
    public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
        mpa.onGap(connection, direction, offset, length, frame);
        above.onGap(connection, direction, offset, length, frame);
    }

    @Override
    public void onClose(TcpConnection connection, Direction direction, long offset, boolean reset, long frame) {
        mpa.onClose(connection, direction, offset, reset, frame);
        above.onClose(connection, direction, reset, frame);
    }

    @Override
    public void onConnectionEnd(TcpConnection connection, long frame) {
        mpa.onConnectionEnd(connection, frame);
        above.onConnectionEnd(connection, frame, captureEnded);
    }

    @Override
    public void onNotice(Notice notice) {
        above.onNotice(notice);
    }
}
