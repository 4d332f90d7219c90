package io.rddp.conformance;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.rddp.conformance.Shape.BOOL;
import static io.rddp.conformance.Shape.HEX;
import static io.rddp.conformance.Shape.INT;
import static io.rddp.conformance.Shape.STEPS;
import static io.rddp.conformance.Shape.TEXT;
import static io.rddp.conformance.Shape.TRUE;
import static io.rddp.conformance.Shape.either;
import static io.rddp.conformance.Shape.key;
import static io.rddp.conformance.Shape.listOf;
import static io.rddp.conformance.Shape.obj;
import static io.rddp.conformance.Shape.oneOf;
import static io.rddp.conformance.Shape.required;

/**
 * The keys of a catalogue entry: those every scenario has, a declarative scenario's {@code setup}, {@code mpa},
 * {@code buffers} and {@code steps} (the steps' own from the {@link StepRegistry}), and the keys a Java scenario
 * declares with {@link ScenarioKeys}. {@link #check} finds every key that is unknown, misspelled or of the wrong
 * type, before anything runs.
 */
final class ScenarioSchema {

    /** Capability names of {@code needs}, as the profiles declare them ({@link Dut#capabilities()}). */
    static final Shape NEED = oneOf("crc", "crc-off", "markers", "mpa-rev1", "mpa-rev2", "atomics", "immediate",
            "send-invalidate", "local-invalidate", "manual-accept", "mpa-params", "rtr-write", "rtr-send", "rtr-read",
            "control");
    static final Shape PROFILE = oneOf("agent", "rping", "rping-client", "rpcrdma");
    static final Shape.Obj SETUP = obj(key("receives", INT), key("receive-length", INT), key("buffer", INT),
            key("access", listOf(StepRegistry.ACCESS)), key("manual-accept", BOOL), key("ird", INT), key("ord", INT),
            key("dut-mpa", obj(key("rev", INT), key("crc", BOOL), key("markers", BOOL), key("p2p", BOOL),
                    key("rtr", listOf(StepRegistry.RTR)))),
            key("dut-private-data", HEX), key("reject", BOOL), key("dut-active", BOOL),
            key("connect", obj(key("ird", INT), key("ord", INT), key("private-data", HEX), key("timeout-ms", INT))));
    /** The tester's MPA Request (DUT passive); {@code expect-reject}: the DUT may reject it. */
    static final Shape.Obj MPA_REQUEST = StepRegistry.REQUEST.plus(key("expect-reject", TRUE));
    /** The tester's MPA Reply to the DUT's Request (DUT active). */
    static final Shape.Obj MPA_REPLY = StepRegistry.REPLY.plus(key("expect-reject", TRUE));
    static final Shape.Obj REACTION = obj(
            key("terminate", Shape.text("[0-9]+/[0-9]+/([0-9]+|0x[0-9a-fA-F]+|\\*)", "Layer/EType/Code, e.g. 1/2/3")),
            key("close", either(TRUE, oneOf("silent"))), key("reject", TRUE), key("continue", TRUE),
            key("rpc", oneOf(RpcReaction.wireNames())), key("grade", oneOf("strict", "lenient")),
            required("reason", TEXT))
            .exclusive(true, "terminate", "close", "reject", "continue", "rpc");
    static final Shape.Obj BUFFER_ENTRY = obj(required("name", Shape.text("[a-z][a-z0-9_]*", "a name of lower-case"
                    + " letters, digits and _")), key("length", INT), key("access", listOf(StepRegistry.ACCESS)),
            key("pd", either(INT, TEXT)), key("fill", HEX));
    /** What every entry has. */
    static final Shape.Obj COMMON = obj(
            required("id", Shape.text("[a-z0-9][a-z0-9+-]*(\\.[a-z0-9][a-z0-9+-]*)+", "category.sub.name")),
            key("title", TEXT), required("requires", listOf(TEXT)), key("needs", listOf(NEED)),
            key("profiles", listOf(PROFILE)), key("expect", listOf(REACTION)), key("negative", BOOL),
            key("partly", Shape.mapOf(TEXT, "requirement ids")), key("catches", listOf(TEXT)),
            key("alone", TEXT));
    /** Names a buffer may not have: the built-in ones, and mulpdu (mulpdu.untagged would be ambiguous). */
    private static final Set<String> RESERVED = Set.of("dut", "tester", "mulpdu");

    private ScenarioSchema() {
    }

    /** The keys of a declarative scenario; its {@code mpa} is a Reply when the DUT is the MPA Initiator. */
    static Shape.Obj declarative(boolean dutActive) {
        return COMMON.plus(key("setup", SETUP), key("mpa", either(dutActive ? MPA_REPLY : MPA_REQUEST,
                oneOf("none"))), key("buffers", listOf(BUFFER_ENTRY)), key("steps", STEPS));
    }

    /** The keys of an entry naming a Java scenario: the common ones and those its class declares. */
    static Shape.Obj java(ScenarioKeys declared) {
        Shape.Obj o = COMMON.plus(required("java", TEXT));
        for (ScenarioKeys.Key k : declared.value()) o = o.plus(key(k.name(), shape(k.type())));
        return o;
    }

    private static Shape shape(ScenarioKeys.Type t) {
        return switch (t) {
            case INT -> INT;
            case BOOLEAN -> BOOL;
            case TEXT -> TEXT;
            case HEX -> HEX;
            case INT_LIST -> listOf(INT);
            case TEXT_LIST -> listOf(TEXT);
        };
    }

    /** Every problem of the entry at {@code at}. */
    static List<Shape.Problem> check(JsonNode entry, JsonPointer at) {
        List<Shape.Problem> out = new ArrayList<>();
        if (!entry.isObject()) {
            out.add(new Shape.Problem(at, "a scenario is a map of keys (id, title, ...), got " + Shape.shown(entry)));
            return out;
        }
        Set<String> buffers = new LinkedHashSet<>(List.of("dut", "tester"));
        JsonNode list = entry.path("buffers");
        for (int i = 0; i < list.size(); i++) {
            String name = list.get(i).path("name").asText("");
            if (name.isEmpty()) continue; // a missing name is reported with the entry's other keys
            if (RESERVED.contains(name) || !buffers.add(name)) {
                out.add(new Shape.Problem(at.appendProperty("buffers").appendIndex(i).appendProperty("name"),
                        "buffers: the name \"" + name + "\" is reserved or given twice"));
            }
        }
        Shape.Where where = new Shape.Where(at, "", java.util.Collections.unmodifiableSet(buffers));
        Shape.Obj keys;
        if (entry.has("java")) {
            ScenarioKeys declared = declaredKeys(entry.path("java").asText(), where.key("java"), out);
            if (declared == null) return out;
            keys = java(declared);
        } else {
            boolean active = entry.path("setup").path("dut-active").asBoolean(false);
            keys = declarative(active);
            sideOnly(entry.path("setup"), active, where.key("setup"), out);
        }
        keys.check(entry, where, out);
        return out;
    }

    /** Setup keys of one side only: the DUT's connect when it is active, its listener's answer when passive. */
    private static void sideOnly(JsonNode setup, boolean active, Shape.Where at, List<Shape.Problem> out) {
        for (String k : active ? List.of("reject", "dut-private-data") : List.of("connect")) {
            if (setup.has(k)) {
                out.add(at.key(k).problem(active ? "only when the DUT is passive, not with dut-active"
                        : "only with dut-active: true (the DUT connects)"));
            }
        }
    }

    /** The keys the Java scenario class declares; null (and a problem) when it cannot be loaded or declares none. */
    private static ScenarioKeys declaredKeys(String name, Shape.Where at, List<Shape.Problem> out) {
        Class<?> k;
        try {
            k = Class.forName(name);
        } catch (ClassNotFoundException | LinkageError e) {
            out.add(at.problem("no class " + name + " (" + e + ")"));
            return null;
        }
        ScenarioKeys keys = k.getAnnotation(ScenarioKeys.class);
        if (!Scenario.class.isAssignableFrom(k) || keys == null) {
            out.add(at.problem(name + " is no Scenario declaring the keys it reads (@ScenarioKeys)"));
            return null;
        }
        return keys;
    }
}
