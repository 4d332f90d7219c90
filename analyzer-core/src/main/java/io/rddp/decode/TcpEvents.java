package io.rddp.decode;

import io.rddp.Notice;
import io.rddp.mpa.MpaDecoder;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpListener;

import java.nio.ByteBuffer;

/** Hands the reassembled TCP streams to the MPA layer, and connection facts to the pipeline's listener. */
final class TcpEvents implements TcpListener {
    private final MpaDecoder mpa;
    private final PduListener listener;
    /** set once the capture is read to its end: the connections ending now end with it */
    boolean captureEnded;
    private final DdpStage ddp;

    TcpEvents(MpaDecoder mpa, PduListener listener, DdpStage ddp) {
        this.mpa = mpa;
        this.listener = listener;
        this.ddp = ddp;
    }

    @Override
    public void onConnection(TcpConnection connection) {
        listener.onConnection(connection);
        mpa.onConnection(connection);
    }

    @Override
    public void onData(TcpConnection connection, Direction direction, long offset, ByteBuffer data, long frame) {
        mpa.onData(connection, direction, offset, data, frame);
    }

    @Override
    public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
        mpa.onGap(connection, direction, offset, length, frame);
        listener.onGap(connection, direction, offset, length, frame);
    }

    @Override
    public void onClose(TcpConnection connection, Direction direction, long offset, boolean reset, long frame) {
        mpa.onClose(connection, direction, offset, reset, frame);
        listener.onClose(connection, direction, reset, frame);
    }

    @Override
    public void onConnectionEnd(TcpConnection connection, long frame) {
        mpa.onConnectionEnd(connection, frame);
        ddp.end(connection);
        listener.onConnectionEnd(connection, frame, captureEnded);
    }

    @Override
    public void onNotice(Notice notice) {
        listener.onNotice(notice);
    }
}
