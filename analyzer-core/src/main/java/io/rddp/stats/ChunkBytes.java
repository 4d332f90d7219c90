package io.rddp.stats;

/**
 * The octets RPC-over-RDMA (RFC 8166) moved on one connection, or a whole capture, by how they travelled: inline in
 * the Sends, or through the Read, Write and Reply chunks by tagged DDP placement (RDMA Read Responses and RDMA
 * Writes, RFC 5040 §4.4, §4.3) that the analyzer attributed to a chunk segment a call advertised (RFC 8166 §3.5.2).
 *
 * @param calls        Sends of the Requester (RFC 8166 §2.2.2): calls, and what it sends beside them
 * @param replies      Sends of the Responder: replies and RDMA_ERRORs
 * @param read         every Read chunk (§3.4.5), Position Zero ones included; moved: Read Response payload
 * @param positionZero the Read chunks at Position zero (Long Calls, §3.5.3): a part of {@code read}
 * @param write        Write chunks (§3.4.6); moved: RDMA Write payload placed into their segments
 * @param reply        Reply chunks (§4.3.3, Long Replies); moved: RDMA Write payload placed into their segments
 * @param unattributed payload of RDMA Read Responses and RDMA Writes on the connection that no advertised chunk
 *                     segment (of an open or recently answered call) holds
 */
public record ChunkBytes(Inline calls, Inline replies, Chunk read, Chunk positionZero, Chunk write, Chunk reply,
                         long unattributed) {

    public static final ChunkBytes NONE = new ChunkBytes(Inline.NONE, Inline.NONE, Chunk.NONE, Chunk.NONE,
            Chunk.NONE, Chunk.NONE, 0);

    /** RPC message octets moved Requester → Responder: inline calls and Read chunks. */
    public long towardResponder() {
        return calls.payloadBytes() + read.moved();
    }

    /** RPC message octets moved Responder → Requester: inline replies, Write and Reply chunks. */
    public long towardRequester() {
        return replies.payloadBytes() + write.moved() + reply.moved();
    }

    /** Every RPC message octet moved: inline, Read, Write and Reply chunks (transport headers not included). */
    public long total() {
        return towardResponder() + towardRequester();
    }

    public boolean isEmpty() {
        return equals(NONE);
    }

    /**
     * What the Sends of one side carried (RFC 8166 §3.5.1, §4.1.2).
     *
     * @param sends          Sends whose transport header parsed
     * @param headerBytes    their Transport stream: the RPC-over-RDMA header and its chunk lists
     * @param payloadBytes   their Payload stream: the RPC message octets after the header (RDMA_MSG; RDMA_NOMSG and
     *                       RDMA_ERROR have none), as the Send carried them (reduced, §3.4.1)
     * @param undecoded      Sends on the connection whose header did not parse, and their octets
     * @param undecodedBytes the octets of those
     */
    public record Inline(long sends, long headerBytes, long payloadBytes, long undecoded, long undecodedBytes) {
        public static final Inline NONE = new Inline(0, 0, 0, 0, 0);

        Inline plus(Inline o) {
            return new Inline(sends + o.sends, headerBytes + o.headerBytes, payloadBytes + o.payloadBytes,
                    undecoded + o.undecoded, undecodedBytes + o.undecodedBytes);
        }
    }

    /**
     * One kind of chunk.
     *
     * @param chunks     chunks the calls advertised (Read chunks: one per distinct Position, §3.4.5)
     * @param advertised the sum of their segments' lengths in the calls: room offered (Write, Reply) or data
     *                   offered to be read (Read)
     * @param returned   the sum of the segment lengths the replies' copies of those chunks carry: what the
     *                   Responder says it wrote (§3.4.6, §4.3.3); 0 for Read chunks, which replies do not carry
     * @param moved      payload octets of the tagged placements attributed to these chunks' segments, as they
     *                   went by on the wire (a segment read or written twice counts twice)
     */
    public record Chunk(long chunks, long advertised, long returned, long moved) {
        public static final Chunk NONE = new Chunk(0, 0, 0, 0);

        Chunk plus(Chunk o) {
            return new Chunk(chunks + o.chunks, advertised + o.advertised, returned + o.returned, moved + o.moved);
        }
    }

    ChunkBytes plus(ChunkBytes o) {
        return new ChunkBytes(calls.plus(o.calls), replies.plus(o.replies), read.plus(o.read),
                positionZero.plus(o.positionZero), write.plus(o.write), reply.plus(o.reply),
                unattributed + o.unattributed);
    }
}
