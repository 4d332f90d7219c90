package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of a declarative scenario: the connection its steps drive and the state they share — octets a
 * {@code send} held back, the named buffers, the tester's buffer, how many of the DUT's requests were answered, the
 * last segment sent. Every step and every value expression is handed the run; nothing of it lives in static or
 * thread-local state, so runs cannot see each other.
 */
final class ScenarioRun {

    private final ScenarioContext ctx;
    private final Session session;
    private final JsonNode spec;
    private final Map<String, NamedBuffer> buffers = new LinkedHashMap<>();
    private NamedBuffer tester;
    private byte[] testerData = new byte[0];
    private byte[] stash;
    private long receivesPosted;
    private int readsAnswered;
    private int atomicsAnswered;
    private DdpSegment lastSent;
    /** per QN, a message the tester left open ({@code last: false}): its MSN and the MO that follows */
    private final Map<Integer, long[]> openMessages = new java.util.HashMap<>();

    ScenarioRun(ScenarioContext ctx, Session session, JsonNode spec) {
        this.ctx = ctx;
        this.session = session;
        this.spec = spec;
        this.receivesPosted = Math.max(0, session.receives());
    }

    ScenarioContext ctx() {
        return ctx;
    }

    Session session() {
        return session;
    }

    ScriptedConnection conn() {
        return session.conn();
    }

    JsonNode spec() {
        return spec;
    }

    // ------------------------------------------------------------------ steps

    /** Runs one step, {@code {name: argument}}, by the handler the registry gives its name. */
    void step(JsonNode step) throws Exception {
        String name = step.fieldNames().next();
        StepDef def = StepRegistry.get(name);
        if (def == null) throw new IllegalArgumentException("unknown step \"" + name + "\"");
        def.handler().run(this, step.get(name));
    }

    /** Runs a list of steps in order. */
    void steps(JsonNode list) throws Exception {
        for (JsonNode st : list) step(st);
    }

    // ------------------------------------------------------------------ state the steps share

    /** What a check compared and found as it should be, for the report ({@link ScenarioContext#compared}). */
    void compared(String what) {
        ctx.compared(what);
    }

    /** An amount of octets for the report: "1 MiB", "4 KiB", "1,438 octets", "1 octet". */
    static String size(long n) {
        if (n >= 1L << 20 && n % (1L << 20) == 0) return (n >> 20) + " MiB";
        if (n >= 1L << 10 && n % (1L << 10) == 0) return (n >> 10) + " KiB";
        return String.format(java.util.Locale.ROOT, "%,d", n) + (n == 1 ? " octet" : " octets");
    }

    /** Octets a {@code send} with {@code tcp: {stop-before: n}} held back, for {@code send-rest}. */
    void stash(byte[] rest) {
        stash = rest;
    }

    /** The held-back octets, once; null when none. */
    byte[] takeStash() {
        byte[] out = stash;
        stash = null;
        return out;
    }

    void addBuffer(NamedBuffer b) {
        buffers.put(b.name(), b);
    }

    boolean hasBuffer(String name) {
        return buffers.containsKey(name);
    }

    /** The tester's own buffer and what it holds. */
    void testerBuffer(NamedBuffer b, byte[] data) {
        tester = b;
        testerData = data;
    }

    NamedBuffer tester() {
        return tester;
    }

    byte[] testerData() {
        return testerData;
    }

    /** A named buffer: "dut" (the scenario buffer), "tester", or one of {@code buffers:}; null when unknown. */
    NamedBuffer named(String name) {
        if (name.equals("tester")) return tester;
        if (name.equals("dut")) {
            Session.DutBuffer b = session.buffer();
            return b == null ? null : new NamedBuffer("dut", b.stag(), b.to(), b.length(), b.mr(), false,
                    HexFormat.of().parseHex(Setup.CANARY));
        }
        return buffers.get(name);
    }

    /** The DUT buffers of the run: the scenario's own and the scenario buffer. */
    List<NamedBuffer> dutBuffers() {
        List<NamedBuffer> out = new ArrayList<>(buffers.values());
        NamedBuffer d = named("dut");
        if (d != null) out.add(d);
        return out;
    }

    /** Receives the DUT has posted for the tester's Sends, after {@code more} were posted. */
    long postReceives(long more) {
        receivesPosted += more;
        return receivesPosted;
    }

    int readsAnswered() {
        return readsAnswered;
    }

    void readsAnswered(int n) {
        readsAnswered = n;
    }

    int atomicsAnswered() {
        return atomicsAnswered;
    }

    void atomicsAnswered(int n) {
        atomicsAnswered = n;
    }

    /** The last DDP segment the tester sent, for {@code terminated: previous} and {@code header: previous}. */
    DdpSegment lastSent() {
        return lastSent;
    }

    void sent(DdpSegment s) {
        lastSent = s;
    }

    /** The message the tester left open on queue {@code qn}: {MSN, next MO}, or null. */
    long[] openMessage(int qn) {
        return openMessages.get(qn);
    }

    /** Leaves a message open on queue {@code qn} ({MSN, next MO}), or closes it (null). */
    void openMessage(int qn, long[] open) {
        if (open == null) openMessages.remove(qn);
        else openMessages.put(qn, open);
    }

    // ------------------------------------------------------------------ value expressions

    /** A number field of {@code a}: a number, or an {@link Expression} over the run's buffers; {@code dflt}: absent. */
    long value(JsonNode a, String field, long dflt) {
        JsonNode v = a.get(field);
        if (v == null || v.isNull()) return dflt;
        if (v.isNumber()) return v.asLong();
        return Expression.evaluate(v.asText(), field, this::term);
    }

    /** The value of a named term: {@code dut.*}, a buffer's field, {@code mulpdu}; null when it names nothing. */
    private Long term(String t) {
        Session.DutBuffer b = session.buffer();
        switch (t) {
            case "dut.stag" -> {
                return b == null ? 0 : b.stag();
            }
            case "dut.to" -> {
                return b == null ? 0 : b.to();
            }
            case "dut.len" -> {
                return b == null ? 0L : b.length();
            }
            case "dut.end" -> {
                return b == null ? 0 : b.to() + b.length();
            }
            case "mulpdu" -> {
                return (long) conn().mulpdu(1460) - DdpHeader.TAGGED_LENGTH;
            }
            case "mulpdu.untagged" -> {
                return (long) conn().mulpdu(1460) - DdpHeader.UNTAGGED_LENGTH;
            }
            default -> {
            }
        }
        int dot = t.indexOf('.');
        if (dot < 0) return null;
        String name = t.substring(0, dot), field = t.substring(dot + 1);
        NamedBuffer n = named(name);
        if (n == null) return null;
        return switch (field) {
            case "stag" -> n.stag();
            case "to" -> n.to();
            case "len" -> (long) n.length();
            case "end" -> n.to() + n.length();
            case "mr" -> (long) n.mr();
            default -> throw new IllegalArgumentException("unknown field \"" + field + "\" of buffer " + name
                    + " (" + String.join(", ", Expression.FIELDS) + ")");
        };
    }

    /** Replaces value expressions ("dut.stag", "other.mr", "tester.to+8") in a control request, at any depth. */
    void resolve(ObjectNode req) {
        Iterator<Map.Entry<String, JsonNode>> it = req.fields();
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
        it.forEachRemaining(fields::add);
        for (Map.Entry<String, JsonNode> f : fields) {
            JsonNode v = f.getValue();
            if (v instanceof ObjectNode o) {
                resolve(o);
            } else if (v.isTextual() && isExpression(v.asText())) {
                long x = value(req, f.getKey(), 0);
                if (f.getKey().equals("to") || f.getKey().equals("imm") || f.getKey().equals("add")
                        || f.getKey().equals("compare") || f.getKey().equals("swap")) {
                    req.set(f.getKey(), new TextNode(io.rddp.dut.Values.hex64(x)));
                } else {
                    req.put(f.getKey(), x);
                }
            }
        }
    }

    private boolean isExpression(String v) {
        String e = v.replace(" ", "");
        if (e.startsWith("mulpdu")) return true;
        int dot = e.indexOf('.');
        if (dot <= 0) return false;
        String name = e.substring(0, dot);
        return name.equals("dut") || name.equals("mulpdu") || name.equals("tester") || buffers.containsKey(name);
    }
}
