package io.rddp.cli;

import io.rddp.decode.Pdu;
import io.rddp.decode.PduSummary;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;

import io.rddp.tcp.Endpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/** One tshark-like line per PDU: frame, relative time, source → destination, protocol, info. */
final class LineWriter implements PduWriter {
    private final Writer out;
    private final StringBuilder line = new StringBuilder(160);

    LineWriter(OutputStream out) {
        this.out = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    }

    @Override
    public void write(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
        line.setLength(0);
        pad(line, Long.toString(pdu.frame()), 6);
        line.append(' ');
        pad(line, Times.seconds(pdu.relativeNanos()), 12);
        line.append(' ').append(pdu.source()).append(" → ").append(pdu.destination()).append(' ');
        String proto = RpcRdmaFields.protocol(message);
        if (proto == null) proto = PduSummary.protocol(pdu);
        line.append(proto);
        for (int i = proto.length(); i < 6; i++) line.append(' ');
        line.append(' ');
        PduSummary.info(pdu, line);
        RpcRdmaFields.info(message, move, line);
        line.append('\n');
        try {
            out.append(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void pad(StringBuilder sb, String s, int width) {
        for (int i = s.length(); i < width; i++) sb.append(' ');
        sb.append(s);
    }

    @Override
    public void tcpEvent(long frame, long relativeNanos, Endpoint source, Endpoint destination, String event) {
        raw(tcpEventLine(frame, relativeNanos, source, destination, event));
    }

    /** A TCP event (FIN, RST) as a line in the columns of the PDU lines; the tree prints the same line. */
    static StringBuilder tcpEventLine(long frame, long relativeNanos, Endpoint source, Endpoint destination,
                                      String event) {
        StringBuilder b = new StringBuilder(96);
        for (int i = Long.toString(frame).length(); i < 6; i++) b.append(' ');
        b.append(frame).append(' ');
        String t = Times.seconds(relativeNanos);
        for (int i = t.length(); i < 12; i++) b.append(' ');
        b.append(t).append(' ').append(source).append(" → ").append(destination).append(" TCP    ").append(event).append('\n');
        return b;
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

    private void raw(CharSequence text) {
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
