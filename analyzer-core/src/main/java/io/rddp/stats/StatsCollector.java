package io.rddp.stats;

import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.FrameLimit;
import io.rddp.count.DirectionCounter;
import io.rddp.count.OpcodeCounts;
import io.rddp.ddp.TaggedHeader;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.stats.CaptureStats.Close;
import io.rddp.stats.CaptureStats.DirectionStats;
import io.rddp.stats.CaptureStats.ProcedureStats;
import io.rddp.stats.CaptureStats.ReadStats;
import io.rddp.stats.CaptureStats.RpcStats;
import io.rddp.stats.CaptureStats.StreamStats;
import io.rddp.stats.CaptureStats.TerminateEntry;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpReassembler;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The statistics engine of {@code rddp stats}: a listener on the same decode pipeline the analyzer uses (capture →
 * TCP → MPA → DDP → RDMAP → RPC-over-RDMA), counting as the PDUs go by. State is held per open connection and per
 * outstanding request and is folded into a small summary when the connection ends, so memory grows with the open
 * streams and outstanding requests, never with the file: latencies go into {@link LatencyHistogram}s (bounded), and
 * every list has a cap beyond which entries are only counted.
 */
public final class StatsCollector {
    /** Streams listed in the result (as the analyzer's report.streams); later ones are only counted. */
    public static final int MAX_STREAMS = 10_000;
    /** Terminates listed; later ones are only counted. */
    public static final int MAX_TERMINATES = 10_000;
    /** Outstanding Read Requests remembered per direction (as the sink model's sink.outstanding-reads). */
    public static final int MAX_OUTSTANDING_READS = 4096;
    /**
     * Open RPC calls remembered per connection and direction (as rpcrdma.transactions): one more drops the oldest,
     * counted as {@link CaptureStats.RpcStats#dropped()}, so a flood of calls never answered costs at most this many
     * entries (under 200 octets each) per open connection.
     */
    public static final int MAX_OPEN_CALLS = RpcRdmaStage.MAX_TRANSACTIONS;
    /** Distinct procedure names per stream and per capture; further ones are counted under {@link #OTHER}. */
    public static final int MAX_PROCEDURES = 256;
    public static final String UNKNOWN_PROCEDURE = "(procedure not known)";
    /** The row of calls whose transport header has a version other than 1, followed by the version and ")". */
    public static final String OTHER_VERSION = "(RPC-over-RDMA version ";
    public static final String OTHER = "(other procedures)";
    /** The opcode counts of FPDUs whose DDP or RDMAP header did not parse. */
    static final int UNDECODED = OpcodeCounts.UNDECODED;

    private RpcRdmaStage.DecodeAs decodeAs = RpcRdmaStage.DecodeAs.AUTO;
    private TcpReassembler.Limits tcpLimits = TcpReassembler.Limits.defaults();

    /** Which connections carry RPC-over-RDMA (as {@code --decode-as}). */
    public StatsCollector decodeAs(RpcRdmaStage.DecodeAs mode) {
        this.decodeAs = mode;
        return this;
    }

    public StatsCollector tcpLimits(TcpReassembler.Limits limits) {
        this.tcpLimits = limits;
        return this;
    }

    /**
     * Reads the whole capture. A file that turns bad part way is not an exception: what was read is counted and
     * {@link CaptureStats#error()} says where reading stopped.
     *
     * @param perFrame called after every frame (progress)
     * @throws IOException only for failures of the reader itself that are not about the file's content
     */
    public CaptureStats run(CaptureReader reader, Runnable perFrame) throws IOException {
        Pass pass = new Pass();
        FrameLimit clocked = new FrameLimit(reader, 0); // counts frames and notes the capture's first and last times
        String error = null;
        try {
            new DecodePipeline(new RpcRdmaStage(pass, decodeAs), tcpLimits).run(clocked, perFrame);
        } catch (CaptureException e) {
            error = e.getMessage();
        }
        // the pipeline ends every connection at the end of the capture; anything left arrived after that
        for (StreamState s : new ArrayList<>(pass.open.values())) pass.finish(s, Close.End.CAPTURE_ENDED, s.lastFrame);
        return new CaptureStats(clocked.frames(), pass.pdus, clocked.firstNanos(), clocked.lastNanos(),
                new ArrayList<>(pass.done.values()), pass.streamsNotListed, pass.readsFirst.summary(),
                pass.readsLast.summary(), pass.rpc.toStats(), pass.terminates, pass.terminatesNotListed, error);
    }

    // ---------------------------------------------------------------- per-stream state

    private static final class DirectionState {
        long startFrames;
        long startFrameBytes;
        long pdus;
        long wire;
        final DirectionCounter ops = new DirectionCounter();

        DirectionStats freeze() {
            return new DirectionStats(startFrames, startFrameBytes, pdus, wire, ops.snapshot());
        }
    }

    /** A Read Request waiting for its Read Response segments. */
    private static final class PendingRead {
        final long nanos;
        final long sinkStag;
        boolean started;

        PendingRead(long nanos, long sinkStag) {
            this.nanos = nanos;
            this.sinkStag = sinkStag;
        }
    }

    /** RDMA Reads requested by one side. */
    private static final class ReadState {
        final ArrayDeque<PendingRead> pending = new ArrayDeque<>();
        long requests;
        long completed;
        long forgotten;
        long unmatched;
        long requestedBytes;
        final LatencyHistogram first = new LatencyHistogram();
        final LatencyHistogram last = new LatencyHistogram();

        ReadStats freeze() {
            return new ReadStats(requests, completed, forgotten + pending.size(), unmatched, requestedBytes,
                    first.summary(), last.summary());
        }
    }

    /** An RPC call waiting for its reply. */
    private static final class OpenCall {
        final long nanos;
        String procedure;
        /** the call's Read list when it has a Position Zero chunk (to tell Long Call octets apart), else null */
        final List<ReadSegment> longCallReads;

        OpenCall(long nanos, String procedure, List<ReadSegment> longCallReads) {
            this.nanos = nanos;
            this.procedure = procedure;
            this.longCallReads = longCallReads;
        }
    }

    private static final class ProcedureState {
        long calls;
        long replies;
        long unanswered;
        long dropped;
        final LatencyHistogram latency = new LatencyHistogram();
    }

    /** RPC calls and replies of a stream, or of the whole capture. */
    private static final class RpcState {
        long calls;
        long replies;
        long unanswered;
        long dropped;
        long unmatched;
        ChunkBytes bytes = ChunkBytes.NONE;
        final LatencyHistogram all = new LatencyHistogram();
        final Map<String, ProcedureState> byProcedure = new HashMap<>();

        ProcedureState procedure(String name) {
            String key = name == null ? UNKNOWN_PROCEDURE : name;
            ProcedureState p = byProcedure.get(key);
            if (p == null) {
                // a hostile capture can name 2^96 procedures: keep the first ones
                if (byProcedure.size() >= MAX_PROCEDURES) key = OTHER;
                p = byProcedure.computeIfAbsent(key, k -> new ProcedureState());
            }
            return p;
        }

        void addAll(RpcState o) {
            calls += o.calls;
            replies += o.replies;
            unanswered += o.unanswered;
            dropped += o.dropped;
            unmatched += o.unmatched;
            bytes = bytes.plus(o.bytes);
            all.addAll(o.all);
            for (Map.Entry<String, ProcedureState> e : o.byProcedure.entrySet()) {
                ProcedureState p = procedure(e.getKey());
                p.calls += e.getValue().calls;
                p.replies += e.getValue().replies;
                p.unanswered += e.getValue().unanswered;
                p.dropped += e.getValue().dropped;
                p.latency.addAll(e.getValue().latency);
            }
        }

        RpcStats toStats() {
            if (calls == 0 && replies == 0 && unmatched == 0 && bytes.isEmpty()) return RpcStats.NONE;
            List<ProcedureStats> procs = new ArrayList<>();
            new TreeMap<>(byProcedure).forEach((name, p) -> procs.add(
                    new ProcedureStats(name, p.calls, p.replies, p.unanswered, p.dropped, p.latency.summary())));
            return new RpcStats(calls, replies, unanswered, dropped, unmatched, all.summary(), procs, bytes);
        }
    }

    private static final class StreamState {
        final TcpConnection conn;
        long pdus;
        long firstFrame = -1;
        long lastFrame = -1;
        long firstNanos;
        long lastNanos;
        final DirectionState[] dirs = {new DirectionState(), new DirectionState()};
        /** by the requester's direction */
        final ReadState[] reads = {new ReadState(), new ReadState()};
        /** open calls by the direction the call went */
        @SuppressWarnings("unchecked")
        final LinkedHashMap<Long, OpenCall>[] calls = new LinkedHashMap[]{new LinkedHashMap<>(), new LinkedHashMap<>()};
        final RpcState rpc = new RpcState();
        /** set by the first RPC-over-RDMA message: from then on a tagged placement no chunk holds is counted */
        boolean rpcSeen;
        final ChunkCounter chunks = new ChunkCounter();
        final long[] fin = {-1, -1};
        final long[] rst = {-1, -1};

        StreamState(TcpConnection conn) {
            this.conn = conn;
        }
    }

    // ---------------------------------------------------------------- the pass

    private static final class Pass implements RpcRdmaListener {
        final Map<Integer, StreamState> open = new HashMap<>();
        final Map<Integer, StreamStats> done = new TreeMap<>();
        long streamsNotListed;
        long pdus;
        final LatencyHistogram readsFirst = new LatencyHistogram();
        final LatencyHistogram readsLast = new LatencyHistogram();
        final RpcState rpc = new RpcState();
        final List<TerminateEntry> terminates = new ArrayList<>();
        long terminatesNotListed;

        StreamState state(TcpConnection c) {
            return open.computeIfAbsent(c.index(), i -> new StreamState(c));
        }

        @Override
        public void onConnection(TcpConnection connection) {
            state(connection);
        }

        @Override
        public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
            pdus++;
            StreamState s = state(pdu.connection());
            s.pdus++;
            if (s.firstFrame < 0) {
                s.firstFrame = pdu.frame();
                s.firstNanos = pdu.timestampNanos();
            }
            s.lastFrame = pdu.frame();
            s.lastNanos = pdu.timestampNanos();
            int d = pdu.direction().ordinal();
            DirectionState dir = s.dirs[d];
            dir.pdus++;
            if (pdu.startFrame() != null) {
                dir.startFrames++;
                dir.startFrameBytes += pdu.startFrame().length();
                dir.wire += pdu.startFrame().length();
                return;
            }
            int wire = pdu.fpdu().wireLength();
            dir.wire += wire;
            if (pdu.ddp() == null || pdu.rdmap() == null) {
                count(dir, UNDECODED, false, 0, wire);
                return;
            }
            int code = pdu.rdmap().control().opcode();
            boolean last = pdu.ddp().header().last();
            count(dir, code, last, pdu.rdmap().payload().remaining(), wire);
            Opcode op = pdu.rdmap().opcode();
            if (op == Opcode.RDMA_READ_RESPONSE || op == Opcode.RDMA_WRITE) placed(s, pdu, move);
            if (op == Opcode.RDMA_READ_REQUEST && pdu.rdmap().body() instanceof ReadRequest rr) {
                readRequest(s.reads[d], pdu, rr);
            } else if (op == Opcode.RDMA_READ_RESPONSE && pdu.ddp().header() instanceof TaggedHeader t) {
                readResponse(s.reads[1 - d], pdu, t);
            } else if (op == Opcode.TERMINATE && pdu.rdmap().body() instanceof Terminate t) {
                if (terminates.size() < MAX_TERMINATES) {
                    terminates.add(new TerminateEntry(pdu.frame(), pdu.timestampNanos(), pdu.stream(),
                            pdu.direction(), pdu.source(), pdu.destination(), t));
                } else {
                    terminatesNotListed++;
                }
            }
            if (message != null) rpc(s, pdu, message);
        }

        private static void count(DirectionState dir, int code, boolean last, long payload, long wire) {
            dir.ops.add(code, 1, last ? 1 : 0, payload, wire);
        }

        /** RFC 5040 §4.4: a Read Request is one untagged segment on queue 1, answered by the Data Source. */
        private static void readRequest(ReadState r, Pdu pdu, ReadRequest rr) {
            r.requests++;
            r.requestedBytes += rr.size();
            if (r.pending.size() >= MAX_OUTSTANDING_READS) {
                r.pending.poll();
                r.forgotten++;
            }
            r.pending.add(new PendingRead(pdu.timestampNanos(), rr.sinkStag()));
        }

        /**
         * RFC 5040 §5.2.1: Read Responses come back in the order of their Requests and name the Data Sink STag of
         * their Request, so a response segment belongs to the oldest pending Request with that STag (the oldest
         * of all, unless a Request is missing from the capture).
         */
        private void readResponse(ReadState r, Pdu pdu, TaggedHeader t) {
            PendingRead p = null;
            for (PendingRead q : r.pending) {
                if (q.sinkStag == t.stag()) {
                    p = q;
                    break;
                }
            }
            if (p == null) {
                if (t.last()) r.unmatched++;
                return;
            }
            long now = pdu.timestampNanos();
            if (!p.started) {
                p.started = true;
                r.first.add(now - p.nanos);
            }
            if (t.last()) {
                r.pending.remove(p);
                r.completed++;
                r.last.add(now - p.nanos);
            }
        }

        /**
         * A tagged placement (RDMA Read Response or Write payload) on an RPC-over-RDMA connection: octets moved
         * through the chunk whose segment the RPC-over-RDMA layer found it in (RFC 8166 §3.5.2), or through none.
         */
        private static void placed(StreamState s, Pdu pdu, ChunkMove move) {
            long octets = pdu.rdmap().payload().remaining();
            if (move != null && move.matched() && move.op() != ChunkMove.Op.READ_REQUEST) {
                boolean positionZero = false;
                if (move.chunk() == ChunkMove.Chunk.READ) { // the Requester sends Read Responses: its calls
                    OpenCall c = s.calls[pdu.direction().ordinal()].get(move.xid());
                    positionZero = c != null && c.longCallReads != null && move.segment() < c.longCallReads.size()
                            && c.longCallReads.get(move.segment()).position() == 0;
                }
                s.chunks.moved(move.chunk(), positionZero, octets);
            } else if (s.rpcSeen) {
                s.chunks.unattributed(octets);
            }
        }

        /**
         * RFC 8166 §4.2.1: a reply carries its call's XID. A call is a Requester's Send with a transport header; the
         * Long Call rebuilt from its Position Zero Read chunk (§3.5.3) only names the procedure of that call.
         */
        private static void rpc(StreamState s, Pdu pdu, RpcRdmaMessage m) {
            s.rpcSeen = true;
            if (m.source() != RpcRdmaMessage.Source.POSITION_ZERO_READ_CHUNK) s.chunks.send(m);
            if (m.header() == null) return;
            int d = pdu.direction().ordinal();
            long xid = m.header().xid();
            Proc proc = m.header().proc();
            if (m.source() == RpcRdmaMessage.Source.POSITION_ZERO_READ_CHUNK) {
                OpenCall c = s.calls[d].get(xid);
                if (c != null && c.procedure == null) c.procedure = ProcedureName.of(m.rpc());
                return;
            }
            if (m.fromRequester() && m.source() == RpcRdmaMessage.Source.INLINE && proc != Proc.RDMA_ERROR
                    && proc != Proc.RDMA_DONE) {
                s.rpc.calls++;
                s.chunks.call(m.header());
                LinkedHashMap<Long, OpenCall> calls = s.calls[d];
                // RFC 5531 §9: an XID names one call on a connection; the same XID again before a reply means
                // the first call was not answered (RFC 8166 transports are reliable: no retransmission here)
                OpenCall old = calls.remove(xid);
                if (old != null) unanswered(s, old);
                if (calls.size() >= MAX_OPEN_CALLS) {
                    Iterator<OpenCall> it = calls.values().iterator();
                    dropped(s, it.next());
                    it.remove();
                }
                // RFC 8166 §4.5.1: a header of another version carries nothing decodable; the Responder answers
                // ERR_VERS, and such probes get their own row rather than "(procedure not known)"
                String name = m.header().version() != 1 ? OTHER_VERSION + m.header().version() + ")"
                        : ProcedureName.of(m.rpc());
                calls.put(xid, new OpenCall(pdu.timestampNanos(), name,
                        hasPositionZero(m.header().readList()) ? m.header().readList() : null));
            } else if (!m.fromRequester()) {
                if (proc == Proc.RDMA_MSG || proc == Proc.RDMA_NOMSG) s.chunks.reply(m.header());
                OpenCall c = s.calls[1 - d].remove(xid);
                if (c == null) {
                    s.rpc.unmatched++;
                    return;
                }
                String name = c.procedure;
                if (name == null && m.rpc() != null && m.rpc().program() >= 0) { // the reply knows its call's key
                    name = ProcedureName.of(m.rpc().program(), m.rpc().version(), m.rpc().procedure(), List.of());
                }
                long t = pdu.timestampNanos() - c.nanos;
                s.rpc.replies++;
                s.rpc.all.add(t);
                ProcedureState p = s.rpc.procedure(name);
                p.calls++;
                p.replies++;
                p.latency.add(t);
            }
        }

        private static boolean hasPositionZero(List<ReadSegment> reads) {
            for (ReadSegment r : reads) if (r.position() == 0) return true;
            return false;
        }

        private static void unanswered(StreamState s, OpenCall c) {
            s.rpc.unanswered++;
            ProcedureState p = s.rpc.procedure(c.procedure);
            p.calls++;
            p.unanswered++;
        }

        private static void dropped(StreamState s, OpenCall c) {
            s.rpc.dropped++;
            ProcedureState p = s.rpc.procedure(c.procedure);
            p.calls++;
            p.dropped++;
        }

        @Override
        public void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
            StreamState s = state(connection);
            long[] which = reset ? s.rst : s.fin;
            if (which[direction.ordinal()] < 0) which[direction.ordinal()] = frame;
        }

        @Override
        public void onConnectionEnd(TcpConnection connection, long frame, boolean captureEnded) {
            StreamState s = open.get(connection.index());
            if (s == null) return;
            boolean closed = (s.fin[0] >= 0 && s.fin[1] >= 0) || s.rst[0] >= 0 || s.rst[1] >= 0;
            finish(s, closed ? Close.End.CLOSED : captureEnded ? Close.End.CAPTURE_ENDED : Close.End.DROPPED, frame);
        }

        void finish(StreamState s, Close.End end, long frame) {
            open.remove(s.conn.index());
            for (LinkedHashMap<Long, OpenCall> calls : s.calls) {
                for (OpenCall c : calls.values()) unanswered(s, c);
                calls.clear();
            }
            for (ReadState r : s.reads) {
                readsFirst.addAll(r.first);
                readsLast.addAll(r.last);
            }
            s.rpc.bytes = s.chunks.freeze();
            rpc.addAll(s.rpc);
            if (s.pdus == 0) return; // a TCP connection with no iWARP PDU: not an RDMA stream
            if (done.size() >= MAX_STREAMS) {
                streamsNotListed++;
                return;
            }
            done.put(s.conn.index(), new StreamStats(s.conn.index(), s.conn.client(), s.conn.server(), s.firstFrame,
                    s.lastFrame, s.firstNanos, s.lastNanos, s.dirs[0].freeze(), s.dirs[1].freeze(),
                    s.reads[0].freeze(), s.reads[1].freeze(), s.rpc.toStats(),
                    new Close(s.fin[0], s.fin[1], s.rst[0], s.rst[1], end, frame)));
        }
    }
}
