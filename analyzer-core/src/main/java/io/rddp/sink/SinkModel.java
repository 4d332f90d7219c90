package io.rddp.sink;

import io.rddp.Plural;
import io.rddp.MalformedException;
import io.rddp.Notice;
import io.rddp.ddp.DdpSegment;
import io.rddp.mpa.Fpdu;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rdmap.RdmapDecoder;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The reference Data Sink: fed every MPA start frame and DDP segment of a capture in stream order, it keeps for each
 * stream direction what a conforming receiver would know and reports, as {@link Violation}s, every departure of the
 * sender from RFC 5044/6581 (MPA), RFC 5041 (DDP), RFC 5040/7306 (RDMAP) and what RFC 5042 §6 says about STags, with
 * the Terminate error type a conforming receiver would send. It also holds the receiver to account: a peer that got a
 * PDU in error must send the right Terminate (RFC 5040 §7.1).
 * <p>
 * The decode pipeline calls, per stream: {@link #onConnection} (optional), {@link #onStartFrame} for the MPA Request
 * and Reply, {@link #onSegment} (or {@link #onFpdu}) for every FPDU's DDP segment, {@link #onMalformed},
 * {@link #onFramingError} and {@link #onGap} for what MPA/TCP could not deliver, {@link #onClose} for FIN/RST, and
 * {@link #onEnd} once at the end of the capture. Events of all streams may interleave; within a stream they come in
 * the order their frames complete (the model orders the two directions by frame number, e.g. for who sent the first
 * FPDU, RFC 5044 §7.1.2). No payload is kept; state is bounded per stream (see {@link Options})
 * and released when both sides closed. Bad input does not throw: a failure inside the model becomes an ERROR
 * {@link Notice}. Not thread-safe.
 */
public final class SinkModel {

    /**
     * Limits and mode.
     *
     * @param strict             STags the registry does not list are invalid (errors) instead of unverifiable (info)
     * @param maxReportsPerCheck violations of one check per stream direction before further ones are only counted
     * @param maxOpenMessages    messages without their last segment kept per direction
     * @param maxOutstanding     unanswered Read/Atomic Requests kept per direction
     * @param maxTaggedBuffers   tagged buffers with a placement map per direction
     * @param maxRanges          ranges per placement map or out-of-order message before nearby ones merge
     * @param maxLearnedStags    STags learned from the traffic, over all streams
     */
    public record Options(boolean strict, int maxReportsPerCheck, int maxOpenMessages, int maxOutstanding,
                          int maxTaggedBuffers, int maxRanges, int maxLearnedStags) {

        public Options {
            if (maxReportsPerCheck < 1 || maxOpenMessages < 1 || maxOutstanding < 1 || maxTaggedBuffers < 1
                    || maxRanges < 2 || maxLearnedStags < 1) {
                throw new IllegalArgumentException("limits must be positive (maxRanges at least 2)");
            }
        }

        public static Options defaults() {
            return new Options(false, 50, 64, 4096, 256, 64, 65536);
        }

        public Options withStrict(boolean s) {
            return new Options(s, maxReportsPerCheck, maxOpenMessages, maxOutstanding, maxTaggedBuffers, maxRanges,
                    maxLearnedStags);
        }

        public Options withMaxReportsPerCheck(int n) {
            return new Options(strict, n, maxOpenMessages, maxOutstanding, maxTaggedBuffers, maxRanges,
                    maxLearnedStags);
        }
    }

    private final SinkListener listener;
    private final Options options;
    private final Reporter reporter;
    private final MpaRules mpa;
    private final DdpRules ddp;
    private final RdmapRules rdmap;
    private final RpcRdmaRules rpcrdma;
    private final Map<Integer, StreamState> streams = new HashMap<>();
    /** the stream of the last lookup: the several calls for one PDU, and often the next PDUs, are of one stream */
    private StreamState lastStream;
    private long lastFrame;

    public SinkModel(SinkListener listener) {
        this(Options.defaults(), StagRegistry.empty(), listener);
    }

    public SinkModel(Options options, StagDirectory registry, SinkListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.options = Objects.requireNonNull(options, "options");
        this.reporter = new Reporter(listener, options.maxReportsPerCheck());
        StagRules stags = new StagRules(reporter, Objects.requireNonNull(registry, "registry"), options.strict(),
                options.maxLearnedStags(), options.maxTaggedBuffers(), options.maxRanges());
        this.mpa = new MpaRules(reporter);
        this.rpcrdma = new RpcRdmaRules(reporter);
        this.rdmap = new RdmapRules(reporter, stags, options.maxOutstanding());
        this.ddp = new DdpRules(reporter, rdmap, options.maxOpenMessages(), options.maxRanges());
    }

    /** A model that hands violations to {@code violations} and ignores the rest. */
    public static SinkModel reportingTo(Consumer<Violation> violations) {
        return new SinkModel(violations::accept);
    }

    /**
     * Tells the model which untagged buffers the receivers posted, so that it makes the RFC 5041 §7.1 untagged checks
     * 2 to 4 (no buffer, message too long). Without it those checks are not made (a capture cannot show buffers).
     */
    public SinkModel receiveBuffers(ReceiveBuffers buffers) {
        ddp.buffers = Objects.requireNonNull(buffers, "buffers");
        return this;
    }

    /** Every check the model makes, in catalogue order. */
    public static List<Check> checks() {
        return List.of(Check.values());
    }

    public Options options() {
        return options;
    }

    // ---- input ----

    /**
     * Tells the model the endpoints of a stream, so that STags of one host are recognised across its streams
     * (RFC 5042 §6.1.1). Optional: without it each stream is its own STag namespace.
     */
    public void onConnection(TcpConnection connection) {
        at(0);
        try {
            StreamState s = stream(connection.index());
            s.addresses(connection.client().addressString(), connection.server().addressString());
        } catch (RuntimeException e) {
            failed(0, connection.index(), e);
        }
    }

    /** An MPA Request or Reply (RFC 5044 §7.1) sent in {@code direction}, complete in {@code frame}. */
    public void onStartFrame(int stream, Direction direction, MpaStartFrame startFrame, long frame) {
        at(frame);
        try {
            StreamState s = stream(stream);
            if (!s.startSeen && s.c2s.segments == 0 && s.s2c.segments == 0) {
                // RFC 5041 §4.3: "The initial value for MSN MUST be one" on every queue
                for (DirectionState d : new DirectionState[]{s.c2s, s.s2c}) {
                    for (int q = 0; q < DirectionState.QUEUES; q++) {
                        d.nextMsn[q] = 1;
                        d.msnKnown[q] = true;
                    }
                }
            }
            mpa.onStartFrame(s, direction, startFrame, frame);
            rpcrdma.onStartFrame(s, direction, startFrame.ulpPrivateData());
        } catch (RuntimeException e) {
            failed(frame, stream, e);
        }
    }

    /**
     * One FPDU's DDP segment, in stream order.
     *
     * @param frame   frame that completed the FPDU
     * @param crcOk   the MPA CRC verdict: null when CRCs are not in use or not checked, false when it did not match
     *                (the segment is then not judged further: its bytes cannot be trusted)
     * @param segment the DDP segment parsed from the ULPDU
     * @param rdmap   its RDMAP decode, or null to let the model decode it (a header that cannot be decoded, e.g. a
     *                Read Request cut short, is then reported as rdmap.header)
     */
    public void onSegment(int stream, Direction direction, long frame, Boolean crcOk, DdpSegment segment,
                          RdmapPdu rdmap) {
        at(frame);
        try {
            StreamState s = stream(stream);
            DirectionState d = s.dir(direction);
            if (Boolean.FALSE.equals(crcOk)) {
                mpa.crcError(s, d, frame, segment);
                return;
            }
            RdmapPdu pdu = rdmap;
            String decodeError = null;
            if (pdu == null) {
                try {
                    pdu = RdmapDecoder.decode(segment);
                } catch (MalformedException e) {
                    decodeError = e.getMessage();
                }
            }
            mpa.onFpdu(s, d, frame, segment, pdu);
            ddp.onSegment(s, d, frame, segment, pdu, decodeError);
        } catch (RuntimeException e) {
            failed(frame, stream, e);
        }
    }

    /** {@link #onSegment} with the frame and CRC verdict taken from the FPDU. */
    public void onFpdu(int stream, Direction direction, Fpdu fpdu, DdpSegment segment, RdmapPdu rdmap) {
        if (!fpdu.padZero() && !Boolean.FALSE.equals(fpdu.crcOk())) {
            at(fpdu.frame());
            try {
                mpa.pad(stream(stream), direction, fpdu);
            } catch (RuntimeException e) {
                failed(fpdu.frame(), stream, e);
            }
        }
        onSegment(stream, direction, fpdu.frame(), fpdu.crcOk(), segment, rdmap);
    }

    /**
     * The receiving endpoint's own limit on the Read/Atomic Requests that {@code direction}'s sender may have
     * outstanding at once: its IRD (RFC 5040 §6.1: "the RDMAP layer MUST NOT exceed the maximum number of
     * outstanding, inbound RDMA Read Requests"; RFC 7306 §5.2 counts Atomic Requests too). For the model of a live
     * endpoint, which knows its own IRD where the MPA exchange carried none: MPA Rev 1 has no IRD/ORD negotiation
     * (RFC 5044), and RFC 6581 §9.1's 0x3FFF leaves the numbers to the ULP. A limit the MPA negotiation set stays;
     * a capture's model never calls this (it cannot know an endpoint's IRD). Requests beyond the limit are reported
     * as {@link Check#RDMAP_OUTSTANDING} with the Terminate it owes, as after an RFC 6581 exchange.
     */
    public void knownInboundLimit(int stream, Direction direction, int limit) {
        if (limit < 0) throw new IllegalArgumentException("limit must not be negative, got " + limit);
        try {
            DirectionState d = stream(stream).dir(direction);
            if (d.outstandingLimit >= 0) return;
            d.outstandingLimit = limit;
            d.outstandingLimitOwn = true;
        } catch (RuntimeException e) {
            failed(lastFrame, stream, e);
        }
    }

    /**
     * A ULPDU that could not be read as a DDP segment (RFC 5041 §4.4: every segment carries a DDP header).
     *
     * @param reason the parser's message
     */
    public void onMalformed(int stream, Direction direction, long frame, Boolean crcOk, int ulpduLength,
                            String reason) {
        at(frame);
        try {
            StreamState s = stream(stream);
            DirectionState d = s.dir(direction);
            d.segments++;
            d.lastFrame = frame;
            if (d.firstFpduFrame < 0) d.firstFpduFrame = frame;
            if (Boolean.FALSE.equals(crcOk)) {
                reporter.report(s, direction, Check.MPA_CRC, frame, "CRC of the FPDU with ULPDU_Length "
                        + ulpduLength + " does not match");
                return;
            }
            reporter.report(s, direction, Check.DDP_HEADER, frame,
                    "ULPDU of " + Plural.of(ulpduLength, "octet") + ": " + reason);
        } catch (RuntimeException e) {
            failed(frame, stream, e);
        }
    }

    /**
     * A Marker that points elsewhere than the FPDU start the ULPDU_Length fields give (RFC 5044 §8 error 3), as the
     * MPA layer found it.
     */
    public void onFramingError(int stream, Direction direction, long frame, String detail) {
        at(frame);
        try {
            StreamState s = stream(stream);
            mpa.framingError(s, s.dir(direction), frame, detail);
        } catch (RuntimeException e) {
            failed(frame, stream, e);
        }
    }

    /**
     * Bytes of {@code direction} were never captured: the model forgets the messages in progress and the MSN
     * sequence of that direction and stops trusting request/response matching on the stream.
     */
    public void onGap(int stream, Direction direction, long frame) {
        at(frame);
        try {
            StreamState s = stream(stream);
            DirectionState d = s.dir(direction);
            ddp.abandon(s, d, frame, "bytes of the stream were not captured");
            d.resetMessages();
            s.readsUncertain = true;
            reporter.notice(Notice.Severity.INFO, frame, stream, "gap in " + direction + ": DDP message and MSN"
                    + " tracking restarts, Read Request/Response matching on this stream is no longer certain");
        } catch (RuntimeException e) {
            failed(frame, stream, e);
        }
    }

    /**
     * What the RPC-over-RDMA layer made of a PDU (RFC 8166): a message it completed and/or the chunk an RDMA
     * operation moved. Called after {@link #onFpdu} for the same PDU.
     */
    public void onRpcRdma(int stream, Direction direction, long frame, RpcRdmaMessage message, ChunkMove move) {
        at(frame);
        try {
            StreamState s = stream(stream);
            if (move != null) rpcrdma.onMove(s, direction, frame, move);
            if (message != null) rpcrdma.onMessage(s, direction, frame, message);
        } catch (RuntimeException e) {
            failed(frame, stream, e);
        }
    }

    /** FIN or RST of {@code direction}: that side sends nothing more. */
    public void onClose(int stream, Direction direction, boolean reset, long frame) {
        at(frame);
        try {
            StreamState s = streams.get(stream);
            if (s == null) return;
            DirectionState d = s.dir(direction);
            d.closed = true;
            rdmap.settleOwed(s, d, reset ? "reset the connection" : "closed the connection");
            if (s.c2s.closed && s.s2c.closed) finish(s, frame, false);
        } catch (RuntimeException e) {
            failed(frame, stream, e);
        }
    }

    /**
     * The connection is gone from the layers below (closed, reset, evicted under the TCP connection cap, 4-tuple
     * reused, or the capture ended): its stream is finished and its state freed, so the model holds no more
     * streams than TCP tracks connections.
     */
    public void onConnectionEnd(int stream, long frame, boolean captureEnded) {
        at(frame);
        try {
            StreamState s = streams.get(stream);
            if (s != null) finish(s, frame, captureEnded);
        } catch (RuntimeException e) {
            failed(frame, stream, e);
        }
    }

    /** Streams whose state the model holds now. */
    public int openStreams() {
        return streams.size();
    }

    /** The capture ended: every stream still known is finished. */
    public void onEnd() {
        at(lastFrame);
        try {
            for (StreamState s : new ArrayList<>(streams.values())) finish(s, lastFrame, true);
            streams.clear();
        } catch (RuntimeException e) {
            failed(lastFrame, -1, e);
        }
    }

    /**
     * The byte map of what {@code direction} placed into tagged buffers since its last completion signal, ranges
     * coalesced (and merged when over {@link Options#maxRanges}); empty for an unknown or finished stream.
     */
    public List<Placement> placements(int stream, Direction direction) {
        StreamState s = streams.get(stream);
        if (s == null) return List.of();
        List<Placement> out = new ArrayList<>();
        s.dir(direction).forEachPlaced((stag, p) -> {
            for (int i = 0; i < p.ranges.size(); i++) {
                out.add(new Placement(stag, p.ranges.start(i), p.ranges.end(i) - p.ranges.start(i)));
            }
        });
        return out;
    }

    /** Counters of a stream still in progress, or null when unknown or finished. */
    public StreamSummary summary(int stream) {
        StreamState s = streams.get(stream);
        return s == null ? null : summarize(s);
    }

    // ---- internals ----

    private StreamState stream(int index) {
        StreamState s = lastStream;
        if (s != null && s.index == index) return s;
        s = streams.get(index);
        if (s == null) {
            s = new StreamState(index, options.maxTaggedBuffers());
            streams.put(index, s);
        }
        return lastStream = s;
    }

    private void finish(StreamState s, long frame, boolean captureEnded) {
        String why = captureEnded ? "the capture ended" : "the connection closed";
        for (DirectionState d : new DirectionState[]{s.c2s, s.s2c}) {
            mpa.padSummary(s, d);
            ddp.abandon(s, d, frame, why);
            rdmap.unanswered(s, d, frame, why);
            rdmap.settleOwed(s, d, captureEnded ? "the capture ends" : "closed the connection");
        }
        rpcrdma.finish(s, frame);
        reporter.suppressedNotices(s, frame);
        streams.remove(s.index);
        if (lastStream == s) lastStream = null;
        listener.onStreamFinished(summarize(s));
    }

    private static StreamSummary summarize(StreamState s) {
        return new StreamSummary(s.index, s.requestDirection, s.request, s.reply, counters(s.c2s), counters(s.s2c),
                s.rpcrdma == null ? 0 : s.rpcrdma.messages);
    }

    private static StreamSummary.Counters counters(DirectionState d) {
        return new StreamSummary.Counters(d.segments, d.messages, d.byOpcode.snapshot(), d.bytesPlaced,
                d.bytesDelivered, d.terminateFrame);
    }

    // Each input method runs its work in try/catch itself rather than in a lambda handed to one guard method: the
    // lambdas captured per PDU, and bootstrapping them spun classes while the first frames waited.
    private void at(long frame) {
        if (frame > lastFrame) lastFrame = frame;
    }

    /** The model must not take the pipeline down; a failure here is a bug worth seeing. */
    private void failed(long frame, int stream, RuntimeException e) {
        listener.onNotice(new Notice(Notice.Severity.ERROR, "sink", frame, stream, -1, "sink model failure: " + e));
    }
}
