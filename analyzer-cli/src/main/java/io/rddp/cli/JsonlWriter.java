package io.rddp.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
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
 * {@code decode -T jsonl}: one JSON object per PDU, keys from {@link PduFields}. Counts and lengths are unsigned
 * decimals; identifiers (STag, XID, CRC, handle: {@code "0x%08x"}) and 64-bit values (TO, offsets, atomic data:
 * {@code "0x%016x"}) are hex strings as tshark writes them, so no JSON reader rounds a TO above 2^53. Each field
 * method catches the generator's IOException itself: a lambda per field cost a third of the output speed.
 */
final class JsonlWriter implements PduWriter, FieldSink {
    private final JsonGenerator json;
    /** -T json: one array of the objects (one a line) instead of JSON lines */
    private final boolean array;
    private boolean first = true;
    /** with several files: each object names its file */
    private String file;
    /**
     * Keys already encoded, direct-mapped by the key's hash and found by identity (keys are PduFields' constants):
     * every PDU writes the same few dozen, and encoding and escaping each name again was a quarter of the output's
     * cost, a hash map lookup a tenth.
     */
    private static final int NAME_SLOTS = 1024;
    private final String[] keys = new String[NAME_SLOTS];
    private final SerializedString[] names = new SerializedString[NAME_SLOTS];

    JsonlWriter(OutputStream out) throws IOException {
        this(out, false);
    }

    JsonlWriter(OutputStream out, boolean array) throws IOException {
        json = JsonFactory.builder().build().createGenerator(out, JsonEncoding.UTF8);
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        json.setRootValueSeparator(null);
        this.array = array;
        if (array) {
            json.writeRaw('[');
        }
    }

    private SerializedString name(String key) {
        int i = key.hashCode() & (NAME_SLOTS - 1);
        if (keys[i] != key) {
            keys[i] = key;
            names[i] = new SerializedString(key);
        }
        return names[i];
    }

    @Override
    public void file(String name) {
        file = name;
    }

    @Override
    public void write(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
        try {
            if (array) json.writeRaw(first ? "\n" : ",\n");
            first = false;
            json.writeStartObject();
            if (file != null) json.writeStringField("file", file);
            PduFields.describe(pdu, this);
            RpcRdmaFields.describe(message, move, this);
            json.writeEndObject();
            if (!array) json.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void begin(String key, String label) {
        try {
            if (key == null) json.writeStartObject();
            else {
                json.writeFieldName(name(key));
                json.writeStartObject();
            }
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
            if (key != null) json.writeFieldName(name(key));
            json.writeNumber(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void unsigned64(String key, String label, long value) {
        try {
            if (key != null) json.writeFieldName(name(key));
            json.writeString(hex64(value));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void id32(String key, String label, long value) {
        try {
            if (key != null) json.writeFieldName(name(key));
            json.writeString(hex32(value));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String hex32(long value) {
        return "0x" + HexFormat.of().toHexDigits((int) value);
    }

    static String hex64(long value) {
        return "0x" + HexFormat.of().toHexDigits(value);
    }

    @Override
    public void bool(String key, String label, boolean value) {
        try {
            if (key != null) json.writeFieldName(name(key));
            json.writeBoolean(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void boolOrNull(String key, String label, Boolean value) {
        try {
            json.writeFieldName(name(key));
            if (value == null) json.writeNull();
            else json.writeBoolean(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void text(String key, String label, String value) {
        try {
            if (key != null) json.writeFieldName(name(key));
            json.writeString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void hex(String key, String label, byte[] value) {
        try {
            json.writeFieldName(name(key));
            json.writeString(HexFormat.of().formatHex(value));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void beginList(String key, String label) {
        try {
            if (key != null) json.writeFieldName(name(key));
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
        if (array) json.writeRaw(first ? "]\n" : "\n]\n");
        json.close();
    }
}
