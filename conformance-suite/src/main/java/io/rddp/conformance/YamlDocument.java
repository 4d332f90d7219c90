package io.rddp.conformance;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * A YAML file as a tree, with the line of every value (keyed by JSON Pointer) so that a problem found in the tree
 * can name its line. The tree is Jackson's own reading of the text; a second, streaming pass records the lines (and
 * refuses a key given twice in one map, which the tree would silently reduce to the last).
 *
 * @param name  the file's name, for messages
 * @param tree  the document
 * @param lines the line (from 1) of each value: of its key where it has one
 */
record YamlDocument(String name, JsonNode tree, Map<JsonPointer, Integer> lines) {

    private static final YAMLFactory YAML = YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory());

    YamlDocument {
        lines = Map.copyOf(lines);
    }

    /** Reads {@code text}; a syntax error or a repeated key fails with {@code name:line: what}. */
    static YamlDocument parse(String name, String text) {
        Map<JsonPointer, Integer> lines = new HashMap<>();
        try (JsonParser p = YAML.createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                lines.putIfAbsent(p.getParsingContext().pathAsPointer(), p.currentTokenLocation().getLineNr());
            }
            return new YamlDocument(name, MAPPER.readTree(text), lines);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalStateException(name + ":" + (at == null ? "?" : at.getLineNr()) + ": "
                    + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
    }

    /** The line of the value at {@code at}, or of the nearest value holding it; 0 when unknown. */
    int line(JsonPointer at) {
        for (JsonPointer p = at; p != null; p = p.head()) {
            Integer n = lines.get(p);
            if (n != null) return n;
        }
        return 0;
    }
}
