package io.rddp.rpcrdma;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The RPC-over-RDMA version 1 transport header (RFC 8166 §4.1.2 rdma_msg): four fixed words (§4.2) and, by
 * procedure, the three chunk lists (§4.3), the RDMA_MSGP padding fields (§4.6.1) or the RDMA_ERROR body (§4.5).
 * The same record is parsed and written (view and repr in one).
 *
 * @param xid        rdma_xid
 * @param version    rdma_vers (1 for this protocol)
 * @param credits    rdma_credit: requested in a call, granted in a reply (§4.2.3)
 * @param procValue  rdma_proc as sent ({@link #proc()} names it)
 * @param readList   RDMA read segments in list order (§4.3.1)
 * @param writeList  Write chunks, each a counted array of plain segments (§4.3.2)
 * @param replyChunk the Reply chunk's segments, or null when not present (§4.3.3)
 * @param align      RDMA_MSGP rdma_align, else -1
 * @param threshold  RDMA_MSGP rdma_thresh, else -1
 * @param errorCode  RDMA_ERROR rdma_err (1 ERR_VERS, 2 ERR_CHUNK), else -1
 * @param versLow    ERR_VERS lowest supported version, else -1
 * @param versHigh   ERR_VERS highest supported version, else -1
 * @param length     octets the header occupies; an RDMA_MSG's Payload stream starts here
 */
public record RpcRdmaHeader(long xid, long version, long credits, long procValue, List<ReadSegment> readList,
                            List<List<RdmaSegment>> writeList, List<RdmaSegment> replyChunk, long align,
                            long threshold, long errorCode, long versLow, long versHigh, int length) {

    /** RFC 8166 §4.5: "a minimal size RPC-over-RDMA header (28 bytes)". */
    public static final int MIN_LENGTH = 28;
    public static final long ERR_VERS = 1, ERR_CHUNK = 2;

    public RpcRdmaHeader {
        readList = List.copyOf(readList);
        writeList = writeList.stream().map(List::copyOf).toList();
        replyChunk = replyChunk == null ? null : List.copyOf(replyChunk);
    }

    public Proc proc() {
        return Proc.of(procValue);
    }

    /** An RDMA_MSG or RDMA_NOMSG header; {@code length} is computed. */
    public static RpcRdmaHeader message(long xid, long credits, Proc proc, List<ReadSegment> reads,
                                        List<List<RdmaSegment>> writes, List<RdmaSegment> reply) {
        if (proc != Proc.RDMA_MSG && proc != Proc.RDMA_NOMSG) {
            throw new IllegalArgumentException(proc + " has no chunk lists of this layout; use the canonical constructor");
        }
        int len = 16 + 4 + reads.size() * (4 + ReadSegment.SIZE) + 4
                + writes.stream().mapToInt(w -> 8 + w.size() * RdmaSegment.SIZE).sum()
                + 4 + (reply == null ? 0 : 4 + reply.size() * RdmaSegment.SIZE);
        return new RpcRdmaHeader(xid, 1, credits, proc.ordinal(), reads, writes, reply, -1, -1, -1, -1, -1, len);
    }

    /** An RDMA_ERROR: ERR_VERS with the supported range, or ERR_CHUNK (§4.5). */
    public static RpcRdmaHeader error(long xid, long version, long credits, long errorCode, long low, long high) {
        boolean vers = errorCode == ERR_VERS;
        return new RpcRdmaHeader(xid, version, credits, Proc.RDMA_ERROR.ordinal(), List.of(), List.of(), null, -1,
                -1, errorCode, vers ? low : -1, vers ? high : -1, vers ? 28 : 20);
    }

    /** Whether the Read, Write and Reply lists are all empty ("not present", §4.3). */
    public boolean noChunks() {
        return readList.isEmpty() && writeList.isEmpty() && replyChunk == null;
    }

    /**
     * Parses the header at the buffer's position (the position is not moved).
     *
     * @throws MalformedException when the octets end inside the header, a list discriminator is not an XDR bool,
     *                            or a count does not fit the octets that follow
     */
    public static RpcRdmaHeader parse(ByteBuffer b) throws MalformedException {
        Reader r = new Reader(b);
        long xid = r.u32(), vers = r.u32(), credits = r.u32(), proc = r.u32();
        if (vers != 1 && proc != 4) {
            // §4.2: only the four fixed words keep their meaning across versions (and RDMA_ERROR's body, §4.1.2).
            return new RpcRdmaHeader(xid, vers, credits, proc, List.of(), List.of(), null, -1, -1, -1, -1, -1, 16);
        }
        long align = -1, thresh = -1;
        switch ((int) proc) {
            case 0, 1, 2 -> {
                if (proc == 2) {
                    align = r.u32();
                    thresh = r.u32();
                }
                List<ReadSegment> reads = new ArrayList<>();
                while (r.present("Read list")) {
                    long position = r.u32();
                    reads.add(new ReadSegment(position, r.segment()));
                }
                List<List<RdmaSegment>> writes = new ArrayList<>();
                while (r.present("Write list")) writes.add(r.chunk("Write chunk"));
                List<RdmaSegment> reply = r.present("Reply chunk") ? r.chunk("Reply chunk") : null;
                return new RpcRdmaHeader(xid, vers, credits, proc, reads, writes, reply, align, thresh, -1, -1, -1,
                        r.at);
            }
            case 3 -> {
                return new RpcRdmaHeader(xid, vers, credits, proc, List.of(), List.of(), null, -1, -1, -1, -1, -1, 16);
            }
            case 4 -> {
                long err = r.u32();
                long low = -1, high = -1;
                if (err == ERR_VERS) {
                    low = r.u32();
                    high = r.u32();
                } else if (err != ERR_CHUNK) {
                    throw new MalformedException("rdma_err " + err + " is neither ERR_VERS (1) nor ERR_CHUNK (2)", 16);
                }
                return new RpcRdmaHeader(xid, vers, credits, proc, List.of(), List.of(), null, -1, -1, err, low, high,
                        r.at);
            }
            default -> throw new MalformedException("rdma_proc " + proc + " is not defined by RFC 8166 §4.2.4", 12);
        }
    }

    /** Writes the header at the buffer's position and advances it (lists as given, values as given). */
    public void writeTo(ByteBuffer out) {
        out.putInt((int) xid).putInt((int) version).putInt((int) credits).putInt((int) procValue);
        if (version != 1 && procValue != 4) return;
        switch ((int) procValue) {
            case 0, 1, 2 -> {
                if (procValue == 2) out.putInt((int) align).putInt((int) threshold);
                for (ReadSegment s : readList) {
                    out.putInt(1).putInt((int) s.position());
                    put(out, s.target());
                }
                out.putInt(0);
                for (List<RdmaSegment> w : writeList) {
                    out.putInt(1);
                    putChunk(out, w);
                }
                out.putInt(0);
                if (replyChunk == null) {
                    out.putInt(0);
                } else {
                    out.putInt(1);
                    putChunk(out, replyChunk);
                }
            }
            case 4 -> {
                out.putInt((int) errorCode);
                if (errorCode == ERR_VERS) out.putInt((int) versLow).putInt((int) versHigh);
            }
            default -> {
            }
        }
    }

    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(length);
        writeTo(b);
        return b.array();
    }

    private static void putChunk(ByteBuffer out, List<RdmaSegment> chunk) {
        out.putInt(chunk.size());
        for (RdmaSegment s : chunk) put(out, s);
    }

    private static void put(ByteBuffer out, RdmaSegment s) {
        out.putInt((int) s.handle()).putInt((int) s.length()).putLong(s.offset());
    }

    /** Total length of a chunk's segments. */
    public static long length(List<RdmaSegment> chunk) {
        long n = 0;
        for (RdmaSegment s : chunk) n += s.length();
        return n;
    }

    private static final class Reader {
        final ByteBuffer b;
        final int base;
        int at;

        Reader(ByteBuffer b) {
            this.b = b;
            this.base = b.position();
        }

        long u32() throws MalformedException {
            if (base + at + 4 > b.limit()) {
                throw new MalformedException("RPC-over-RDMA header ends after " + (b.limit() - base)
                        + " octets, inside a field at offset " + at, at);
            }
            long v = b.getInt(base + at) & 0xFFFF_FFFFL;
            at += 4;
            return v;
        }

        boolean present(String what) throws MalformedException {
            int where = at;
            long v = u32();
            if (v > 1) throw new MalformedException(what + " discriminator is " + v + ", not an XDR bool", where);
            return v == 1;
        }

        RdmaSegment segment() throws MalformedException {
            long handle = u32(), length = u32();
            long offset = u32() << 32 | u32();
            return new RdmaSegment(handle, length, offset);
        }

        List<RdmaSegment> chunk(String what) throws MalformedException {
            int where = at;
            long count = u32();
            long left = b.limit() - base - at;
            // the count is checked against the octets really there before anything is sized by it
            if (count * RdmaSegment.SIZE > left) {
                throw new MalformedException(what + " counts " + count + " segments but only " + left
                        + " octets follow", where);
            }
            List<RdmaSegment> segments = new ArrayList<>((int) count);
            for (long i = 0; i < count; i++) segments.add(segment());
            return segments;
        }
    }
}
