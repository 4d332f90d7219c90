package io.rddp.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where a command writes its output: a file, or standard output, which closing must leave open. */
final class Outputs {
    private Outputs() {
    }

    static OutputStream open(Path output) throws IOException {
        if (output != null) return new BufferedOutputStream(Files.newOutputStream(output), 1 << 16);
        // FileDescriptor.out directly (no PrintStream locking); close() only flushes, so fd 1 stays usable
        return new FilterOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16)) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }
}
