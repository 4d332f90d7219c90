package io.rddp.rpcrdma;

import io.rddp.oncrpc.RpcMessage;

/**
 * One RPC-over-RDMA message: the transport header of a Send (RFC 8166 §4), and the RPC message it carries inline
 * or, rebuilt from a chunk, the one a Long Call or Long Reply moved by RDMA (§3.5.3).
 *
 * @param source        where the RPC message came from
 * @param fromRequester whether the Requester (the side that sent the call, §2.2.2) sent this message
 * @param sendLength    octets of the Send message (Transport plus Payload stream), checked against the inline
 *                      threshold (§3.3.2)
 * @param header        the transport header, null when it could not be parsed
 * @param headerProblem why the header could not be parsed (or was too short to trust), else null
 * @param rpc           the RPC message, null when there is none or it could not be parsed
 * @param rpcProblem    why the RPC message could not be parsed, else null
 * @param recognition   why this connection is taken as RPC-over-RDMA
 */
public record RpcRdmaMessage(Source source, boolean fromRequester, int sendLength, RpcRdmaHeader header,
                             String headerProblem, RpcMessage rpc, String rpcProblem, Recognition recognition) {

    public enum Source {
        /** the Send itself: an RDMA_MSG Payload stream, or a header with no RPC message */
        INLINE,
        /** a Long Call rebuilt from its Position Zero Read chunk, shown at the Read Response that completed it */
        POSITION_ZERO_READ_CHUNK,
        /** a Long Reply rebuilt from the RDMA Writes into the Reply chunk, shown at the RDMA_NOMSG reply */
        REPLY_CHUNK
    }

    public enum Recognition {
        /** {@code --decode-as rpcrdma} */
        FORCED,
        /** TCP port 20049, the NFS/RDMA port (RFC 8166 §5) */
        PORT,
        /** RFC 8797 private data in the MPA Request or Reply */
        PRIVATE_DATA,
        /** a Send whose RPC-over-RDMA header parsed and whose RPC message carried the same XID (RFC 8166 §4.2.1) */
        CONSISTENT_XID
    }

    /** The transaction id: the header's, or the RPC message's when the header is missing. */
    public long xid() {
        return header != null ? header.xid() : rpc != null ? rpc.xid() : -1;
    }
}
