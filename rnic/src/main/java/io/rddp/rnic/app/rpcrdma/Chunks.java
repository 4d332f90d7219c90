package io.rddp.rnic.app.rpcrdma;

import io.rddp.oncrpc.XdrReader;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The chunk arithmetic of RFC 8166 §3.4, apart from the verbs that move the octets. */
final class Chunks {
    /** The most a call may bring by RDMA Read, and a reply chunk or Write chunk may take: every buffer is capped. */
    static final long MAX_CHUNK = 2L << 20;
    /** Write chunks and segments per chunk taken at most. */
    static final int MAX_WRITE_CHUNKS = 8, MAX_SEGMENTS = 64;

    private Chunks() {
    }

    /**
     * Why a call's chunk lists cannot be used (an XDR error, answered with ERR_CHUNK, RFC 8166 §4.5.2), or null.
     *
     * @param inline octets of the Payload stream in the Send (0 for RDMA_NOMSG)
     */
    static String problem(RpcRdmaHeader h, int inline) {
        long previous = -1, total = 0;
        List<Long> seen = new ArrayList<>();
        boolean positionZero = false;
        if (h.readList().size() > MAX_SEGMENTS) return h.readList().size() + " read segments";
        for (ReadSegment r : h.readList()) {
            long p = r.position();
            if (p % 4 != 0) return "Position " + p + " is not a multiple of four (§3.4.5)";
            if (p != previous && seen.contains(p)) return "the segments of the Read chunk at Position " + p
                    + " are not together (§3.4.5)";
            if (!seen.contains(p)) seen.add(p);
            previous = p;
            positionZero |= p == 0;
            total += r.target().length();
        }
        if (total > MAX_CHUNK) return "Read chunks of " + total + " octets, more than " + MAX_CHUNK + " taken";
        if (h.proc() == Proc.RDMA_NOMSG && !positionZero) {
            return h.noChunks() ? "RDMA_NOMSG with no chunk lists: the Payload stream is nowhere (§4.5.2)"
                    : "RDMA_NOMSG call without a Position Zero Read chunk: the Payload stream is nowhere (§3.5.3)";
        }
        if (h.proc() == Proc.RDMA_MSG && positionZero) {
            return "RDMA_MSG with a Position Zero Read chunk: the Payload stream would be there twice (§3.5.3)";
        }
        if (positionZero && seen.size() > 1) return "a Long Call's Position Zero Read chunk with other Read chunks";
        if (h.writeList().size() > MAX_WRITE_CHUNKS) return h.writeList().size() + " Write chunks";
        for (List<RdmaSegment> w : h.writeList()) {
            if (w.size() > MAX_SEGMENTS || RpcRdmaHeader.length(w) > MAX_CHUNK) return "a Write chunk of " + w.size()
                    + " segments, " + RpcRdmaHeader.length(w) + " octets";
        }
        if (h.replyChunk() != null && (h.replyChunk().size() > MAX_SEGMENTS
                || RpcRdmaHeader.length(h.replyChunk()) > MAX_CHUNK)) {
            return "a Reply chunk of " + h.replyChunk().size() + " segments, " + RpcRdmaHeader.length(h.replyChunk())
                    + " octets";
        }
        // as reinsert() walks them: each Position at or after the end of the chunk before, within the stream
        long inlineAt = 0, unreducedAt = 0;
        for (Map.Entry<Long, Long> c : byPosition(h.readList()).entrySet()) {
            if (c.getKey() == 0) continue;
            long take = c.getKey() - unreducedAt;
            if (take < 0) return "the Read chunk at Position " + c.getKey() + " overlaps the one before it";
            if (inlineAt + take > inline) return "Position " + c.getKey() + " is past the Payload stream";
            inlineAt += take;
            unreducedAt = c.getKey() + XdrReader.padded(c.getValue());
        }
        return null;
    }

    /** The octets a chunk's segments hold together. */
    static long length(List<RdmaSegment> chunk) {
        return RpcRdmaHeader.length(chunk);
    }

    /** Chunk lengths by Position, in Position order. */
    static TreeMap<Long, Long> byPosition(List<ReadSegment> reads) {
        TreeMap<Long, Long> m = new TreeMap<>();
        for (ReadSegment r : reads) m.merge(r.position(), r.target().length(), Long::sum);
        return m;
    }

    /**
     * The unreduced call (RFC 8166 §3.4.5.1): each Read chunk's octets reinserted at its Position, with the XDR
     * roundup the Requester left out (§3.4.5.2). {@code pulled} holds the chunks' octets in Position order.
     */
    static byte[] reinsert(byte[] inline, List<ReadSegment> reads, List<byte[]> pulled) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int inlineAt = 0;
        long unreducedAt = 0;
        int i = 0;
        for (long position : byPosition(reads).keySet()) {
            byte[] data = pulled.get(i++);
            int take = (int) (position - unreducedAt);
            out.write(inline, inlineAt, take);
            out.write(data, 0, data.length);
            for (long p = data.length; p < XdrReader.padded(data.length); p++) out.write(0);
            inlineAt += take;
            unreducedAt = position + XdrReader.padded(data.length);
        }
        out.write(inline, inlineAt, inline.length - inlineAt);
        return out.toByteArray();
    }

    /**
     * The chunk as returned in a reply after {@code length} octets were written into it: filled contiguously in
     * segment order, each segment's length the octets it received (RFC 8166 §3.4.6, §4.3.3).
     */
    static List<RdmaSegment> filled(List<RdmaSegment> chunk, long length) {
        List<RdmaSegment> out = new ArrayList<>();
        long left = length;
        for (RdmaSegment s : chunk) {
            long n = Math.min(left, s.length());
            out.add(new RdmaSegment(s.handle(), n, s.offset()));
            left -= n;
        }
        return out;
    }
}
