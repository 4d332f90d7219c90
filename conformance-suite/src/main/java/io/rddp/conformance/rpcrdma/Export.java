package io.rddp.conformance.rpcrdma;

import java.util.HexFormat;

/**
 * What the scenarios that need a file system use of the server's export (RFC 1813): the export's root file handle,
 * a writable regular file and a directory, both in the root. The tester assumes nothing else of the server's tree:
 * a READ reads back what a WRITE of the same scenario wrote, each scenario at its own offset of the file.
 *
 * @param rootFh the root file handle (an NFSv3 nfs_fh3), or null to discover it
 * @param file   a regular file the tester may overwrite ({@code --rpcrdma-file}, default "scratch")
 * @param dir    a directory whose READDIR reply exceeds 1024 octets ({@code --rpcrdma-dir}, default "many")
 * @param tried  without {@code rootFh}: the handle a GETATTR tries, taken when it is a directory (the reference
 *               responder's root, {@link #REFERENCE_ROOT})
 */
public record Export(byte[] rootFh, String file, String dir, byte[] tried) {

    /** The root file handle of {@code rddp peer --app rpcrdma}'s tree: fileid 1 in 8 octets. */
    public static final byte[] REFERENCE_ROOT = HexFormat.of().parseHex("0000000000000001");

    public Export {
        rootFh = rootFh == null ? null : rootFh.clone();
        tried = tried.clone();
    }

    /** The export's root given (or null: the reference responder's is tried), its file and directory named. */
    public Export(byte[] rootFh, String file, String dir) {
        this(rootFh, file, dir, REFERENCE_ROOT);
    }

    /** The reference responder's names, the root handle discovered. */
    public static Export defaults() {
        return new Export(null, "scratch", "many");
    }

    @Override
    public byte[] rootFh() {
        return rootFh == null ? null : rootFh.clone();
    }

    @Override
    public byte[] tried() {
        return tried.clone();
    }

    /** For the report's options: "root-fh 0000000000000001, file scratch, dir many". */
    public String describe() {
        return "root-fh " + (rootFh == null ? "discovered" : HexFormat.of().formatHex(rootFh)) + ", file " + file
                + ", dir " + dir;
    }
}
