package io.rddp.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.rddp.decode.FieldSink;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduFields;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;

/**
 * {@code decode --format jsonl}: one JSON object per PDU, keys from {@link PduFields}. Numbers are unsigned
 * decimals (a 64-bit TO above 2^63 is still written as a plain JSON number).
 */
final class JsonlWriter implements PduWriter, FieldSink {
    private final JsonGenerator json;

    JsonlWriter(OutputStream out) throws IOException {
        json = JsonFactory.builder().build().createGenerator(out, JsonEncoding.UTF8);
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        json.setRootValueSeparator(null);
    }

    @Override
    public void write(Pdu pdu) {
        io(() -> {
            json.writeStartObject();
            PduFields.describe(pdu, this);
            json.writeEndObject();
            json.writeRaw('\n');
        });
    }

    @Override
    public void begin(String key, String label) {
        io(() -> {
            json.writeObjectFieldStart(key);
        });
    }

    @Override
    public void end() {
        io(() -> {
            json.writeEndObject();
        });
    }

    @Override
    public void number(String key, String label, long value) {
        io(() -> {
            json.writeNumberField(key, value);
        });
    }

    @Override
    public void unsigned64(String key, String label, long value) {
        io(() -> {
            json.writeFieldName(key);
            if (value >= 0) json.writeNumber(value);
            else json.writeNumber(Long.toUnsignedString(value));
        });
    }

    @Override
    public void bool(String key, String label, boolean value) {
        io(() -> {
            json.writeBooleanField(key, value);
        });
    }

    @Override
    public void boolOrNull(String key, String label, Boolean value) {
        io(() -> {
            if (value == null) json.writeNullField(key);
            else json.writeBooleanField(key, value);
        });
    }

    @Override
    public void text(String key, String label, String value) {
        io(() -> {
            json.writeStringField(key, value);
        });
    }

    @Override
    public void hex(String key, String label, byte[] value) {
        io(() -> {
            json.writeStringField(key, HexFormat.of().formatHex(value));
        });
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static void io(IoAction action) {
        try {
            action.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void flush() throws IOException {
        json.flush();
    }

    @Override
    public void close() throws IOException {
        json.close();
    }
}
