package io.rddp.cli;

import io.rddp.decode.Pdu;
import io.rddp.filter.DisplayFilter;
import io.rddp.filter.FieldRecord;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaMessage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code -T fields -e NAME ...}: one line per PDU, the values of the named fields separated by tabs (tshark's
 * default), several values of one field by commas, an absent field empty. Identifiers and TOs in hex as in JSON.
 */
final class FieldsWriter implements PduWriter {
    private final Writer out;
    private final List<String> fields;
    private final FieldRecord record = new FieldRecord();
    private final StringBuilder line = new StringBuilder(128);

    FieldsWriter(OutputStream out, List<String> fields) {
        this.out = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        this.fields = List.copyOf(fields);
    }

    @Override
    public void write(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
        DisplayFilter.describe(pdu, message, move, List.of(), List.of(), record);
        line.setLength(0);
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) line.append('\t');
            String name = fields.get(i);
            List<Object> values = record.get(name);
            for (int k = 0; k < values.size(); k++) {
                if (k > 0) line.append(',');
                Object v = values.get(k);
                if (v instanceof Long l) {
                    int digits = record.hexDigits(name);
                    line.append(digits == 16 ? JsonlWriter.hex64(l) : digits == 8 ? JsonlWriter.hex32(l)
                            : digits > 0 ? JsonlWriter.hex(l, digits) : Long.toUnsignedString(l));
                } else if (v instanceof byte[] b) {
                    line.append(HexFormat.ofDelimiter(":").formatHex(b));
                } else {
                    line.append(v);
                }
            }
        }
        line.append('\n');
        try {
            out.append(line);
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
