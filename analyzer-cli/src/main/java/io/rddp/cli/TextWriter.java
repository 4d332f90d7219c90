package io.rddp.cli;

import io.rddp.tcp.Endpoint;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the two text formats (one line per PDU, and the {@code -V} tree) share besides the PDU itself: the TCP event
 * lines, the {@code -x} hex dumps, the file headers of several files, and the UTF-8 writer they all go to.
 */
abstract class TextWriter implements PduWriter {
    protected final Writer out;

    TextWriter(OutputStream out) {
        this.out = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    }

    /** A TCP event (FIN, RST) as a line in the columns of the PDU lines. */
    @Override
    public void tcpEvent(long frame, long relativeNanos, Endpoint source, Endpoint destination, String event) {
        StringBuilder b = new StringBuilder(96);
        for (int i = Long.toString(frame).length(); i < 6; i++) b.append(' ');
        b.append(frame).append(' ');
        String t = Times.seconds(relativeNanos);
        for (int i = t.length(); i < 12; i++) b.append(' ');
        b.append(t).append(' ').append(source).append(" → ").append(destination).append(" TCP    ").append(event).append('\n');
        raw(b);
    }

    @Override
    public void hexDump(String title, ByteBuffer bytes) {
        StringBuilder b = new StringBuilder(bytes.remaining() * 5);
        HexDump.append(title, bytes, b);
        raw(b);
    }

    @Override
    public void file(String name) {
        raw("==> " + name + " <==\n");
    }

    /** Text as it is; output errors escape as {@link UncheckedIOException}. */
    protected final void raw(CharSequence text) {
        try {
            out.append(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.flush();
    }
}
