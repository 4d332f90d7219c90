package io.rddp.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A plain file read in windows: each window is one positional read into a fresh heap buffer, restarted at the record
 * that does not fit, so every record is contiguous in one buffer and frames are handed out as views without further
 * copying. Files of any size (beyond 2 GiB, beyond RAM) are read in bounded memory.
 * <p>
 * Heap windows rather than memory mapping: a mapped window is unmapped only when the GC collects it, and until then
 * its pages count in the resident set, which grew with the file (1.2 GiB resident for a 1 GiB capture under
 * {@code -Xmx256m}); a heap window is ordinary garbage as soon as no frame view refers to it, so memory stays flat.
 */
final class FileWindowSource implements ByteSource {
    /** Larger than any record a capture tool writes (snap lengths stop at 256 KiB), small against any heap. */
    static final long DEFAULT_WINDOW = 16L << 20;

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final FileChannel channel;
    private final long size;
    private final long window;
    private ByteBuffer map = EMPTY;
    private long base;
    private int mappings;

    FileWindowSource(FileChannel channel, long window) throws IOException {
        if (window < 1 || window > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("window must be 1.." + Integer.MAX_VALUE + ", was " + window);
        }
        this.channel = channel;
        this.size = channel.size();
        this.window = window;
    }

    @Override
    public int ensure(long offset, int length) throws IOException {
        long end = base + map.limit();
        if (offset >= base && offset + length <= end) {
            return length;
        }
        // Remapping cannot help once the window already reaches the end of the file.
        if (offset >= base && end == size) {
            return (int) Math.max(0, Math.min(length, size - offset));
        }
        long n = Math.min(window, size - offset);
        if (n <= 0) {
            map = EMPTY;
            base = size;
            return 0;
        }
        // A new array each time: a view a caller kept (against the Frame contract) still sees its bytes.
        byte[] bytes = new byte[(int) n];
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            if (channel.read(b, offset + b.position()) < 0) {
                throw new IOException("file shrank while being read: " + (offset + b.position()) + " of " + size);
            }
        }
        b.clear();
        map = b;
        base = offset;
        mappings++;
        return (int) Math.min(length, n);
    }

    /** Every window is a fresh array, so a view of an earlier one keeps its bytes. */
    @Override
    public boolean stable() {
        return true;
    }

    @Override
    public ByteBuffer buffer() {
        return map;
    }

    @Override
    public long base() {
        return base;
    }

    @Override
    public boolean atEof() {
        return base + map.limit() >= size;
    }

    @Override
    public long maxSpan() {
        return window;
    }

    long size() {
        return size;
    }

    /** How many windows were mapped so far. */
    int mappings() {
        return mappings;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
