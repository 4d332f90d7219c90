package io.rddp.capture;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read through it: the compressed bytes under a GZIPInputStream, for progress reporting. */
final class CountingInputStream extends FilterInputStream {
    private long count;

    CountingInputStream(InputStream in) {
        super(in);
    }

    long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) count++;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) count += n;
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long s = in.skip(n);
        if (s > 0) count += s;
        return s;
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
