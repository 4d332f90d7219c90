package io.rddp.conformance;

import java.util.Locale;

/**
 * What an RPC-over-RDMA Responder did with one message of the tester's (RFC 8166), as the rpcrdma profile's
 * scenarios observe it and their {@code expect: - rpc: NAME} entries accept it. The RDMA-level reactions (a
 * Terminate, a close) stay the {@link Reaction.Kind}s of their own.
 */
public enum RpcReaction {
    /** RDMA_ERROR with rdma_err ERR_VERS (RFC 8166 §4.5.1) */
    ERR_VERS("RDMA_ERROR ERR_VERS"),
    /** RDMA_ERROR with rdma_err ERR_CHUNK (RFC 8166 §4.5.2, §4.5.3) */
    ERR_CHUNK("RDMA_ERROR ERR_CHUNK"),
    /** no reply to the message within the reaction wait, the connection still open (RFC 8166 §4.5, §4.6.2) */
    DISCARD("the message discarded: no reply, the connection open"),
    /** an RPC reply with accept_stat SUCCESS (RFC 5531 §9) */
    SUCCESS("an RPC reply, accept_stat SUCCESS"),
    /** an RPC reply with accept_stat PROG_UNAVAIL */
    PROG_UNAVAIL("an RPC reply, accept_stat PROG_UNAVAIL"),
    /** an RPC reply with accept_stat PROG_MISMATCH */
    PROG_MISMATCH("an RPC reply, accept_stat PROG_MISMATCH"),
    /** an RPC reply with accept_stat PROC_UNAVAIL */
    PROC_UNAVAIL("an RPC reply, accept_stat PROC_UNAVAIL"),
    /** an RPC reply with accept_stat GARBAGE_ARGS */
    GARBAGE_ARGS("an RPC reply, accept_stat GARBAGE_ARGS"),
    /** an RPC reply denied with RPC_MISMATCH (RFC 5531 §9) */
    RPC_MISMATCH("an RPC reply, denied RPC_MISMATCH"),
    /** an RPC reply of another kind (another accept_stat, or denied for authentication) */
    OTHER_REPLY("an RPC reply of another kind");

    private final String text;

    RpcReaction(String text) {
        this.text = text;
    }

    /** As the catalogue names it: "err-chunk", "proc-unavail". */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public String describe() {
        return text;
    }

    public static RpcReaction byWireName(String s) {
        for (RpcReaction r : values()) if (r.wireName().equals(s)) return r;
        return null;
    }

    /** The wire names, for the catalogue's language. */
    static String[] wireNames() {
        RpcReaction[] all = values();
        String[] out = new String[all.length];
        for (int i = 0; i < all.length; i++) out[i] = all[i].wireName();
        return out;
    }
}
