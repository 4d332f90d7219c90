package io.rddp.rnic.app.rpcrdma;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small in-memory file tree the reference NFSv3 server exports: a root directory with
 * <ul>
 *   <li>{@value #README}: a short text file (GETATTR, LOOKUP, an inline READ);</li>
 *   <li>{@value #BIG}: {@value #BIG_SIZE} octets of {@link #bigContent()}, larger than any inline threshold, so a
 *       READ of it needs a Write chunk (RFC 8267 §3.1: READ's data is DDP-eligible);</li>
 *   <li>{@value #SCRATCH}: empty, the target of WRITE (its data pulled through a Read chunk);</li>
 *   <li>{@value #MANY}/: a directory of {@value #MANY_ENTRIES} files, whose READDIR and READDIRPLUS replies exceed
 *       1024 octets and so need a Reply chunk (RFC 8166 §3.5.3).</li>
 * </ul>
 * A file handle is the 8-octet fileid. Files grow to at most {@link #MAX_FILE} octets. Thread-safe: one tree is
 * shared by every connection of a responder.
 */
public final class NfsTree {
    public static final String README = "README", BIG = "big.bin", SCRATCH = "scratch", MANY = "many";
    public static final int BIG_SIZE = 100_000, MANY_ENTRIES = 100;
    /** The largest a WRITE may make a file: every buffer is capped. */
    public static final int MAX_FILE = 1 << 20;
    public static final long ROOT = 1;
    static final byte[] README_TEXT = ("rddp reference RPC-over-RDMA responder (RFC 8166, RFC 8267, RFC 1813)\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** One file or directory; {@code data} is guarded by the tree. */
    static final class Node {
        final long fileid;
        final boolean dir;
        final long parent;
        final Map<String, Long> children = new LinkedHashMap<>();
        byte[] data = new byte[0];
        long mtimeNanos;

        Node(long fileid, boolean dir, long parent) {
            this.fileid = fileid;
            this.dir = dir;
            this.parent = parent;
            this.mtimeNanos = System.currentTimeMillis() * 1_000_000L;
        }
    }

    /** What a caller may see of a node at one moment. */
    public record Attr(long fileid, boolean dir, long size, long mtimeNanos, int nlink) {
    }

    private final Map<Long, Node> nodes = new LinkedHashMap<>();
    private long next = ROOT;

    public NfsTree() {
        Node root = add(true, ROOT, null);
        file(root, README, README_TEXT);
        file(root, BIG, bigContent());
        file(root, SCRATCH, new byte[0]);
        Node many = add(true, root.fileid, MANY);
        for (int i = 0; i < MANY_ENTRIES; i++) {
            file(many, String.format("entry-%03d", i), ("entry " + i + "\n").getBytes(
                    java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    /** The content of {@value #BIG}: octet i is a function of i only, so a reader can check every octet. */
    public static byte[] bigContent() {
        byte[] b = new byte[BIG_SIZE];
        for (int i = 0; i < b.length; i++) b[i] = (byte) (i * 31 + (i >>> 8));
        return b;
    }

    private Node add(boolean dir, long parent, String name) {
        Node n = new Node(next++, dir, parent);
        nodes.put(n.fileid, n);
        if (name != null) nodes.get(parent).children.put(name, n.fileid);
        return n;
    }

    private void file(Node dir, String name, byte[] data) {
        add(false, dir.fileid, name).data = data;
    }

    /** The fileid a handle names, or -1 when it names nothing here (NFS3ERR_BADHANDLE or NFS3ERR_STALE). */
    public static long fileid(byte[] handle) {
        return handle.length == 8 ? ByteBuffer.wrap(handle).getLong() : -1;
    }

    public static byte[] handle(long fileid) {
        return ByteBuffer.allocate(8).putLong(fileid).array();
    }

    public synchronized Attr attr(long fileid) {
        Node n = nodes.get(fileid);
        if (n == null) return null;
        return new Attr(n.fileid, n.dir, n.dir ? 4096 : n.data.length, n.mtimeNanos, n.dir ? 2 : 1);
    }

    /** The fileid of {@code name} in directory {@code dir}, or -1. */
    public synchronized long lookup(long dir, String name) {
        Node d = nodes.get(dir);
        if (d == null || !d.dir) return -1;
        if (name.equals(".")) return d.fileid;
        if (name.equals("..")) return d.parent;
        Long id = d.children.get(name);
        return id == null ? -1 : id;
    }

    /** Up to {@code count} octets from {@code offset}; empty past the end. */
    public synchronized byte[] read(long fileid, long offset, int count) {
        Node n = nodes.get(fileid);
        if (offset >= n.data.length) return new byte[0];
        int from = (int) offset;
        return Arrays.copyOfRange(n.data, from, (int) Math.min(n.data.length, (long) from + count));
    }

    /** Writes {@code data} at {@code offset} (the caller checked that it ends within {@link #MAX_FILE}). */
    public synchronized void write(long fileid, long offset, byte[] data) {
        Node n = nodes.get(fileid);
        int end = (int) (offset + data.length);
        if (end > n.data.length) n.data = Arrays.copyOf(n.data, end);
        System.arraycopy(data, 0, n.data, (int) offset, data.length);
        n.mtimeNanos = System.currentTimeMillis() * 1_000_000L;
    }

    /** A directory's entries in a stable order: (name, fileid). */
    public synchronized List<Map.Entry<String, Long>> entries(long dir) {
        return nodes.get(dir).children.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue())).toList();
    }
}
