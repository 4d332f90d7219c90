package io.rddp.rpcrdma;

/**
 * An RDMA operation on an RPC-over-RDMA connection, matched to the chunk it moves (RFC 8166 §3.5.2): a Responder's
 * RDMA Read Request to a Read chunk segment, the Requester's Read Response carrying it, a Responder's RDMA Write
 * into a Write or Reply chunk segment.
 *
 * @param op          which RDMA operation
 * @param xid         the transaction whose chunk it moves, -1 when no advertised segment matches
 * @param chunk       the chunk kind, null when unmatched
 * @param chunkIndex  the chunk's index (Read chunks by list order of their first segment; Write chunks by list
 *                    order), 0 for the Reply chunk
 * @param segment     the segment's index within the list (Read list) or chunk (Write, Reply)
 * @param segmentOffset octets into the segment where the operation starts
 * @param length      octets moved (Read Request: the size asked for)
 * @param inBounds    whether the whole operation lies inside the segment
 * @param afterReply  whether the transaction's reply had already been sent
 */
public record ChunkMove(Op op, long xid, Chunk chunk, int chunkIndex, int segment, long segmentOffset, long length,
                        boolean inBounds, boolean afterReply) {

    public enum Op { READ_REQUEST, READ_RESPONSE, WRITE }

    public enum Chunk { READ, WRITE, REPLY }

    public boolean matched() {
        return xid >= 0;
    }
}
