package io.rddp.generate;

import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.CmPrivateData;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.util.List;
import java.util.SplittableRandom;

import static io.rddp.generate.RpcRdmaWriter.REQUESTER;
import static io.rddp.generate.RpcRdmaWriter.RESPONDER;

/**
 * NFS over RPC-over-RDMA as a Linux client and server exchange it (RFC 8166 with the NFS binding of RFC 8267):
 * one transaction per {@link #step}, cycling through every message form of RFC 8166 §3.5: Short messages, a Read
 * chunk (NFSv3 WRITE), a Write chunk (NFSv3 READ), a Long Call (NFSv4 COMPOUND with a Position Zero Read chunk),
 * a Long Reply (NFSv3 READDIRPLUS with a Reply chunk) and a version probe answered by RDMA_ERROR ERR_VERS.
 */
public final class NfsRdmaTraffic {
    /** RFC 8797 private data both peers send: 4 KiB inline in each direction, Remote Invalidation accepted. */
    public static final CmPrivateData PRIVATE_DATA = new CmPrivateData(1, true, 4096, 4096);
    public static final int KINDS = 8;
    static final long NFS = 100003;
    static final int CREDITS = 32;

    private final RpcRdmaWriter w;
    private final SplittableRandom random;
    private final long handleBase, offsetBase;
    private long xid;
    private int step;

    public NfsRdmaTraffic(RpcRdmaWriter w, SplittableRandom random) {
        this.w = w;
        this.random = random;
        this.xid = random.nextLong() & 0xFFFF_FFFFL;
        this.handleBase = random.nextLong() & 0xFFFF_0000L;
        this.offsetBase = random.nextLong() & 0x0000_7FFF_FFFF_0000L;
    }

    /** Writes the next transaction; returns its kind (0 .. KINDS-1). */
    public int step(int dataSize) {
        int kind = step++ % KINDS;
        long x = xid++;
        long handle = (handleBase + (step & 0xFFFF) * 4L) & 0xFFFF_FFFFL;
        long offset = offsetBase + (long) step * 0x10_0000L;
        switch (kind) {
            case 0 -> shortCall(x, 3, 0, new byte[0], new byte[0]); // NFSv3 NULL
            case 1 -> shortCall(x, 3, 1, fh3(), new XdrWriter().u32(0).raw(fattr3()).toByteArray()); // GETATTR
            case 2 -> writeWithReadChunk(x, handle, offset, dataSize);
            case 3 -> readWithWriteChunk(x, handle, offset, dataSize);
            case 4 -> longCall(x, handle, offset);
            case 5 -> longReply(x, handle, offset);
            case 6 -> versionProbe(x);
            default -> compound4(x);
        }
        return kind;
    }

    private void shortCall(long x, long vers, long proc, byte[] args, byte[] results) {
        w.send(REQUESTER, msg(x, List.of(), List.of(), null), RpcEncoder.call(x, NFS, vers, proc, args));
        w.send(RESPONDER, msg(x, List.of(), List.of(), null), RpcEncoder.acceptedReply(x, 0, results));
    }

    /** NFSv3 WRITE whose data goes in a Read chunk of two segments at the data item's Position (§3.4.5). */
    private void writeWithReadChunk(long x, long handle, long offset, int size) {
        byte[] data = bytes(size);
        byte[] head = new XdrWriter().raw(fh3()).u64(0).u32(size).u32(2).u32(size).toByteArray();
        byte[] call = RpcEncoder.call(x, NFS, 3, 7, head); // the data item is reduced: only its length stays
        long position = call.length;
        long first = Math.max(4, (size / 2) & ~3);
        List<ReadSegment> chunk = List.of(
                new ReadSegment(position, new RdmaSegment(handle, Math.min(first, size), offset)),
                new ReadSegment(position, new RdmaSegment(handle + 1, size - Math.min(first, size), offset + 0x8000)));
        w.send(REQUESTER, msg(x, chunk, List.of(), null), call);
        w.pull(chunk, data);
        byte[] results = new XdrWriter().u32(0).bool(false).bool(false).u32(size).u32(2).u64(0x1122334455667788L)
                .toByteArray();
        w.send(RESPONDER, msg(x, List.of(), List.of(), null), RpcEncoder.acceptedReply(x, 0, results));
    }

    /** NFSv3 READ whose data comes back in a Write chunk (§3.4.6); the reply returns the chunk's used length. */
    private void readWithWriteChunk(long x, long handle, long offset, int size) {
        List<RdmaSegment> chunk = List.of(new RdmaSegment(handle, size, offset));
        byte[] args = new XdrWriter().raw(fh3()).u64(0).u32(size).toByteArray();
        w.send(REQUESTER, msg(x, List.of(), List.of(chunk), null), RpcEncoder.call(x, NFS, 3, 6, args));
        List<RdmaSegment> returned = w.push(chunk, bytes(size));
        byte[] results = new XdrWriter().u32(0).bool(true).raw(fattr3()).u32(size).bool(false).u32(size)
                .toByteArray(); // READ3resok with data reduced: its length stays inline (§3.4.4.1)
        w.send(RESPONDER, msg(x, List.of(), List.of(returned), null), RpcEncoder.acceptedReply(x, 0, results));
    }

    /** A Long Call (§3.5.3): NFSv4 COMPOUND too large to go inline, sent as RDMA_NOMSG + Position Zero chunk. */
    private void longCall(long x, long handle, long offset) {
        byte[] data = bytes(6000);
        byte[] args = compoundArgs(w2 -> {
            w2.u32(53).fixed(new byte[16]).u32(1).u32(0).u32(0).bool(false); // SEQUENCE
            w2.u32(22).opaque(new byte[28]); // PUTFH
            w2.u32(38).fixed(new byte[16]).u64(0).u32(2).opaque(data); // WRITE
        }, 3);
        byte[] call = RpcEncoder.call(x, NFS, 4, 1, args);
        List<ReadSegment> chunk = List.of(new ReadSegment(0, new RdmaSegment(handle, call.length, offset)));
        w.send(REQUESTER, RpcRdmaHeader.message(x, CREDITS, Proc.RDMA_NOMSG, chunk, List.of(), null), new byte[0]);
        w.pull(chunk, call);
        byte[] results = new XdrWriter().u32(0).opaque(new byte[0]).u32(3)
                .u32(53).u32(0).fixed(new byte[16]).u32(1).u32(0).u32(63).u32(63).u32(0)
                .u32(22).u32(0)
                .u32(38).u32(0).u32(data.length).u32(2).u64(0x0102030405060708L).toByteArray();
        w.send(RESPONDER, msg(x, List.of(), List.of(), null), RpcEncoder.acceptedReply(x, 0, results));
    }

    /** A Long Reply (§3.5.3): NFSv3 READDIRPLUS whose reply goes into the Reply chunk; the reply is RDMA_NOMSG. */
    private void longReply(long x, long handle, long offset) {
        int max = 8192;
        List<RdmaSegment> replyChunk = List.of(new RdmaSegment(handle, max / 2, offset),
                new RdmaSegment(handle + 1, max / 2, offset + 0x10000));
        byte[] args = new XdrWriter().raw(fh3()).u64(0).fixed(new byte[8]).u32(max).u32(max).toByteArray();
        w.send(REQUESTER, msg(x, List.of(), List.of(), replyChunk), RpcEncoder.call(x, NFS, 3, 17, args));
        XdrWriter r = new XdrWriter().u32(0).bool(false).fixed(new byte[8]);
        for (int i = 0; i < 120; i++) {
            r.bool(true).u64(1000 + i).string("file-" + i).u64(i + 1).bool(false).bool(false);
        }
        byte[] reply = RpcEncoder.acceptedReply(x, 0, r.bool(false).bool(true).toByteArray());
        List<RdmaSegment> returned = w.push(replyChunk, reply);
        w.send(RESPONDER, RpcRdmaHeader.message(x, CREDITS, Proc.RDMA_NOMSG, List.of(), List.of(), returned),
                new byte[0]);
    }

    /** A Requester tries version 2; the Responder supports 1 only and says so (§4.5.1), echoing xid and vers. */
    private void versionProbe(long x) {
        RpcRdmaHeader v2 = new RpcRdmaHeader(x, 2, CREDITS, 0, List.of(), List.of(), null, -1, -1, -1, -1, -1, 16);
        w.send(REQUESTER, v2, new byte[12]); // what follows the fixed words is version 2's business
        w.send(RESPONDER, RpcRdmaHeader.error(x, 2, CREDITS, RpcRdmaHeader.ERR_VERS, 1, 1), new byte[0]);
    }

    /** NFSv4.1 COMPOUND SEQUENCE, PUTFH, GETATTR as Short messages. */
    private void compound4(long x) {
        byte[] args = compoundArgs(w2 -> {
            w2.u32(53).fixed(new byte[16]).u32(2).u32(0).u32(0).bool(false);
            w2.u32(22).opaque(new byte[28]);
            w2.u32(9).u32(1).u32(0x12); // GETATTR type and size (RFC 7530 §5.8.1: attributes 1 and 4)
        }, 3);
        w.send(REQUESTER, msg(x, List.of(), List.of(), null), RpcEncoder.call(x, NFS, 4, 1, args));
        byte[] results = new XdrWriter().u32(0).opaque(new byte[0]).u32(3)
                .u32(53).u32(0).fixed(new byte[16]).u32(2).u32(0).u32(63).u32(63).u32(0)
                .u32(22).u32(0)
                .u32(9).u32(0).u32(1).u32(0x12).opaque(new XdrWriter().u32(1).u64(4096).toByteArray()).toByteArray();
        w.send(RESPONDER, msg(x, List.of(), List.of(), null), RpcEncoder.acceptedReply(x, 0, results));
    }

    private interface Ops {
        void write(XdrWriter w);
    }

    private static byte[] compoundArgs(Ops ops, int count) {
        XdrWriter w = new XdrWriter().opaque(new byte[0]).u32(1).u32(count);
        ops.write(w);
        return w.toByteArray();
    }

    private static RpcRdmaHeader msg(long x, List<ReadSegment> reads, List<List<RdmaSegment>> writes,
                                     List<RdmaSegment> reply) {
        return RpcRdmaHeader.message(x, CREDITS, Proc.RDMA_MSG, reads, writes, reply);
    }

    private static byte[] fh3() {
        byte[] fh = new byte[32];
        for (int i = 0; i < fh.length; i++) fh[i] = (byte) (0xA0 + i);
        return new XdrWriter().opaque(fh).toByteArray();
    }

    /** fattr3 (RFC 1813 §2.6): a regular file of 4096 octets. */
    private static byte[] fattr3() {
        return new XdrWriter().u32(1).u32(0644).u32(1).u32(0).u32(0).u64(4096).u64(4096).u32(0).u32(0)
                .u64(1).u64(42).u32(1_700_000_000).u32(0).u32(1_700_000_000).u32(0).u32(1_700_000_000).u32(0)
                .toByteArray();
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
