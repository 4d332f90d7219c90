package io.rddp.oncrpc;

import io.rddp.MalformedException;

import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * An ONC RPC message (RFC 5531 §9): the call or reply header, and what the upper-layer decode ({@link UlpInfo})
 * learned from the arguments or results. A reply names its procedure only through the call it answers, so
 * {@link #parse} takes a lookup of the calls seen.
 *
 * @param xid         transaction id
 * @param call        CALL (true) or REPLY
 * @param rpcVersion  rpcvers of a call (must be 2), -1 for a reply
 * @param program     the program (for a reply: of the matched call, else -1)
 * @param version     the program version (as program)
 * @param procedure   the procedure (as program)
 * @param credFlavor  call credential flavor, -1 for a reply
 * @param verfFlavor  verifier flavor (call or accepted reply), -1 when absent
 * @param replyStat   -1 for a call, 0 MSG_ACCEPTED, 1 MSG_DENIED
 * @param acceptStat  accept_stat of an accepted reply, else -1
 * @param rejectStat  reject_stat of a denied reply, else -1
 * @param mismatchLow lowest version supported (PROG_MISMATCH or RPC_MISMATCH), else -1
 * @param mismatchHigh highest version supported, else -1
 * @param authStat    auth_stat of an AUTH_ERROR denial, else -1
 * @param bodyOffset  stream offset of the arguments or results
 * @param length      length of the whole (rebuilt) RPC message
 * @param ulp         what the arguments or results showed, or null when the program is not decoded
 */
public record RpcMessage(long xid, boolean call, long rpcVersion, long program, long version, long procedure,
                         long credFlavor, long verfFlavor, int replyStat, long acceptStat, long rejectStat,
                         long mismatchLow, long mismatchHigh, long authStat, long bodyOffset, long length,
                         UlpInfo ulp) {

    /** The program, version and procedure of a call, remembered to decode its reply. */
    public record CallKey(long program, long version, long procedure) {
    }

    /** RFC 5531 §8.2: opaque_auth bodies are at most 400 octets. */
    static final int MAX_AUTH = 400;

    /**
     * Parses a whole RPC message from {@code x}.
     *
     * @param calls       the call a reply answers, by XID (returns null when not seen)
     * @param writeChunks for a reply: the returned length of the next RPC-over-RDMA Write chunk holding a reduced
     *                    result (RFC 8166 §3.4.6), -1 when none is left; null outside RPC-over-RDMA
     */
    public static RpcMessage parse(XdrReader x, LongFunction<CallKey> calls, LongSupplier writeChunks)
            throws MalformedException {
        long xid = x.u32();
        long type = x.u32();
        if (type == 0) {
            long rpcvers = x.u32();
            long prog = x.u32();
            long vers = x.u32();
            long proc = x.u32();
            long cred = x.u32();
            x.skipOpaque(MAX_AUTH, "credential body");
            long verf = x.u32();
            x.skipOpaque(MAX_AUTH, "verifier body");
            long body = x.position();
            UlpInfo ulp = rpcvers == 2 ? Nfs.call(x, prog, vers, proc) : null;
            return new RpcMessage(xid, true, rpcvers, prog, vers, proc, cred, verf, -1, -1, -1, -1, -1, -1, body,
                    x.length(), ulp);
        }
        if (type != 1) throw new MalformedException("RPC msg_type " + type + " is neither CALL (0) nor REPLY (1)", 4);
        CallKey key = calls == null ? null : calls.apply(xid);
        long prog = key == null ? -1 : key.program(), vers = key == null ? -1 : key.version(),
                proc = key == null ? -1 : key.procedure();
        long stat = x.u32();
        if (stat == 0) { // MSG_ACCEPTED
            long verf = x.u32();
            x.skipOpaque(MAX_AUTH, "verifier body");
            long accept = x.u32();
            long low = -1, high = -1;
            if (accept == 2) { // PROG_MISMATCH
                low = x.u32();
                high = x.u32();
            }
            long body = x.position();
            UlpInfo ulp = accept == 0 && key != null
                    ? Nfs.reply(x, prog, vers, proc, writeChunks == null ? () -> -1 : writeChunks) : null;
            return new RpcMessage(xid, false, -1, prog, vers, proc, -1, verf, 0, accept, -1, low, high, -1, body,
                    x.length(), ulp);
        }
        if (stat != 1) throw new MalformedException("RPC reply_stat " + stat + " is neither accepted nor denied", 8);
        long reject = x.u32();
        long low = -1, high = -1, auth = -1;
        if (reject == 0) { // RPC_MISMATCH
            low = x.u32();
            high = x.u32();
        } else if (reject == 1) {
            auth = x.u32();
        } else {
            throw new MalformedException("RPC reject_stat " + reject + " is neither RPC_MISMATCH nor AUTH_ERROR", 12);
        }
        return new RpcMessage(xid, false, -1, prog, vers, proc, -1, -1, 1, -1, reject, low, high, auth, x.position(),
                x.length(), null);
    }

    /** "NFSv3 READ", or null when the procedure is not known (a reply whose call was not seen). */
    public String procedureName() {
        return program < 0 ? null : RpcNames.describe(program, version, procedure);
    }

    /** One line: "Call NFSv4 COMPOUND [SEQUENCE PUTFH READ]" or "Reply NFSv3 READ OK". */
    public String summary() {
        StringBuilder sb = new StringBuilder(call ? "Call " : "Reply ");
        String name = procedureName();
        sb.append(name == null ? "(call not seen)" : name);
        if (!call) {
            if (replyStat == 1) {
                sb.append(" DENIED ").append(rejectStat == 0 ? "RPC_MISMATCH" : RpcNames.authStat(authStat));
            } else if (acceptStat != 0) {
                sb.append(' ').append(RpcNames.acceptStat(acceptStat));
            }
        }
        if (ulp != null) ulp.appendTo(sb, call);
        return sb.toString();
    }
}
