package io.rddp.rnic.app.rpcrdma;

import io.rddp.MalformedException;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.RpcNames;
import io.rddp.oncrpc.XdrReader;
import io.rddp.oncrpc.XdrWriter;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * The RPC layer and an NFS version 3 server (RFC 1813) of {@link NfsTree}: NULL, GETATTR, LOOKUP, READ, WRITE,
 * READDIR and READDIRPLUS. Other procedures get PROC_UNAVAIL, other programs PROG_UNAVAIL, other NFS versions
 * PROG_MISMATCH 3..3, RPC versions other than 2 RPC_MISMATCH 2..2, arguments that do not decode GARBAGE_ARGS
 * (RFC 5531 §9). Credentials are not checked (AUTH_NONE and AUTH_SYS alike): the tree is a test fixture.
 */
public final class Nfs3Server {
    public static final long PROG = RpcNames.NFS, VERS = 3;
    public static final int NULL = 0, GETATTR = 1, LOOKUP = 3, READ = 6, WRITE = 7, READDIR = 16, READDIRPLUS = 17;
    /** RFC 5531 §9 accept_stat */
    public static final int SUCCESS = 0, PROG_UNAVAIL = 1, PROG_MISMATCH = 2, PROC_UNAVAIL = 3, GARBAGE_ARGS = 4;
    /** RFC 1813 §2.6 nfsstat3 */
    public static final int NFS3_OK = 0, NFS3ERR_NOENT = 2, NFS3ERR_NOTDIR = 20, NFS3ERR_ISDIR = 21,
            NFS3ERR_INVAL = 22, NFS3ERR_FBIG = 27, NFS3ERR_NAMETOOLONG = 63, NFS3ERR_STALE = 70,
            NFS3ERR_BADHANDLE = 10001, NFS3ERR_BAD_COOKIE = 10003, NFS3ERR_TOOSMALL = 10020;
    /** RFC 1813 §2.6 ftype3 */
    static final int NF3REG = 1, NF3DIR = 2;
    /** stable_how FILE_SYNC: the tree is memory, every write is as stable as it gets */
    static final int FILE_SYNC = 2;
    /** RFC 1813 §2.5: NFS3_FHSIZE, and the longest name we take */
    static final int FHSIZE = 64, MAX_NAME = 255;
    /** The most a READ returns; larger counts are cut to it (RFC 1813 §3.3.6: the server may return less). */
    public static final int MAX_READ = 1 << 20;
    /** RFC 5531 §8.2 */
    static final int MAX_AUTH = 400;
    /** Entries that fit no reply beyond this many octets of dirlist: every reply is capped. */
    static final int MAX_DIR_REPLY = 1 << 20;

    private final NfsTree tree;
    /** writeverf3: constant for this server's life (RFC 1813 §3.3.7: changes only on a reboot) */
    private final byte[] verifier = ByteBuffer.allocate(8).putLong(System.nanoTime()).array();

    public Nfs3Server(NfsTree tree) {
        this.tree = tree;
    }

    /**
     * The reply to one RPC Call message (its whole unreduced Payload stream).
     *
     * @throws MalformedException when even the call header does not decode (no XID to answer): the transport then
     *                            answers ERR_CHUNK or drops it
     */
    public RpcReply call(byte[] message) throws MalformedException {
        XdrReader x = XdrReader.of(ByteBuffer.wrap(message));
        long xid = x.u32();
        if (x.u32() != 0) throw new MalformedException("not an RPC CALL", 4);
        long rpcvers = x.u32();
        if (rpcvers != 2) return RpcReply.of(RpcEncoder.rpcMismatch(xid, 2, 2));
        long prog = x.u32(), vers = x.u32(), proc = x.u32();
        x.u32();
        x.skipOpaque(MAX_AUTH, "credential body");
        x.u32();
        x.skipOpaque(MAX_AUTH, "verifier body");
        if (prog != PROG) return accepted(xid, PROG_UNAVAIL, new byte[0]);
        if (vers != VERS) return accepted(xid, PROG_MISMATCH, new XdrWriter().u32(VERS).u32(VERS).toByteArray());
        try {
            return switch ((int) proc) {
                case NULL -> accepted(xid, SUCCESS, new byte[0]);
                case GETATTR -> accepted(xid, SUCCESS, getattr(x));
                case LOOKUP -> accepted(xid, SUCCESS, lookup(x));
                case READ -> read(xid, x);
                case WRITE -> accepted(xid, SUCCESS, write(x));
                case READDIR -> accepted(xid, SUCCESS, readdir(x, false));
                case READDIRPLUS -> accepted(xid, SUCCESS, readdir(x, true));
                default -> accepted(xid, PROC_UNAVAIL, new byte[0]);
            };
        } catch (MalformedException e) {
            return accepted(xid, GARBAGE_ARGS, new byte[0]);
        }
    }

    private static RpcReply accepted(long xid, int stat, byte[] results) {
        return RpcReply.of(RpcEncoder.acceptedReply(xid, stat, results));
    }

    // ---------------------------------------------------------------- procedures (RFC 1813 §3.3)

    /** §3.3.1 GETATTR3res */
    private byte[] getattr(XdrReader x) throws MalformedException {
        long id = handle(x);
        NfsTree.Attr a = id < 0 ? null : tree.attr(id);
        XdrWriter w = new XdrWriter();
        if (a == null) return w.u32(id == -2 ? NFS3ERR_BADHANDLE : NFS3ERR_STALE).toByteArray();
        return fattr3(w.u32(NFS3_OK), a).toByteArray();
    }

    /** §3.3.3 LOOKUP3res */
    private byte[] lookup(XdrReader x) throws MalformedException {
        long dir = handle(x);
        String name = x.string(MAX_NAME + 1, "filename3");
        XdrWriter w = new XdrWriter();
        NfsTree.Attr d = dir < 0 ? null : tree.attr(dir);
        if (d == null) return w.u32(dir == -2 ? NFS3ERR_BADHANDLE : NFS3ERR_STALE).u32(0).toByteArray();
        if (!d.dir()) return postOpAttr(w.u32(NFS3ERR_NOTDIR), d).toByteArray();
        if (name.length() > MAX_NAME) return postOpAttr(w.u32(NFS3ERR_NAMETOOLONG), d).toByteArray();
        long id = tree.lookup(dir, name);
        if (id < 0) return postOpAttr(w.u32(NFS3ERR_NOENT), d).toByteArray();
        w.u32(NFS3_OK).opaque(NfsTree.handle(id));
        postOpAttr(w, tree.attr(id));
        return postOpAttr(w, d).toByteArray();
    }

    /** §3.3.6 READ3res; the data is the DDP-eligible item (RFC 8267 §3.1). */
    private RpcReply read(long xid, XdrReader x) throws MalformedException {
        long id = handle(x);
        long offset = x.u64();
        long count = x.u32();
        XdrWriter w = new XdrWriter();
        NfsTree.Attr a = id < 0 ? null : tree.attr(id);
        if (a == null) return accepted(xid, SUCCESS, w.u32(id == -2 ? NFS3ERR_BADHANDLE : NFS3ERR_STALE).u32(0)
                .toByteArray());
        if (a.dir()) return accepted(xid, SUCCESS, postOpAttr(w.u32(NFS3ERR_ISDIR), a).toByteArray());
        byte[] data = offset < 0 ? new byte[0] : tree.read(id, offset, (int) Math.min(count, MAX_READ));
        boolean eof = offset < 0 || offset + data.length >= a.size();
        postOpAttr(w.u32(NFS3_OK), a).u32(data.length).bool(eof).u32(data.length);
        byte[] head = RpcEncoder.acceptedReply(xid, SUCCESS, w.toByteArray());
        return new RpcReply(head, data, new byte[0]);
    }

    /** §3.3.7 WRITE3res */
    private byte[] write(XdrReader x) throws MalformedException {
        long id = handle(x);
        long offset = x.u64();
        long count = x.u32();
        x.u32(); // stable: every write here is FILE_SYNC
        byte[] data = x.opaque(NfsTree.MAX_FILE, "WRITE data");
        XdrWriter w = new XdrWriter();
        NfsTree.Attr before = id < 0 ? null : tree.attr(id);
        if (before == null) return w.u32(id == -2 ? NFS3ERR_BADHANDLE : NFS3ERR_STALE).u32(0).u32(0).toByteArray();
        if (before.dir()) return wcc(w.u32(NFS3ERR_ISDIR), before, before).toByteArray();
        if (count != data.length) return wcc(w.u32(NFS3ERR_INVAL), before, before).toByteArray();
        if (offset < 0 || offset + count > NfsTree.MAX_FILE) return wcc(w.u32(NFS3ERR_FBIG), before, before).toByteArray();
        tree.write(id, offset, data);
        return wcc(w.u32(NFS3_OK), before, tree.attr(id)).u32(count).u32(FILE_SYNC).fixed(verifier).toByteArray();
    }

    /** §3.3.16 READDIR3res and §3.3.17 READDIRPLUS3res; the cookie of an entry is its index plus one. */
    private byte[] readdir(XdrReader x, boolean plus) throws MalformedException {
        long dir = handle(x);
        long cookie = x.u64();
        byte[] cookieverf = new byte[8];
        for (int i = 0; i < 8; i += 4) ByteBuffer.wrap(cookieverf).putInt(i, (int) x.u32());
        long count = x.u32(); // READDIR count; READDIRPLUS dircount
        if (plus) count = x.u32(); // READDIRPLUS maxcount bounds the whole reply
        XdrWriter w = new XdrWriter();
        NfsTree.Attr d = dir < 0 ? null : tree.attr(dir);
        if (d == null) return w.u32(dir == -2 ? NFS3ERR_BADHANDLE : NFS3ERR_STALE).u32(0).toByteArray();
        if (!d.dir()) return postOpAttr(w.u32(NFS3ERR_NOTDIR), d).toByteArray();
        List<Map.Entry<String, Long>> entries = tree.entries(dir);
        if (cookie > entries.size() || (cookie != 0 && !java.util.Arrays.equals(cookieverf, new byte[8]))) {
            return postOpAttr(w.u32(NFS3ERR_BAD_COOKIE), d).toByteArray();
        }
        // the resok (status word aside) must fit count octets: attributes, verifier, entries, the end markers
        long budget = Math.min(count, MAX_DIR_REPLY);
        XdrWriter list = new XdrWriter();
        int fixed = 4 + 4 + 84 + 8 + 4 + 4;
        int i = (int) cookie;
        for (; i < entries.size(); i++) {
            Map.Entry<String, Long> e = entries.get(i);
            XdrWriter one = new XdrWriter().bool(true).u64(e.getValue()).string(e.getKey()).u64(i + 1L);
            if (plus) {
                postOpAttr(one, tree.attr(e.getValue()));
                one.bool(true).opaque(NfsTree.handle(e.getValue()));
            }
            if (fixed + list.size() + one.size() > budget) break;
            list.raw(one.toByteArray());
        }
        if (list.size() == 0 && i < entries.size()) return postOpAttr(w.u32(NFS3ERR_TOOSMALL), d).toByteArray();
        postOpAttr(w.u32(NFS3_OK), d).fixed(new byte[8]).raw(list.toByteArray()).bool(false).bool(i == entries.size());
        return w.toByteArray();
    }

    // ---------------------------------------------------------------- XDR of RFC 1813 §2.5, §2.6

    /** A handle's fileid: -2 when it is no handle of this server's form (BADHANDLE), -1 when gone (STALE). */
    private long handle(XdrReader x) throws MalformedException {
        byte[] fh = x.opaque(FHSIZE, "nfs_fh3");
        long id = NfsTree.fileid(fh);
        if (fh.length != 8) return -2;
        return tree.attr(id) == null ? -1 : id;
    }

    /** fattr3: 84 octets. */
    static XdrWriter fattr3(XdrWriter w, NfsTree.Attr a) {
        long secs = a.mtimeNanos() / 1_000_000_000L, nsecs = a.mtimeNanos() % 1_000_000_000L;
        w.u32(a.dir() ? NF3DIR : NF3REG).u32(a.dir() ? 0755 : 0644).u32(a.nlink()).u32(0).u32(0)
                .u64(a.size()).u64(a.size()).u32(0).u32(0).u64(1).u64(a.fileid());
        for (int t = 0; t < 3; t++) w.u32(secs).u32(nsecs);
        return w;
    }

    static XdrWriter postOpAttr(XdrWriter w, NfsTree.Attr a) {
        return a == null ? w.bool(false) : fattr3(w.bool(true), a);
    }

    /** wcc_data: pre_op_attr (size, mtime, ctime), post_op_attr. */
    private static XdrWriter wcc(XdrWriter w, NfsTree.Attr before, NfsTree.Attr after) {
        long secs = before.mtimeNanos() / 1_000_000_000L, nsecs = before.mtimeNanos() % 1_000_000_000L;
        w.bool(true).u64(before.size()).u32(secs).u32(nsecs).u32(secs).u32(nsecs);
        return postOpAttr(w, after);
    }
}
