package io.rddp.conformance.rpcrdma;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.RpcReaction;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.util.List;

/**
 * RPC messages a well-formed transport carries to the wrong place (RFC 5531 §9, RFC 1813): an unknown procedure,
 * program, program version or RPC version, arguments that do not decode, and an XID used again while its call is
 * outstanding. {@code case} names it. The transport must carry the RPC-level answer as any other reply (RFC 8166
 * §4.2.1: the reply repeats the call's XID).
 */
@ScenarioKeys({@ScenarioKeys.Key(name = "case", type = ScenarioKeys.Type.TEXT)})
public final class RpcScenario extends CaseScenario {


    public RpcScenario(ScenarioInfo info, JsonNode spec) {
        super(info, spec);
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        Requester r = Exchanges.open(ctx);
        long xid = r.nextXid();
        if (kase.equals("xid-reuse")) {
            xidReuse(ctx, r, xid);
            return;
        }
        byte[] rpc = switch (kase) {
            case "unknown-procedure" -> Nfs3.call(xid, 99, new byte[0]);
            case "unknown-program" -> RpcEncoder.call(xid, 0x2000_7E57L, 1, 0, new byte[0]);
            case "unknown-version" -> RpcEncoder.call(xid, Nfs3.PROG, 7, 0, new byte[0]);
            case "rpc-version" -> Nfs3.concat(new XdrWriter().u32(xid).u32(0).u32(3).u32(Nfs3.PROG).u32(3).u32(0)
                    .u32(0).u32(0).u32(0).u32(0).toByteArray());
            // GETATTR3args whose nfs_fh3 claims 1000 octets and has none (RFC 4506: the opaque runs off the end)
            case "garbage-args" -> Nfs3.call(xid, Nfs3.GETATTR, new XdrWriter().u32(1000).toByteArray());
            default -> throw new IllegalArgumentException("no case " + kase);
        };
        Answer a = Exchanges.inline(ctx, r, xid, rpc);
        Exchanges.observe(ctx, r, a);
        HeaderScenario.stillServes(ctx, r);
    }

    /**
     * A first call learns the grant; with at least two credits, two NULL calls of one XID go at once. The Responder
     * answers both (each reply repeating the XID), or takes the second for a retransmission and answers once
     * (RFC 5531 §9 leaves XID semantics to the server's duplicate request cache); it must not answer with another
     * XID, and the connection serves on.
     */
    private static void xidReuse(ScenarioContext ctx, Requester r, long xid) throws Exception {
        Answer first = Exchanges.reply(ctx, r, Exchanges.inline(ctx, r, xid, Nfs3.call(xid, Nfs3.NULL, new byte[0])),
                "the first NULL call");
        Exchanges.ok0(first, "NULL");
        if (first.header().credits() < 1) throw new ScenarioFailure("the NULL call was granted 0 credits (RFC 8166"
                + " §3.3.1: MUST NOT be zero)");
        if (first.header().credits() < 2) throw new Skip("the Responder granted 1 credit: two calls may not be"
                + " outstanding at once (RFC 8166 §3.3.1)", false);
        long again = r.nextXid();
        byte[] msg = Requester.message(RpcRdmaHeader.message(again, Exchanges.CREDITS, Proc.RDMA_MSG, List.of(),
                List.of(), null), Nfs3.call(again, Nfs3.NULL, new byte[0]));
        r.send(msg);
        r.send(msg);
        Answer one = r.await(again, ctx.timeouts().reaction(), null);
        if (one == null) {
            Exchanges.observe(ctx, r, null);
            return;
        }
        Answer two = r.await(again, ctx.timeouts().quiet() * 3L, null);
        if (!r.others().isEmpty()) {
            throw new ScenarioFailure("the Responder answered with an XID it was not sent: " + r.others().get(0)
                    .describe());
        }
        ctx.rpcReaction(two != null ? one.reaction() : RpcReaction.DISCARD);
        ctx.note("two calls of XID 0x" + Long.toHexString(again) + ": " + (two == null ? "one answer (the second"
                + " taken for a retransmission)" : "two answers") + ", " + one.describe());
        HeaderScenario.stillServes(ctx, r);
    }
}
