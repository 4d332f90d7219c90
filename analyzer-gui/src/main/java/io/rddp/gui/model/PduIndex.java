package io.rddp.gui.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The packet list as Wireshark's packet list model keeps it: an index, not a row object per PDU. Per PDU a few
 * numbers in primitive arrays (frame, time, stream, flags, length and where its decoded fields lie in the
 * {@link DetailStore}): 32 bytes on the heap. Rows are addressed by a global number that only grows; in a ring of
 * {@code maxRows} the oldest chunks are dropped ({@link #first()} moves on).
 * <p>
 * One thread appends; others read rows below a size it published (the arrays of a chunk never move).
 */
public final class PduIndex {
    static final int CHUNK_BITS = 14;
    static final int CHUNK = 1 << CHUNK_BITS;

    /** Flag bits. */
    public static final int FLAG_SERVER_TO_CLIENT = 1;
    public static final int FLAG_VIOLATION = 1 << 1;
    public static final int FLAG_ERROR = 1 << 2;
    /** Protocol code in bits 4-7: see {@link #protocolCode}. */
    static final int PROTOCOL_SHIFT = 4;
    /** RDMAP opcode + 1 in bits 8-12 (0: none). */
    static final int OPCODE_SHIFT = 8;

    private static final class Chunk {
        final int[] frame = new int[CHUNK];
        final long[] time = new long[CHUNK];
        final int[] stream = new int[CHUNK];
        final int[] flags = new int[CHUNK];
        final int[] length = new int[CHUNK];
        final long[] detail = new long[CHUNK];
    }

    private final long maxRows;
    private final List<Chunk> chunks = new ArrayList<>();
    /** Global number of the first row in chunks.get(0). */
    private volatile long base;
    private volatile long size;

    /**
     * @param maxRows at most this many rows are kept (at least one chunk of 16384); when a new chunk would exceed it,
     *                the oldest chunk is dropped whole
     */
    public PduIndex(long maxRows) {
        this.maxRows = Math.max(CHUNK, maxRows);
    }

    /** Appends a row; returns its global number. */
    public synchronized long add(long frame, long relativeNanos, int stream, int flags, int length, long detail) {
        long n = size;
        int i = (int) ((n - base) & (CHUNK - 1));
        if (i == 0 && n - base == (long) chunks.size() * CHUNK) {
            if ((long) chunks.size() * CHUNK >= maxRows) {
                chunks.remove(0);
                base += CHUNK;
            }
            chunks.add(new Chunk());
        }
        Chunk c = chunks.get((int) ((n - base) >>> CHUNK_BITS));
        c.frame[i] = (int) Math.min(frame, Integer.MAX_VALUE);
        c.time[i] = relativeNanos;
        c.stream[i] = stream;
        c.flags[i] = flags;
        c.length[i] = length;
        c.detail[i] = detail;
        size = n + 1;
        return n;
    }

    /** Global number of the oldest row kept. */
    public long first() {
        return base;
    }

    /** One past the newest row. */
    public long size() {
        return size;
    }

    private synchronized Chunk chunk(long row) {
        if (row < base || row >= size) throw new IndexOutOfBoundsException("row " + row + " not in [" + base + ", " + size + ")");
        return chunks.get((int) ((row - base) >>> CHUNK_BITS));
    }

    private static int slot(long row, long base) {
        return (int) ((row - base) & (CHUNK - 1));
    }

    public long frame(long row) {
        return chunk(row).frame[slot(row, base)];
    }

    public long time(long row) {
        return chunk(row).time[slot(row, base)];
    }

    public int stream(long row) {
        return chunk(row).stream[slot(row, base)];
    }

    public int flags(long row) {
        return chunk(row).flags[slot(row, base)];
    }

    public int length(long row) {
        return chunk(row).length[slot(row, base)];
    }

    public long detail(long row) {
        return chunk(row).detail[slot(row, base)];
    }

    /** Sets flag bits of a row still kept (a violation found after its PDU was indexed). */
    public synchronized void mark(long row, int bits) {
        if (row < base || row >= size) return;
        chunks.get((int) ((row - base) >>> CHUNK_BITS)).flags[slot(row, base)] |= bits;
    }

    /** Protocol column codes (bits 4-7 of the flags). */
    public static final String[] PROTOCOLS = {"MPA", "DDP", "RDMAP", "RPCoRDMA", "RPC", "NFS"};

    public static int protocolCode(String protocol) {
        for (int i = 0; i < PROTOCOLS.length; i++) {
            if (PROTOCOLS[i].equals(protocol)) return i;
        }
        return 0;
    }

    public static String protocol(int flags) {
        return PROTOCOLS[(flags >>> PROTOCOL_SHIFT) & 0xF];
    }

    /** The RDMAP opcode of the row, or -1. */
    public static int opcode(int flags) {
        return ((flags >>> OPCODE_SHIFT) & 0x1F) - 1;
    }

    public static int flags(boolean serverToClient, String protocol, int opcode) {
        return (serverToClient ? FLAG_SERVER_TO_CLIENT : 0) | protocolCode(protocol) << PROTOCOL_SHIFT
                | (opcode + 1) << OPCODE_SHIFT;
    }
}
