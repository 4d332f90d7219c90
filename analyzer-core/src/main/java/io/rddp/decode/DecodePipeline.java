package io.rddp.decode;

import io.rddp.Notice;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.Frame;
import io.rddp.mpa.Fpdu;
import io.rddp.mpa.MpaDecoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.tcp.Direction;
import io.rddp.tcp.FrameHeaders;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.PacketDecoder;
import io.rddp.tcp.TcpReassembler;
import io.rddp.tcp.TcpSegment;

import java.io.IOException;
import java.util.function.LongUnaryOperator;

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
    private final Clock clock = new Clock();
    /** where what MPA framed goes: the layers above on this thread, or the thread that runs them */
    private final Route route = new Route();
    private int threads = 1;
    private boolean frameHeaders;

    public DecodePipeline(PduListener listener) {
        this(listener, TcpReassembler.Limits.defaults());
    }

    /** With TCP's caps on connections and buffered bytes (hostile captures; see {@link TcpReassembler.Limits}). */
    public DecodePipeline(PduListener listener, TcpReassembler.Limits limits) {
        this.listener = listener;
        this.packets = new PacketDecoder(n -> route.target.onNotice(n));
        this.ddp = new DdpStage(listener);
        route.target = new PduEmitter(listener, ddp, clock);
        this.mpa = new MpaDecoder(route);
        this.tcpEvents = new TcpEvents(mpa, route);
        this.tcp = new TcpReassembler(tcpEvents, limits);
    }

    /**
     * Threads to decode with: 1, or 2 to run the layers above MPA framing, and the listener, on a second thread
     * ({@link AboveMpaThread}); the listener sees the same events in the same order either way. Two are used only
     * for captures whose frame views stay valid ({@link CaptureReader#stableViews()}: files, not compressed or piped
     * input); more than two are not used yet.
     */
    public DecodePipeline threads(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be at least 1");
        this.threads = threads;
        return this;
    }

    /**
     * Whether each PDU carries the Ethernet, VLAN, IP and TCP headers of the frame it ends in ({@link Pdu#headers}):
     * for what shows fields ({@code -V}, JSON, {@code -T fields}, {@code -Y}, the GUI). Off by default, when a PDU
     * costs nothing more; on, each PDU costs a copy of its frame's headers (never of its payload).
     */
    public DecodePipeline frameHeaders(boolean wanted) {
        this.frameHeaders = wanted;
        return this;
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
        if (threads < 2 || !reader.stableViews()) {
            // every layer is done with a frame's bytes when the next frame is read (TCP and MPA copy what they keep)
            read(reader, perFrame, window -> window);
            return;
        }
        AboveMpaThread.ReplayClock replay = new AboveMpaThread.ReplayClock();
        AboveMpaThread above = new AboveMpaThread(new PduEmitter(listener, ddp, replay), replay, clock, reader);
        Downstream direct = route.target;
        route.target = above;
        mpa.detachViews(true);
        try {
            // the layers above MPA are done with a window once no batch in flight refers to it
            read(reader, perFrame, above::oldestWindowInUse);
        } catch (IOException e) {
            above.finish(); // a file that turns bad: what was read before is decoded to the end all the same
            throw e;
        } catch (RuntimeException | Error e) {
            above.abandon();
            throw e;
        } finally {
            route.target = direct;
            mpa.detachViews(false);
        }
        above.finish();
    }

    /**
     * @param inUse from the window of the frame just decoded, the oldest read window the layers may still refer to:
     *              the reader may reuse the ones before it ({@link CaptureReader#recycleWindows})
     */
    private void read(CaptureReader reader, Runnable perFrame, LongUnaryOperator inUse) throws IOException {
        boolean recycle = reader.recycleWindows();
        try {
            while (reader.next(frame)) {
                if (firstTimestamp == Long.MIN_VALUE) firstTimestamp = frame.timestampNanos;
                frameNumber = frame.number;
                frameTimestamp = frame.timestampNanos;
                recentTimestamps[(int) (frameNumber & (RECENT - 1))] = frameTimestamp;
                if (packets.decode(frame, segment)) tcp.accept(segment);
                if (recycle) reader.release(inUse.applyAsLong(reader.window()));
                perFrame.run();
            }
        } finally {
            tcpEvents.captureEnded = true;
            tcp.finish(frameNumber);
            mpa.finish();
            route.target.endAll();
        }
    }

    /** Forwards to the current target, so the layers below need not know whether the layers above are threaded. */
    private static final class Route implements Downstream {
        Downstream target;

        @Override
        public void onStartFrame(TcpConnection c, Direction d, MpaStartFrame start, long offset, long firstFrame,
                                 long frameNo) {
            target.onStartFrame(c, d, start, offset, firstFrame, frameNo);
        }

        @Override
        public void onFpdu(TcpConnection c, Direction d, Fpdu fpdu) {
            target.onFpdu(c, d, fpdu);
        }

        @Override
        public void onMarkerError(TcpConnection c, Direction d, long offset, long frame, String detail) {
            target.onMarkerError(c, d, offset, frame, detail);
        }

        @Override
        public void onNotice(Notice notice) {
            target.onNotice(notice);
        }

        @Override
        public void onConnection(TcpConnection c) {
            target.onConnection(c);
        }

        @Override
        public void onGap(TcpConnection c, Direction d, long offset, long length, long frame) {
            target.onGap(c, d, offset, length, frame);
        }

        @Override
        public void onClose(TcpConnection c, Direction d, boolean reset, long frame) {
            target.onClose(c, d, reset, frame);
        }

        @Override
        public void onConnectionEnd(TcpConnection c, long frame, boolean captureEnded) {
            target.onConnectionEnd(c, frame, captureEnded);
        }

        @Override
        public void endAll() {
            target.endAll();
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

        /**
         * The frame being processed carries the PDU's last byte (tshark shows a reassembled PDU with that frame's
         * headers); PDUs delivered when the capture ends, or framed later than their frame, have none.
         */
        @Override
        public FrameHeaders headers(TcpConnection c, Direction d, long frame) {
            if (!frameHeaders || frame != frameNumber || tcpEvents.captureEnded || segment.frame() != frame
                    || !segment.source().equals(c.source(d)) || !segment.destination().equals(c.destination(d))) {
                return null;
            }
            return packets.headers(frame, TcpReassembler.sequenceBase(c, d),
                    TcpReassembler.sequenceBase(c, d.reverse()));
        }
    }
}
