package io.rddp.conformance.rpcrdma;

import io.rddp.MalformedException;
import io.rddp.conformance.RpcReaction;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.XdrReader;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.nio.ByteBuffer;

/**
 * One message of the Responder's as the tester received it: its octets, its transport header, and the RPC reply it
 * carries (inline, or written into the Reply chunk of a Long Reply), decoded.
 *
 * @param raw     the Send's octets
 * @param header  its RPC-over-RDMA header, or null when it does not decode
 * @param payload the RPC message's octets (the reduced Payload stream), or null (RDMA_ERROR, undecodable)
 * @param rpc     the RPC reply, or null
 * @param problem why something did not decode, or null
 */
public record Answer(byte[] raw, RpcRdmaHeader header, byte[] payload, RpcMessage rpc, String problem) {

    /** What the Responder did, as a scenario's {@code rpc:} reactions name it. */
    public RpcReaction reaction() {
        if (header == null) return RpcReaction.OTHER_REPLY;
        if (header.proc() == Proc.RDMA_ERROR) {
            return header.errorCode() == RpcRdmaHeader.ERR_VERS ? RpcReaction.ERR_VERS
                    : header.errorCode() == RpcRdmaHeader.ERR_CHUNK ? RpcReaction.ERR_CHUNK : RpcReaction.OTHER_REPLY;
        }
        if (rpc == null || rpc.call()) return RpcReaction.OTHER_REPLY;
        if (rpc.replyStat() == 1) return rpc.rejectStat() == 0 ? RpcReaction.RPC_MISMATCH : RpcReaction.OTHER_REPLY;
        return switch ((int) rpc.acceptStat()) {
            case 0 -> RpcReaction.SUCCESS;
            case 1 -> RpcReaction.PROG_UNAVAIL;
            case 2 -> RpcReaction.PROG_MISMATCH;
            case 3 -> RpcReaction.PROC_UNAVAIL;
            case 4 -> RpcReaction.GARBAGE_ARGS;
            default -> RpcReaction.OTHER_REPLY;
        };
    }

    /** The results after the accepted reply's header (RFC 5531 §9). */
    public XdrReader results() {
        ByteBuffer b = ByteBuffer.wrap(payload);
        b.position((int) rpc.bodyOffset());
        return XdrReader.of(b);
    }

    /** One line for notes: "RDMA_MSG xid 0x5eed0001, 32 credits, accept_stat SUCCESS". */
    public String describe() {
        if (header == null) return "an undecodable message of " + raw.length + " octets (" + problem + ")";
        String base = header.proc() + " xid 0x" + Long.toHexString(header.xid()) + ", " + header.credits()
                + " credits";
        if (header.proc() == Proc.RDMA_ERROR) {
            return base + ", " + (header.errorCode() == RpcRdmaHeader.ERR_VERS ? "ERR_VERS " + header.versLow() + ".."
                    + header.versHigh() : header.errorCode() == RpcRdmaHeader.ERR_CHUNK ? "ERR_CHUNK"
                    : "rdma_err " + header.errorCode());
        }
        return base + ", " + reaction().describe() + (problem != null ? " (" + problem + ")" : "");
    }

    /** Decodes {@code raw}; {@code replyChunk} holds what the Responder wrote into the call's Reply chunk. */
    static Answer of(byte[] raw, byte[] replyChunk) {
        RpcRdmaHeader h;
        try {
            h = RpcRdmaHeader.parse(ByteBuffer.wrap(raw));
        } catch (MalformedException e) {
            return new Answer(raw, null, null, null, e.getMessage());
        }
        byte[] payload = null;
        if (h.proc() == Proc.RDMA_MSG && h.version() == 1) {
            payload = java.util.Arrays.copyOfRange(raw, h.length(), raw.length);
        } else if (h.proc() == Proc.RDMA_NOMSG && h.replyChunk() != null && replyChunk != null) {
            long n = RpcRdmaHeader.length(h.replyChunk());
            payload = java.util.Arrays.copyOf(replyChunk, (int) Math.min(n, replyChunk.length));
        }
        if (payload == null) return new Answer(raw, h, null, null, null);
        try {
            return new Answer(raw, h, payload, RpcMessage.parse(XdrReader.of(ByteBuffer.wrap(payload)), null, null),
                    null);
        } catch (MalformedException e) {
            return new Answer(raw, h, payload, null, "the RPC message does not decode: " + e.getMessage());
        }
    }
}
