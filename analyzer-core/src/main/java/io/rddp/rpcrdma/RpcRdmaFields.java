package io.rddp.rpcrdma;

import io.rddp.decode.FieldSink;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.RpcNames;
import io.rddp.oncrpc.UlpInfo;

import java.util.List;

/**
 * The fields of an RPC-over-RDMA message, its RPC message and a chunk move, under stable keys: the same
 * description serves {@code decode -V}, JSON lines and the GUI (after {@link io.rddp.decode.PduFields}).
 */
public final class RpcRdmaFields {
    private RpcRdmaFields() {
    }

    public static void describe(RpcRdmaMessage m, ChunkMove move, FieldSink out) {
        if (m != null) describe(m, out);
        if (move != null) describe(move, out);
    }

    static void describe(RpcRdmaMessage m, FieldSink out) {
        RpcRdmaHeader h = m.header();
        out.begin("rpcrdma", "RPC-over-RDMA (RFC 8166)");
        out.text("source", "Message from", switch (m.source()) {
            case INLINE -> "send";
            case POSITION_ZERO_READ_CHUNK -> "position-zero-read-chunk";
            case REPLY_CHUNK -> "reply-chunk";
        });
        out.text("role", "Sent by", m.fromRequester() ? "requester" : "responder");
        out.text("recognition", "Recognised by", m.recognition().name().toLowerCase().replace('_', '-'));
        out.number("sendLength", m.source() == RpcRdmaMessage.Source.INLINE ? "Send message length"
                : "Rebuilt message length", m.sendLength());
        if (h != null) {
            out.id32("xid", "XID", h.xid());
            out.number("version", "Version", h.version());
            out.number("credits", "Credits (requested or granted)", h.credits());
            out.number("proc", "Procedure", h.procValue());
            out.text("procName", "Procedure name", h.proc() == null ? "undefined" : h.proc().name());
            if (h.proc() == Proc.RDMA_MSGP) {
                out.number("align", "RDMA align", h.align());
                out.number("threshold", "RDMA threshold", h.threshold());
            }
            if (h.version() == 1 && h.proc() != Proc.RDMA_ERROR && h.proc() != Proc.RDMA_DONE) {
                out.beginList("reads", "Read list (" + h.readList().size() + " segments)");
                for (ReadSegment s : h.readList()) {
                    out.begin(null, "Read segment: position " + s.position());
                    out.number("position", "Position", s.position());
                    segment(s.target(), out);
                    out.end();
                }
                out.endList();
                out.beginList("writes", "Write list (" + h.writeList().size() + " chunks)");
                for (List<RdmaSegment> w : h.writeList()) chunk(null, "Write chunk", w, out);
                out.endList();
                if (h.replyChunk() != null) chunk("reply", "Reply chunk", h.replyChunk(), out);
            }
            if (h.proc() == Proc.RDMA_ERROR) {
                out.number("error", "Error code", h.errorCode());
                out.text("errorName", "Error", h.errorCode() == RpcRdmaHeader.ERR_VERS ? "ERR_VERS" : "ERR_CHUNK");
                if (h.errorCode() == RpcRdmaHeader.ERR_VERS) {
                    out.number("versLow", "Lowest version supported", h.versLow());
                    out.number("versHigh", "Highest version supported", h.versHigh());
                }
            }
        }
        if (m.headerProblem() != null) out.text("problem", "Header problem", m.headerProblem());
        out.end();
        if (m.rpc() != null) describe(m.rpc(), out);
        if (m.rpcProblem() != null) out.text("rpcProblem", "RPC message not decoded", m.rpcProblem());
    }

    private static void chunk(String key, String label, List<RdmaSegment> w, FieldSink out) {
        out.begin(key, label + " (" + w.size() + " segments, " + RpcRdmaHeader.length(w) + " octets)");
        out.beginList("segments", "Segments");
        for (RdmaSegment s : w) {
            out.begin(null, "Segment");
            segment(s, out);
            out.end();
        }
        out.endList();
        out.end();
    }

    private static void segment(RdmaSegment s, FieldSink out) {
        out.id32("handle", "Handle (STag)", s.handle());
        out.number("length", "Length", s.length());
        out.unsigned64("offset", "Offset", s.offset());
    }

    static void describe(RpcMessage r, FieldSink out) {
        out.begin("rpc", "Remote Procedure Call (RFC 5531)");
        out.id32("xid", "XID", r.xid());
        out.text("msgType", "Message type", r.call() ? "call" : "reply");
        if (r.call()) out.number("rpcVersion", "RPC version", r.rpcVersion());
        if (r.program() >= 0) {
            out.number("program", "Program", r.program());
            String p = RpcNames.program(r.program());
            if (p != null) out.text("programName", "Program name", p);
            out.number("version", "Program version", r.version());
            out.number("procedure", "Procedure", r.procedure());
            out.text("procedureName", "Procedure name", r.procedureName());
        }
        if (r.call()) {
            out.number("credFlavor", "Credential flavor", r.credFlavor());
            out.text("credFlavorName", "Credential", RpcNames.authFlavor(r.credFlavor()));
        } else {
            out.text("replyStat", "Reply status", r.replyStat() == 0 ? "MSG_ACCEPTED" : "MSG_DENIED");
            if (r.acceptStat() >= 0) out.text("acceptStat", "Accept status", RpcNames.acceptStat(r.acceptStat()));
            if (r.rejectStat() >= 0) {
                out.text("rejectStat", "Reject status", r.rejectStat() == 0 ? "RPC_MISMATCH" : "AUTH_ERROR");
            }
            if (r.authStat() >= 0) out.text("authStat", "Auth status", RpcNames.authStat(r.authStat()));
            if (r.mismatchLow() >= 0) {
                out.number("low", "Lowest version", r.mismatchLow());
                out.number("high", "Highest version", r.mismatchHigh());
            }
        }
        out.number("length", "Message length", r.length());
        UlpInfo u = r.ulp();
        if (u != null) {
            if (!u.operations().isEmpty() || u.moreOperations() > 0) {
                out.beginList("ops", "Operations");
                for (String op : u.operations()) out.text(null, "Operation", op);
                out.endList();
                if (u.moreOperations() > 0) out.number("moreOps", "Operations not decoded", u.moreOperations());
            }
            if (u.status() >= 0) {
                out.number("status", "NFS status", u.status());
                out.text("statusName", "NFS status name", RpcNames.nfsStatus(u.status()));
            }
            if (u.maxReplyBytes() >= 0) out.number("maxReplyData", "Most data the reply may carry", u.maxReplyBytes());
            if (u.dataLength() >= 0) {
                out.number("dataOffset", "DDP-eligible data item at", u.dataOffset());
                out.number("dataLength", "DDP-eligible data item length", u.dataLength());
            }
            if (u.chunkLength() >= 0) out.number("dataChunkLength", "Returned in a Write chunk of", u.chunkLength());
            if (u.problem() != null) out.text("ulpProblem", "Arguments/results decoded only in part", u.problem());
        }
        out.end();
    }

    static void describe(ChunkMove c, FieldSink out) {
        out.begin("chunk", "RPC-over-RDMA chunk moved (RFC 8166 §3.5.2)");
        out.bool("matched", "Matches an advertised segment", c.matched());
        if (c.matched()) {
            out.id32("xid", "XID", c.xid());
            out.text("kind", "Chunk", c.chunk().name().toLowerCase());
            out.number("chunkIndex", "Chunk index", c.chunkIndex());
            out.number("segment", "Segment index", c.segment());
            out.number("segmentOffset", "Offset in segment", c.segmentOffset());
            out.bool("inBounds", "Inside the segment", c.inBounds());
            if (c.afterReply()) out.bool("afterReply", "After the reply was sent", true);
        }
        out.number("length", "Length", c.length());
        out.end();
    }

    /** Protocol column: "RPC", "RPCoRDMA", or null when this PDU carries no RPC-over-RDMA message. */
    public static String protocol(RpcRdmaMessage m) {
        if (m == null) return null;
        return m.rpc() != null ? (m.rpc().program() == RpcNames.NFS ? "NFS" : "RPC") : "RPCoRDMA";
    }

    /** Appends " | RDMA_MSG xid 0x.. cr 32 | Call NFSv3 GETATTR" style info. */
    public static StringBuilder info(RpcRdmaMessage m, ChunkMove move, StringBuilder sb) {
        if (m != null) {
            RpcRdmaHeader h = m.header();
            sb.append(" | ");
            if (m.source() != RpcRdmaMessage.Source.INLINE) {
                sb.append(m.source() == RpcRdmaMessage.Source.REPLY_CHUNK ? "Long Reply " : "Long Call ");
            }
            if (h != null) {
                sb.append(h.proc() == null ? "rdma_proc " + h.procValue() : h.proc().name())
                        .append(" xid 0x").append(Long.toHexString(h.xid()));
                if (h.version() != 1) sb.append(" vers ").append(h.version());
                sb.append(" cr ").append(h.credits());
                if (!h.readList().isEmpty()) sb.append(" reads ").append(h.readList().size());
                if (!h.writeList().isEmpty()) sb.append(" writes ").append(h.writeList().size());
                if (h.replyChunk() != null) sb.append(" reply-chunk");
                if (h.proc() == Proc.RDMA_ERROR) {
                    sb.append(h.errorCode() == RpcRdmaHeader.ERR_VERS
                            ? " ERR_VERS " + h.versLow() + ".." + h.versHigh() : " ERR_CHUNK");
                }
            }
            if (m.headerProblem() != null) sb.append(" [malformed: ").append(m.headerProblem()).append(']');
            if (m.rpc() != null) sb.append(" | ").append(m.rpc().summary());
        }
        if (move != null) {
            sb.append(" | ");
            if (!move.matched()) {
                sb.append("no matching chunk");
            } else {
                sb.append(move.chunk().name().toLowerCase()).append(" chunk of xid 0x")
                        .append(Long.toHexString(move.xid()));
                if (!move.inBounds()) sb.append(" OUT OF BOUNDS");
                if (move.afterReply()) sb.append(" after reply");
            }
        }
        return sb;
    }
}
