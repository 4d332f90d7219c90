package io.rddp.corpus;

import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.generate.RpcRdmaWriter;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static io.rddp.generate.RpcRdmaWriter.REQUESTER;
import static io.rddp.generate.RpcRdmaWriter.RESPONDER;

/**
 * The RPC-over-RDMA cases of the violation corpus (RFC 8166), one rule broken in each. They run on port 20049, so
 * the connection is RPC-over-RDMA by its port; the Requester is the TCP client.
 */
final class RpcRdmaCorpus {
    private RpcRdmaCorpus() {
    }

    static final long NFS = 100003;
    static final long H = 0x4400_0000L, O = 0x7e00_0000_0000L;

    private static RpcRdmaWriter rpc(IwarpConnectionWriter w) {
        return new RpcRdmaWriter(w, 0x5500_0000L, 0x7100_0000_0000L);
    }

    private static RpcRdmaHeader msg(long xid, List<ReadSegment> reads, List<List<RdmaSegment>> writes,
                                     List<RdmaSegment> reply) {
        return RpcRdmaHeader.message(xid, 8, Proc.RDMA_MSG, reads, writes, reply);
    }

    private static RpcRdmaHeader header(long xid, long credits, Proc proc) {
        return RpcRdmaHeader.message(xid, credits, proc, List.of(), List.of(), null);
    }

    private static byte[] fh() {
        return new XdrWriter().opaque(new byte[32]).toByteArray();
    }

    private static byte[] getattr(long xid) {
        return RpcEncoder.call(xid, NFS, 3, 1, fh());
    }

    private static byte[] ok(long xid) {
        return RpcEncoder.acceptedReply(xid, 0, new XdrWriter().u32(0).toByteArray());
    }

    /** NFSv3 WRITE3args with the data item reduced (its length stays inline, RFC 8166 §3.4.4.1). */
    private static byte[] writeCall(long xid, int size) {
        return RpcEncoder.call(xid, NFS, 3, 7, new XdrWriter().raw(fh()).u64(0).u32(size).u32(2).u32(size).toByteArray());
    }

    private static byte[] readCall(long xid, int size) {
        return RpcEncoder.call(xid, NFS, 3, 6, new XdrWriter().raw(fh()).u64(0).u32(size).toByteArray());
    }

    /** READ3resok with the data item reduced to a Write chunk. */
    private static byte[] readReply(long xid, int size) {
        return RpcEncoder.acceptedReply(xid, 0, new XdrWriter().u32(0).bool(false).u32(size).bool(true).u32(size)
                .toByteArray());
    }

    /** A good Short call and reply first, so the Requester holds the Responder's credits. */
    private static void warmUp(RpcRdmaWriter r) {
        r.send(REQUESTER, msg(1, List.of(), List.of(), null), getattr(1));
        r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
    }

    static void addTo(Map<String, Consumer<IwarpConnectionWriter>> cases) {
        // §4.5: 20 octets, not even the minimal header; the receiver discards it
        cases.put("rpcrdma-header-short", w -> rpc(w).sendRaw(REQUESTER,
                new XdrWriter().u32(7).u32(1).u32(8).u32(0).u32(0).toByteArray()));
        // §4.2.4 / §4.5.2: rdma_proc 7 is not defined
        cases.put("rpcrdma-header-xdr", w -> rpc(w).sendRaw(REQUESTER,
                new XdrWriter().u32(7).u32(1).u32(8).u32(7).u32(0).u32(0).u32(0).toByteArray()));
        // §4.2.1: rdma_xid 2, RPC XID 3
        cases.put("rpcrdma-xid", w -> {
            RpcRdmaWriter r = rpc(w);
            warmUp(r);
            r.send(REQUESTER, msg(2, List.of(), List.of(), null), getattr(3));
            r.send(RESPONDER, msg(2, List.of(), List.of(), null), ok(2));
        });
        // §4.5.1: a version 2 request answered with an RDMA_MSG instead of ERR_VERS
        cases.put("rpcrdma-version-not-answered", w -> {
            RpcRdmaWriter r = rpc(w);
            r.send(REQUESTER, new RpcRdmaHeader(5, 2, 8, 0, List.of(), List.of(), null, -1, -1, -1, -1, -1, 16),
                    new byte[12]);
            r.send(RESPONDER, msg(5, List.of(), List.of(), null), ok(5));
        });
        // §4.3.1: the reply carries a Read list
        cases.put("rpcrdma-reply-read-list", w -> {
            RpcRdmaWriter r = rpc(w);
            r.send(REQUESTER, msg(1, List.of(), List.of(), null), getattr(1));
            r.send(RESPONDER, msg(1, List.of(new ReadSegment(28, new RdmaSegment(H, 64, O))), List.of(), null), ok(1));
        });
        // §3.4.5: Position not a multiple of four (and so past the data item)
        cases.put("rpcrdma-position-alignment", w -> {
            RpcRdmaWriter r = rpc(w);
            byte[] call = writeCall(1, 512);
            List<ReadSegment> chunk = List.of(new ReadSegment(call.length - 2, new RdmaSegment(H, 512, O)));
            r.send(REQUESTER, msg(1, chunk, List.of(), null), call);
            r.pull(chunk, new byte[512]);
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §3.4.5: Position P, then Q, then P again: P's chunk is split
        cases.put("rpcrdma-position-split", w -> {
            RpcRdmaWriter r = rpc(w);
            byte[] call = writeCall(1, 512);
            long p = call.length;
            List<ReadSegment> reads = List.of(new ReadSegment(p, new RdmaSegment(H, 256, O)),
                    new ReadSegment(0, new RdmaSegment(H + 1, 0, O)),
                    new ReadSegment(p, new RdmaSegment(H + 2, 256, O + 0x1000)));
            r.send(REQUESTER, msg(1, reads, List.of(), null), call);
            r.pull(List.of(reads.get(0), reads.get(2)), new byte[512]);
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §3.4.5: Position 4096 in a Payload stream of about 100 octets
        cases.put("rpcrdma-position-range", w -> {
            RpcRdmaWriter r = rpc(w);
            List<ReadSegment> chunk = List.of(new ReadSegment(4096, new RdmaSegment(H, 512, O)));
            r.send(REQUESTER, msg(1, chunk, List.of(), null), writeCall(1, 512));
            r.pull(chunk, new byte[512]);
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §3.4.5.2: the WRITE data item is 3000 octets, its Read chunk 2000
        cases.put("rpcrdma-read-chunk-length", w -> {
            RpcRdmaWriter r = rpc(w);
            byte[] call = writeCall(1, 3000);
            List<ReadSegment> chunk = List.of(new ReadSegment(call.length, new RdmaSegment(H, 2000, O)));
            r.send(REQUESTER, msg(1, chunk, List.of(), null), call);
            r.pull(chunk, new byte[2000]);
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §4.2.4: RDMA_NOMSG with no chunk to carry the Payload stream
        cases.put("rpcrdma-nomsg-no-chunk", w -> rpc(w).send(REQUESTER, header(1, 8, Proc.RDMA_NOMSG), new byte[0]));
        // §4.6.1 and §4.6.2: RDMA_MSGP and RDMA_DONE MUST NOT be sent
        cases.put("rpcrdma-msgp", w -> rpc(w).send(REQUESTER,
                new RpcRdmaHeader(1, 1, 8, 2, List.of(), List.of(), null, 4, 1024, -1, -1, -1, 36), getattr(1)));
        cases.put("rpcrdma-done", w -> rpc(w).sendRaw(REQUESTER,
                new XdrWriter().u32(1).u32(1).u32(8).u32(3).u32(0).u32(0).u32(0).toByteArray()));
        // §4.2.4: a Requester MUST NOT send RDMA_ERROR
        cases.put("rpcrdma-error-from-requester", w -> rpc(w).send(REQUESTER,
                RpcRdmaHeader.error(9, 1, 8, RpcRdmaHeader.ERR_CHUNK, 0, 0), new byte[0]));
        // §4.5: the Responder's RDMA_ERROR names an XID no request had
        cases.put("rpcrdma-error-echo", w -> {
            RpcRdmaWriter r = rpc(w);
            r.send(REQUESTER, msg(1, List.of(), List.of(), null), getattr(1));
            r.send(RESPONDER, RpcRdmaHeader.error(2, 1, 8, RpcRdmaHeader.ERR_CHUNK, 0, 0), new byte[0]);
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §3.3.3: a second call before any reply (one credit until then)
        cases.put("rpcrdma-credits-exceeded", w -> {
            RpcRdmaWriter r = rpc(w);
            r.send(REQUESTER, msg(1, List.of(), List.of(), null), getattr(1));
            r.send(REQUESTER, msg(2, List.of(), List.of(), null), getattr(2));
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
            r.send(RESPONDER, msg(2, List.of(), List.of(), null), ok(2));
        });
        // §3.3.1: the granted value MUST NOT be zero
        cases.put("rpcrdma-credits-zero", w -> {
            RpcRdmaWriter r = rpc(w);
            r.send(REQUESTER, msg(1, List.of(), List.of(), null), getattr(1));
            r.send(RESPONDER, RpcRdmaHeader.message(1, 0, Proc.RDMA_MSG, List.of(), List.of(), null), ok(1));
        });
        // §3.3.2: a 1500-octet Send where no RFC 8797 data raised the 1024-octet threshold
        cases.put("rpcrdma-inline-threshold", w -> {
            RpcRdmaWriter r = rpc(w);
            byte[] args = new XdrWriter().raw(fh()).u64(0).u32(1400).u32(2).opaque(new byte[1400]).toByteArray();
            r.send(REQUESTER, msg(1, List.of(), List.of(), null), RpcEncoder.call(1, NFS, 3, 7, args));
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §4.3.3: READDIRPLUS asking for 8192 octets with no Reply chunk
        cases.put("rpcrdma-reply-chunk-missing", w -> {
            RpcRdmaWriter r = rpc(w);
            byte[] args = new XdrWriter().raw(fh()).u64(0).fixed(new byte[8]).u32(8192).u32(8192).toByteArray();
            r.send(REQUESTER, msg(1, List.of(), List.of(), null), RpcEncoder.call(1, NFS, 3, 17, args));
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §3.4.6: the reply returns more octets in the Write chunk's segment than the Requester provided
        cases.put("rpcrdma-write-list-returned", w -> {
            RpcRdmaWriter r = rpc(w);
            List<RdmaSegment> chunk = List.of(new RdmaSegment(H, 1024, O));
            r.send(REQUESTER, msg(1, List.of(), List.of(chunk), null), readCall(1, 1024));
            r.push(chunk, new byte[1024]);
            r.send(RESPONDER, msg(1, List.of(), List.of(List.of(new RdmaSegment(H, 2048, O))), null),
                    readReply(1, 2048));
        });
        // §4.3.2.3: an empty Write chunk in the call comes back with a segment
        cases.put("rpcrdma-write-chunk-empty", w -> {
            RpcRdmaWriter r = rpc(w);
            r.send(REQUESTER, msg(1, List.of(), List.of(List.of()), null), readCall(1, 512));
            r.send(RESPONDER, msg(1, List.of(), List.of(List.of(new RdmaSegment(H, 512, O))), null),
                    readReply(1, 512));
        });
        // §3.4.6.2: 3001 octets of READ data, but the Responder writes and returns the roundup too (3004)
        cases.put("rpcrdma-write-chunk-roundup", w -> {
            RpcRdmaWriter r = rpc(w);
            List<RdmaSegment> chunk = List.of(new RdmaSegment(H, 4096, O));
            r.send(REQUESTER, msg(1, List.of(), List.of(chunk), null), readCall(1, 3001));
            List<RdmaSegment> returned = r.push(chunk, new byte[3004]);
            r.send(RESPONDER, msg(1, List.of(), List.of(returned), null), readReply(1, 3001));
        });
        // §4.3.3: a Reply chunk returned although the call provided none
        cases.put("rpcrdma-reply-chunk-returned", w -> {
            RpcRdmaWriter r = rpc(w);
            r.send(REQUESTER, msg(1, List.of(), List.of(), null), getattr(1));
            r.send(RESPONDER, RpcRdmaHeader.message(1, 8, Proc.RDMA_NOMSG, List.of(), List.of(),
                    List.of(new RdmaSegment(H, 100, O))), new byte[0]);
        });
        // §3.5.2: the Responder writes to an STag no chunk advertised
        cases.put("rpcrdma-chunk-unmatched", w -> {
            RpcRdmaWriter r = rpc(w);
            r.send(REQUESTER, msg(1, List.of(), List.of(), null), getattr(1));
            r.write(H + 0x77, O, new byte[64]);
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §4.5.3: an RDMA Read Request running past the end of the read segment
        cases.put("rpcrdma-chunk-bounds", w -> {
            RpcRdmaWriter r = rpc(w);
            byte[] call = writeCall(1, 512);
            List<ReadSegment> chunk = List.of(new ReadSegment(call.length, new RdmaSegment(H, 512, O)));
            r.send(REQUESTER, msg(1, chunk, List.of(), null), call);
            r.pull(List.of(new ReadSegment(call.length, new RdmaSegment(H, 1024, O))), new byte[1024]);
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §4.4.1: the Responder writes into the Write chunk after it replied
        cases.put("rpcrdma-chunk-after-reply", w -> {
            RpcRdmaWriter r = rpc(w);
            List<RdmaSegment> chunk = List.of(new RdmaSegment(H, 1024, O));
            r.send(REQUESTER, msg(1, List.of(), List.of(chunk), null), readCall(1, 1024));
            List<RdmaSegment> returned = r.push(chunk, new byte[1024]);
            r.send(RESPONDER, msg(1, List.of(), List.of(returned), null), readReply(1, 1024));
            r.write(H, O, new byte[64]);
        });
        // §3.4.5.1: the reply comes before the Read chunk was read
        cases.put("rpcrdma-read-chunk-not-pulled", w -> {
            RpcRdmaWriter r = rpc(w);
            byte[] call = writeCall(1, 512);
            r.send(REQUESTER, msg(1, List.of(new ReadSegment(call.length, new RdmaSegment(H, 512, O))), List.of(),
                    null), call);
            r.send(RESPONDER, msg(1, List.of(), List.of(), null), ok(1));
        });
        // §4.2.1: a reply to an XID never called
        cases.put("rpcrdma-reply-unmatched", w -> {
            RpcRdmaWriter r = rpc(w);
            warmUp(r);
            r.send(RESPONDER, msg(42, List.of(), List.of(), null), ok(42));
        });
    }
}
