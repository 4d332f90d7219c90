package io.rddp.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A plain file read in windows: each window is one positional read into a fresh heap buffer, restarted at the record
 * that does not fit, so every record is contiguous in one buffer and frames are handed out as views without further
 * copying. Files of any size (beyond 2 GiB, beyond RAM) are read in bounded memory.
 * <p>
 * Heap windows rather than memory mapping: a mapped window is unmapped only when the GC collects it, and until then
 * its pages count in the resident set, which grew with the file (1.2 GiB resident for a 1 GiB capture under
 * {@code -Xmx256m}); a heap window is ordinary garbage as soon as no frame view refers to it, so memory stays flat.
 * <p>
 * A fresh 16 MiB heap window is slow to fill: the JVM zeroes the new array, and the record headers read from it
 * later have left the CPU's caches. A caller that says when it no longer uses views of a window ({@link #recycle},
 * {@link #release}) gets heap windows of 1 MiB from a pool instead, reused and never zeroed again: reading a busy
 * 2 GB capture's frames took 0.20 s instead of 0.66 s. When the caller holds more windows than the pool has, the
 * next window is a fresh one again, so views stay valid whatever the caller does until it releases them.
 * <p>
 * Pooled windows are heap arrays, not direct buffers, although a read into a direct one saves a copy (0.16 s
 * instead of 0.20 s for those frames): every view the decoders take of a direct window, and every read of it, goes
 * through the JVM's memory-access checks, which cost most before the JIT has compiled them. A fresh analysis of
 * that capture took 2.0-2.6 s with heap windows against 2.3-3.0 s with direct ones, and 15 % less CPU.
 */
final class FileWindowSource implements ByteSource {
    /** Larger than any record a capture tool writes (snap lengths stop at 256 KiB), small against any heap. */
    static final long DEFAULT_WINDOW = 16L << 20;
    /**
     * Bytes of pooled windows at most (but two windows at least), for a caller that releases them: one thread holds
     * two windows, two threads a dozen (more while the second thread's code is still being compiled).
     */
    static final long POOL_BYTES = 32L << 20;
    /** Size of a pooled window (of recycled windows), at most. */
    static final int POOLED_WINDOW = 1 << 20;
    /**
     * Heap all pools of the JVM take at most, a quarter of the heap (64 MiB of the launchers' 256 MiB) and never
     * more than 128 MiB: several captures may be read at once (analyze --jobs).
     */
    static final long JVM_POOL_BYTES = Math.min(128L << 20, Runtime.getRuntime().maxMemory() / 4);
    private static final AtomicLong POOLED_IN_JVM = new AtomicLong();

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final FileChannel channel;
    private final long size;
    private final long window;
    private ByteBuffer map = EMPTY;
    private long base;
    private int mappings;

    // recycling: the windows handed out, by number, the pooled buffers free for reuse, and the caller's promise
    private boolean recycle;
    private long number = -1;                       // number of the current window, counted from 0
    private long released;                          // windows numbered below this are no longer used by the caller
    private final ArrayDeque<Window> inUse = new ArrayDeque<>();
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private int pooled;                             // pooled buffers allocated
    private boolean poolFull;                       // the JVM-wide cap was reached
    private final long poolBytes;
    private final int pooledWindow;

    private record Window(long number, ByteBuffer buffer) {
    }

    FileWindowSource(FileChannel channel, long window) throws IOException {
        this(channel, window, POOL_BYTES, POOLED_WINDOW);
    }

    FileWindowSource(FileChannel channel, long window, long poolBytes, int pooledWindow) throws IOException {
        if (window < 1 || window > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("window must be 1.." + Integer.MAX_VALUE + ", was " + window);
        }
        this.poolBytes = poolBytes;
        this.pooledWindow = (int) Math.min(window, pooledWindow);
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
        number++;
        // A new array each time unless the caller recycles: a view it kept still sees its bytes. Pooled windows are
        // small, so that the bytes just read are still in the CPU's caches when the frames are parsed (a record
        // header read from a 16 MiB window missed them: two thirds of reading a busy capture). A record larger than
        // a pooled window gets a fresh window of its own.
        ByteBuffer b = null;
        if (recycle && length <= pooledWindow) {
            n = Math.min(pooledWindow, size - offset);
            b = pooled((int) n);
        }
        if (b == null) b = ByteBuffer.allocate((int) n);
        while (b.hasRemaining()) {
            if (channel.read(b, offset + b.position()) < 0) {
                throw new IOException("file shrank while being read: " + (offset + b.position()) + " of " + size);
            }
        }
        b.flip(); // limit n: a pooled buffer may be larger than the last window
        map = b;
        base = offset;
        mappings++;
        return (int) Math.min(length, n);
    }

    /** Every window is a fresh array, or a pooled one the caller released: a view it still uses keeps its bytes. */
    @Override
    public boolean stable() {
        return true;
    }

    /** From now on windows may come from the pool; the caller must {@link #release} the windows it is done with. */
    @Override
    public boolean recycle() {
        recycle = true;
        return true;
    }

    @Override
    public long window() {
        return number;
    }

    @Override
    public void release(long before) {
        if (before > released) released = before;
    }

    // a pooled buffer of n bytes, or null when every pooled one is still in use and the pool is full
    private ByteBuffer pooled(int n) {
        while (!inUse.isEmpty() && inUse.peekFirst().number() < released) free.add(inUse.pollFirst().buffer());
        ByteBuffer b = free.poll();
        if (b == null) {
            if (poolFull || (long) (pooled + 1) * pooledWindow > Math.max(poolBytes, 2L * pooledWindow)) return null;
            if (POOLED_IN_JVM.addAndGet(pooledWindow) > JVM_POOL_BYTES) {
                // this window and the next are fresh ones, as without recycling: the pool grows no more
                POOLED_IN_JVM.addAndGet(-pooledWindow);
                poolFull = true;
                return null;
            }
            b = ByteBuffer.allocate(pooledWindow);
            pooled++;
        }
        inUse.add(new Window(number, b));
        return b.clear().limit(n);
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

    /** Buffers allocated for recycled windows so far. */
    int pooledBuffers() {
        return pooled;
    }

    /** How many windows were mapped so far. */
    int mappings() {
        return mappings;
    }

    @Override
    public void close() throws IOException {
        POOLED_IN_JVM.addAndGet(-(long) pooled * pooledWindow); // the buffers go with this source
        pooled = 0;
        free.clear();
        inUse.clear();
        channel.close();
    }
}
