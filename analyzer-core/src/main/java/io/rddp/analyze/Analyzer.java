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
import io.rddp.sink.SinkListener;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.StreamSummary;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.util.ArrayList;
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
    private final StagRegistry registry;
    private final UlpProfile profile;
    private RpcRdmaStage.DecodeAs decodeAs = RpcRdmaStage.DecodeAs.AUTO;

    public Analyzer(SinkModel.Options options, StagRegistry registry) {
        this(options, registry, UlpProfile.NONE);
    }

    /** @param profile the ULP whose STag advertisements add to {@code registry} during the pass */
    public Analyzer(SinkModel.Options options, StagRegistry registry, UlpProfile profile) {
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
     * Analyses the whole capture. A file that turns bad part way is not an exception: what was read is analysed
     * and {@link Analysis#error()} says where reading stopped.
     *
     * @param perFrame called after every frame (progress)
     * @throws IOException only for failures of the reader itself that are not about the file's content
     */
    public Analysis run(CaptureReader reader, Runnable perFrame) throws IOException {
        Collector c = new Collector();
        SinkModel model = new SinkModel(options, registry, c);
        c.model = model;
        c.learner = profile.learner(registry, c::onNotice);
        long[] frames = {0};
        String error = null;
        try {
            new DecodePipeline(new RpcRdmaStage(c, decodeAs)).run(reader, () -> {
                frames[0]++;
                perFrame.run();
            });
        } catch (CaptureException e) {
            error = e.getMessage();
        }
        model.onEnd();
        List<Analysis.Stream> streams = new ArrayList<>();
        for (TcpConnection conn : c.connections.values()) {
            StreamSummary s = c.summaries.get(conn.index());
            if (s == null) s = model.summary(conn.index());
            if (s != null && (s.request() != null || s.reply() != null || total(s) > 0)) {
                streams.add(new Analysis.Stream(conn.index(), conn.client(), conn.server(), s));
            }
        }
        return new Analysis(frames[0], c.pdus, c.messages, streams, c.violations, c.notices, c.noticesDropped, error);
    }

    private static long total(StreamSummary s) {
        return s.clientToServer().segments() + s.serverToClient().segments();
    }

    /** Pipeline events in, model events out; keeps only what the report needs. */
    private static final class Collector implements RpcRdmaListener, SinkListener {
        SinkModel model;
        UlpProfile.Learner learner;
        final Map<Integer, TcpConnection> connections = new TreeMap<>();
        final Map<Integer, StreamSummary> summaries = new TreeMap<>();
        final List<Violation> violations = new ArrayList<>();
        final List<Notice> notices = new ArrayList<>();
        long pdus;
        long messages;
        long noticesDropped;

        @Override
        public void onConnection(TcpConnection connection) {
            connections.put(connection.index(), connection);
            model.onConnection(connection);
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
        }

        @Override
        public void onNotice(Notice notice) {
            // A hostile capture can raise a notice per PDU: keep the first ones, count the rest.
            if (notices.size() < MAX_NOTICES) notices.add(notice);
            else noticesDropped++;
        }

        @Override
        public void onViolation(Violation violation) {
            violations.add(violation);
        }

        @Override
        public void onStreamFinished(StreamSummary summary) {
            summaries.put(summary.stream(), summary);
        }
    }
}
