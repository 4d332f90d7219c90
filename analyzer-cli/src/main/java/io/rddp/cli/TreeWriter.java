package io.rddp.cli;

import io.rddp.decode.FieldSink;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduFields;
import io.rddp.decode.PduSummary;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;

import java.io.OutputStream;
import java.util.HexFormat;

/** {@code decode -V}: the summary line of each PDU followed by its indented field tree. */
final class TreeWriter extends TextWriter implements FieldSink {
    private static final HexFormat HEX = HexFormat.ofDelimiter(":");
    private final StringBuilder sb = new StringBuilder(1024);
    private int depth;

    TreeWriter(OutputStream out) {
        super(out);
    }

    @Override
    public void write(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
        sb.setLength(0);
        sb.append("Frame ").append(pdu.frame()).append(", ").append(Times.seconds(pdu.relativeNanos())).append(" s, ")
                .append(pdu.source()).append(" → ").append(pdu.destination()).append(": ")
                .append(RpcRdmaFields.protocol(message) != null ? RpcRdmaFields.protocol(message)
                        : PduSummary.protocol(pdu)).append(' ');
        PduSummary.info(pdu, sb);
        RpcRdmaFields.info(message, move, sb);
        sb.append('\n');
        depth = 1;
        PduFields.describe(pdu, this);
        RpcRdmaFields.describe(message, move, this);
        sb.append('\n');
        raw(sb);
    }

    private StringBuilder indent() {
        for (int i = 0; i < depth; i++) sb.append("    ");
        return sb;
    }

    @Override
    public void begin(String key, String label) {
        indent().append(label).append('\n');
        depth++;
    }

    @Override
    public void end() {
        depth--;
    }

    @Override
    public void number(String key, String label, long value) {
        indent().append(label).append(": ").append(value).append('\n');
    }

    @Override
    public void unsigned64(String key, String label, long value) {
        indent().append(label).append(": ").append(JsonlWriter.hex64(value)).append('\n');
    }

    @Override
    public void id32(String key, String label, long value) {
        indent().append(label).append(": ").append(JsonlWriter.hex32(value)).append('\n');
    }

    @Override
    public void hexNumber(String key, String label, long value, int digits) {
        indent().append(label).append(": ").append(JsonlWriter.hex(value, digits)).append('\n');
    }

    @Override
    public void bool(String key, String label, boolean value) {
        indent().append(label).append(": ").append(value ? "yes" : "no").append('\n');
    }

    @Override
    public void text(String key, String label, String value) {
        indent().append(label).append(": ").append(value).append('\n');
    }

    @Override
    public void hex(String key, String label, byte[] value) {
        indent().append(label).append(": ").append(value.length == 0 ? "(none)" : HEX.formatHex(value)).append('\n');
    }
}
