package io.rddp.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A plain file read through read-only memory-mapped windows. Only one window is mapped at a time, so files of any
 * size (beyond 2 GiB, beyond RAM) are read with bounded address space; the kernel pages data in and out. A window
 * is remapped to start at the record that does not fit, so every record is contiguous in one buffer and frames can
 * be handed out as views without copying.
 */
final class MappedByteSource implements ByteSource {
    static final long DEFAULT_WINDOW = 512L << 20;

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final FileChannel channel;
    private final long size;
    private final long window;
    private ByteBuffer map = EMPTY;
    private long base;
    private int mappings;

    MappedByteSource(FileChannel channel, long window) throws IOException {
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
        // The previous mapping is released by the GC once no frame view refers to it any more; unmapping it
        // eagerly would make a view that a caller kept (against the Frame contract) crash the JVM.
        map = channel.map(FileChannel.MapMode.READ_ONLY, offset, n);
        base = offset;
        mappings++;
        return (int) Math.min(length, n);
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
