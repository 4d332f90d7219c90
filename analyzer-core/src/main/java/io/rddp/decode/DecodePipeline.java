package io.rddp.decode;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.Frame;
import io.rddp.mpa.MpaDecoder;
import io.rddp.tcp.PacketDecoder;
import io.rddp.tcp.TcpReassembler;
import io.rddp.tcp.TcpSegment;

import java.io.IOException;

/**
 * Wires the layers together: capture → tcp → mpa → ddp → rdmap, in one streaming pass. The pipeline decodes and
 * reports; it judges nothing (that is the sink model's job, fed from the same {@link PduListener} events).
 */
public final class DecodePipeline {
    private final PduListener listener;
    private final PacketDecoder packets;
    private final TcpReassembler tcp;
    private final MpaDecoder mpa;
    private final DdpStage ddp;
    private final Frame frame = new Frame();
    private final TcpSegment segment = new TcpSegment();
    private long firstTimestamp = Long.MIN_VALUE;
    // The frame being processed; PDUs completed by it (or by the end of the capture: the last frame) carry it.
    private long frameNumber;
    private long frameTimestamp;
    // Timestamps of recent frames: an FPDU held back while MPA parameters were being inferred is reported with the
    // frame (and time) that carried its last byte, which may lie a few frames back.
    private static final int RECENT = 1 << 16;
    private final long[] recentTimestamps = new long[RECENT];

    private final TcpEvents tcpEvents;

    public DecodePipeline(PduListener listener) {
        this(listener, TcpReassembler.Limits.defaults());
    }

    /** With TCP's caps on connections and buffered bytes (hostile captures; see {@link TcpReassembler.Limits}). */
    public DecodePipeline(PduListener listener, TcpReassembler.Limits limits) {
        this.listener = listener;
        this.packets = new PacketDecoder(listener::onNotice);
        this.ddp = new DdpStage(listener);
        this.mpa = new MpaDecoder(new PduEmitter(listener, ddp, new Clock()));
        this.tcpEvents = new TcpEvents(mpa, listener, ddp);
        this.tcp = new TcpReassembler(tcpEvents, limits);
    }

    /** The MPA layer's state, for callers that want negotiated parameters of a connection. */
    public MpaDecoder mpa() {
        return mpa;
    }

    /** Decodes the whole capture. */
    public void run(CaptureReader reader) throws IOException {
        run(reader, () -> { });
    }

    /**
     * Decodes the whole capture, calling {@code perFrame} after each frame (for progress).
     *
     * @throws io.rddp.capture.CaptureException when the file turns bad; everything before was decoded and emitted,
     *                                          and streams were flushed as at a normal end
     */
    public void run(CaptureReader reader, Runnable perFrame) throws IOException {
        try {
            while (reader.next(frame)) {
                if (firstTimestamp == Long.MIN_VALUE) firstTimestamp = frame.timestampNanos;
                frameNumber = frame.number;
                frameTimestamp = frame.timestampNanos;
                recentTimestamps[(int) (frameNumber & (RECENT - 1))] = frameTimestamp;
                if (packets.decode(frame, segment)) tcp.accept(segment);
                perFrame.run();
            }
        } finally {
            tcpEvents.captureEnded = true;
            tcp.finish(frameNumber);
            mpa.finish();
            ddp.endAll();
        }
    }

    private final class Clock implements PduEmitter.Clock {
        @Override
        public long frame() {
            return frameNumber;
        }

        @Override
        public long timestamp() {
            return frameTimestamp;
        }

        @Override
        public long firstTimestamp() {
            return firstTimestamp;
        }

        @Override
        public boolean remembers(long frame) {
            return frameNumber - frame < RECENT;
        }

        @Override
        public long timestampOf(long frame) {
            return recentTimestamps[(int) (frame & (RECENT - 1))];
        }
    }
}
