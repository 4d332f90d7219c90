package io.rddp.decode;

import io.rddp.mpa.MpaDecoder;
import io.rddp.mpa.MpaNegotiation;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.nio.ByteBuffer;

/**
 * Decodes the two byte streams of one live TCP connection (a socket rather than a capture) with the same MPA, DDP and
 * RDMAP layers as {@link DecodePipeline}, and emits the same {@link Pdu} events. The caller numbers the "frames"
 * (e.g. one per read or write) and gives their times. Used by the emulated RNIC's receive path and by the conformance
 * tester, so a live peer is judged by the decoder that reads captures. Not thread-safe.
 */
public final class StreamDecoder {
    private final TcpConnection connection;
    private final PduListener listener;
    private final DdpStage ddp;
    private final MpaDecoder mpa;
    private final long[] offset = new long[2];
    private final boolean[] closed = new boolean[2];
    private long frame;
    private long timestamp;
    private long firstTimestamp = Long.MIN_VALUE;
    private boolean ended;

    public StreamDecoder(TcpConnection connection, PduListener listener) {
        this.connection = connection;
        this.listener = listener;
        this.ddp = new DdpStage(listener);
        this.mpa = new MpaDecoder(new PduEmitter(listener, ddp, new Clock()));
        listener.onConnection(connection);
        mpa.onConnection(connection);
    }

    public TcpConnection connection() {
        return connection;
    }

    /** Bytes of {@code direction} that followed the ones given before, carried by {@code frameNumber}. */
    public void data(Direction direction, ByteBuffer data, long frameNumber, long timestampNanos) {
        if (ended || closed[direction.ordinal()] || !data.hasRemaining()) return;
        at(frameNumber, timestampNanos);
        int n = data.remaining();
        mpa.onData(connection, direction, offset[direction.ordinal()], data, frameNumber);
        offset[direction.ordinal()] += n;
    }

    /** FIN or RST of {@code direction}: it sends nothing more. */
    public void close(Direction direction, boolean reset, long frameNumber, long timestampNanos) {
        if (ended || closed[direction.ordinal()]) return;
        closed[direction.ordinal()] = true;
        at(frameNumber, timestampNanos);
        mpa.onClose(connection, direction, offset[direction.ordinal()], reset, frameNumber);
        listener.onClose(connection, direction, reset, frameNumber);
    }

    /** The connection is over: unfinished units are reported and the state freed. */
    public void end(long frameNumber, long timestampNanos) {
        if (ended) return;
        at(frameNumber, timestampNanos);
        ended = true;
        mpa.onConnectionEnd(connection, frameNumber);
        ddp.end(connection);
        listener.onConnectionEnd(connection, frameNumber, false);
    }

    /** Octets of {@code direction} decoded so far. */
    public long offset(Direction direction) {
        return offset[direction.ordinal()];
    }

    /** What the MPA layer knows of the connection's parameters, or null once it ended. */
    public MpaNegotiation negotiation() {
        return mpa.negotiation(connection);
    }

    private void at(long frameNumber, long timestampNanos) {
        frame = frameNumber;
        timestamp = timestampNanos;
        if (firstTimestamp == Long.MIN_VALUE) firstTimestamp = timestampNanos;
    }

    private final class Clock implements PduEmitter.Clock {
        @Override
        public long frame() {
            return frame;
        }

        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public long firstTimestamp() {
            return firstTimestamp;
        }

        @Override
        public boolean remembers(long f) {
            return false; // live streams are not inferred: the handshake is always seen
        }

        @Override
        public long timestampOf(long f) {
            return timestamp;
        }
    }
}
