package io.rddp.conformance.rpcrdma;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.rpcrdma.CmPrivateData;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The positive scenarios: NFSv3 calls carried the ways RFC 8166 gives (inline, a Read chunk for WRITE's data, a
 * Write chunk for READ's, a Reply chunk, a Long Call, a Long Reply), each answer checked down to the RPC accept
 * status, the NFS status and the octets returned; the judge checks every message and chunk move of both sides by
 * the analyzer's rules. {@code case} names the exchange.
 */
@ScenarioKeys({@ScenarioKeys.Key(name = "case", type = ScenarioKeys.Type.TEXT)})
public final class NfsCallScenario extends CaseScenario {


    public NfsCallScenario(ScenarioInfo info, JsonNode spec) {
        super(info, spec);
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        Requester r = Exchanges.open(ctx, !kase.equals("readdir-no-private-data"));
        switch (kase) {
            case "null" -> nullCall(ctx, r);
            case "getattr" -> getattr(ctx, r, false);
            case "long-call" -> getattr(ctx, r, true);
            case "lookup" -> {
                Exchanges.file(ctx, r);
                ctx.compared("LOOKUP of the export's file: NFS3_OK with a handle");
            }
            case "write-read-chunk" -> write(ctx, r, Exchanges.file(ctx, r), Exchanges.dut(ctx).fileOffset(), 3000,
                    false);
            case "long-call-write" -> write(ctx, r, Exchanges.file(ctx, r), Exchanges.dut(ctx).fileOffset(), 1800,
                    true);
            case "read-write-chunk" -> readBack(ctx, r, 6000, 2, 6000, false);
            case "read-write-chunk-larger" -> readBack(ctx, r, 2500, 1, 8192, false);
            case "long-reply" -> readBack(ctx, r, 3000, 0, 0, true);
            case "empty-write-chunk" -> emptyWriteChunk(ctx, r);
            case "unused-write-chunk" -> unusedWriteChunk(ctx, r);
            case "readdir-reply-chunk", "readdir-no-private-data" -> readdir(ctx, r, false);
            case "readdirplus-reply-chunk" -> readdir(ctx, r, true);
            case "private-data" -> privateData(ctx, r);
            default -> throw new IllegalArgumentException("no case " + kase);
        }
    }

    private static void nullCall(ScenarioContext ctx, Requester r) throws Exception {
        long xid = r.nextXid();
        Answer a = Exchanges.reply(ctx, r, Exchanges.inline(ctx, r, xid, Nfs3.call(xid, Nfs3.NULL, new byte[0])),
                "a NULL call");
        if (a.header().proc() != Proc.RDMA_MSG) throw new ScenarioFailure("NULL: the reply is " + a.describe());
        Exchanges.ok0(a, "NULL");
        ctx.compared("NULL: RDMA_MSG, accept_stat SUCCESS, " + a.header().credits() + " credits granted");
    }

    private static void getattr(ScenarioContext ctx, Requester r, boolean longCall) throws Exception {
        byte[] root = Exchanges.root(ctx, r);
        long xid = r.nextXid();
        byte[] rpc = Nfs3.call(xid, Nfs3.GETATTR, Nfs3.fh(root));
        Answer a;
        if (longCall) { // RFC 8166 §3.5.3: the whole call in a Position Zero Read chunk of an RDMA_NOMSG
            Region whole = r.readable(rpc);
            a = Exchanges.exchange(ctx, r, RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_NOMSG,
                    List.of(new ReadSegment(0, whole.segment())), List.of(), null), new byte[0], null);
        } else {
            a = Exchanges.inline(ctx, r, xid, rpc);
        }
        a = Exchanges.reply(ctx, r, a, "GETATTR of the root" + (longCall ? " as a Long Call" : ""));
        Exchanges.given(ctx, Exchanges.status(a, "GETATTR"));
        long type = Exchanges.ok(a, "GETATTR").u32();
        if (type != Nfs3.NF3DIR) throw new ScenarioFailure("GETATTR of the root: ftype3 " + type + ", not NF3DIR");
        ctx.compared("GETATTR of the root" + (longCall ? " sent as a Long Call" : "") + ": NFS3_OK, a directory");
    }

    /** WRITE3 of {@code n} octets at {@code offset} whose data goes in a Read chunk (RFC 8267 §3.1). */
    static byte[] write(ScenarioContext ctx, Requester r, byte[] fh, long offset, int n, boolean longCall)
            throws Exception {
        byte[] data = Exchanges.pattern(n, (int) (offset >>> 16) + 11);
        long xid = r.nextXid();
        byte[] head = Nfs3.call(xid, Nfs3.WRITE, Nfs3.writeHead(fh, offset, n));
        Answer a;
        if (longCall) {
            Region whole = r.readable(Nfs3.concat(head, Nfs3.padded(data)));
            a = Exchanges.exchange(ctx, r, RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_NOMSG,
                    List.of(new ReadSegment(0, whole.segment())), List.of(), null), new byte[0], null);
        } else {
            // RFC 8166 §3.4.5: the Position is the data item's offset in the Payload stream, its roundup left out
            Region chunk = r.readable(data);
            a = Exchanges.exchange(ctx, r, RpcRdmaHeader.message(xid, Exchanges.CREDITS, Proc.RDMA_MSG,
                    List.of(new ReadSegment(head.length, chunk.segment())), List.of(), null), head, null);
        }
        a = Exchanges.reply(ctx, r, a, "WRITE of " + n + " octets");
        Exchanges.In x = Exchanges.ok(a, "WRITE");
        x.wcc();
        long count = x.u32();
        if (count != n) throw new ScenarioFailure("WRITE: " + count + " of " + n + " octets written");
        ctx.compared("WRITE of " + n + " octets " + (longCall ? "inside a Long Call" : "through a Read chunk")
                + ": NFS3_OK, count " + n);
        return data;
    }

    /**
     * Writes {@code n} octets (Read chunk), then READs them back: through a Write chunk of {@code segments} segments
     * and {@code chunk} octets, or as a Long Reply through a Reply chunk; compares them octet for octet.
     */
    private static void readBack(ScenarioContext ctx, Requester r, int n, int segments, int chunk, boolean longReply)
            throws Exception {
        byte[] fh = Exchanges.file(ctx, r);
        long offset = Exchanges.dut(ctx).fileOffset();
        byte[] data = write(ctx, r, fh, offset, n, false);
        long xid = r.nextXid();
        List<Region> writeRegions = new ArrayList<>();
        List<List<RdmaSegment>> writes = new ArrayList<>();
        List<Region> replyRegions = null;
        List<RdmaSegment> reply = null;
        if (longReply) {
            replyRegions = List.of(r.writable(n + 1024));
            reply = List.of(replyRegions.get(0).segment());
        } else {
            List<RdmaSegment> w = new ArrayList<>();
            for (int i = 0; i < segments; i++) {
                int len = chunk / segments + (i == segments - 1 ? chunk % segments : 0);
                Region g = r.writable(len);
                writeRegions.add(g);
                w.add(g.segment());
            }
            writes.add(w);
        }
        Answer a = Exchanges.reply(ctx, r, Exchanges.exchange(ctx, r, RpcRdmaHeader.message(xid, Exchanges.CREDITS,
                Proc.RDMA_MSG, List.of(), writes, reply), Nfs3.call(xid, Nfs3.READ, Nfs3.read(fh, offset, n)),
                replyRegions), "READ of " + n + " octets");
        Exchanges.In x = Exchanges.ok(a, "READ");
        x.attr();
        long count = x.u32();
        x.bool();
        long length = x.u32();
        byte[] got;
        if (longReply) {
            if (a.header().proc() != Proc.RDMA_NOMSG) {
                throw new ScenarioFailure("READ of " + n + " octets with a Reply chunk and no Write chunk: the reply"
                        + " came as " + a.header().proc() + ", not as a Long Reply (RDMA_NOMSG)");
            }
            got = x.opaqueOf(length);
        } else {
            if (a.header().writeList().size() != 1) {
                throw new ScenarioFailure("READ: the reply returns " + a.header().writeList().size() + " Write chunks"
                        + " for the 1 provided");
            }
            List<RdmaSegment> returned = a.header().writeList().get(0);
            long sum = Exchanges.length(returned);
            if (sum != length) {
                throw new ScenarioFailure("READ: the returned Write chunk holds " + sum + " octets for a data item of "
                        + length + " (RFC 8166 §3.4.6.2)");
            }
            got = r.written(returned, writeRegions);
        }
        if (count != n || length != n || !Arrays.equals(got, data)) {
            throw new ScenarioFailure("READ of " + n + " octets: count " + count + ", data length " + length + ", "
                    + got.length + " octets returned " + (Arrays.equals(got, data) ? "equal" : "that differ from"
                    + " those written" + firstDifference(got, data)));
        }
        ctx.compared(n + " octets written through a Read chunk and read back " + (longReply ? "in a Long Reply"
                : "through a Write chunk of " + segments + " segment" + (segments == 1 ? "" : "s") + " (" + chunk
                + " octets)") + ": equal octet for octet");
    }

    private static String firstDifference(byte[] got, byte[] want) {
        for (int i = 0; i < Math.min(got.length, want.length); i++) {
            if (got[i] != want[i]) return " (first at octet " + i + ")";
        }
        return "";
    }

    /** READ with an empty Write chunk (RFC 8166 §4.3.2.3): the data comes inline, the chunk back empty. */
    private static void emptyWriteChunk(ScenarioContext ctx, Requester r) throws Exception {
        byte[] fh = Exchanges.file(ctx, r);
        long offset = Exchanges.dut(ctx).fileOffset();
        byte[] data = write(ctx, r, fh, offset, 200, false);
        long xid = r.nextXid();
        Answer a = Exchanges.reply(ctx, r, Exchanges.exchange(ctx, r, RpcRdmaHeader.message(xid, Exchanges.CREDITS,
                Proc.RDMA_MSG, List.of(), List.of(List.of()), null), Nfs3.call(xid, Nfs3.READ,
                Nfs3.read(fh, offset, 200)), null), "READ with an empty Write chunk");
        Exchanges.In x = Exchanges.ok(a, "READ");
        x.attr();
        x.u32();
        x.bool();
        byte[] got = x.opaqueOf(x.u32());
        if (a.header().writeList().size() != 1 || !a.header().writeList().get(0).isEmpty()) {
            throw new ScenarioFailure("READ with an empty Write chunk: the reply's Write list is "
                    + a.header().writeList() + ", not the one empty chunk (RFC 8166 §4.3.2.3)");
        }
        if (!Arrays.equals(got, data)) throw new ScenarioFailure("READ with an empty Write chunk: the inline data"
                + " differs from what was written");
        ctx.compared("READ with an empty Write chunk: 200 octets inline, equal; the chunk returned empty");
    }

    /** GETATTR with a Write chunk it has no use for (RFC 8166 §4.3.2.2): returned unused, every length zero. */
    private static void unusedWriteChunk(ScenarioContext ctx, Requester r) throws Exception {
        byte[] root = Exchanges.root(ctx, r);
        long xid = r.nextXid();
        Region g = r.writable(4096);
        Answer a = Exchanges.reply(ctx, r, Exchanges.exchange(ctx, r, RpcRdmaHeader.message(xid, Exchanges.CREDITS,
                Proc.RDMA_MSG, List.of(), List.of(List.of(g.segment())), null), Nfs3.call(xid, Nfs3.GETATTR,
                Nfs3.fh(root)), null), "GETATTR with a Write chunk");
        Exchanges.ok(a, "GETATTR");
        List<List<RdmaSegment>> w = a.header().writeList();
        if (w.size() != 1 || w.get(0).size() != 1 || w.get(0).get(0).length() != 0) {
            throw new ScenarioFailure("GETATTR with an unused Write chunk: the reply returns " + w + ", not the chunk"
                    + " with its length zero (RFC 8166 §4.3.2.2)");
        }
        ctx.compared("GETATTR with a Write chunk: NFS3_OK, the chunk returned unused (length 0)");
    }

    /** READDIR or READDIRPLUS whose reply exceeds the inline threshold: through the Reply chunk (§3.5.3). */
    private static void readdir(ScenarioContext ctx, Requester r, boolean plus) throws Exception {
        byte[] dir = Exchanges.dir(ctx, r);
        long xid = r.nextXid();
        Region chunk = r.writable(plus ? 32768 : 16384);
        byte[] args = plus ? Nfs3.readdirplus(dir, 8192, 32768) : Nfs3.readdir(dir, 8192);
        Answer a = Exchanges.reply(ctx, r, Exchanges.exchange(ctx, r, RpcRdmaHeader.message(xid, Exchanges.CREDITS,
                Proc.RDMA_MSG, List.of(), List.of(), List.of(chunk.segment())), Nfs3.call(xid,
                plus ? Nfs3.READDIRPLUS : Nfs3.READDIR, args), List.of(chunk)), plus ? "READDIRPLUS" : "READDIR");
        String what = plus ? "READDIRPLUS" : "READDIR";
        Exchanges.In x = Exchanges.ok(a, what);
        x.attr();
        x.skip(8);
        int entries = 0;
        while (x.bool()) {
            entries++;
            x.skip(8);
            x.opaque(1024);
            x.skip(8);
            if (plus) {
                x.attr();
                if (x.bool()) x.opaque(Nfs3.FHSIZE);
            }
        }
        x.bool();
        if (a.payload().length > Requester.INLINE && a.header().proc() != Proc.RDMA_NOMSG) {
            throw new ScenarioFailure(what + ": a reply of " + a.payload().length + " octets sent inline over the"
                    + " Requester's 1024-octet inline threshold, the Reply chunk unused (RFC 8166 §3.5.3)");
        }
        if (a.header().proc() != Proc.RDMA_NOMSG) {
            throw new ScenarioFailure(what + " of the directory fits inline (" + a.payload().length + " octets):"
                    + " --rpcrdma-dir must name a directory whose listing exceeds 1024 octets");
        }
        ctx.compared(what + ": " + entries + " entries, " + a.payload().length + " octets through the Reply chunk"
                + " (RDMA_NOMSG)");
    }

    /** The MPA Reply's RFC 8797 private data, when present, is well formed and offers at least 1024 octets. */
    private static void privateData(ScenarioContext ctx, Requester r) throws Exception {
        byte[] pd = r.conn().peerStartFrame().ulpPrivateData();
        CmPrivateData p = CmPrivateData.parse(pd);
        if (pd.length == 0) {
            ctx.note("the Responder's MPA Reply carries no private data: both sides assume 1024 octets"
                    + " (RFC 8797 §4)");
        } else if (p == null) {
            ctx.note("the Responder's MPA Reply private data is not RFC 8797's (" + pd.length + " octets)");
        } else {
            if (p.version() != 1) throw new ScenarioFailure("RFC 8797 private data of version " + p.version());
            ctx.compared("RFC 8797 private data: send " + p.sendSize() + ", receive " + p.receiveSize() + " octets");
        }
        nullCall(ctx, r);
    }
}
