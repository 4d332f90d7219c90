package io.rddp.capture;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** The buffered byte sink under both writers. */
final class OutputSink {
    private static final byte[] ZEROS = new byte[4];

    private final OutputStream out;
    private byte[] copy;

    OutputSink(OutputStream out) {
        this.out = new BufferedOutputStream(out, 1 << 16);
    }

    /** A new file, gzip-compressed when the name ends in ".gz". */
    static OutputStream create(Path path) throws IOException {
        OutputStream out = Files.newOutputStream(path);
        if (path.getFileName() != null && path.getFileName().toString().endsWith(".gz")) {
            try {
                return new GZIPOutputStream(out, 1 << 16);
            } catch (IOException e) {
                out.close();
                throw e;
            }
        }
        return out;
    }

    /** Writes what was put into the heap buffer {@code header}: index 0 up to its position. */
    void write(ByteBuffer header) throws IOException {
        out.write(header.array(), header.arrayOffset(), header.position());
    }

    /** Writes {@code data}'s remaining bytes without moving its position. */
    void writeData(ByteBuffer data) throws IOException {
        int n = data.remaining();
        if (data.hasArray()) {
            out.write(data.array(), data.arrayOffset() + data.position(), n);
            return;
        }
        if (copy == null) copy = new byte[8192];
        for (int done = 0; done < n; ) {
            int k = Math.min(copy.length, n - done);
            data.get(data.position() + done, copy, 0, k);
            out.write(copy, 0, k);
            done += k;
        }
    }

    void pad(int n) throws IOException {
        out.write(ZEROS, 0, n);
    }

    void flush() throws IOException {
        out.flush();
    }

    void close() throws IOException {
        out.close();
    }
}
