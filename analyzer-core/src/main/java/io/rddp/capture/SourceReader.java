package io.rddp.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * What the pcap and pcapng readers share: the byte source with its current window, the failure that repeats once
 * the file turned bad, and progress. {@link #fill} makes bytes available; fields are read from {@link #buffer} at
 * file offset minus {@link #base}.
 */
abstract class SourceReader implements CaptureReader {
    private final boolean stable;
    protected final ByteSource source;
    protected final String name;
    private final String format;
    private final long size;
    private final CountingInputStream compressed;

    protected ByteBuffer buffer;
    protected long base;
    protected long end;
    protected long position;
    protected long count;
    protected CaptureException failure;

    /**
     * @param compressed the stream under the decompressor, or null when {@code source} reads the file itself
     * @param size       size of the file as stored (compressed for .gz), or -1
     */
    SourceReader(ByteSource source, String name, String format, long size, CountingInputStream compressed,
                 long position) {
        this.source = source;
        this.stable = source.stable();
        this.name = name;
        this.format = format;
        this.size = size;
        this.compressed = compressed;
        this.position = position;
    }

    /** Byte order of the fields at the current position, applied to every new window. */
    protected abstract ByteOrder order();

    /** Makes [offset, offset + length) available if the file has it; returns how many of those bytes it has. */
    protected final int fill(long offset, int length, long frame) throws CaptureException {
        int have;
        try {
            have = source.ensure(offset, length);
        } catch (IOException e) {
            CaptureException ce = fail("cannot read on: " + e.getMessage(), offset, frame);
            ce.initCause(e);
            throw ce;
        }
        buffer = source.buffer();
        buffer.order(order());
        base = source.base();
        end = base + buffer.limit();
        return have;
    }

    /** Records the failure so every later {@link #next} repeats it, and returns it to be thrown. */
    protected final CaptureException fail(String message, long offset, long frame) {
        failure = new CaptureException(name + ": " + message, offset, frame);
        return failure;
    }

    @Override
    public long bytesRead() {
        return compressed != null ? compressed.count() : position;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public String format() {
        return format;
    }

    @Override
    public void close() throws IOException {
        source.close();
    }

    @Override
    public boolean stableViews() {
        return stable;
    }

    @Override
    public boolean recycleWindows() {
        return source.recycle();
    }

    @Override
    public long window() {
        return source.window();
    }

    @Override
    public void release(long before) {
        source.release(before);
    }
}
