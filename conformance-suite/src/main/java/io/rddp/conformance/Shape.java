package io.rddp.conformance;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a value of the scenario language may be: the type of a step's argument, of each key of a map, of the
 * top-level scenario keys. {@link #check} lists every way a YAML value differs, at its JSON Pointer, so that the
 * loader can name the file and line.
 */
sealed interface Shape {

    Shape INT = new Int(Long.MIN_VALUE, Long.MAX_VALUE);
    /** An MPA flag bit written as 0 or 1. */
    Shape BIT = new Int(0, 1);
    Shape NUM = new Num(false);
    Shape BOOL = new Bool(false);
    /** A key whose presence is what counts: only {@code true} is meaningful. */
    Shape TRUE = new Bool(true);
    Shape TEXT = new Text(null, "a string");
    Shape HEX = new Hex(false);
    Shape STEPS = new Steps();
    Shape BUFFER = new BufferName();

    /** "an integer", "0 or 1", ...: what a value must be, for messages. */
    String describe();

    /** Whether a value of this JSON kind is meant for this shape (a map for an object, a list for a list). */
    boolean accepts(JsonNode v);

    /** Adds a problem for every way {@code v}, at {@code at}, differs from this shape. */
    void check(JsonNode v, Where at, List<Problem> out);

    /** A problem of a scenario file: where (a JSON Pointer into the file) and what. */
    record Problem(JsonPointer at, String message) {
    }

    /**
     * Where a value sits, for messages: its pointer, what holds it ({@code step "send": faults}), and the buffer names
     * its expressions may use.
     */
    record Where(JsonPointer pointer, String context, Set<String> buffers) {

        /** The value of {@code key} of the map here. */
        Where key(String key) {
            return new Where(pointer.appendProperty(key), context.isEmpty() ? key : context + ": " + key, buffers);
        }

        /** Element {@code i} of the list here (the context stays: the line tells which). */
        Where index(int i) {
            return new Where(pointer.appendIndex(i), context, buffers);
        }

        Problem problem(String what) {
            return new Problem(pointer, context.isEmpty() ? what : context + ": " + what);
        }
    }

    // ------------------------------------------------------------------ factories

    static Shape ints(long min, long max) {
        return new Int(min, max);
    }

    static Shape oneOf(String... values) {
        return new Choice(List.of(values));
    }

    static Shape text(String regex, String what) {
        return new Text(regex, what);
    }

    static Shape listOf(Shape item) {
        return new ListOf(item, -1);
    }

    static Shape mapOf(Shape value, String keys) {
        return new MapOf(value, keys);
    }

    static Shape pairs() {
        return new ListOf(new ListOf(INT, 2), -1);
    }

    static Shape either(Shape... alternatives) {
        return new Either(List.of(alternatives));
    }

    static Obj obj(Key... keys) {
        return new Obj(List.of(keys), List.of());
    }

    static Key key(String name, Shape shape) {
        return new Key(name, shape, false);
    }

    static Key required(String name, Shape shape) {
        return new Key(name, shape, true);
    }

    // ------------------------------------------------------------------ shapes

    /** An integer within bounds (read with asInt/asLong: an expression there would read as 0). */
    record Int(long min, long max) implements Shape {
        @Override
        public String describe() {
            if (min == 0 && max == 1) return "0 or 1";
            if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) return "an integer";
            return "an integer from " + min + " to " + max;
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isIntegralNumber();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
                out.add(at.problem(expected(this, v)));
            }
        }
    }

    /**
     * A number, or an {@link Expression} ({@code "dut.end-16"}, {@code "other.stag^0x01"},
     * {@code "mulpdu.untagged+1"}) over the scenario's buffers; {@code sink}: {@code sink.stag}, {@code sink.to} too.
     */
    record Num(boolean sink) implements Shape {
        @Override
        public String describe() {
            return "a number, 0x hex or an expression (e.g. dut.end-16, other.stag^0x01, mulpdu.untagged+1"
                    + (sink ? ", sink.to+8" : "") + ")";
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isIntegralNumber() || v.isTextual();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (v.isIntegralNumber()) return;
            if (!v.isTextual()) {
                out.add(at.problem(expected(this, v)));
                return;
            }
            String why = Expression.problem(v.asText(), at.buffers(), sink);
            if (why != null) out.add(at.problem(why));
        }
    }

    /** A boolean; {@code onlyTrue}: a key whose presence is what counts, so {@code false} would mislead. */
    record Bool(boolean onlyTrue) implements Shape {
        @Override
        public String describe() {
            return onlyTrue ? "true" : "true or false";
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isBoolean();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isBoolean() || onlyTrue && !v.asBoolean()) out.add(at.problem(expected(this, v)));
        }
    }

    /** A string, matching {@code regex} when there is one. */
    record Text(String regex, String what) implements Shape {
        @Override
        public String describe() {
            return what;
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isTextual();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isTextual() || regex != null && !v.asText().matches(regex)) out.add(at.problem(expected(this, v)));
        }
    }

    /** One of a fixed set of strings. */
    record Choice(List<String> values) implements Shape {
        @Override
        public String describe() {
            return values.size() == 1 ? "\"" + values.get(0) + "\"" : "one of " + String.join(", ", values);
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isTextual();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isTextual() || !values.contains(v.asText())) out.add(at.problem(expected(this, v)));
        }
    }

    /** Octets as hex digits, two per octet; {@code spaces}: blanks between them are allowed (and ignored). */
    record Hex(boolean spaces) implements Shape {
        @Override
        public String describe() {
            return "hex octets (two hex digits each" + (spaces ? ", blanks allowed" : "") + ")";
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isTextual();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            String s = v.isTextual() ? v.asText() : "?";
            if (spaces) s = s.replace(" ", "");
            if (!v.isTextual() || !s.matches("([0-9a-fA-F]{2})*")) out.add(at.problem(expected(this, v)));
        }
    }

    /** A list of {@code item}; {@code size} elements exactly unless it is -1. */
    record ListOf(Shape item, int size) implements Shape {
        @Override
        public String describe() {
            return "a list of " + (size >= 0 ? size + " × " : "") + item.describe();
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isArray();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isArray() || size >= 0 && v.size() != size) {
                out.add(at.problem(expected(this, v)));
                return;
            }
            for (int i = 0; i < v.size(); i++) item.check(v.get(i), at.index(i), out);
        }
    }

    /** A map whose keys are free (e.g. requirement ids), each value of one shape. */
    record MapOf(Shape value, String keys) implements Shape {
        @Override
        public String describe() {
            return "a map of " + keys + " to " + value.describe();
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isObject();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isObject()) {
                out.add(at.problem(expected(this, v)));
                return;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                value.check(e.getValue(), at.key(e.getKey()), out);
            }
        }
    }

    /** A name of a buffer: "dut", "tester", or one of the scenario's {@code buffers:}. */
    record BufferName() implements Shape {
        @Override
        public String describe() {
            return "a buffer name (dut, tester or one of buffers:)";
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isTextual();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isTextual() || !at.buffers().contains(v.asText())) {
                out.add(at.problem("expected a buffer name (" + String.join(", ", at.buffers()) + "), got "
                        + shown(v)));
            }
        }
    }

    /** A list of steps, each {@code {name: argument}} with a name of the {@link StepRegistry}. */
    record Steps() implements Shape {
        @Override
        public String describe() {
            return "a list of steps";
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isArray();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isArray()) {
                out.add(at.problem(expected(this, v)));
                return;
            }
            for (int i = 0; i < v.size(); i++) {
                JsonNode st = v.get(i);
                Where w = at.index(i);
                if (!st.isObject() || st.size() != 1) {
                    out.add(w.problem("a step is a map of one step name to its argument, got " + shown(st)));
                    continue;
                }
                String name = st.fieldNames().next();
                StepDef def = StepRegistry.get(name);
                Where inner = new Where(w.pointer().appendProperty(name), "step \"" + name + "\"", at.buffers());
                if (def == null) {
                    out.add(new Problem(inner.pointer(), "unknown step \"" + name + "\" (known: "
                            + String.join(", ", StepRegistry.names()) + ")"));
                } else {
                    def.argument().check(st.get(name), inner, out);
                }
            }
        }
    }

    /** A key of a map: its name, its shape, whether it must be there. */
    record Key(String name, Shape shape, boolean required) {
    }

    /**
     * A map with these keys only; {@code groups}: sets of keys of which at most one may be given (exactly one when the
     * group is required), e.g. a check against {@code data | pattern | u64}.
     */
    record Obj(List<Key> keys, List<Group> groups) implements Shape {

        /** Keys that exclude each other; {@code required}: one of them must be given. */
        record Group(List<String> keys, boolean required) {
        }

        /** This map with one more group of keys that exclude each other. */
        Obj exclusive(boolean required, String... names) {
            List<Group> gs = new ArrayList<>(groups);
            gs.add(new Group(List.of(names), required));
            return new Obj(keys, List.copyOf(gs));
        }

        /** This map with {@code more} keys after its own. */
        Obj plus(Key... more) {
            List<Key> ks = new ArrayList<>(keys);
            ks.addAll(Arrays.asList(more));
            return new Obj(List.copyOf(ks), groups);
        }

        Key key(String name) {
            for (Key k : keys) if (k.name().equals(name)) return k;
            return null;
        }

        List<String> names() {
            return keys.stream().map(Key::name).toList();
        }

        @Override
        public String describe() {
            return keys.isEmpty() ? "{}" : "a map {" + String.join(", ", names()) + "}";
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isObject();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isObject()) {
                out.add(at.problem(expected(this, v)));
                return;
            }
            Iterator<String> it = v.fieldNames();
            while (it.hasNext()) {
                String k = it.next();
                Key key = key(k);
                if (key == null) {
                    out.add(new Problem(at.pointer().appendProperty(k), (at.context().isEmpty() ? ""
                            : at.context() + ": ") + "unknown key \"" + k + "\" (known: "
                            + (keys.isEmpty() ? "none" : String.join(", ", names())) + ")"));
                } else {
                    key.shape().check(v.get(k), at.key(k), out);
                }
            }
            for (Key k : keys) {
                if (k.required() && !v.has(k.name())) out.add(at.problem("missing key \"" + k.name() + "\""));
            }
            for (Group g : groups) {
                List<String> given = g.keys().stream().filter(v::has).toList();
                if (given.size() > 1) {
                    out.add(at.problem("takes one of " + String.join(", ", g.keys()) + ", not "
                            + String.join(" and ", given)));
                } else if (given.isEmpty() && g.required()) {
                    out.add(at.problem("needs one of " + String.join(", ", g.keys())));
                }
            }
        }
    }

    /**
     * A map whose keys depend on the value of one of them, {@code tag} (the control protocol's {@code op}): the
     * {@code common} keys and those of the variant the tag names.
     */
    record Tagged(String tag, Obj common, Map<String, Obj> variants) implements Shape {

        public Tagged {
            variants = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(variants));
        }

        @Override
        public String describe() {
            return "a map {" + tag + ": " + String.join(" | ", variants.keySet()) + ", ...}";
        }

        @Override
        public boolean accepts(JsonNode v) {
            return v.isObject();
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            if (!v.isObject()) {
                out.add(at.problem(expected(this, v)));
                return;
            }
            JsonNode t = v.get(tag);
            Obj variant = t != null && t.isTextual() ? variants.get(t.asText()) : null;
            String choices = new Choice(List.copyOf(variants.keySet())).describe();
            if (t == null) {
                out.add(at.problem("missing key \"" + tag + "\" (" + choices + ")"));
                return;
            }
            if (variant == null) {
                out.add(at.key(tag).problem("expected " + choices + ", got " + shown(t)));
                return;
            }
            common.plus(variant.keys().toArray(Key[]::new)).check(v, at, out);
        }
    }

    /** One of several shapes, e.g. a map or "none", a number or "quiet". */
    record Either(List<Shape> alternatives) implements Shape {
        @Override
        public String describe() {
            return alternatives.stream().map(Shape::describe).collect(Collectors.joining(" or "));
        }

        @Override
        public boolean accepts(JsonNode v) {
            return alternatives.stream().anyMatch(a -> a.accepts(v));
        }

        @Override
        public void check(JsonNode v, Where at, List<Problem> out) {
            List<Shape> meant = new ArrayList<>();
            for (Shape a : alternatives) {
                List<Problem> ps = new ArrayList<>();
                a.check(v, at, ps);
                if (ps.isEmpty()) return;
                if (a.accepts(v)) meant.add(a);
            }
            // a map meant as the map alternative: say what is wrong inside it, not only that no alternative fits
            if (meant.size() == 1) meant.get(0).check(v, at, out);
            else out.add(at.problem(expected(this, v)));
        }
    }

    // ------------------------------------------------------------------ messages

    private static String expected(Shape s, JsonNode got) {
        return "expected " + s.describe() + ", got " + shown(got);
    }

    /** A value as YAML gave it, kept short. */
    static String shown(JsonNode v) {
        String s = v.isMissingNode() ? "nothing" : v.isTextual() ? "\"" + v.asText() + "\"" : v.toString();
        return s.length() > 48 ? s.substring(0, 45) + "..." : s;
    }
}
