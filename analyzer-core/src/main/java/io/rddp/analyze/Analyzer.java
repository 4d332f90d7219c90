package io.rddp.analyze;

import io.rddp.Notice;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.ddp.DdpMessage;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.sink.Delivery;
import io.rddp.sink.SinkListener;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.StreamSummary;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decodes a capture and feeds every PDU to the reference Data Sink model in the same streaming pass (Zeek's split:
 * the pipeline decodes, the model judges). Used by {@code rddp analyze}; the GUI and the conformance suite drive
 * the same two pieces.
 */
public final class Analyzer {
    /** Notices kept for the report; later ones are only counted. */
    public static final int MAX_NOTICES = 1000;
    private final SinkModel.Options options;
    private final AnalysisLimits limits;
    private final StagRegistry registry;
    private final UlpProfile profile;
    private RpcRdmaStage.DecodeAs decodeAs = RpcRdmaStage.DecodeAs.AUTO;
    private Observer observer;
    private int threads = 1;

    /**
     * Sees the pass as it goes, for the GUI and filters: every PDU (after the model judged it, so the violations it
     * caused were already reported), every violation, delivery and finished stream. Views in a PDU are valid only
     * during the call, as for {@link io.rddp.decode.PduListener}.
     */
    public interface Observer {
        default void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
        }

        default void onViolation(Violation violation) {
        }

        default void onDelivery(Delivery delivery) {
        }

        default void onStreamFinished(StreamSummary summary) {
        }

        default void onConnection(TcpConnection connection) {
        }

        /** @param captureEnded whether it ends only because the capture does */
        default void onConnectionEnd(TcpConnection connection, long frame, boolean captureEnded) {
        }

        /** FIN (reset = false) or RST of a direction. */
        default void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
        }
    }

    private boolean frameHeaders;

    public Analyzer(SinkModel.Options options, StagRegistry registry) {
        this(options, registry, UlpProfile.NONE);
    }

    /** @param profile the ULP whose STag advertisements add to {@code registry} during the pass */
    public Analyzer(SinkModel.Options options, StagRegistry registry, UlpProfile profile) {
        this(AnalysisLimits.defaults().withSink(options), registry, profile);
    }

    /** @param limits every cap of the pass; its sink options also carry {@code --strict} */
    public Analyzer(AnalysisLimits limits, StagRegistry registry, UlpProfile profile) {
        this.limits = limits;
        SinkModel.Options options = limits.sink();
        this.options = options;
        this.registry = registry;
        this.profile = profile;
    }

    /** Which connections carry RPC-over-RDMA (default: decided per connection on evidence). */
    public Analyzer decodeAs(RpcRdmaStage.DecodeAs mode) {
        this.decodeAs = mode;
        return this;
    }

    /**
     * Threads to use: 1 decodes and judges on the caller's thread; with 2 or more the layers above MPA framing and
     * the sink model run on a second one ({@link DecodePipeline#threads}), with the same report. The observer is
     * then called on that second thread, in the same order, and {@link #run} returns after its last call.
     */
    public Analyzer threads(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be at least 1");
        this.threads = threads;
        return this;
    }

    /**
     * Whether the observer's PDUs carry their frame's link, IP and TCP headers ({@link Pdu#headers}): for an
     * observer that shows fields (the GUI's packet detail). Off by default.
     */
    public Analyzer frameHeaders(boolean wanted) {
        this.frameHeaders = wanted;
        return this;
    }

    /** Adds an observer of the pass (one; null removes it). */
    public Analyzer observe(Observer observer) {
        this.observer = observer;
        return this;
    }

    /**
     * Analyses the whole capture. A file that turns bad part way is not an exception: what was read is analysed
     * and {@link Analysis#error()} says where reading stopped.
     *
     * @param perFrame called after every frame (progress)
     * @throws IOException only for failures of the reader itself that are not about the file's content
     */
    public Analysis run(CaptureReader reader, Runnable perFrame) throws IOException {
        Collector c = new Collector(limits, observer == null ? new Observer() { } : observer);
        SinkModel model = new SinkModel(options, registry, c);
        c.model = model;
        c.learner = profile.learner(registry, c::onNotice);
        long[] frames = {0};
        String error = null;
        try {
            new DecodePipeline(new RpcRdmaStage(c, decodeAs), limits.tcp()).threads(threads)
                    .frameHeaders(frameHeaders).run(reader, () -> {
                        frames[0]++;
                        perFrame.run();
                    });
        } catch (CaptureException e) {
            error = e.getMessage();
        }
        model.onEnd();
        if (c.streamsNotListed > 0) {
            c.onNotice(new Notice(Notice.Severity.WARNING, "analyze", 0, -1, -1, c.streamsNotListed
                    + " more streams were analysed but are not listed (report.streams cap " + limits.reportedStreams()
                    + ")"));
        }
        if (c.violationsDropped > 0) {
            c.onNotice(new Notice(Notice.Severity.WARNING, "analyze", 0, -1, -1, c.violationsDropped
                    + " more violations were found but not kept (report.violations cap " + limits.violations() + ")"));
        }
        return new Analysis(frames[0], c.pdus, c.messages, new ArrayList<>(c.reported.values()), c.violations,
                c.notices, c.noticesDropped, error, limits.describe());
    }

    private static long total(StreamSummary s) {
        return s.clientToServer().segments() + s.serverToClient().segments();
    }

    /** Pipeline events in, model events out; keeps only what the report needs. */
    private static final class Collector implements RpcRdmaListener, SinkListener {
        SinkModel model;
        UlpProfile.Learner learner;
        final AnalysisLimits limits;
        /** connections open in the layers below (bounded by the TCP connection cap) */
        final Map<Integer, TcpConnection> connections = new HashMap<>();
        final Map<Integer, Analysis.Stream> reported = new TreeMap<>();
        long streamsNotListed;
        long violationsDropped;

        final Observer observer;

        Collector(AnalysisLimits limits, Observer observer) {
            this.limits = limits;
            this.observer = observer;
        }
        final List<Violation> violations = new ArrayList<>();
        final List<Notice> notices = new ArrayList<>();
        long pdus;
        long messages;
        long noticesDropped;

        @Override
        public void onConnection(TcpConnection connection) {
            connections.put(connection.index(), connection);
            model.onConnection(connection);
            observer.onConnection(connection);
        }

        @Override
        public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
            pdus++;
            int stream = pdu.stream();
            if (pdu.startFrame() != null) {
                model.onStartFrame(stream, pdu.direction(), pdu.startFrame(), pdu.frame());
            } else if (pdu.ddp() != null) {
                learner.onPdu(pdu); // before the model: an advertisement precedes every use of its STag
                learner.onRpcRdma(pdu, message);
                model.onFpdu(stream, pdu.direction(), pdu.fpdu(), pdu.ddp(), pdu.rdmap());
                if (message != null || move != null) {
                    model.onRpcRdma(stream, pdu.direction(), pdu.frame(), message, move);
                }
            } else {
                model.onMalformed(stream, pdu.direction(), pdu.frame(), pdu.fpdu().crcOk(), pdu.fpdu().ulpduLength(),
                        pdu.problem());
            }
            observer.onPdu(pdu, message, move);
        }

        @Override
        public void onDelivery(Delivery delivery) {
            observer.onDelivery(delivery);
        }

        @Override
        public void onMessage(TcpConnection connection, Direction direction, DdpMessage message) {
            if (message.end() == DdpMessage.End.COMPLETE) messages++;
        }

        @Override
        public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
            model.onGap(connection.index(), direction, frame);
        }

        @Override
        public void onFramingError(TcpConnection connection, Direction direction, long frame, String detail) {
            model.onFramingError(connection.index(), direction, frame, detail);
        }

        @Override
        public void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
            model.onClose(connection.index(), direction, reset, frame);
            observer.onClose(connection, direction, reset, frame);
        }

        @Override
        public void onNotice(Notice notice) {
            // A hostile capture can raise a notice per PDU: keep the first ones, count the rest.
            if (notices.size() < limits.notices()) notices.add(notice);
            else noticesDropped++;
        }

        @Override
        public void onViolation(Violation violation) {
            if (violations.size() < limits.violations()) violations.add(violation);
            else violationsDropped++;
            observer.onViolation(violation);
        }

        @Override
        public void onStreamFinished(StreamSummary s) {
            observer.onStreamFinished(s);
            TcpConnection conn = connections.get(s.stream());
            if (conn == null || (s.request() == null && s.reply() == null && total(s) == 0)) return;
            if (reported.size() < limits.reportedStreams()) {
                reported.put(s.stream(), new Analysis.Stream(s.stream(), conn.client(), conn.server(), s));
            } else {
                streamsNotListed++;
            }
        }

        @Override
        public void onConnectionEnd(TcpConnection connection, long frame, boolean captureEnded) {
            model.onConnectionEnd(connection.index(), frame, captureEnded);
            connections.remove(connection.index());
            observer.onConnectionEnd(connection, frame, captureEnded);
        }
    }
}
