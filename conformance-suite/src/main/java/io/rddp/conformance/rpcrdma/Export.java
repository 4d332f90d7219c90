package io.rddp.conformance.rpcrdma;

import java.util.HexFormat;

/**
 * What the scenarios that need a file system use of the server's export (RFC 1813): the export's root file handle,
 * a writable regular file and a directory, both in the root. The tester assumes nothing else of the server's tree:
 * a READ reads back what a WRITE of the same scenario wrote, each scenario at its own offset of the file.
 *
 * @param rootFh the root file handle (an NFSv3 nfs_fh3), or null to discover the reference responder's
 * @param file   a regular file the tester may overwrite ({@code --rpcrdma-file}, default "scratch")
 * @param dir    a directory whose READDIR reply exceeds 1024 octets ({@code --rpcrdma-dir}, default "many")
 */
public record Export(byte[] rootFh, String file, String dir) {

    /** The root file handle of {@code rddp peer --app rpcrdma}'s tree: fileid 1 in 8 octets. */
    public static final byte[] REFERENCE_ROOT = HexFormat.of().parseHex("0000000000000001");

    public Export {
        rootFh = rootFh == null ? null : rootFh.clone();
    }

    /** The reference responder's names, the root handle discovered. */
    public static Export defaults() {
        return new Export(null, "scratch", "many");
    }

    @Override
    public byte[] rootFh() {
        return rootFh == null ? null : rootFh.clone();
    }

    /** For the report's options: "root-fh 0000000000000001, file scratch, dir many". */
    public String describe() {
        return "root-fh " + (rootFh == null ? "discovered" : HexFormat.of().formatHex(rootFh)) + ", file " + file
                + ", dir " + dir;
    }
}
