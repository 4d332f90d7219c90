package io.rddp.sink;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The STag file of {@code rddp analyze --stags FILE}: a JSON array of registrations, e.g.
 * <pre>[{"stag": "0x5fb74500", "baseTo": "0x5555a6e24550", "length": 64, "access": ["read", "write"],
 *   "owner": "client", "streams": [0], "validFrom": 1, "validUntil": 90}]</pre>
 * Only {@code stag} is required; numbers may be decimal or "0x" hex strings. In the library, not the CLI, so that
 * the violation corpus's sidecar files ({@code pcaps/violations/NAME.stags.json}) are written and read by the same
 * code as the CLI's option.
 */
public final class StagFile {
    private StagFile() {
    }

    public static List<StagRegistration> read(Path file) throws IOException {
        Object root;
        try (JsonParser p = new JsonFactory().createParser(file.toFile())) {
            p.nextToken();
            root = value(p);
            if (p.nextToken() != null) throw new IOException("not valid JSON: more after the array");
        } catch (JsonProcessingException e) {
            throw new IOException("not valid JSON: " + e.getOriginalMessage());
        }
        if (!(root instanceof List<?> list)) throw new IOException("expected a JSON array of STag registrations");
        List<StagRegistration> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            try {
                if (!(list.get(i) instanceof Map<?, ?> n)) throw new IllegalArgumentException("expected a JSON object");
                out.add(registration(n));
            } catch (IllegalArgumentException e) {
                throw new IOException("registration " + i + ": " + e.getMessage());
            }
        }
        return out;
    }

    /** The JSON value at the parser's token: a Map, a List, a String, a Long (integers, 64 bits unsigned), or other. */
    private static Object value(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) throw new IOException("not valid JSON: the file is empty");
        switch (t) {
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) list.add(value(p));
                return list;
            }
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    map.put(key, value(p));
                }
                return map;
            }
            case VALUE_STRING -> {
                return p.getText();
            }
            case VALUE_NUMBER_INT -> {
                BigInteger n = p.getBigIntegerValue();
                // 64 bits unsigned (a TO or length may be above 2^63); beyond that it stays text and is refused below
                return n.signum() >= 0 && n.bitLength() <= 64 || n.bitLength() < 64 ? (Object) n.longValue() : n.toString();
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> {
                return p.getText();
            }
        }
    }

    /**
     * The file's text for {@code regs}, one registration a line, leaving out what has its default (owner either
     * side, every stream, valid from the start to the end): {@link #read} gives back equal registrations.
     */
    public static String write(List<StagRegistration> regs) {
        return regs.stream().map(StagFile::line).collect(Collectors.joining(",\n ", "[", "]\n"));
    }

    private static String line(StagRegistration r) {
        StringBuilder sb = new StringBuilder("{\"stag\": \"0x").append(Long.toHexString(r.stag()))
                .append("\", \"baseTo\": \"0x").append(Long.toHexString(r.baseTo()))
                .append("\", \"length\": ").append(r.length() >= 0 ? Long.toString(r.length())
                        : "\"0x" + Long.toHexString(r.length()) + "\"")
                .append(", \"access\": [").append(r.access().stream().sorted()
                        .map(a -> "\"" + a.name().toLowerCase(Locale.ROOT) + "\"").collect(Collectors.joining(", ")))
                .append(']');
        if (r.owner() != null) sb.append(", \"owner\": \"").append(r.owner().name().toLowerCase(Locale.ROOT)).append('"');
        if (!r.streams().isEmpty()) {
            sb.append(", \"streams\": ").append(r.streams().stream().sorted().map(String::valueOf)
                    .collect(Collectors.joining(", ", "[", "]")));
        }
        if (r.validFromFrame() != 0) sb.append(", \"validFrom\": ").append(r.validFromFrame());
        if (r.validUntilFrame() != Long.MAX_VALUE) sb.append(", \"validUntil\": ").append(r.validUntilFrame());
        return sb.append('}').toString();
    }

    private static StagRegistration registration(Map<?, ?> n) {
        if (!n.containsKey("stag")) throw new IllegalArgumentException("\"stag\" is missing");
        Set<StagRegistration.Access> access = EnumSet.noneOf(StagRegistration.Access.class);
        for (Object a : list(n, "access")) access.add(access(String.valueOf(a)));
        if (!n.containsKey("access")) access.addAll(EnumSet.allOf(StagRegistration.Access.class));
        Side owner = n.get("owner") != null ? owner(String.valueOf(n.get("owner"))) : null;
        Set<Integer> streams = new HashSet<>();
        for (Object s : list(n, "streams")) {
            if (!(s instanceof Long l) || l < 0 || l > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("\"streams\" holds stream numbers (got " + s + ")");
            }
            streams.add(l.intValue());
        }
        return new StagRegistration(number(n, "stag", -1), number(n, "baseTo", 0), number(n, "length", Long.MAX_VALUE),
                access, owner, streams, number(n, "validFrom", 0), number(n, "validUntil", Long.MAX_VALUE));
    }

    private static List<?> list(Map<?, ?> n, String key) {
        Object v = n.get(key);
        if (v == null) return List.of();
        if (!(v instanceof List<?> l)) throw new IllegalArgumentException("\"" + key + "\" must be an array");
        return l;
    }

    private static StagRegistration.Access access(String text) {
        for (StagRegistration.Access a : StagRegistration.Access.values()) {
            if (a.name().equalsIgnoreCase(text)) return a;
        }
        throw new IllegalArgumentException("\"access\" must be read, write or atomic (got \"" + text + "\")");
    }

    private static Side owner(String text) {
        for (Side s : Side.values()) {
            if (s.name().equalsIgnoreCase(text)) return s;
        }
        throw new IllegalArgumentException("\"owner\" must be client or server (got \"" + text + "\")");
    }

    private static long number(Map<?, ?> n, String key, long absent) {
        Object v = n.get(key);
        if (v == null) return absent;
        if (v instanceof Long l) return l;
        String t = String.valueOf(v).trim();
        try {
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseUnsignedLong(t.substring(2), 16)
                    : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + key + "\" is not a number: " + t);
        }
    }
}
