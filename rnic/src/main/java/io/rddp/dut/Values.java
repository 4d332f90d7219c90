package io.rddp.dut;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HexFormat;

/** How the control protocol writes values: 64-bit ones as "0x..." strings, bytes as hex. */
public final class Values {
    private Values() {
    }

    public static String hex64(long v) {
        return "0x" + Long.toHexString(v);
    }

    public static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    /** A 64-bit value: "0x..." (or decimal) string, or a number. */
    public static long u64(JsonNode n, String field) throws DutException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) throw DutException.bad("\"" + field + "\" is required");
        return parse(v, field);
    }

    public static long u64(JsonNode n, String field, long dflt) throws DutException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        return parse(v, field);
    }

    private static long parse(JsonNode v, String field) throws DutException {
        try {
            if (v.isNumber()) return v.asLong();
            String s = v.asText().trim();
            if (s.startsWith("0x") || s.startsWith("0X")) return Long.parseUnsignedLong(s.substring(2), 16);
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw DutException.bad("\"" + field + "\" is not a 64-bit value: " + v);
        }
    }

    /** An integer field within [min, max]. */
    public static int integer(JsonNode n, String field, int dflt, long min, long max) throws DutException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.canConvertToLong()) throw DutException.bad("\"" + field + "\" must be an integer, got " + v);
        long x = v.asLong();
        if (x < min || x > max) throw DutException.bad("\"" + field + "\" must be " + min + ".." + max + ", got " + x);
        return (int) x;
    }

    public static int required(JsonNode n, String field, long min, long max) throws DutException {
        if (!n.has(field)) throw DutException.bad("\"" + field + "\" is required");
        return integer(n, field, 0, min, max);
    }

    /** A 32-bit unsigned value such as an STag. */
    public static long u32(JsonNode n, String field) throws DutException {
        long v = u64(n, field);
        if (v < 0 || v > 0xFFFF_FFFFL) throw DutException.bad("\"" + field + "\" is 32 bits: " + v);
        return v;
    }

    public static byte[] bytes(JsonNode n, String field) throws DutException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) return null;
        try {
            return HexFormat.of().parseHex(v.asText());
        } catch (IllegalArgumentException e) {
            throw DutException.bad("\"" + field + "\" is not hex: " + e.getMessage());
        }
    }
}
