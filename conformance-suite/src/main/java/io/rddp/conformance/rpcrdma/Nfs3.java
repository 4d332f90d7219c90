package io.rddp.conformance.rpcrdma;

import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.RpcNames;
import io.rddp.oncrpc.XdrWriter;

/** NFS version 3 calls (RFC 1813 §3.3) as the scenarios send them: the RPC message, or its arguments. */
final class Nfs3 {
    static final long PROG = RpcNames.NFS, VERS = 3;
    static final int NULL = 0, GETATTR = 1, LOOKUP = 3, READ = 6, WRITE = 7, READDIR = 16, READDIRPLUS = 17;
    /** RFC 1813 §2.6 */
    static final int NFS3_OK = 0, NFS3ERR_NOENT = 2, NFS3ERR_STALE = 70, NFS3ERR_BADHANDLE = 10001, NF3REG = 1,
            NF3DIR = 2, FILE_SYNC = 2, FHSIZE = 64;

    private Nfs3() {
    }

    /** An NFSv3 call message (AUTH_SYS, RFC 5531). */
    static byte[] call(long xid, int proc, byte[] args) {
        return RpcEncoder.call(xid, PROG, VERS, proc, args);
    }

    static byte[] fh(byte[] fh) {
        return new XdrWriter().opaque(fh).toByteArray();
    }

    static byte[] lookup(byte[] dir, String name) {
        return new XdrWriter().opaque(dir).string(name).toByteArray();
    }

    static byte[] read(byte[] fh, long offset, int count) {
        return new XdrWriter().opaque(fh).u64(offset).u32(count).toByteArray();
    }

    /** WRITE3args up to and including the data's length word: the data item follows (inline or in a Read chunk). */
    static byte[] writeHead(byte[] fh, long offset, int count) {
        return new XdrWriter().opaque(fh).u64(offset).u32(count).u32(FILE_SYNC).u32(count).toByteArray();
    }

    static byte[] readdir(byte[] dir, int count) {
        return new XdrWriter().opaque(dir).u64(0).fixed(new byte[8]).u32(count).toByteArray();
    }

    static byte[] readdirplus(byte[] dir, int dircount, int maxcount) {
        return new XdrWriter().opaque(dir).u64(0).fixed(new byte[8]).u32(dircount).u32(maxcount).toByteArray();
    }

    /** {@code data} with its XDR roundup (RFC 4506 §4.10). */
    static byte[] padded(byte[] data) {
        return java.util.Arrays.copyOf(data, (data.length + 3) & ~3);
    }

    static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) out.writeBytes(p);
        return out.toByteArray();
    }
}
