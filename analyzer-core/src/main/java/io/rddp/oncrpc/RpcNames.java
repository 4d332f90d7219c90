package io.rddp.oncrpc;

import java.util.Map;

/** Names of the RPC programs, procedures and status values an RPC-over-RDMA capture usually holds. */
public final class RpcNames {
    private RpcNames() {
    }

    public static final long PORTMAP = 100000, NFS = 100003, MOUNT = 100005, NLM = 100021, NSM = 100024,
            NFS_ACL = 100227, NFS4_CALLBACK = 0x40000000L;

    private static final Map<Long, String> PROGRAMS = Map.of(PORTMAP, "portmap", NFS, "NFS", MOUNT, "MOUNT",
            NLM, "NLM", NSM, "NSM", NFS_ACL, "NFSACL", NFS4_CALLBACK, "NFSv4 callback");

    // RFC 1833 §3.2 (portmap v2) and §2.2 (rpcbind v3/v4)
    private static final String[] PORTMAP_V2 = {"NULL", "SET", "UNSET", "GETPORT", "DUMP", "CALLIT"};
    private static final String[] RPCBIND = {"NULL", "SET", "UNSET", "GETADDR", "DUMP", "CALLIT", "GETTIME",
            "UADDR2TADDR", "TADDR2UADDR", "GETVERSADDR", "INDIRECT", "GETADDRLIST", "GETSTAT"};
    // RFC 1813 §3.3
    private static final String[] NFS3 = {"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
            "WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR", "RENAME", "LINK", "READDIR",
            "READDIRPLUS", "FSSTAT", "FSINFO", "PATHCONF", "COMMIT"};
    // RFC 1094 §2.2
    private static final String[] NFS2 = {"NULL", "GETATTR", "SETATTR", "ROOT", "LOOKUP", "READLINK", "READ",
            "WRITECACHE", "WRITE", "CREATE", "REMOVE", "RENAME", "LINK", "SYMLINK", "MKDIR", "RMDIR", "READDIR",
            "STATFS"};
    // RFC 7530 §16 / RFC 8881 §16
    private static final String[] NFS4 = {"NULL", "COMPOUND"};
    private static final String[] CB = {"CB_NULL", "CB_COMPOUND"};
    // RFC 1813 Appendix I
    private static final String[] MOUNT3 = {"NULL", "MNT", "DUMP", "UMNT", "UMNTALL", "EXPORT"};
    // Open Group XNFS, NLM v4 (as RFC 1813 Appendix II lists it)
    private static final String[] NLM4 = {"NULL", "TEST", "LOCK", "CANCEL", "UNLOCK", "GRANTED", "TEST_MSG",
            "LOCK_MSG", "CANCEL_MSG", "UNLOCK_MSG", "GRANTED_MSG", "TEST_RES", "LOCK_RES", "CANCEL_RES",
            "UNLOCK_RES", "GRANTED_RES", null, null, null, null, "SHARE", "UNSHARE", "NM_LOCK", "FREE_ALL"};
    private static final String[] NSM1 = {"NULL", "STAT", "MON", "UNMON", "UNMON_ALL", "SIMU_CRASH", "NOTIFY"};
    private static final String[] NFSACL3 = {"NULL", "GETACL", "SETACL"};

    /** "NFS", or null when the program is not one of ours. */
    public static String program(long program) {
        return PROGRAMS.get(program);
    }

    /** The procedure's name, or null when unknown. */
    public static String procedure(long program, long version, long procedure) {
        String[] t = table(program, version);
        if (t == null || procedure < 0 || procedure >= t.length) return null;
        return t[(int) procedure];
    }

    private static String[] table(long program, long version) {
        if (program == PORTMAP) return version == 2 ? PORTMAP_V2 : RPCBIND;
        if (program == NFS) return version == 2 ? NFS2 : version == 3 ? NFS3 : version == 4 ? NFS4 : null;
        if (program == MOUNT) return MOUNT3;
        if (program == NLM) return NLM4;
        if (program == NSM) return NSM1;
        if (program == NFS_ACL) return NFSACL3;
        if (program == NFS4_CALLBACK) return CB;
        return null;
    }

    /** "NFSv3 GETATTR", "portmap v2 GETPORT", "program 400123 v1 proc 7". */
    public static String describe(long program, long version, long procedure) {
        String p = program(program);
        String proc = procedure(program, version, procedure);
        String prog = p == null ? "program " + program + " v" + version
                : program == NFS ? "NFSv" + version : p + " v" + version;
        return prog + " " + (proc == null ? "proc " + procedure : proc);
    }

    // RFC 5531 §8.2 and §9
    public static String authFlavor(long flavor) {
        return switch ((int) flavor) {
            case 0 -> "AUTH_NONE";
            case 1 -> "AUTH_SYS";
            case 2 -> "AUTH_SHORT";
            case 3 -> "AUTH_DH";
            case 6 -> "RPCSEC_GSS";
            default -> "flavor " + flavor;
        };
    }

    // RFC 5531 §9 accept_stat
    public static String acceptStat(long s) {
        return switch ((int) s) {
            case 0 -> "SUCCESS";
            case 1 -> "PROG_UNAVAIL";
            case 2 -> "PROG_MISMATCH";
            case 3 -> "PROC_UNAVAIL";
            case 4 -> "GARBAGE_ARGS";
            case 5 -> "SYSTEM_ERR";
            default -> "accept_stat " + s;
        };
    }

    // RFC 5531 §9 auth_stat
    public static String authStat(long s) {
        return switch ((int) s) {
            case 0 -> "AUTH_OK";
            case 1 -> "AUTH_BADCRED";
            case 2 -> "AUTH_REJECTEDCRED";
            case 3 -> "AUTH_BADVERF";
            case 4 -> "AUTH_REJECTEDVERF";
            case 5 -> "AUTH_TOOWEAK";
            case 6 -> "AUTH_INVALIDRESP";
            case 7 -> "AUTH_FAILED";
            case 13 -> "RPCSEC_GSS_CREDPROBLEM";
            case 14 -> "RPCSEC_GSS_CTXPROBLEM";
            default -> "auth_stat " + s;
        };
    }

    // RFC 1813 §2.6 nfsstat3; RFC 7530 §13.1 keeps these values for nfsstat4 and adds its own
    public static String nfsStatus(long s) {
        return switch ((int) s) {
            case 0 -> "OK";
            case 1 -> "PERM";
            case 2 -> "NOENT";
            case 5 -> "IO";
            case 6 -> "NXIO";
            case 13 -> "ACCES";
            case 17 -> "EXIST";
            case 18 -> "XDEV";
            case 19 -> "NODEV";
            case 20 -> "NOTDIR";
            case 21 -> "ISDIR";
            case 22 -> "INVAL";
            case 27 -> "FBIG";
            case 28 -> "NOSPC";
            case 30 -> "ROFS";
            case 31 -> "MLINK";
            case 63 -> "NAMETOOLONG";
            case 66 -> "NOTEMPTY";
            case 69 -> "DQUOT";
            case 70 -> "STALE";
            case 71 -> "REMOTE";
            case 10001 -> "BADHANDLE";
            case 10002 -> "NOT_SYNC";
            case 10003 -> "BAD_COOKIE";
            case 10004 -> "NOTSUPP";
            case 10005 -> "TOOSMALL";
            case 10006 -> "SERVERFAULT";
            case 10007 -> "BADTYPE";
            case 10008 -> "DELAY";
            case 10011 -> "EXPIRED";
            case 10013 -> "GRACE";
            case 10020 -> "NOFILEHANDLE";
            case 10022 -> "STALE_CLIENTID";
            case 10025 -> "BAD_STATEID";
            case 10026 -> "BAD_SEQID";
            case 10044 -> "OP_ILLEGAL";
            case 10052 -> "BADSESSION";
            case 10063 -> "SEQ_MISORDERED";
            default -> "status " + s;
        };
    }
}
