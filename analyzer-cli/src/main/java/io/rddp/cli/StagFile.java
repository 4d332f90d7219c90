package io.rddp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.sink.Side;
import io.rddp.sink.StagRegistration;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads {@code --stags FILE}: a JSON array of registrations, e.g.
 * <pre>[{"stag": "0x5fb74500", "baseTo": "0x5555a6e24550", "length": 64, "access": ["read", "write"],
 *   "owner": "client", "streams": [0], "validFrom": 1, "validUntil": 90}]</pre>
 * Only {@code stag} is required; numbers may be decimal or "0x" hex strings.
 */
final class StagFile {
    private StagFile() {
    }

    static List<StagRegistration> read(Path file) throws IOException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException("not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isArray()) throw new IOException("expected a JSON array of STag registrations");
        List<StagRegistration> out = new ArrayList<>();
        int i = 0;
        for (JsonNode n : root) {
            try {
                out.add(registration(n));
            } catch (IllegalArgumentException e) {
                throw new IOException("registration " + i + ": " + e.getMessage());
            }
            i++;
        }
        return out;
    }

    private static StagRegistration registration(JsonNode n) {
        if (!n.has("stag")) throw new IllegalArgumentException("\"stag\" is missing");
        Set<StagRegistration.Access> access = EnumSet.noneOf(StagRegistration.Access.class);
        for (JsonNode a : n.path("access")) {
            access.add(StagRegistration.Access.valueOf(a.asText().toUpperCase(Locale.ROOT)));
        }
        if (!n.has("access")) access.addAll(EnumSet.allOf(StagRegistration.Access.class));
        Side owner = n.hasNonNull("owner") ? Side.valueOf(n.get("owner").asText().toUpperCase(Locale.ROOT)) : null;
        Set<Integer> streams = new HashSet<>();
        for (JsonNode s : n.path("streams")) streams.add(s.asInt());
        return new StagRegistration(number(n, "stag", -1), number(n, "baseTo", 0), number(n, "length", Long.MAX_VALUE),
                access, owner, streams, number(n, "validFrom", 0), number(n, "validUntil", Long.MAX_VALUE));
    }

    private static long number(JsonNode n, String key, long absent) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) return absent;
        if (v.isNumber()) return v.asLong();
        String t = v.asText().trim();
        try {
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + key + "\" is not a number: " + t);
        }
    }
}
