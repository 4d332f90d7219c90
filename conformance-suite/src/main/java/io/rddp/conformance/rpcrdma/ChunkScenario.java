package io.rddp.conformance.rpcrdma;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.util.List;

/**
 * Chunk lists the Responder cannot use, and chunks too small for what it has to return (RFC 8166 §3.4, §4.5.2,
 * §4.5.3), and inline messages past the inline threshold (§3.3.2). {@code case} names the fault. The WRITE and READ
 * cases need the export's file ({@link Export}); the others only the NULL procedure. The scenario reports what came
 * back, or that nothing did; a reply the Responder sends anyway is judged by the analyzer's rules (a chunk
 * overrun, a Send over the threshold).
 */
@ScenarioKeys({@ScenarioKeys.Key(name = "case", type = ScenarioKeys.Type.TEXT)})
public final class ChunkScenario extends CaseScenario {


    public ChunkScenario(ScenarioInfo info, JsonNode spec) {
        super(info, spec);
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        Requester r = Exchanges.open(ctx);
        Answer a = switch (kase) {
            case "position-misaligned" -> writeWithReadList(ctx, r, 2, false);
            case "position-past-payload" -> writeWithReadList(ctx, r, 4096, false);
            case "position-split" -> writeWithReadList(ctx, r, 0, true);
            case "read-stag-invalid" -> readStagInvalid(ctx, r);
            case "read-chunk-past-region" -> readPastRegion(ctx, r);
            case "nomsg-without-chunks" -> send(ctx, r, (xid, rpc) -> RpcRdmaHeader.message(xid, Exchanges.CREDITS,
                    Proc.RDMA_NOMSG, List.of(), List.of(), null).toBytes());
            case "msg-with-position-zero" -> send(ctx, r, (xid, rpc) -> Nfs3.concat(RpcRdmaHeader.message(xid,
                    Exchanges.CREDITS, Proc.RDMA_MSG, List.of(new ReadSegment(0, r.readable(rpc).segment())),
                    List.of(), null).toBytes(), rpc));
            case "segment-count-past-end" -> send(ctx, r, (xid, rpc) -> Nfs3.concat(new XdrWriter().u32(xid).u32(1)
                    .u32(Exchanges.CREDITS).u32(Proc.RDMA_MSG.ordinal()).u32(0).u32(1).u32(0x7FFF_FFFF)
                    .toByteArray(), rpc));
            case "read-chunk-huge" -> send(ctx, r, (xid, rpc) -> {
                // advertised as 1 GiB (the judge holds the Responder to that); the region holds the call only
                Region g = r.readableAdvertised(rpc, 1L << 30);
                return RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_NOMSG, List.of(new ReadSegment(0,
                        new RdmaSegment(g.stag(), 1L << 30, g.to()))), List.of(), null).toBytes();
            });
            case "write-chunk-too-small" -> readIntoSmallChunk(ctx, r);
            case "reply-chunk-too-small" -> readdirSmall(ctx, r, 256);
            case "no-reply-chunk" -> readdirSmall(ctx, r, 0);
            case "call-over-threshold" -> send(ctx, r, (xid, rpc) -> {
                int threshold = dutReceive(r);
                // a NULL call padded past the Responder's receive inline threshold, no chunk to carry it
                return Nfs3.concat(RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_MSG, List.of(), List.of(),
                        null).toBytes(), rpc, new byte[threshold + 1024 - rpc.length]);
            });
            default -> throw new IllegalArgumentException("no case " + kase);
        };
        Exchanges.observe(ctx, r, a);
        HeaderScenario.stillServes(ctx, r);
    }

    /** The Responder's receive inline threshold: its RFC 8797 private data, else 1024 (RFC 8166 §3.3.3). */
    static int dutReceive(Requester r) {
        var pd = io.rddp.rpcrdma.CmPrivateData.parse(r.conn().peerStartFrame().ulpPrivateData());
        return pd == null ? 1024 : pd.receiveSize();
    }

    private interface Message {
        byte[] of(long xid, byte[] rpc) throws Exception;
    }

    /** A NULL call's XID and message through {@code m}; the answer, or null. */
    private static Answer send(ScenarioContext ctx, Requester r, Message m) throws Exception {
        long xid = r.nextXid();
        r.send(m.of(xid, Nfs3.call(xid, Nfs3.NULL, new byte[0])));
        return r.await(xid, ctx.timeouts().reaction(), null);
    }

    /**
     * A WRITE whose data goes in a Read chunk at a broken Position: {@code shift} octets past the right one, or, with
     * {@code split}, the chunk cut in two segments with another chunk's segment between them.
     */
    private static Answer writeWithReadList(ScenarioContext ctx, Requester r, int shift, boolean split)
            throws Exception {
        byte[] fh = Exchanges.file(ctx, r);
        long offset = Exchanges.dut(ctx).fileOffset();
        byte[] data = Exchanges.pattern(2000, 3);
        long xid = r.nextXid();
        byte[] head = Nfs3.call(xid, Nfs3.WRITE, Nfs3.writeHead(fh, offset, data.length));
        List<ReadSegment> reads;
        if (split) {
            Region a = r.readable(java.util.Arrays.copyOf(data, 1000));
            Region b = r.readable(java.util.Arrays.copyOfRange(data, 1000, 2000));
            Region other = r.readable(new byte[8]);
            // §3.4.5: a chunk's segments share one Position and are together in the list
            reads = List.of(new ReadSegment(head.length, a.segment()), new ReadSegment(head.length - 8,
                    other.segment()), new ReadSegment(head.length, b.segment()));
        } else {
            reads = List.of(new ReadSegment(head.length + shift, r.readable(data).segment()));
        }
        r.send(Requester.message(RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_MSG, reads, List.of(),
                null), head));
        return r.await(xid, ctx.timeouts().reaction(), null);
    }

    /** A Long Call whose Read chunk names a STag the tester never registered (§4.5.3: a Remote Access Error). */
    private static Answer readStagInvalid(ScenarioContext ctx, Requester r) throws Exception {
        return send(ctx, r, (xid, rpc) -> RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_NOMSG,
                List.of(new ReadSegment(0, r.advertise(new RdmaSegment(r.unknownStag(), rpc.length,
                        0x2000_0000L)))), List.of(), null).toBytes());
    }

    /** A Long Call whose Read chunk claims 64 octets more than the region advertised holds. */
    private static Answer readPastRegion(ScenarioContext ctx, Requester r) throws Exception {
        return send(ctx, r, (xid, rpc) -> {
            Region g = r.readableAdvertised(rpc, rpc.length + 64L);
            return RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_NOMSG, List.of(new ReadSegment(0,
                    new RdmaSegment(g.stag(), rpc.length + 64L, g.to()))), List.of(), null).toBytes();
        });
    }

    /** READ of 3000 octets (written first) with a Write chunk of 1000 (§4.5.3). */
    private static Answer readIntoSmallChunk(ScenarioContext ctx, Requester r) throws Exception {
        byte[] fh = Exchanges.file(ctx, r);
        long offset = Exchanges.dut(ctx).fileOffset();
        NfsCallScenario.write(ctx, r, fh, offset, 3000, false);
        long xid = r.nextXid();
        Region small = r.writable(1000);
        r.send(Requester.message(RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_MSG, List.of(),
                List.of(List.of(small.segment())), null), Nfs3.call(xid, Nfs3.READ, Nfs3.read(fh, offset, 3000))));
        Answer a = r.await(xid, ctx.timeouts().reaction(), null);
        if (a != null && a.reaction() == io.rddp.conformance.RpcReaction.SUCCESS) {
            // RFC 1813 §3.3.6: a server may return less than asked; what it returns must fit the chunk (judged)
            Exchanges.In x = Exchanges.ok(a, "READ");
            x.attr();
            long count = x.u32();
            ctx.note("the Responder returned a short READ of " + count + " octets into the 1000-octet Write chunk");
            if (count > 1000) throw new ScenarioFailure("READ with a 1000-octet Write chunk returned count " + count);
        }
        return a;
    }

    /** READDIR asking for up to 8192 octets with a Reply chunk of {@code chunk} octets (0: none; §4.5.3, §3.5.3). */
    private static Answer readdirSmall(ScenarioContext ctx, Requester r, int chunk) throws Exception {
        byte[] dir = Exchanges.dir(ctx, r);
        long xid = r.nextXid();
        Region g = chunk > 0 ? r.writable(chunk) : null;
        r.send(Requester.message(RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_MSG, List.of(), List.of(),
                g == null ? null : List.of(g.segment())), Nfs3.call(xid, Nfs3.READDIR, Nfs3.readdir(dir, 8192))));
        return r.await(xid, ctx.timeouts().reaction(), g == null ? null : List.of(g));
    }
}
