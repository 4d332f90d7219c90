package io.rddp.rpcrdma;

import io.rddp.Plural;
import io.rddp.decode.FieldSink;
import io.rddp.field.ChunkField;
import io.rddp.field.Layer;
import io.rddp.field.RpcField;
import io.rddp.field.RpcRdmaField;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.RpcNames;
import io.rddp.oncrpc.UlpInfo;

import java.util.List;

/**
 * Describes an RPC-over-RDMA message, its RPC message and a chunk move by the fields of
 * {@link io.rddp.field.FieldRegistry}: the same description serves {@code decode -V}, JSON lines, the display
 * filter and the GUI (after {@link io.rddp.decode.PduFields}).
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
        out.open(RpcRdmaField.RPCRDMA, "RPC-over-RDMA (RFC 8166)");
        out.emit(RpcRdmaField.SOURCE, switch (m.source()) {
            case INLINE -> "send";
            case POSITION_ZERO_READ_CHUNK -> "position-zero-read-chunk";
            case REPLY_CHUNK -> "reply-chunk";
        });
        out.emit(RpcRdmaField.ROLE, m.fromRequester() ? "requester" : "responder");
        out.emit(RpcRdmaField.RECOGNITION, m.recognition().name().toLowerCase().replace('_', '-'));
        out.emit(RpcRdmaField.SEND_LENGTH, m.source() == RpcRdmaMessage.Source.INLINE
                ? RpcRdmaField.SEND_LENGTH.label() : RpcRdmaField.REBUILT_LENGTH_LABEL, m.sendLength());
        if (h != null) {
            out.emit(RpcRdmaField.XID, h.xid());
            out.emit(RpcRdmaField.VERSION, h.version());
            out.emit(RpcRdmaField.CREDITS, h.credits());
            out.emit(RpcRdmaField.PROC, h.procValue());
            out.emit(RpcRdmaField.PROC_NAME, h.proc() == null ? "undefined" : h.proc().name());
            if (h.proc() == Proc.RDMA_MSGP) {
                out.emit(RpcRdmaField.ALIGN, h.align());
                out.emit(RpcRdmaField.THRESHOLD, h.threshold());
            }
            if (h.version() == 1 && h.proc() != Proc.RDMA_ERROR && h.proc() != Proc.RDMA_DONE) {
                out.open(RpcRdmaField.READS, "Read list (" + Plural.of(h.readList().size(), "segment") + ")");
                for (ReadSegment s : h.readList()) {
                    out.openItem("Read segment: position " + s.position());
                    out.emit(RpcRdmaField.POSITION, s.position());
                    segment(s.target(), out);
                    out.end();
                }
                out.close(RpcRdmaField.READS);
                out.open(RpcRdmaField.WRITES, "Write list (" + Plural.of(h.writeList().size(), "chunk") + ")");
                for (List<RdmaSegment> w : h.writeList()) {
                    out.openItem(chunkLabel("Write chunk", w));
                    segments(RpcRdmaField.WRITE_SEGMENTS, w, out);
                    out.end();
                }
                out.close(RpcRdmaField.WRITES);
                if (h.replyChunk() != null) {
                    out.open(RpcRdmaField.REPLY, chunkLabel("Reply chunk", h.replyChunk()));
                    segments(RpcRdmaField.REPLY_SEGMENTS, h.replyChunk(), out);
                    out.close(RpcRdmaField.REPLY);
                }
            }
            if (h.proc() == Proc.RDMA_ERROR) {
                out.emit(RpcRdmaField.ERROR, h.errorCode());
                out.emit(RpcRdmaField.ERROR_NAME, h.errorCode() == RpcRdmaHeader.ERR_VERS ? "ERR_VERS" : "ERR_CHUNK");
                if (h.errorCode() == RpcRdmaHeader.ERR_VERS) {
                    out.emit(RpcRdmaField.VERS_LOW, h.versLow());
                    out.emit(RpcRdmaField.VERS_HIGH, h.versHigh());
                }
            }
        }
        if (m.headerProblem() != null) out.emit(RpcRdmaField.PROBLEM, m.headerProblem());
        out.close(RpcRdmaField.RPCRDMA);
        if (m.rpc() != null) describe(m.rpc(), out);
        if (m.rpcProblem() != null) out.emit(RpcField.RPC_PROBLEM, m.rpcProblem());
    }

    private static String chunkLabel(String label, List<RdmaSegment> w) {
        return label + " (" + Plural.of(w.size(), "segment") + ", " + Plural.of(RpcRdmaHeader.length(w), "octet") + ")";
    }

    private static void segments(Layer list, List<RdmaSegment> w, FieldSink out) {
        out.open(list, "Segments");
        for (RdmaSegment s : w) {
            out.openItem("Segment");
            segment(s, out);
            out.end();
        }
        out.close(list);
    }

    private static void segment(RdmaSegment s, FieldSink out) {
        out.emit(RpcRdmaField.HANDLE, s.handle());
        out.emit(RpcRdmaField.LENGTH, s.length());
        out.emit(RpcRdmaField.OFFSET, s.offset());
    }

    static void describe(RpcMessage r, FieldSink out) {
        out.open(RpcField.RPC, "Remote Procedure Call (RFC 5531)");
        out.emit(RpcField.XID, r.xid());
        out.emit(RpcField.MSG_TYPE, r.call() ? "call" : "reply");
        if (r.call()) out.emit(RpcField.RPC_VERSION, r.rpcVersion());
        if (r.program() >= 0) {
            out.emit(RpcField.PROGRAM, r.program());
            String p = RpcNames.program(r.program());
            if (p != null) out.emit(RpcField.PROGRAM_NAME, p);
            out.emit(RpcField.VERSION, r.version());
            out.emit(RpcField.PROCEDURE, r.procedure());
            out.emit(RpcField.PROCEDURE_NAME, r.procedureName());
        }
        if (r.call()) {
            out.emit(RpcField.CRED_FLAVOR, r.credFlavor());
            out.emit(RpcField.CRED_FLAVOR_NAME, RpcNames.authFlavor(r.credFlavor()));
        } else {
            out.emit(RpcField.REPLY_STAT, r.replyStat() == 0 ? "MSG_ACCEPTED" : "MSG_DENIED");
            if (r.acceptStat() >= 0) out.emit(RpcField.ACCEPT_STAT, RpcNames.acceptStat(r.acceptStat()));
            if (r.rejectStat() >= 0) {
                out.emit(RpcField.REJECT_STAT, r.rejectStat() == 0 ? "RPC_MISMATCH" : "AUTH_ERROR");
            }
            if (r.authStat() >= 0) out.emit(RpcField.AUTH_STAT, RpcNames.authStat(r.authStat()));
            if (r.mismatchLow() >= 0) {
                out.emit(RpcField.LOW, r.mismatchLow());
                out.emit(RpcField.HIGH, r.mismatchHigh());
            }
        }
        out.emit(RpcField.LENGTH, r.length());
        UlpInfo u = r.ulp();
        if (u != null) {
            if (!u.operations().isEmpty() || u.moreOperations() > 0) {
                out.openValues(RpcField.OPS, RpcField.OPS_LIST_LABEL);
                for (String op : u.operations()) out.item(RpcField.OPS, op);
                out.endList();
                if (u.moreOperations() > 0) out.emit(RpcField.MORE_OPS, u.moreOperations());
            }
            if (u.status() >= 0) {
                out.emit(RpcField.STATUS, u.status());
                out.emit(RpcField.STATUS_NAME, RpcNames.nfsStatus(u.status()));
            }
            if (u.maxReplyBytes() >= 0) out.emit(RpcField.MAX_REPLY_DATA, u.maxReplyBytes());
            if (u.dataLength() >= 0) {
                out.emit(RpcField.DATA_OFFSET, u.dataOffset());
                out.emit(RpcField.DATA_LENGTH, u.dataLength());
            }
            if (u.chunkLength() >= 0) out.emit(RpcField.DATA_CHUNK_LENGTH, u.chunkLength());
            if (u.problem() != null) out.emit(RpcField.ULP_PROBLEM, u.problem());
        }
        out.close(RpcField.RPC);
    }

    static void describe(ChunkMove c, FieldSink out) {
        out.open(ChunkField.CHUNK, "RPC-over-RDMA chunk moved (RFC 8166 §3.5.2)");
        out.emit(ChunkField.MATCHED, c.matched());
        if (c.matched()) {
            out.emit(ChunkField.XID, c.xid());
            out.emit(ChunkField.KIND, c.chunk().name().toLowerCase());
            out.emit(ChunkField.CHUNK_INDEX, c.chunkIndex());
            out.emit(ChunkField.SEGMENT, c.segment());
            out.emit(ChunkField.SEGMENT_OFFSET, c.segmentOffset());
            out.emit(ChunkField.IN_BOUNDS, c.inBounds());
            if (c.afterReply()) out.emit(ChunkField.AFTER_REPLY, true);
        }
        out.emit(ChunkField.LENGTH, c.length());
        out.close(ChunkField.CHUNK);
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
