package io.rddp.cli;

import io.rddp.decode.Pdu;
import io.rddp.decode.PduSummary;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;

import java.io.OutputStream;

/** One tshark-like line per PDU: frame, relative time, source → destination, protocol, info. */
final class LineWriter extends TextWriter {
    private final StringBuilder line = new StringBuilder(160);

    LineWriter(OutputStream out) {
        super(out);
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
        raw(line);
    }

    private static void pad(StringBuilder sb, String s, int width) {
        for (int i = s.length(); i < width; i++) sb.append(' ');
        sb.append(s);
    }
}
