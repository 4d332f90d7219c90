package io.rddp.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.rddp.decode.FieldSink;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduFields;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;

/**
 * {@code decode --format jsonl}: one JSON object per PDU, keys from {@link PduFields}. Numbers are unsigned
 * decimals (a 64-bit TO above 2^63 is still written as a plain JSON number). Each field method catches the
 * generator's IOException itself: a lambda per field cost a third of the output speed.
 */
final class JsonlWriter implements PduWriter, FieldSink {
    private final JsonGenerator json;

    JsonlWriter(OutputStream out) throws IOException {
        json = JsonFactory.builder().build().createGenerator(out, JsonEncoding.UTF8);
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        json.setRootValueSeparator(null);
    }

    @Override
    public void write(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
        try {
            json.writeStartObject();
            PduFields.describe(pdu, this);
            RpcRdmaFields.describe(message, move, this);
            json.writeEndObject();
            json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void begin(String key, String label) {
        try {
            if (key == null) json.writeStartObject();
            else json.writeObjectFieldStart(key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void end() {
        try {
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void number(String key, String label, long value) {
        try {
            if (key != null) json.writeFieldName(key);
            json.writeNumber(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void unsigned64(String key, String label, long value) {
        try {
            if (key != null) json.writeFieldName(key);
            if (value >= 0) json.writeNumber(value);
            else json.writeNumber(Long.toUnsignedString(value));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void bool(String key, String label, boolean value) {
        try {
            if (key != null) json.writeFieldName(key);
            json.writeBoolean(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void boolOrNull(String key, String label, Boolean value) {
        try {
            if (value == null) json.writeNullField(key);
            else json.writeBooleanField(key, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void text(String key, String label, String value) {
        try {
            if (key != null) json.writeFieldName(key);
            json.writeString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void hex(String key, String label, byte[] value) {
        try {
            json.writeStringField(key, HexFormat.of().formatHex(value));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void beginList(String key, String label) {
        try {
            if (key != null) json.writeFieldName(key);
            json.writeStartArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void endList() {
        try {
            json.writeEndArray();
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
