package io.rddp.conformance.rpcrdma;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.RpcReaction;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.util.List;

/**
 * A transport header the Responder cannot take (RFC 8166 §4.5, §4.6, §4.2.4): another version, a Send shorter than
 * the minimal header, RDMA_DONE, RDMA_MSGP, RDMA_ERROR from the Requester, an undefined procedure, an rdma_xid that
 * is not the RPC message's, lists cut short or with a bad discriminator. {@code case} names the fault,
 * {@code vers} the version of the {@code version} case. The scenario reports what came back (or that nothing did)
 * and checks that a NULL call on the same connection is still answered when the connection stayed up; the answer's
 * form is judged by the analyzer's rules.
 */
@ScenarioKeys({@ScenarioKeys.Key(name = "case", type = ScenarioKeys.Type.TEXT),
        @ScenarioKeys.Key(name = "vers", type = ScenarioKeys.Type.INT)})
public final class HeaderScenario extends CaseScenario {

    private final long vers;

    public HeaderScenario(ScenarioInfo info, JsonNode spec) {
        super(info, spec);
        this.vers = spec.path("vers").asLong(2) & 0xFFFF_FFFFL;
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        Requester r = Exchanges.open(ctx);
        long xid = r.nextXid();
        byte[] rpc = Nfs3.call(xid, Nfs3.NULL, new byte[0]);
        byte[] msg = switch (kase) {
            // §4.2: the four fixed words mean the same in every version; the rest is of that version
            case "version" -> Nfs3.concat(new XdrWriter().u32(xid).u32(vers).u32(Exchanges.CREDITS)
                    .u32(Proc.RDMA_MSG.ordinal()).u32(0).u32(0).u32(0).toByteArray(), rpc);
            case "short" -> new XdrWriter().u32(xid).u32(1).u32(Exchanges.CREDITS).u32(Proc.RDMA_MSG.ordinal())
                    .u32(0).toByteArray();
            case "done" -> new XdrWriter().u32(xid).u32(1).u32(Exchanges.CREDITS).u32(Proc.RDMA_DONE.ordinal())
                    .u32(0).u32(0).u32(0).toByteArray();
            case "msgp" -> Nfs3.concat(new XdrWriter().u32(xid).u32(1).u32(Exchanges.CREDITS)
                    .u32(Proc.RDMA_MSGP.ordinal()).u32(0).u32(0).u32(0).u32(0).u32(0).toByteArray(), rpc);
            case "error" -> new XdrWriter().u32(xid).u32(1).u32(Exchanges.CREDITS).u32(Proc.RDMA_ERROR.ordinal())
                    .u32(RpcRdmaHeader.ERR_CHUNK).u32(0).u32(0).toByteArray();
            case "undefined-proc" -> Nfs3.concat(new XdrWriter().u32(xid).u32(1).u32(Exchanges.CREDITS).u32(7)
                    .u32(0).u32(0).u32(0).toByteArray(), rpc);
            case "xid-mismatch" -> Nfs3.concat(RpcRdmaHeader.message(xid ^ 0x1000, Exchanges.CREDITS, Proc.RDMA_MSG,
                    List.of(), List.of(), null).toBytes(), rpc);
            case "bad-discriminator" -> Nfs3.concat(new XdrWriter().u32(xid).u32(1).u32(Exchanges.CREDITS)
                    .u32(Proc.RDMA_MSG.ordinal()).u32(2).u32(0).u32(0).toByteArray(), rpc);
            case "lists-cut-short" -> new XdrWriter().u32(xid).u32(1).u32(Exchanges.CREDITS)
                    .u32(Proc.RDMA_MSG.ordinal()).u32(1).u32(0).u32(0x7E57).u32(64).toByteArray();
            default -> throw new IllegalArgumentException("no case " + kase);
        };
        long answerXid = kase.equals("xid-mismatch") ? xid ^ 0x1000 : xid;
        r.send(msg);
        Answer a = r.await(answerXid, ctx.timeouts().reaction(), null);
        if (a == null && kase.equals("xid-mismatch")) {
            for (Answer o : r.others()) if (o.header() != null && o.header().xid() == xid) a = o;
        }
        Exchanges.observe(ctx, r, a);
        if (a != null && a.header() != null && a.header().proc() == Proc.RDMA_ERROR
                && a.header().errorCode() == RpcRdmaHeader.ERR_VERS && kase.equals("version")) {
            long low = a.header().versLow(), high = a.header().versHigh();
            // §4.5.1: the range is what it does support: version 1, which it serves, and not the one rejected
            if (low > 1 || high < 1 || (low <= vers && vers <= high)) {
                throw new ScenarioFailure("ERR_VERS to version " + vers + " gives the range " + low + ".." + high
                        + ": the versions supported hold 1, which the Responder serves, and not " + vers
                        + " (RFC 8166 §4.5.1)");
            }
            ctx.compared("ERR_VERS to version " + vers + ": supported " + low + ".." + high);
        }
        stillServes(ctx, r);
    }

    /** When the connection stayed up, a NULL call on it is still answered (the fault was contained). */
    static void stillServes(ScenarioContext ctx, Requester r) throws Exception {
        if (r.closed() || r.terminated() != null) return;
        long xid = r.nextXid();
        Answer a = Exchanges.inline(ctx, r, xid, Nfs3.call(xid, Nfs3.NULL, new byte[0]));
        if (a == null && (r.closed() || r.terminated() != null)) return;
        a = Exchanges.reply(ctx, r, a, "a NULL call after the fault, on the same connection");
        if (a.reaction() != RpcReaction.SUCCESS) {
            throw new ScenarioFailure("a NULL call after the fault, on the same connection, got " + a.describe());
        }
        ctx.compared("a NULL call after the fault still answered on the same connection");
    }
}
