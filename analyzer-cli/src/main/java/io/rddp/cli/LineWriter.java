package io.rddp.cli;

import io.rddp.decode.Pdu;
import io.rddp.decode.PduSummary;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;

import java.io.IOException;
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
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.flush();
    }
}
