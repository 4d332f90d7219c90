package io.rddp.oncrpc;

import io.rddp.MalformedException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Decodes as much of NFSv3 (RFC 1813) and NFSv4 (RFC 7530, RFC 8881) arguments and results as RPC-over-RDMA
 * analysis needs: COMPOUND operation names, the status, the sizes a reply may reach, and where the DDP-eligible
 * data items are (RFC 8267 §3: NFSv3 READ/WRITE/READLINK data; §4: NFSv4 READ/WRITE/READLINK). A COMPOUND is
 * walked operation by operation; the walk stops, counting the rest, at an operation whose arguments or results it
 * cannot size.
 */
final class Nfs {
    private Nfs() {
    }

    private static final int FH3 = 64, FH4 = 128, NAME = 4096, TAG = 1024, MAX_OPS = 1024;
    private static final int FATTR3 = 84; // RFC 1813 §2.6 fattr3: 13 fields, 84 octets
    private static final int STATEID = 16, VERIFIER = 8, SESSIONID = 16, CHANGE_INFO = 20;
    /** NFS4_OPAQUE_LIMIT (RFC 8881 §3.2): the longest open_owner4 owner and nfsace4 who. */
    private static final int NFS4_OPAQUE_LIMIT = 1024;

    // RFC 7530 §16.2 / RFC 8881 §18 / RFC 7862 §15 / RFC 8276 §8: nfs_opnum4
    private static final String[] OPS = {null, null, null, "ACCESS", "CLOSE", "COMMIT", "CREATE", "DELEGPURGE",
            "DELEGRETURN", "GETATTR", "GETFH", "LINK", "LOCK", "LOCKT", "LOCKU", "LOOKUP", "LOOKUPP", "NVERIFY",
            "OPEN", "OPENATTR", "OPEN_CONFIRM", "OPEN_DOWNGRADE", "PUTFH", "PUTPUBFH", "PUTROOTFH", "READ",
            "READDIR", "READLINK", "REMOVE", "RENAME", "RENEW", "RESTOREFH", "SAVEFH", "SECINFO", "SETATTR",
            "SETCLIENTID", "SETCLIENTID_CONFIRM", "VERIFY", "WRITE", "RELEASE_LOCKOWNER", "BACKCHANNEL_CTL",
            "BIND_CONN_TO_SESSION", "EXCHANGE_ID", "CREATE_SESSION", "DESTROY_SESSION", "FREE_STATEID",
            "GET_DIR_DELEGATION", "GETDEVICEINFO", "GETDEVICELIST", "LAYOUTCOMMIT", "LAYOUTGET", "LAYOUTRETURN",
            "SECINFO_NO_NAME", "SEQUENCE", "SET_SSV", "TEST_STATEID", "WANT_DELEGATION", "DESTROY_CLIENTID",
            "RECLAIM_COMPLETE", "ALLOCATE", "COPY", "COPY_NOTIFY", "DEALLOCATE", "IO_ADVISE", "LAYOUTERROR",
            "LAYOUTSTATS", "OFFLOAD_CANCEL", "OFFLOAD_STATUS", "READ_PLUS", "SEEK", "WRITE_SAME", "CLONE",
            "GETXATTR", "SETXATTR", "LISTXATTRS", "REMOVEXATTR"};

    static String opName(long op) {
        if (op == 10044) return "ILLEGAL";
        return op >= 0 && op < OPS.length && OPS[(int) op] != null ? OPS[(int) op] : "op " + op;
    }

    static UlpInfo call(XdrReader x, long prog, long vers, long proc) throws MalformedException {
        if (prog != RpcNames.NFS) return null;
        if (vers == 3) return call3(x, proc);
        if (vers == 4 && proc == 1) return compoundCall(x);
        return null;
    }

    static UlpInfo reply(XdrReader x, long prog, long vers, long proc, LongSupplier chunks)
            throws MalformedException {
        if (prog != RpcNames.NFS) return null;
        if (vers == 3 && proc != 0) return reply3(x, proc, chunks);
        if (vers == 4 && proc == 1) return compoundReply(x, chunks);
        return null;
    }

    private static UlpInfo call3(XdrReader x, long proc) throws MalformedException {
        long max = -1, dataOffset = -1, dataLength = -1;
        String problem = null;
        try {
            switch ((int) proc) {
                case 6 -> { // READ3args: file, offset, count
                    x.skipOpaque(FH3, "nfs_fh3");
                    x.u64();
                    max = x.u32();
                }
                case 7 -> { // WRITE3args: file, offset, count, stable, data (DDP-eligible, RFC 8267 §3.1)
                    x.skipOpaque(FH3, "nfs_fh3");
                    x.u64();
                    x.u32();
                    x.u32();
                    dataLength = x.u32();
                    dataOffset = x.position();
                    x.skip(XdrReader.padded(dataLength));
                }
                case 16 -> { // READDIR3args: dir, cookie, cookieverf, count
                    x.skipOpaque(FH3, "nfs_fh3");
                    x.skip(8 + VERIFIER);
                    max = x.u32();
                }
                case 17 -> { // READDIRPLUS3args: dir, cookie, cookieverf, dircount, maxcount
                    x.skipOpaque(FH3, "nfs_fh3");
                    x.skip(8 + VERIFIER + 4);
                    max = x.u32();
                }
                default -> {
                }
            }
        } catch (MalformedException e) {
            problem = e.getMessage();
        }
        return new UlpInfo(List.of(), 0, -1, max, dataOffset, dataLength, -1, problem);
    }

    private static UlpInfo reply3(XdrReader x, long proc, LongSupplier chunks) throws MalformedException {
        long status = x.u32();
        long[] data = null;
        String problem = null;
        try {
            if (status == 0 && proc == 6) { // READ3resok: file_attributes, count, eof, data
                postOpAttr(x);
                x.u32();
                x.bool();
                data = eligible(x, chunks);
            } else if (status == 0 && proc == 5) { // READLINK3resok: symlink_attributes, data
                postOpAttr(x);
                data = eligible(x, chunks);
            }
        } catch (MalformedException e) {
            problem = e.getMessage();
        }
        return new UlpInfo(List.of(), 0, status, -1, data == null ? -1 : data[0], data == null ? -1 : data[1],
                data == null ? -1 : data[2], problem);
    }

    private static void postOpAttr(XdrReader x) throws MalformedException {
        if (x.bool()) x.skip(FATTR3);
    }

    /**
     * A DDP-eligible opaque result: the length word stays inline (RFC 8166 §3.4.4.1); the octets are inline, or in
     * the next Write chunk the Requester provided. Returns {offset, length, chunk length or -1}.
     */
    private static long[] eligible(XdrReader x, LongSupplier chunks) throws MalformedException {
        long length = x.u32();
        long offset = x.position();
        long chunk = chunks.getAsLong();
        if (chunk >= 0) return new long[]{offset, length, chunk};
        if (XdrReader.padded(length) > x.remaining()) {
            throw new MalformedException("data length " + length + " but only " + x.remaining() + " octets follow",
                    offset - 4);
        }
        x.skip(XdrReader.padded(length));
        return new long[]{offset, length, -1};
    }

    private static UlpInfo compoundCall(XdrReader x) throws MalformedException {
        x.skipOpaque(TAG, "COMPOUND tag");
        x.u32(); // minorversion
        long count = count(x, MAX_OPS, 4, "COMPOUND operations");
        List<String> ops = new ArrayList<>();
        long max = -1, dataOffset = -1, dataLength = -1;
        String problem = null;
        for (long i = 0; i < count; i++) {
            long op = x.u32();
            ops.add(opName(op));
            try {
                switch ((int) op) {
                    case 3, 52 -> x.u32(); // ACCESS, SECINFO_NO_NAME
                    case 4 -> x.skip(4 + STATEID); // CLOSE: seqid, stateid
                    case 5 -> x.skip(8 + 4); // COMMIT: offset, count
                    case 8, 45 -> x.skip(STATEID); // DELEGRETURN, FREE_STATEID
                    case 9 -> bitmap(x); // GETATTR
                    case 10, 16, 23, 24, 27, 31, 32 -> {
                        // GETFH, LOOKUPP, PUTPUBFH, PUTROOTFH, READLINK, RESTOREFH, SAVEFH: no arguments
                    }
                    case 11, 15, 28, 33, 72, 75 -> x.skipOpaque(NAME, "component4"); // LINK LOOKUP REMOVE SECINFO GETXATTR REMOVEXATTR
                    case 14 -> x.skip(4 + 4 + STATEID + 8 + 8); // LOCKU
                    case 17, 37 -> fattr4(x); // NVERIFY, VERIFY
                    case 18 -> openArgs(x); // OPEN
                    case 19 -> x.bool(); // OPENATTR
                    case 21 -> x.skip(STATEID + 4 + 4 + 4); // OPEN_DOWNGRADE
                    case 22 -> x.skipOpaque(FH4, "nfs_fh4"); // PUTFH
                    case 25 -> { // READ: stateid, offset, count
                        x.skip(STATEID + 8);
                        max = Math.max(max, x.u32());
                    }
                    case 26 -> { // READDIR: cookie, cookieverf, dircount, maxcount, attr_request
                        x.skip(8 + VERIFIER + 4);
                        max = Math.max(max, x.u32());
                        bitmap(x);
                    }
                    case 29 -> { // RENAME: oldname, newname
                        x.skipOpaque(NAME, "component4");
                        x.skipOpaque(NAME, "component4");
                    }
                    case 30, 57 -> x.u64(); // RENEW, DESTROY_CLIENTID
                    case 34 -> { // SETATTR: stateid, obj_attributes
                        x.skip(STATEID);
                        fattr4(x);
                    }
                    case 38 -> { // WRITE: stateid, offset, stable, data (DDP-eligible, RFC 8267 §4.1)
                        x.skip(STATEID + 8 + 4);
                        dataLength = x.u32();
                        dataOffset = x.position();
                        x.skip(XdrReader.padded(dataLength));
                    }
                    case 44 -> x.skip(SESSIONID); // DESTROY_SESSION
                    case 53 -> { // SEQUENCE: sessionid, sequenceid, slotid, highest_slotid, cachethis
                        x.skip(SESSIONID + 12);
                        x.bool();
                    }
                    case 55 -> x.skip(STATEID * count(x, 1 << 16, STATEID, "stateids")); // TEST_STATEID
                    case 58 -> x.bool(); // RECLAIM_COMPLETE
                    case 59, 62 -> x.skip(STATEID + 8 + 8); // ALLOCATE, DEALLOCATE
                    case 69 -> x.skip(STATEID + 8 + 4); // SEEK
                    case 74 -> x.skip(8 + 4); // LISTXATTRS
                    default -> {
                        return new UlpInfo(ops, (int) (count - i - 1), -1, max, dataOffset, dataLength, -1,
                                i + 1 < count ? "arguments of " + opName(op) + " not decoded" : null);
                    }
                }
            } catch (MalformedException e) {
                problem = e.getMessage();
                return new UlpInfo(ops, (int) (count - i - 1), -1, max, dataOffset, dataLength, -1, problem);
            }
        }
        return new UlpInfo(ops, 0, -1, max, dataOffset, dataLength, -1, null);
    }

    private static UlpInfo compoundReply(XdrReader x, LongSupplier chunks) throws MalformedException {
        long status = x.u32();
        x.skipOpaque(TAG, "COMPOUND tag");
        long count = count(x, MAX_OPS, 8, "COMPOUND results");
        List<String> ops = new ArrayList<>();
        long[] data = null;
        for (long i = 0; i < count; i++) {
            long op = x.u32();
            long st = x.u32();
            ops.add(opName(op) + " " + RpcNames.nfsStatus(st));
            try {
                if (op == 34) bitmap(x); // SETATTR4res carries attrsset whatever the status
                if (st != 0) continue; // a failed operation ends the COMPOUND (RFC 7530 §15.2)
                switch ((int) op) {
                    case 3 -> x.skip(8); // ACCESS: supported, access
                    case 4, 14, 21 -> x.skip(STATEID); // CLOSE, LOCKU, OPEN_DOWNGRADE
                    case 5 -> x.skip(VERIFIER); // COMMIT
                    case 8, 15, 16, 17, 22, 23, 24, 30, 31, 32, 34, 37, 44, 45, 57, 58, 59, 62 -> {
                        // no result beyond the status
                    }
                    case 9 -> fattr4(x); // GETATTR
                    case 10 -> x.skipOpaque(FH4, "nfs_fh4"); // GETFH
                    case 18 -> openResult(x); // OPEN
                    case 11, 28 -> x.skip(CHANGE_INFO); // LINK, REMOVE
                    case 25 -> { // READ: eof, data (DDP-eligible)
                        x.bool();
                        data = eligible(x, chunks);
                    }
                    case 26 -> readdir(x); // READDIR
                    case 27 -> data = eligible(x, chunks); // READLINK
                    case 29 -> x.skip(2 * CHANGE_INFO); // RENAME
                    case 38 -> x.skip(4 + 4 + VERIFIER); // WRITE: count, committed, writeverf
                    case 53 -> x.skip(SESSIONID + 20); // SEQUENCE
                    case 55 -> x.skip(4 * count(x, 1 << 16, 4, "status codes")); // TEST_STATEID
                    case 69 -> { // SEEK: eof, offset
                        x.bool();
                        x.u64();
                    }
                    case 72 -> x.skipOpaque(1 << 16, "xattr value"); // GETXATTR
                    default -> {
                        return new UlpInfo(ops, (int) (count - i - 1), status, -1, data == null ? -1 : data[0],
                                data == null ? -1 : data[1], data == null ? -1 : data[2],
                                i + 1 < count ? "results of " + opName(op) + " not decoded" : null);
                    }
                }
            } catch (MalformedException e) {
                return new UlpInfo(ops, (int) (count - i - 1), status, -1, data == null ? -1 : data[0],
                        data == null ? -1 : data[1], data == null ? -1 : data[2], e.getMessage());
            }
        }
        return new UlpInfo(ops, 0, status, -1, data == null ? -1 : data[0], data == null ? -1 : data[1],
                data == null ? -1 : data[2], null);
    }

    /** A count of items of at least {@code minSize} octets each, checked against what is left. */
    private static long count(XdrReader x, long max, long minSize, String what) throws MalformedException {
        long at = x.position();
        long n = x.u32();
        if (n > max || n * minSize > x.remaining()) {
            throw new MalformedException(what + ": count " + n + " does not fit the " + x.remaining()
                    + " octets left", at);
        }
        return n;
    }

    private static void bitmap(XdrReader x) throws MalformedException {
        x.skip(4 * count(x, 64, 4, "bitmap4"));
    }

    private static void fattr4(XdrReader x) throws MalformedException {
        bitmap(x);
        x.skipOpaque(1 << 20, "attrlist4");
    }

    /**
     * OPEN4args (RFC 8881 §18.16.1): seqid, share_access, share_deny, open_owner4 {clientid, owner}, openflag4
     * (OPEN4_CREATE: createhow4 by its mode), open_claim4 (by its claim type).
     */
    private static void openArgs(XdrReader x) throws MalformedException {
        x.skip(4 + 4 + 4 + 8);
        x.skipOpaque(NFS4_OPAQUE_LIMIT, "open_owner4 owner");
        long opentype = x.u32();
        if (opentype == 1) { // OPEN4_CREATE
            long mode = x.u32();
            switch ((int) mode) {
                case 0, 1 -> fattr4(x); // UNCHECKED4, GUARDED4: createattrs
                case 2 -> x.skip(VERIFIER); // EXCLUSIVE4: createverf
                case 3 -> { // EXCLUSIVE4_1: creatverfattr {cva_verf, cva_attrs}
                    x.skip(VERIFIER);
                    fattr4(x);
                }
                default -> throw new MalformedException("createmode4 " + mode + " is not defined", x.position() - 4);
            }
        } else if (opentype != 0) {
            throw new MalformedException("opentype4 " + opentype + " is not defined", x.position() - 4);
        }
        long claim = x.u32();
        switch ((int) claim) {
            case 0, 3 -> x.skipOpaque(NAME, "component4"); // CLAIM_NULL file, CLAIM_DELEGATE_PREV file
            case 1 -> x.u32(); // CLAIM_PREVIOUS: delegate_type
            case 2 -> { // CLAIM_DELEGATE_CUR: delegate_stateid, file
                x.skip(STATEID);
                x.skipOpaque(NAME, "component4");
            }
            case 4, 5 -> { // CLAIM_FH, CLAIM_DELEG_PREV_FH: the current filehandle
            }
            case 6 -> x.skip(STATEID); // CLAIM_DELEG_CUR_FH: oc_delegate_stateid
            default -> throw new MalformedException("open_claim_type4 " + claim + " is not defined", x.position() - 4);
        }
    }

    /**
     * OPEN4resok (RFC 8881 §18.16.2): stateid, cinfo, rflags, attrset, open_delegation4 (RFC 8881 §18.16.1: read
     * and write delegations with their nfsace4, OPEN_DELEGATE_NONE_EXT with its why_no_delegation4).
     */
    private static void openResult(XdrReader x) throws MalformedException {
        x.skip(STATEID + CHANGE_INFO + 4);
        bitmap(x);
        long type = x.u32();
        switch ((int) type) {
            case 0 -> { // OPEN_DELEGATE_NONE
            }
            case 1, 2 -> { // OPEN_DELEGATE_READ, OPEN_DELEGATE_WRITE: stateid, recall, (space_limit,) permissions
                x.skip(STATEID);
                x.bool();
                if (type == 2) {
                    long limitby = x.u32();
                    if (limitby == 1) x.u64(); // NFS_LIMIT_SIZE: filesize
                    else if (limitby == 2) x.skip(8); // NFS_LIMIT_BLOCKS: num_blocks, bytes_per_block
                    else throw new MalformedException("limit_by4 " + limitby + " is not defined", x.position() - 4);
                }
                x.skip(4 + 4 + 4); // nfsace4: type, flag, access_mask
                x.skipOpaque(NFS4_OPAQUE_LIMIT, "nfsace4 who");
            }
            case 3 -> { // OPEN_DELEGATE_NONE_EXT: ond_why, and for WND4_CONTENTION / WND4_RESOURCE a bool
                long why = x.u32();
                if (why == 5 || why == 6) x.bool();
            }
            default -> throw new MalformedException("open_delegation_type4 " + type + " is not defined",
                    x.position() - 4);
        }
    }

    /** READDIR4resok: cookieverf, dirlist4 (entry4 list, eof). */
    private static void readdir(XdrReader x) throws MalformedException {
        x.skip(VERIFIER);
        while (x.bool()) {
            x.u64();
            x.skipOpaque(NAME, "component4");
            fattr4(x);
        }
        x.bool();
    }
}
