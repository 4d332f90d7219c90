package io.rddp.cli;

import io.rddp.decode.FieldSink;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduFields;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * {@code decode -T jsonl}: one JSON object per PDU, keys from {@link PduFields}. Counts and lengths are unsigned
 * decimals; identifiers (STag, XID, CRC, handle: {@code "0x%08x"}) and 64-bit values (TO, offsets, atomic data:
 * {@code "0x%016x"}) are hex strings as tshark writes them, so no JSON reader rounds a TO above 2^53.
 * <p>
 * The JSON is written straight into a byte buffer, with no generator and no string per value: on a busy capture
 * this writer runs once per field of every PDU, and Jackson's generator (its per-value context checks, a string
 * for each hex value and time stamp) took half of {@code decode}'s time. Strings are escaped as Jackson escapes
 * them ({@code JsonlWriterTest} holds the two to the same bytes), so the output did not change.
 */
final class JsonlWriter implements PduWriter, FieldSink {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** Jackson's escapes of control characters are upper case (backslash-u001F) */
    private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    private static final int BUFFER = 1 << 16;
    /** the ones and the tens digit of 0..99 */
    private static final byte[] DIGIT_ONES = new byte[100];
    private static final byte[] DIGIT_TENS = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_ONES[i] = (byte) ('0' + i % 10);
            DIGIT_TENS[i] = (byte) ('0' + i / 10);
        }
    }

    private final OutputStream out;
    /** -T json: one array of the objects (one a line) instead of JSON lines */
    private final boolean array;
    private byte[] buf = new byte[BUFFER];
    private int pos;
    private boolean first = true;
    /** a value was written in the current object or list: the next one is preceded by a comma */
    private boolean comma;
    /** with several files: each object names its file */
    private String file;
    /**
     * Keys already encoded as {@code "key":}, and short text values encoded as JSON strings, each direct-mapped by the
     * string's hash and found by identity: every PDU writes the same few dozen keys (PduFields' constants), and its
     * endpoints (cached strings), opcode names and kinds repeat too; a one-off text costs one encoding more.
     */
    private static final int SLOTS = 1024;
    private static final int MAX_CACHED_TEXT = 64;
    private final String[] keys = new String[SLOTS];
    private final byte[][] names = new byte[SLOTS][];
    private final String[] texts = new String[SLOTS];
    private final byte[][] textBytes = new byte[SLOTS][];

    JsonlWriter(OutputStream out) {
        this(out, false);
    }

    JsonlWriter(OutputStream out, boolean array) {
        this.out = out;
        this.array = array;
        if (array) put('[');
    }

    @Override
    public void file(String name) {
        file = name;
    }

    @Override
    public void write(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
        if (array) raw(first ? "\n" : ",\n");
        first = false;
        put('{');
        comma = false;
        if (file != null) text("file", null, file);
        PduFields.describe(pdu, this);
        RpcRdmaFields.describe(message, move, this);
        put('}');
        if (!array) put('\n');
    }

    @Override
    public void begin(String key, String label) {
        open(key, '{');
    }

    @Override
    public void end() {
        put('}');
        comma = true;
    }

    @Override
    public void beginList(String key, String label) {
        open(key, '[');
    }

    @Override
    public void endList() {
        put(']');
        comma = true;
    }

    private void open(String key, char bracket) {
        field(key);
        put(bracket);
        comma = false;
    }

    @Override
    public void number(String key, String label, long value) {
        field(key);
        digits(value);
        comma = true;
    }

    private void digits(long value) {
        if (value == Long.MIN_VALUE) { // the one long without a positive counterpart
            raw(Long.toString(value));
            return;
        }
        ensure(20);
        if (value < 0) {
            buf[pos++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long limit = 10; digits < 19 && value >= limit; limit *= 10) digits++;
        int at = pos + digits;
        // two digits per division, and int arithmetic once the value fits (frame numbers, lengths, offsets do)
        while (value > Integer.MAX_VALUE) {
            int twoDigits = (int) (value % 100);
            value /= 100;
            buf[--at] = DIGIT_ONES[twoDigits];
            buf[--at] = DIGIT_TENS[twoDigits];
        }
        int v = (int) value;
        while (v >= 100) {
            int twoDigits = v % 100;
            v /= 100;
            buf[--at] = DIGIT_ONES[twoDigits];
            buf[--at] = DIGIT_TENS[twoDigits];
        }
        buf[--at] = DIGIT_ONES[v];
        if (v >= 10) buf[--at] = DIGIT_TENS[v];
        pos += digits;
    }

    @Override
    public void unsigned64(String key, String label, long value) {
        hexString(key, value, 16);
    }

    @Override
    public void id32(String key, String label, long value) {
        // 8 digits for a 32-bit identifier; a wider hex field (the 40-bit untagged RsvdULP) keeps all its digits
        hexString(key, value, Math.max(8, (67 - Long.numberOfLeadingZeros(value)) / 4));
    }

    @Override
    public void hexNumber(String key, String label, long value, int digits) {
        hexString(key, value, digits);
    }

    /** {@code "0x"} and the low {@code digits} hex digits of value, quoted */
    private void hexString(String key, long value, int digits) {
        field(key);
        ensure(digits + 4);
        byte[] b = buf;
        int p = pos;
        b[p++] = '"';
        b[p++] = '0';
        b[p++] = 'x';
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) b[p++] = HEX[(int) (value >>> shift) & 0xf];
        b[p++] = '"';
        pos = p;
        comma = true;
    }

    /** At least 8 hex digits, more when the value is wider (never cut to 32 bits). */
    static String hex32(long value) {
        return value >>> 32 == 0 ? "0x" + HexFormat.of().toHexDigits((int) value) : "0x" + Long.toHexString(value);
    }

    /** {@code 0x} and at least {@code digits} hex digits: Wireshark's BASE_HEX ({@code eth.type} 0x0800). */
    static String hex(long value, int digits) {
        String h = Long.toHexString(value);
        return h.length() >= digits ? "0x" + h : "0x" + "0".repeat(digits - h.length()) + h;
    }

    static String hex64(long value) {
        return "0x" + HexFormat.of().toHexDigits(value);
    }

    /** The capture time as PduFields.epochSeconds writes it, without building the string. */
    @Override
    public void time(String key, String label, long nanos) {
        field(key);
        long seconds = Math.floorDiv(nanos, 1_000_000_000L);
        long fraction = Math.floorMod(nanos, 1_000_000_000L);
        put('"');
        digits(seconds);
        ensure(11);
        buf[pos++] = '.';
        for (int at = pos + 8; at >= pos; at--) {
            buf[at] = (byte) ('0' + fraction % 10);
            fraction /= 10;
        }
        pos += 9;
        buf[pos++] = '"';
        comma = true;
    }

    @Override
    public void bool(String key, String label, boolean value) {
        field(key);
        raw(value ? "true" : "false");
        comma = true;
    }

    @Override
    public void boolOrNull(String key, String label, Boolean value) {
        field(key);
        raw(value == null ? "null" : value ? "true" : "false");
        comma = true;
    }

    @Override
    public void text(String key, String label, String value) {
        field(key);
        if (value.length() > MAX_CACHED_TEXT) {
            string(value);
        } else {
            copy(encoded(value, texts, textBytes, false));
        }
        comma = true;
    }

    @Override
    public void hex(String key, String label, byte[] value) {
        field(key);
        ensure(2 * value.length + 2);
        buf[pos++] = '"';
        for (byte v : value) {
            buf[pos++] = HEX[(v >> 4) & 0xf];
            buf[pos++] = HEX[v & 0xf];
        }
        buf[pos++] = '"';
        comma = true;
    }

    /** The comma before a value, and its name when it is a field of an object. */
    private void field(String key) {
        if (comma) put(',');
        if (key != null) copy(encoded(key, keys, names, true));
    }

    /** s as a JSON string (and a colon after it: a key), from the cache of strings and their encodings given */
    private static byte[] encoded(String s, String[] strings, byte[][] encodings, boolean colon) {
        int i = s.hashCode() & (SLOTS - 1);
        if (strings[i] != s) {
            byte[] b = new byte[6 * s.length() + 3];
            int end = encode(s, b, 0);
            if (colon) b[end++] = ':';
            encodings[i] = Arrays.copyOf(b, end);
            strings[i] = s;
        }
        return encodings[i];
    }

    /** a few bytes already encoded: a loop, because System.arraycopy's call costs more than it copies here */
    private void copy(byte[] bytes) {
        ensure(bytes.length);
        byte[] b = buf;
        int p = pos;
        for (byte x : bytes) b[p++] = x;
        pos = p;
    }

    /**
     * A JSON string as Jackson's generator writes it: {@code "} and {@code \} escaped, control characters as
     * {@code \n}-style escapes where JSON has one and a backslash-u00XX escape otherwise, surrogates (the halves of a
     * character beyond U+FFFF) escaped one by one as backslash-uXXXX, everything else in UTF-8.
     */
    private void string(String s) {
        ensure(6 * s.length() + 2); // the longest escape of one char is six bytes
        pos = encode(s, buf, pos);
    }

    /** s quoted and escaped into b at p; returns the position after it */
    private static int encode(String s, byte[] b, int p) {
        int n = s.length();
        b[p++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                b[p++] = (byte) c;
            } else if (c < 0x80) {
                b[p++] = '\\';
                switch (c) {
                    case '"' -> b[p++] = '"';
                    case '\\' -> b[p++] = '\\';
                    case '\b' -> b[p++] = 'b';
                    case '\t' -> b[p++] = 't';
                    case '\n' -> b[p++] = 'n';
                    case '\f' -> b[p++] = 'f';
                    case '\r' -> b[p++] = 'r';
                    default -> p = unicodeEscape(b, p, c);
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xc0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3f));
            } else if (Character.isSurrogate(c)) {
                b[p++] = '\\';
                p = unicodeEscape(b, p, c);
            } else {
                b[p++] = (byte) (0xe0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                b[p++] = (byte) (0x80 | (c & 0x3f));
            }
        }
        b[p++] = '"';
        return p;
    }

    /** "uXXXX" after a backslash already written */
    private static int unicodeEscape(byte[] b, int p, char c) {
        b[p++] = 'u';
        b[p++] = HEX_UPPER[(c >> 12) & 0xf];
        b[p++] = HEX_UPPER[(c >> 8) & 0xf];
        b[p++] = HEX_UPPER[(c >> 4) & 0xf];
        b[p++] = HEX_UPPER[c & 0xf];
        return p;
    }

    /** ASCII text written as it is */
    private void raw(String ascii) {
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) buf[pos++] = (byte) ascii.charAt(i);
    }

    private void put(char c) {
        ensure(1);
        buf[pos++] = (byte) c;
    }

    /** room for n more bytes: the buffer is written out first if need be, and grows for a value longer than it */
    private void ensure(int n) {
        if (pos + n <= buf.length) return;
        drain();
        if (n > buf.length) buf = new byte[Math.max(n, 2 * buf.length)];
    }

    private void drain() {
        try {
            out.write(buf, 0, pos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pos = 0;
    }

    @Override
    public void flush() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (array) raw(first ? "]\n" : "\n]\n");
        flush();
    }
}
