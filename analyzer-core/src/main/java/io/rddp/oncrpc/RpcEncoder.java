package io.rddp.oncrpc;

/** Encodes ONC RPC messages (RFC 5531 §9); the write half of {@link RpcMessage}, for generators and tests. */
public final class RpcEncoder {
    private RpcEncoder() {
    }

    public static final int AUTH_NONE = 0, AUTH_SYS = 1;

    /** A call with AUTH_SYS credentials (RFC 5531 Appendix A) and an AUTH_NONE verifier, then {@code args}. */
    public static byte[] call(long xid, long program, long version, long procedure, byte[] args) {
        XdrWriter w = new XdrWriter().u32(xid).u32(0).u32(2).u32(program).u32(version).u32(procedure);
        XdrWriter cred = new XdrWriter().u32(1_700_000_000L).string("client").u32(0).u32(0).u32(0);
        w.u32(AUTH_SYS).opaque(cred.toByteArray());
        w.u32(AUTH_NONE).u32(0);
        return w.raw(args).toByteArray();
    }

    /** An accepted reply with the given accept_stat (0 SUCCESS) and {@code results}. */
    public static byte[] acceptedReply(long xid, long acceptStat, byte[] results) {
        return new XdrWriter().u32(xid).u32(1).u32(0).u32(AUTH_NONE).u32(0).u32(acceptStat).raw(results)
                .toByteArray();
    }

    /** A denied reply: RPC_MISMATCH with the supported range. */
    public static byte[] rpcMismatch(long xid, long low, long high) {
        return new XdrWriter().u32(xid).u32(1).u32(1).u32(0).u32(low).u32(high).toByteArray();
    }
}
