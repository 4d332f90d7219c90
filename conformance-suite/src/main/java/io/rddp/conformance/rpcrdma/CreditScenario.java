package io.rddp.conformance.rpcrdma;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.RpcReaction;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.util.ArrayList;
import java.util.List;

/**
 * Credit-based flow control (RFC 8166 §3.3.1): {@code case} zero-requested (a call asking for no credits is still
 * granted at least one), grant-honoured (as many calls at once as the Responder granted are all answered: it has
 * the receives for them), many-calls (200 calls in turn, each answered with a grant of at least one) and
 * beyond-grant (more calls at once than granted: the Requester breaks the MUST NOT; the Responder answers them,
 * or its RDMA layer ends the connection, and stays alive for others).
 */
@ScenarioKeys({@ScenarioKeys.Key(name = "case", type = ScenarioKeys.Type.TEXT)})
public final class CreditScenario extends CaseScenario {
    /** Calls sent at once at most: Linux grants 64 (svcrdma_max_requests), the reference responder 32. */
    static final int MAX_BURST = 128;
    static final int MANY = 200;


    public CreditScenario(ScenarioInfo info, JsonNode spec) {
        super(info, spec);
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        Requester r = Exchanges.open(ctx);
        switch (kase) {
            case "zero-requested" -> {
                Answer a = Exchanges.reply(ctx, r, call(ctx, r, 0), "a NULL call asking for 0 credits");
                Exchanges.ok0(a, "NULL");
                if (a.header().credits() < 1) throw new ScenarioFailure("a call asking for 0 credits was granted "
                        + a.header().credits() + " (RFC 8166 §3.3.1: the granted value MUST NOT be zero)");
                ctx.compared("a call asking for 0 credits granted " + a.header().credits());
            }
            case "grant-honoured" -> burst(ctx, r, 0);
            case "beyond-grant" -> burst(ctx, r, 4);
            case "many-calls" -> {
                long min = Long.MAX_VALUE, max = 0;
                for (int i = 0; i < MANY; i++) {
                    Answer a = Exchanges.reply(ctx, r, call(ctx, r, 1 + i % 40), "NULL call " + (i + 1) + " of "
                            + MANY);
                    Exchanges.ok0(a, "NULL call " + (i + 1));
                    long g = a.header().credits();
                    if (g < 1) throw new ScenarioFailure("NULL call " + (i + 1) + " was granted " + g + " credits");
                    min = Math.min(min, g);
                    max = Math.max(max, g);
                }
                ctx.compared(MANY + " NULL calls in turn, each answered; grants " + min + " to " + max);
            }
            default -> throw new IllegalArgumentException("no case " + kase);
        }
    }

    private static Answer call(ScenarioContext ctx, Requester r, long credits) throws Exception {
        long xid = r.nextXid();
        return Exchanges.exchange(ctx, r, RpcRdmaHeader.message(xid, credits, Proc.RDMA_MSG, List.of(), List.of(),
                null), Nfs3.call(xid, Nfs3.NULL, new byte[0]), null);
    }

    /**
     * A first call learns the grant; then as many NULL calls as granted ({@code extra} more) go at once, and every
     * answer is waited for.
     */
    private void burst(ScenarioContext ctx, Requester r, int extra) throws Exception {
        Answer first = Exchanges.reply(ctx, r, call(ctx, r, MAX_BURST), "the first NULL call");
        Exchanges.ok0(first, "NULL");
        long granted = first.header().credits();
        if (granted < 1) throw new ScenarioFailure("the first NULL call was granted " + granted + " credits");
        int n = (int) Math.min(MAX_BURST, granted) + extra;
        List<Long> xids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long xid = r.nextXid();
            xids.add(xid);
            r.send(Requester.message(RpcRdmaHeader.message(xid, MAX_BURST, Proc.RDMA_MSG, List.of(), List.of(), null),
                    Nfs3.call(xid, Nfs3.NULL, new byte[0])));
        }
        int answered = 0;
        for (long xid : xids) {
            Answer a = r.await(xid, ctx.timeouts().reaction(), null);
            if (a == null) break;
            if (a.reaction() != RpcReaction.SUCCESS) throw new ScenarioFailure("NULL call " + (answered + 1) + " of"
                    + " the burst got " + a.describe());
            answered++;
        }
        String what = n + " NULL calls at once after a grant of " + granted + "; " + answered + " answered";
        if (extra == 0) {
            if (answered < n) throw new ScenarioFailure(what + (r.terminated() != null ? "; " + r.terminated()
                    : r.closed() ? "; the Responder's side ended the connection" : "") + " (RFC 8166 §3.3.1: the"
                    + " receives for the credits it grants are posted before the reply that grants them)");
            ctx.compared(what);
        } else {
            ctx.note(what);
            if (answered == n) ctx.rpcReaction(RpcReaction.SUCCESS);
        }
    }
}
