package io.rddp.sink;

import io.rddp.oncrpc.UlpInfo;
import io.rddp.oncrpc.XdrReader;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.CmPrivateData;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.tcp.Direction;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * RPC-over-RDMA version 1 rules (RFC 8166): the transport header, credits, inline thresholds and the chunks a
 * transaction moves. Fed by the RPC-over-RDMA layer's messages and chunk moves; reports through the same
 * {@link Reporter} as the RDMAP and DDP rules.
 */
final class RpcRdmaRules {
    /** RFC 8166 §3.3.3: without RFC 8797 private data, inline thresholds are 1024 octets. */
    static final int DEFAULT_INLINE = 1024;
    /** Octets of an RPC reply besides its result data (RPC header, verifier, NFS status and attributes). */
    static final int REPLY_OVERHEAD = 128;
    static final int MAX_CALLS = 4096;

    private final Reporter reporter;

    RpcRdmaRules(Reporter reporter) {
        this.reporter = reporter;
    }

    /** Per stream. */
    static final class State {
        final CmPrivateData[] privateData = new CmPrivateData[2];
        @SuppressWarnings("unchecked")
        final LinkedHashMap<Long, Call>[] calls = new LinkedHashMap[]{new LinkedHashMap<>(), new LinkedHashMap<>()};
        /** credits granted to the Requester of each direction; 1 until the first reply (§3.3.3) */
        final long[] granted = {1, 1};
        /** RPC-over-RDMA messages seen */
        long messages;
        /**
         * per direction, calls whose transport header did not parse (no XID to match) still owed their RDMA_ERROR
         * ERR_CHUNK (§4.5.2): an ERR_CHUNK that matches no call in flight answers one of them
         */
        final long[] unparsed = new long[2];
    }

    private static final class Call {
        final long xid, frame, version;
        final RpcRdmaHeader header;
        final long readTotal;
        long readMoved;

        Call(long xid, long frame, long version, RpcRdmaHeader header) {
            this.xid = xid;
            this.frame = frame;
            this.version = version;
            this.header = header;
            long n = 0;
            if (header != null) for (ReadSegment s : header.readList()) n += s.target().length();
            this.readTotal = n;
        }
    }

    private static State state(StreamState s) {
        if (s.rpcrdma == null) s.rpcrdma = new State();
        return s.rpcrdma;
    }

    void onStartFrame(StreamState s, Direction d, byte[] ulpPrivateData) {
        state(s).privateData[d.ordinal()] = CmPrivateData.parse(ulpPrivateData);
    }

    /** The inline threshold from {@code d}'s sender to its receiver (RFC 8166 §3.3.2, RFC 8797 §5.1). */
    int threshold(StreamState s, Direction d) {
        State st = state(s);
        CmPrivateData sender = st.privateData[d.ordinal()], receiver = st.privateData[1 - d.ordinal()];
        return Math.min(sender == null ? DEFAULT_INLINE : sender.sendSize(),
                receiver == null ? DEFAULT_INLINE : receiver.receiveSize());
    }

    void onMessage(StreamState s, Direction d, long frame, RpcRdmaMessage m) {
        State st = state(s);
        RpcRdmaHeader h = m.header();
        st.messages++;
        if (m.source() == RpcRdmaMessage.Source.POSITION_ZERO_READ_CHUNK) {
            if (m.rpc() != null && h != null && m.rpc().xid() != h.xid()) {
                report(s, d, Check.RPCRDMA_XID, frame, "rdma_xid 0x" + hex(h.xid()) + " but the Long Call's RPC XID is 0x"
                        + hex(m.rpc().xid()));
            }
            if (m.rpc() != null && h != null) replyChunkNeeded(s, d, frame, h, m.rpc().ulp());
            return;
        }
        if (m.headerProblem() != null) {
            boolean shortOne = m.sendLength() < RpcRdmaHeader.MIN_LENGTH;
            report(s, d, shortOne ? Check.RPCRDMA_HEADER_SHORT : Check.RPCRDMA_HEADER_XDR, frame, m.headerProblem());
            // §4.5: a call at least 28 octets long whose header does not parse is owed RDMA_ERROR ERR_CHUNK
            if (!shortOne && m.fromRequester()) st.unparsed[d.ordinal()]++;
            return;
        }
        int threshold = threshold(s, d);
        if (m.sendLength() > threshold) {
            report(s, d, Check.RPCRDMA_INLINE_THRESHOLD, frame, "Send of " + m.sendLength()
                    + " octets exceeds the inline threshold of " + threshold + " octets from "
                    + (m.fromRequester() ? "Requester to Responder" : "Responder to Requester")
                    + (st.privateData[0] == null && st.privateData[1] == null ? " (1024: no RFC 8797 private data)" : ""));
        }
        int other = 1 - d.ordinal();
        Proc proc = h.proc();
        if (proc == Proc.RDMA_ERROR) {
            onError(s, st, d, frame, h, m.fromRequester());
            return;
        }
        if (h.version() != 1) {
            if (m.fromRequester()) open(st, d, new Call(h.xid(), frame, h.version(), null));
            return;
        }
        if (proc == Proc.RDMA_MSGP) {
            report(s, d, Check.RPCRDMA_MSGP, frame, "RDMA_MSGP (xid 0x" + hex(h.xid()) + "): senders MUST NOT send it");
        } else if (proc == Proc.RDMA_DONE) {
            report(s, d, Check.RPCRDMA_DONE, frame, "RDMA_DONE (xid 0x" + hex(h.xid()) + "): senders MUST NOT send it");
            return;
        }
        if (proc == Proc.RDMA_NOMSG && h.noChunks()) {
            report(s, d, Check.RPCRDMA_NOMSG_EMPTY, frame, "RDMA_NOMSG xid 0x" + hex(h.xid())
                    + " has no Read list, Write list or Reply chunk: the Payload stream is nowhere");
        }
        if (m.rpc() != null && m.source() == RpcRdmaMessage.Source.INLINE && m.rpc().xid() != h.xid()) {
            report(s, d, Check.RPCRDMA_XID, frame, "rdma_xid 0x" + hex(h.xid()) + " but the RPC message's XID is 0x"
                    + hex(m.rpc().xid()));
        }
        if (m.fromRequester()) {
            onCall(s, st, d, frame, m, h);
        } else {
            onReply(s, st, d, frame, m, h, st.calls[other].remove(h.xid()), other);
        }
    }

    private void onCall(StreamState s, State st, Direction d, long frame, RpcRdmaMessage m, RpcRdmaHeader h) {
        readList(s, d, frame, h, h.proc() == Proc.RDMA_MSG ? m.sendLength() - h.length() : -1);
        UlpInfo ulp = m.rpc() == null ? null : m.rpc().ulp();
        if (ulp != null && ulp.dataOffset() >= 0) {
            long chunk = 0;
            for (ReadSegment r : h.readList()) if (r.position() == ulp.dataOffset()) chunk += r.target().length();
            if (chunk > 0 && chunk != ulp.dataLength() && chunk != XdrReader.padded(ulp.dataLength())) {
                report(s, d, Check.RPCRDMA_READ_CHUNK_LENGTH, frame, "Read chunk at Position " + ulp.dataOffset()
                        + " holds " + chunk + " octets for a data item of " + ulp.dataLength());
            }
        }
        replyChunkNeeded(s, d, frame, h, ulp);
        int dir = d.ordinal();
        long inFlight = st.calls[dir].size();
        if (inFlight >= st.granted[dir]) {
            report(s, d, Check.RPCRDMA_CREDITS_EXCEEDED, frame, "call xid 0x" + hex(h.xid()) + " makes " + (inFlight + 1)
                    + " requests in flight but " + st.granted[dir] + " credit" + (st.granted[dir] == 1 ? "" : "s")
                    + " granted" + (st.granted[dir] == 1 ? " (a Requester assumes one credit until the first reply,"
                    + " §3.3.3)" : ""));
        }
        open(st, d, new Call(h.xid(), frame, h.version(), h));
    }

    private void replyChunkNeeded(StreamState s, Direction d, long frame, RpcRdmaHeader h, UlpInfo ulp) {
        if (h.replyChunk() != null || !h.writeList().isEmpty() || ulp == null || ulp.maxReplyBytes() < 0) return;
        int threshold = threshold(s, d == Direction.CLIENT_TO_SERVER ? Direction.SERVER_TO_CLIENT
                : Direction.CLIENT_TO_SERVER);
        long max = ulp.maxReplyBytes() + REPLY_OVERHEAD;
        if (max > threshold) {
            report(s, d, Check.RPCRDMA_REPLY_CHUNK_MISSING, frame, "call xid 0x" + hex(h.xid())
                    + " asks for up to " + ulp.maxReplyBytes() + " octets of results (reply up to ~" + max
                    + ") over a reply inline threshold of " + threshold + ", without Write or Reply chunk");
        }
    }

    /** Position rules of the Read list (RFC 8166 §3.4.5); {@code payload} is the inline Payload stream, or -1. */
    private void readList(StreamState s, Direction d, long frame, RpcRdmaHeader h, long payload) {
        List<Long> seen = new ArrayList<>();
        Map<Long, Long> chunks = new TreeMap<>();
        boolean aligned = true, together = true;
        long previous = -1;
        for (ReadSegment r : h.readList()) {
            long p = r.position();
            if (p % 4 != 0 && aligned) {
                aligned = false;
                report(s, d, Check.RPCRDMA_POSITION_ALIGN, frame, "xid 0x" + hex(h.xid()) + ": Position " + p
                        + " is not a multiple of four");
            }
            if (p != previous && seen.contains(p) && together) {
                together = false;
                report(s, d, Check.RPCRDMA_POSITION_SPLIT, frame, "xid 0x" + hex(h.xid()) + ": segments at Position "
                        + p + " are separated by another chunk's; a chunk's segments are concatenated in list order");
            }
            if (!seen.contains(p)) seen.add(p);
            previous = p;
            chunks.merge(p, r.target().length(), Long::sum);
        }
        if (payload < 0) return;
        long reinserted = 0;
        for (Map.Entry<Long, Long> c : chunks.entrySet()) {
            if (c.getKey() == 0) continue;
            if (c.getKey() > payload + reinserted) {
                report(s, d, Check.RPCRDMA_POSITION_RANGE, frame, "xid 0x" + hex(h.xid()) + ": Position "
                        + c.getKey() + " is past the end of the Payload stream (" + payload + " octets inline"
                        + (reinserted > 0 ? " plus " + reinserted + " reinserted" : "") + ")");
                return;
            }
            reinserted += XdrReader.padded(c.getValue());
        }
    }

    private void onReply(StreamState s, State st, Direction d, long frame, RpcRdmaMessage m, RpcRdmaHeader h,
                         Call call, int requester) {
        if (!h.readList().isEmpty()) {
            report(s, d, Check.RPCRDMA_REPLY_READ_LIST, frame, "reply xid 0x" + hex(h.xid()) + " carries "
                    + h.readList().size() + " read segments; Responders MUST leave the Read list empty");
        }
        credits(s, st, d, frame, h, requester);
        if (call == null) {
            report(s, d, Check.RPCRDMA_REPLY_UNMATCHED, frame, "reply xid 0x" + hex(h.xid())
                    + " answers no call in flight");
            return;
        }
        if (call.version != 1) {
            report(s, d, Check.RPCRDMA_VERSION, frame, "call xid 0x" + hex(h.xid()) + " of frame " + call.frame
                    + " had version " + call.version + "; the Responder answered with " + h.proc()
                    + " instead of RDMA_ERROR ERR_VERS", call.frame);
            return;
        }
        if (call.readMoved < call.readTotal) {
            report(s, d, Check.RPCRDMA_READ_CHUNK_NOT_PULLED, frame, "reply xid 0x" + hex(h.xid()) + " after "
                    + call.readMoved + " of the " + call.readTotal + " Read chunk octets of frame " + call.frame
                    + " were read", call.frame);
        }
        writeList(s, d, frame, h, call);
        if (h.replyChunk() != null) {
            String why = call.header.replyChunk() == null ? "the call provided none"
                    : sameSegments(call.header.replyChunk(), h.replyChunk());
            if (why != null) {
                report(s, d, Check.RPCRDMA_REPLY_CHUNK_RETURNED, frame, "reply xid 0x" + hex(h.xid())
                        + " returns a Reply chunk but " + why, call.frame);
            }
        }
        UlpInfo ulp = m.rpc() == null ? null : m.rpc().ulp();
        if (ulp != null && ulp.chunkLength() >= 0 && ulp.chunkLength() != ulp.dataLength()) {
            report(s, d, Check.RPCRDMA_WRITE_ROUNDUP, frame, "reply xid 0x" + hex(h.xid()) + " returns a Write chunk of "
                    + ulp.chunkLength() + " octets for a result data item of " + ulp.dataLength());
        }
    }

    private void writeList(StreamState s, Direction d, long frame, RpcRdmaHeader h, Call call) {
        List<List<RdmaSegment>> provided = call.header.writeList(), returned = h.writeList();
        for (int i = 0; i < Math.min(provided.size(), returned.size()); i++) {
            if (provided.get(i).isEmpty() && !returned.get(i).isEmpty()) {
                report(s, d, Check.RPCRDMA_EMPTY_WRITE_CHUNK, frame, "reply xid 0x" + hex(h.xid()) + ": Write chunk "
                        + i + " was empty in the call; the result MUST come inline and the chunk back empty", call.frame);
                return;
            }
        }
        String why = null;
        if (provided.size() != returned.size()) {
            why = "the call provided " + provided.size() + " Write chunks and the reply returns " + returned.size();
        } else {
            for (int i = 0; i < provided.size() && why == null; i++) {
                String w = sameSegments(provided.get(i), returned.get(i));
                if (w != null) why = "Write chunk " + i + ": " + w;
            }
        }
        if (why != null) {
            report(s, d, Check.RPCRDMA_WRITE_LIST_RETURNED, frame, "reply xid 0x" + hex(h.xid()) + ": " + why,
                    call.frame);
        }
    }

    /** Why {@code returned} is not {@code provided} with lengths at most the provided ones, or null. */
    private static String sameSegments(List<RdmaSegment> provided, List<RdmaSegment> returned) {
        if (provided.size() != returned.size()) {
            return provided.size() + " segments provided, " + returned.size() + " returned";
        }
        for (int i = 0; i < provided.size(); i++) {
            RdmaSegment p = provided.get(i), r = returned.get(i);
            if (p.handle() != r.handle() || p.offset() != r.offset()) {
                return "segment " + i + " returned as " + r + " but provided as " + p;
            }
            if (r.length() > p.length()) {
                return "segment " + i + " returns " + r.length() + " octets, more than the " + p.length() + " provided";
            }
        }
        return null;
    }

    private void credits(StreamState s, State st, Direction d, long frame, RpcRdmaHeader h, int requester) {
        if (h.credits() == 0) {
            report(s, d, Check.RPCRDMA_CREDITS_ZERO, frame, "reply xid 0x" + hex(h.xid())
                    + " grants 0 credits; the granted value MUST NOT be zero");
        } else {
            st.granted[requester] = h.credits();
        }
    }

    private void onError(StreamState s, State st, Direction d, long frame, RpcRdmaHeader h, boolean fromRequester) {
        int other = 1 - d.ordinal();
        Call call = st.calls[other].get(h.xid());
        if (fromRequester && call == null) {
            report(s, d, Check.RPCRDMA_ERROR_FROM_REQUESTER, frame, "RDMA_ERROR xid 0x" + hex(h.xid())
                    + " sent by the Requester; a Requester MUST NOT send it");
            return;
        }
        st.calls[other].remove(h.xid());
        credits(s, st, d, frame, h, other);
        if (call == null && h.errorCode() == RpcRdmaHeader.ERR_CHUNK && st.unparsed[other] > 0) {
            st.unparsed[other]--; // the answer to a call whose header the analyzer could not parse either (§4.5.2)
            return;
        }
        if (call == null) {
            report(s, d, Check.RPCRDMA_ERROR_ECHO, frame, "RDMA_ERROR xid 0x" + hex(h.xid())
                    + " matches no request in flight");
            return;
        }
        if (call.version != h.version()) {
            report(s, d, Check.RPCRDMA_ERROR_ECHO, frame, "RDMA_ERROR xid 0x" + hex(h.xid()) + " has version "
                    + h.version() + " but the failing request of frame " + call.frame + " had " + call.version,
                    call.frame);
        }
        if (call.version != 1 && h.errorCode() != RpcRdmaHeader.ERR_VERS) {
            report(s, d, Check.RPCRDMA_VERSION, frame, "request of frame " + call.frame + " had version "
                    + call.version + "; the RDMA_ERROR carries ERR_CHUNK, not ERR_VERS", call.frame);
        } else if (h.errorCode() == RpcRdmaHeader.ERR_VERS && h.versLow() <= call.version
                && h.versHigh() >= call.version) {
            // §4.5.1: the range is the versions the Responder does support, so it cannot hold the one it rejects
            report(s, d, Check.RPCRDMA_VERSION, frame, "ERR_VERS to a version " + call.version + " request while"
                    + " claiming to support " + h.versLow() + ".." + h.versHigh(), call.frame);
        }
    }

    void onMove(StreamState s, Direction d, long frame, ChunkMove move) {
        if (!move.matched()) {
            if (move.op() != ChunkMove.Op.READ_RESPONSE) {
                report(s, d, Check.RPCRDMA_CHUNK_UNMATCHED, frame, (move.op() == ChunkMove.Op.WRITE ? "RDMA Write"
                        : "RDMA Read Request") + " of " + move.length() + " octets matches no Read, Write or Reply "
                        + "chunk segment of a call");
            }
            return;
        }
        if (!move.inBounds() && move.op() != ChunkMove.Op.READ_RESPONSE) { // a response only follows its request
            report(s, d, Check.RPCRDMA_CHUNK_BOUNDS, frame, opName(move) + " of " + move.length() + " octets at "
                    + move.segmentOffset() + " into segment " + move.segment() + " of the " + move.chunk().name()
                    .toLowerCase() + " chunk of xid 0x" + hex(move.xid()) + " runs past its end");
        }
        if (move.afterReply() && move.op() != ChunkMove.Op.READ_RESPONSE) {
            report(s, d, Check.RPCRDMA_CHUNK_AFTER_REPLY, frame, opName(move) + " into the " + move.chunk().name()
                    .toLowerCase() + " chunk of xid 0x" + hex(move.xid()) + " after its reply was sent");
        }
        if (move.op() == ChunkMove.Op.READ_RESPONSE) {
            Call call = state(s).calls[d.ordinal()].get(move.xid());
            if (call != null) call.readMoved += move.length();
        }
    }

    void finish(StreamState s, long frame) {
        if (s.rpcrdma == null) return;
        for (int dir = 0; dir < 2; dir++) {
            for (Call c : s.rpcrdma.calls[dir].values()) {
                if (c.version != 1) {
                    report(s, Direction.values()[1 - dir], Check.RPCRDMA_VERSION, c.frame, "request of version "
                            + c.version + " (xid 0x" + hex(c.xid) + ") never answered with ERR_VERS");
                }
            }
        }
    }

    private static String opName(ChunkMove m) {
        return switch (m.op()) {
            case READ_REQUEST -> "RDMA Read Request";
            case READ_RESPONSE -> "RDMA Read Response";
            case WRITE -> "RDMA Write";
        };
    }

    private static void open(State st, Direction d, Call c) {
        LinkedHashMap<Long, Call> calls = st.calls[d.ordinal()];
        calls.remove(c.xid);
        if (calls.size() >= MAX_CALLS) {
            Iterator<Call> it = calls.values().iterator();
            it.next();
            it.remove();
        }
        calls.put(c.xid, c);
    }

    private void report(StreamState s, Direction d, Check c, long frame, String message, long... others) {
        reporter.report(s, d, c, frame, message, others);
    }

    private static String hex(long v) {
        return Long.toHexString(v);
    }
}
