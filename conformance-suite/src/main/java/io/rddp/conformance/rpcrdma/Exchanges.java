package io.rddp.conformance.rpcrdma;

import io.rddp.MalformedException;
import io.rddp.conformance.RpcReaction;
import io.rddp.conformance.Scenario;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.Setup;
import io.rddp.oncrpc.XdrReader;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.util.HexFormat;
import java.util.List;

/**
 * What the rpcrdma scenarios share: opening the Requester, one call and its answer, the NFS results, and what the
 * server's export gives them ({@link Export}), learned over the protocol.
 */
final class Exchanges {
    /** The credits every call asks for (RFC 8166 §3.3.1). */
    static final long CREDITS = 32;

    private Exchanges() {
    }

    /** A Requester on a fresh connection (MPA with RFC 8797 private data); the rpcrdma profile only. */
    static Requester open(ScenarioContext ctx) throws Exception {
        return open(ctx, true);
    }

    /** As {@link #open(ScenarioContext)}; {@code privateData}: false to send the MPA Request without any. */
    static Requester open(ScenarioContext ctx, boolean privateData) throws Exception {
        if (!(ctx.dut() instanceof RpcRdmaDut)) throw new Scenario.Skip("needs the rpcrdma profile", false);
        return new Requester(ctx.open(Setup.defaults().withRequest(RpcRdmaDut.request(privateData))));
    }

    static RpcRdmaDut dut(ScenarioContext ctx) {
        return (RpcRdmaDut) ctx.dut();
    }

    /** Sends {@code h} and {@code payload}; the answer to {@code h}'s XID within the reaction wait, or null. */
    static Answer exchange(ScenarioContext ctx, Requester r, RpcRdmaHeader h, byte[] payload, List<Region> reply)
            throws Exception {
        r.send(Requester.message(h, payload));
        return r.await(h.xid(), ctx.timeouts().reaction(), reply);
    }

    /** An inline RDMA_MSG call of {@code rpc} with no chunks. */
    static Answer inline(ScenarioContext ctx, Requester r, long xid, byte[] rpc) throws Exception {
        return exchange(ctx, r, RpcRdmaHeader.message(xid, CREDITS, Proc.RDMA_MSG, List.of(), List.of(), null), rpc,
                null);
    }

    /** The answer, or a failure saying none came (and why the connection ended, if it did). */
    static Answer reply(ScenarioContext ctx, Requester r, Answer a, String what) throws Scenario.ScenarioFailure {
        if (a != null) return a;
        throw new Scenario.ScenarioFailure("no answer to " + what + " within " + ctx.timeouts().reaction() + " ms"
                + (r.terminated() != null ? "; " + r.terminated() : r.closed() ? "; the Responder closed the"
                + " connection" : ""));
    }

    /**
     * What the Responder did to the scenario's message, for the runner to match against its {@code rpc:}
     * reactions: its answer, or a discard when none came and the connection is still up (a close is judged by the
     * runner itself).
     */
    static void observe(ScenarioContext ctx, Requester r, Answer a) {
        if (a != null) {
            ctx.rpcReaction(a.reaction());
            ctx.note("the Responder answered: " + a.describe());
        } else if (!r.closed() && r.terminated() == null) {
            ctx.rpcReaction(RpcReaction.DISCARD);
        }
        if (r.terminated() != null) ctx.note(r.terminated());
    }

    /** The NFS results of an accepted reply whose nfsstat3 is NFS3_OK, after the status. */
    static In ok(Answer a, String what) throws Scenario.ScenarioFailure {
        if (a.reaction() != RpcReaction.SUCCESS) {
            throw new Scenario.ScenarioFailure(what + ": expected an accepted RPC reply, got " + a.describe());
        }
        In x = new In(a.results(), what);
        long status = x.u32();
        if (status != Nfs3.NFS3_OK) throw new Scenario.ScenarioFailure(what + ": nfsstat3 " + status);
        return x;
    }

    /** An accepted reply with accept_stat SUCCESS (a NULL reply has no results). */
    static void ok0(Answer a, String what) throws Scenario.ScenarioFailure {
        if (a.reaction() != RpcReaction.SUCCESS) {
            throw new Scenario.ScenarioFailure(what + ": expected an accepted RPC reply, got " + a.describe());
        }
    }

    /** The nfsstat3 of an accepted reply. */
    static long status(Answer a, String what) throws Scenario.ScenarioFailure {
        if (a.reaction() != RpcReaction.SUCCESS) {
            throw new Scenario.ScenarioFailure(what + ": expected an accepted RPC reply, got " + a.describe());
        }
        return new In(a.results(), what).u32();
    }

    /**
     * The export's root file handle: {@code --rpcrdma-root-fh}, or else the reference responder's if a GETATTR of
     * it answers a directory; otherwise the scenario is skipped, saying what to give.
     */
    static byte[] root(ScenarioContext ctx, Requester r) throws Exception {
        byte[] given = dut(ctx).export().rootFh();
        if (given != null) return given;
        byte[] tried = dut(ctx).export().tried();
        long xid = r.nextXid();
        Answer a = inline(ctx, r, xid, Nfs3.call(xid, Nfs3.GETATTR, Nfs3.fh(tried)));
        String why;
        if (a == null) {
            why = "no answer to it";
        } else if (a.reaction() != RpcReaction.SUCCESS) {
            why = a.describe();
        } else {
            In x = new In(a.results(), "GETATTR");
            long status = x.u32();
            long type = status == Nfs3.NFS3_OK ? x.u32() : -1;
            if (type == Nfs3.NF3DIR) return tried;
            why = status != Nfs3.NFS3_OK ? "nfsstat3 " + status : "ftype3 " + type + ", not a directory";
        }
        throw new Scenario.Skip("needs the export's root file handle: --rpcrdma-root-fh HEX (a GETATTR of the"
                + " reference responder's root handle " + HexFormat.of().formatHex(tried) + " gave " + why + ")",
                false);
    }

    /** The handle of {@code name} in {@code dir} by LOOKUP; a skip naming {@code option} when it is not there. */
    static byte[] lookup(ScenarioContext ctx, Requester r, byte[] dir, String name, String option) throws Exception {
        long xid = r.nextXid();
        Answer a = reply(ctx, r, inline(ctx, r, xid, Nfs3.call(xid, Nfs3.LOOKUP, Nfs3.lookup(dir, name))),
                "LOOKUP " + name);
        long status = status(a, "LOOKUP " + name);
        given(ctx, status);
        if (status == Nfs3.NFS3ERR_NOENT) {
            throw new Scenario.Skip("the export's root has no \"" + name + "\": " + option + " NAME names one", false);
        }
        if (status != Nfs3.NFS3_OK) throw new Scenario.ScenarioFailure("LOOKUP " + name + ": nfsstat3 " + status);
        In x = new In(a.results(), "LOOKUP");
        x.u32();
        return x.opaque(Nfs3.FHSIZE);
    }

    /**
     * A handle of the root given with {@code --rpcrdma-root-fh} that the server calls stale or no handle of its
     * own (RFC 1813 §2.6: NFS3ERR_STALE, NFS3ERR_BADHANDLE) is the option's fault, not the server's: a skip.
     */
    static void given(ScenarioContext ctx, long status) throws Scenario.Skip {
        byte[] fh = dut(ctx).export().rootFh();
        if (fh != null && (status == Nfs3.NFS3ERR_STALE || status == Nfs3.NFS3ERR_BADHANDLE)) {
            throw new Scenario.Skip("--rpcrdma-root-fh " + HexFormat.of().formatHex(fh) + " is no root handle of"
                    + " this server's export (nfsstat3 " + status + ")", false);
        }
    }

    /** The writable file's handle ({@code --rpcrdma-file}). */
    static byte[] file(ScenarioContext ctx, Requester r) throws Exception {
        return lookup(ctx, r, root(ctx, r), dut(ctx).export().file(), "--rpcrdma-file");
    }

    /** The directory's handle ({@code --rpcrdma-dir}). */
    static byte[] dir(ScenarioContext ctx, Requester r) throws Exception {
        return lookup(ctx, r, root(ctx, r), dut(ctx).export().dir(), "--rpcrdma-dir");
    }

    /** Octets that say where they are: octet i of a scenario's data is a function of i and its seed. */
    static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) b[i] = (byte) (i * 7 + seed + (i >>> 9));
        return b;
    }

    /** The sum of a chunk's segment lengths. */
    static long length(List<RdmaSegment> chunk) {
        return RpcRdmaHeader.length(chunk);
    }

    /** Results read with the scenario's failure for what does not decode. */
    static final class In {
        private final XdrReader x;
        private final String what;

        In(XdrReader x, String what) {
            this.x = x;
            this.what = what;
        }

        long u32() throws Scenario.ScenarioFailure {
            try {
                return x.u32();
            } catch (MalformedException e) {
                throw new Scenario.ScenarioFailure(what + ": the results do not decode: " + e.getMessage());
            }
        }

        long u64() throws Scenario.ScenarioFailure {
            try {
                return x.u64();
            } catch (MalformedException e) {
                throw new Scenario.ScenarioFailure(what + ": the results do not decode: " + e.getMessage());
            }
        }

        boolean bool() throws Scenario.ScenarioFailure {
            long b = u32();
            if (b > 1) throw new Scenario.ScenarioFailure(what + ": an XDR bool of " + b);
            return b == 1;
        }

        byte[] opaque(int max) throws Scenario.ScenarioFailure {
            try {
                return x.opaque(max, what);
            } catch (MalformedException e) {
                throw new Scenario.ScenarioFailure(what + ": the results do not decode: " + e.getMessage());
            }
        }

        void skip(long n) throws Scenario.ScenarioFailure {
            try {
                x.skip(n);
            } catch (MalformedException e) {
                throw new Scenario.ScenarioFailure(what + ": the results do not decode: " + e.getMessage());
            }
        }

        /** {@code n} octets and their roundup. */
        byte[] opaqueOf(long n) throws Scenario.ScenarioFailure {
            byte[] b = new byte[(int) Math.max(0, Math.min(n, 1 << 20))];
            for (int i = 0; i < b.length; i += 4) {
                long w = u32();
                for (int k = 0; k < 4 && i + k < b.length; k++) b[i + k] = (byte) (w >>> (24 - 8 * k));
            }
            return b;
        }

        /** post_op_attr (RFC 1813 §2.6): its ftype3, or -1 when absent. */
        long attr() throws Scenario.ScenarioFailure {
            if (!bool()) return -1;
            long type = u32();
            skip(80);
            return type;
        }

        /** wcc_data */
        void wcc() throws Scenario.ScenarioFailure {
            if (bool()) skip(24);
            attr();
        }
    }
}
