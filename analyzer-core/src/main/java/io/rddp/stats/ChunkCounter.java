package io.rddp.stats;

import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.rpcrdma.RpcRdmaMessage;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Adds up the {@link ChunkBytes} of one connection as its messages and chunk moves go by. */
final class ChunkCounter {
    private final long[][] inline = new long[2][5]; // [requester?0:1][messages, header, payload, undecoded, octets]
    private final Kind read = new Kind(), positionZero = new Kind(), write = new Kind(), reply = new Kind();
    private long unattributed;

    private static final class Kind {
        long chunks, advertised, returned, moved;

        ChunkBytes.Chunk freeze() {
            return new ChunkBytes.Chunk(chunks, advertised, returned, moved);
        }
    }

    /** A Send (RFC 8166 §3.5.1): its Transport stream, and the Payload stream after it. */
    void send(RpcRdmaMessage m) {
        long[] c = inline[m.fromRequester() ? 0 : 1];
        if (m.header() == null || m.headerProblem() != null) {
            c[3]++;
            c[4] += m.sendLength();
            return;
        }
        long header = Math.min(m.header().length(), m.sendLength());
        c[0]++;
        c[1] += header;
        c[2] += m.sendLength() - header;
    }

    /** The chunks a call offers (§3.4.5, §3.4.6, §4.3.3). */
    void call(RpcRdmaHeader h) {
        Set<Long> positions = new HashSet<>();
        for (ReadSegment s : h.readList()) {
            boolean newChunk = positions.add(s.position()); // segments of one Position form one chunk
            read.chunks += newChunk ? 1 : 0;
            read.advertised += s.target().length();
            if (s.position() == 0) {
                positionZero.chunks += newChunk ? 1 : 0;
                positionZero.advertised += s.target().length();
            }
        }
        for (List<RdmaSegment> w : h.writeList()) {
            write.chunks++;
            write.advertised += RpcRdmaHeader.length(w);
        }
        if (h.replyChunk() != null) {
            reply.chunks++;
            reply.advertised += RpcRdmaHeader.length(h.replyChunk());
        }
    }

    /** The lengths a reply returns in its copies of the Write and Reply chunks (§3.4.6, §4.3.3). */
    void reply(RpcRdmaHeader h) {
        for (List<RdmaSegment> w : h.writeList()) write.returned += RpcRdmaHeader.length(w);
        if (h.replyChunk() != null) reply.returned += RpcRdmaHeader.length(h.replyChunk());
    }

    /** A tagged placement the RPC-over-RDMA layer matched to a chunk segment. */
    void moved(ChunkMove.Chunk chunk, boolean atPositionZero, long octets) {
        switch (chunk) {
            case READ -> {
                read.moved += octets;
                if (atPositionZero) positionZero.moved += octets;
            }
            case WRITE -> write.moved += octets;
            case REPLY -> reply.moved += octets;
        }
    }

    void unattributed(long octets) {
        unattributed += octets;
    }

    ChunkBytes freeze() {
        return new ChunkBytes(inline(0), inline(1), read.freeze(), positionZero.freeze(), write.freeze(),
                reply.freeze(), unattributed);
    }

    private ChunkBytes.Inline inline(int side) {
        long[] c = inline[side];
        return new ChunkBytes.Inline(c[0], c[1], c[2], c[3], c[4]);
    }
}
