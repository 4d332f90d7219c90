package io.rddp.capture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A capture read from a stream (stdin, a gzip decompressor) into one reusable array. The array holds the current
 * record contiguously; it grows only as far as bytes really arrive, so a lying length field cannot size it.
 */
final class StreamByteSource implements ByteSource {
    static final int DEFAULT_BUFFER = 1 << 18;

    private final InputStream in;
    private final long maxSpan;
    private final int readAhead;
    private byte[] array;
    private ByteBuffer buffer;
    private long base;
    private int filled;
    private boolean eof;

    /**
     * @param readAhead how many bytes beyond the record in hand one read may ask for. A decompressor loses what it
     *                  inflated in a read that fails on corrupt data, so for gzip this bounds the frames before the
     *                  damage that cannot be returned; reading exactly what each record needs is 2 to 6 times
     *                  slower (measured), a few KiB of read-ahead is nearly as fast as reading greedily.
     */
    StreamByteSource(InputStream in, int initialBuffer, long maxSpan, int readAhead) {
        this.in = in;
        this.maxSpan = maxSpan;
        this.readAhead = readAhead;
        this.array = new byte[Math.max(16, initialBuffer)];
        this.buffer = ByteBuffer.wrap(array);
        buffer.limit(0);
    }

    @Override
    public int ensure(long offset, int length) throws IOException {
        if (offset < base || offset > base + filled) {
            throw new IllegalStateException("offset " + offset + " outside " + base + ".." + (base + filled));
        }
        int start = (int) (offset - base);
        if (filled - start >= length) {
            return length;
        }
        if (eof) {
            return filled - start;
        }
        if (start > 0) {
            System.arraycopy(array, start, array, 0, filled - start);
            filled -= start;
            base = offset;
        }
        long want = Math.min(length, maxSpan);
        while (filled < want) {
            if (filled == array.length) {
                grow((int) Math.min(want, Math.max(2L * array.length, 1)));
            }
            int n = in.read(array, filled, (int) Math.min(array.length, want + readAhead) - filled);
            if (n < 0) {
                eof = true;
                break;
            }
            filled += n;
        }
        buffer.limit(filled);
        return Math.min(length, filled);
    }

    private void grow(int capacity) {
        byte[] bigger = new byte[capacity];
        System.arraycopy(array, 0, bigger, 0, filled);
        array = bigger;
        buffer = ByteBuffer.wrap(array).order(buffer.order());
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public long base() {
        return base;
    }

    @Override
    public boolean atEof() {
        return eof;
    }

    @Override
    public long maxSpan() {
        return maxSpan;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
