package io.rddp.conformance;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scenarios README documents exactly the language the loader accepts: every step of the {@link StepRegistry}
 * appears in a row of a step table and every step row names a registered step, and the keys each row lists (at any
 * depth) are the keys declared, as are those of the tables of scenario keys, setup keys, send fields, dut ops and
 * reaction keys.
 */
class ScenarioReadmeTest {

    private static final Pattern CODE = Pattern.compile("`([^`]*)`");

    /** Documented keys: each with its nested keys (null when the README gives none); open: "..." was listed. */
    record Keys(Map<String, Keys> keys, boolean open) {
    }

    /** One code span of a table's first column, e.g. "check-mem: {buffer, offset, ...}". */
    record Span(String table, String text) {
    }

    private static List<Span> spans() throws IOException {
        String readme;
        try (InputStream in = Catalog.class.getResourceAsStream("/io/rddp/conformance/scenarios/README.md")) {
            assertThat(in).as("the scenarios README on the classpath").isNotNull();
            readme = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Span> out = new ArrayList<>();
        String table = null;
        for (String line : readme.split("\n")) {
            if (!line.startsWith("|")) {
                table = null;
                continue;
            }
            String first = line.substring(1).split("(?<!\\\\)\\|", 2)[0].trim();
            if (table == null) {
                table = first;
                continue;
            }
            if (first.startsWith("---")) continue;
            Matcher m = CODE.matcher(first);
            while (m.find()) out.add(new Span(table, m.group(1).replace("\\|", "|")));
        }
        return out;
    }

    /** The spans of the tables headed {@code header}. */
    private static List<String> table(String header) throws IOException {
        return spans().stream().filter(s -> s.table().equals(header)).map(Span::text).toList();
    }

    /** "name: args" of a step or op row: the name, and the keys of args when it is a map. */
    private static Map<String, Keys> named(List<String> spans) {
        Map<String, Keys> out = new LinkedHashMap<>();
        for (String s : spans) {
            int colon = s.indexOf(':');
            String name = (colon < 0 ? s : s.substring(0, colon)).trim();
            String args = colon < 0 ? "" : s.substring(colon + 1).trim();
            out.put(name, args.startsWith("{") && args.endsWith("}") ? parse(args.substring(1, args.length() - 1))
                    : null);
        }
        return out;
    }

    /** The keys of the spans of a key table, each span a key list of its own. */
    private static Keys keysOf(List<String> spans) {
        Map<String, Keys> all = new LinkedHashMap<>();
        for (String s : spans) all.putAll(parse(s).keys());
        return new Keys(all, false);
    }

    /**
     * A key list: keys separated by ',' and '|' (at depth 0), each bare or {@code key: value}; a value in braces (or
     * {@code [{...}]}) lists nested keys; a bare word after {@code key: value |} is another value, not a key.
     */
    static Keys parse(String list) {
        Map<String, Keys> out = new LinkedHashMap<>();
        boolean open = false;
        for (String piece : split(list, ',')) {
            boolean afterValue = false;
            for (String alt : split(piece, '|')) {
                String a = alt.trim();
                if (a.equals("...")) {
                    open = true;
                    continue;
                }
                int colon = a.indexOf(':');
                if (colon < 0) {
                    if (!afterValue && !a.isEmpty()) out.put(a, null);
                    continue;
                }
                String v = a.substring(colon + 1).trim();
                if (v.startsWith("[{") && v.endsWith("}]")) v = v.substring(1, v.length() - 1);
                out.put(a.substring(0, colon).trim(), v.startsWith("{") && v.endsWith("}") && !v.equals("{}")
                        ? parse(v.substring(1, v.length() - 1)) : v.equals("{}") ? new Keys(Map.of(), false) : null);
                afterValue = true;
            }
        }
        return new Keys(out, open);
    }

    private static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        int depth = 0, from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{' || c == '[') depth++;
            if (c == '}' || c == ']') depth--;
            if (c == sep && depth == 0) {
                out.add(s.substring(from, i));
                from = i + 1;
            }
        }
        out.add(s.substring(from));
        return out;
    }

    /** The map a shape takes (the map alternative of a value-or-map, the entries of a list of maps), or null. */
    private static Shape.Obj map(Shape s) {
        if (s instanceof Shape.Obj o) return o;
        if (s instanceof Shape.ListOf l) return map(l.item());
        if (s instanceof Shape.Either e) {
            for (Shape a : e.alternatives()) if (map(a) != null) return map(a);
        }
        return null;
    }

    /** What differs between the documented keys and the declared ones, at any depth the README lists. */
    private static void compare(String where, Shape.Obj declared, Keys documented, List<String> out) {
        Set<String> want = new TreeSet<>(declared.names());
        Set<String> got = new TreeSet<>(documented.keys().keySet());
        for (String k : got) if (!want.contains(k)) out.add(where + ": documents \"" + k + "\", which is no key");
        if (!documented.open()) {
            for (String k : want) if (!got.contains(k)) out.add(where + ": does not document \"" + k + "\"");
        }
        documented.keys().forEach((k, nested) -> {
            Shape.Key key = declared.key(k);
            if (nested == null || key == null) return;
            Shape.Obj inner = map(key.shape());
            if (inner == null) out.add(where + ": documents keys of \"" + k + "\", which takes no map");
            else compare(where + ": " + k, inner, nested, out);
        });
    }

    @Test
    void everyRegisteredStepIsInAStepTableAndEveryDocumentedStepIsRegistered() throws IOException {
        Set<String> documented = new LinkedHashSet<>(named(table("step")).keySet());
        assertThat(documented).containsExactlyInAnyOrderElementsOf(StepRegistry.names());
    }

    @Test
    void eachStepRowListsExactlyTheKeysOfItsStep() throws IOException {
        List<String> wrong = new ArrayList<>();
        named(table("step")).forEach((name, keys) -> {
            StepDef def = StepRegistry.get(name);
            if (def == null || keys == null) return;
            Shape arg = def.argument();
            if (arg instanceof Shape.Tagged t) compare("step " + name, t.common(), new Keys(keys.keys(), false), wrong);
            else if (map(arg) == null) wrong.add("step " + name + ": documents keys, but takes no map");
            else compare("step " + name, map(arg), keys, wrong);
        });
        assertThat(wrong).isEmpty();
    }

    @Test
    void aStepWhoseRowListsNoKeysTakesNone() throws IOException {
        named(table("step")).forEach((name, keys) -> {
            StepDef def = StepRegistry.get(name);
            if (def != null && keys != null && keys.keys().isEmpty() && !keys.open()) {
                assertThat(map(def.argument()).keys()).as(name).isEmpty();
            }
        });
    }

    @Test
    void theSendFieldTableListsExactlyTheKeysOfSend() throws IOException {
        List<String> wrong = new ArrayList<>();
        compare("send fields", StepRegistry.SEND, keysOf(table("send field")), wrong);
        assertThat(wrong).isEmpty();
    }

    @Test
    void theDutOpTableListsExactlyTheOpsAndTheirFields() throws IOException {
        Shape.Tagged dut = (Shape.Tagged) StepRegistry.get("dut").argument();
        Map<String, Keys> ops = named(table("dut op"));
        assertThat(ops.keySet()).containsExactlyInAnyOrderElementsOf(dut.variants().keySet());
        List<String> wrong = new ArrayList<>();
        ops.forEach((op, keys) -> compare("dut op " + op, dut.variants().get(op), keys, wrong));
        assertThat(wrong).isEmpty();
    }

    @Test
    void theScenarioSetupAndReactionTablesListExactlyTheirKeys() throws IOException {
        List<String> wrong = new ArrayList<>();
        compare("scenario keys", ScenarioSchema.declarative(false).plus(Shape.key("java", Shape.TEXT)),
                keysOf(table("scenario key")), wrong);
        compare("setup keys", ScenarioSchema.SETUP, keysOf(table("setup key")), wrong);
        compare("reaction keys", ScenarioSchema.REACTION, keysOf(table("reaction key")), wrong);
        assertThat(wrong).isEmpty();
    }
}
