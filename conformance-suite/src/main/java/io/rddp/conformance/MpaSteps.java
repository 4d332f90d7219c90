package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.conformance.ControlClient;
import io.rddp.rnic.link.Link;
import io.rddp.mpa.MpaStartFrame;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The MPA start-up part of the declarative format (RFC 5044 §7.1, RFC 6581): the DUT as MPA Initiator
 * ({@code setup: {dut-active: true}}: the tester listens, the DUT connects, the tester answers its Request with a
 * Reply of any shape), the DUT's listener and accept choices, checks of the DUT's own start frame and of what its ULP
 * was given, and the steps that need to see MPA frames byte by byte. Kept apart from {@link DeclarativeScenario}'s
 * general steps; documented in the scenarios README.
 */
final class MpaSteps {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MpaSteps() {
    }

    // ------------------------------------------------------------------ setup

    /** Whether the scenario makes the DUT the MPA Initiator. */
    static boolean dutActive(JsonNode spec) {
        return spec.path("setup").path("dut-active").asBoolean(false);
    }

    /**
     * The DUT-passive connection with what {@code setup} asks of the DUT's listener ({@code dut-mpa},
     * {@code dut-private-data}) and accept ({@code reject}, which makes the accept manual).
     */
    static Session openPassive(ScenarioContext ctx, Setup setup, JsonNode spec) throws Exception {
        JsonNode st = spec.path("setup");
        ObjectNode listen = null, accept = null;
        if (st.has("dut-mpa")) {
            listen = JSON.createObjectNode();
            listen.set("mpa", controlMpa(st.path("dut-mpa")));
        }
        if (st.has("dut-private-data")) {
            if (listen == null) listen = JSON.createObjectNode();
            listen.put("private_data", st.path("dut-private-data").asText());
        }
        if (st.path("reject").asBoolean(false)) {
            setup = setup.withManualAccept(true);
            accept = JSON.createObjectNode().put("reject", true);
            if (st.has("dut-private-data")) accept.put("private_data", st.path("dut-private-data").asText());
        }
        return ctx.open(setup, listen, accept);
    }

    /** The control protocol's {@code mpa} object from the scenario's ({@code rev}, {@code crc}, ...). */
    private static ObjectNode controlMpa(JsonNode m) {
        ObjectNode o = JSON.createObjectNode();
        if (m.has("rev")) o.put("rev", m.path("rev").asInt());
        if (m.has("crc")) o.put("crc", m.path("crc").asBoolean());
        if (m.has("markers")) o.put("markers", m.path("markers").asBoolean());
        if (m.has("p2p")) o.put("p2p", m.path("p2p").asBoolean());
        if (m.has("rtr")) {
            var a = o.putArray("rtr");
            m.path("rtr").forEach(r -> a.add(r.asText()));
        }
        return o;
    }

    /**
     * A DUT-active scenario: the DUT connects; unless {@code mpa: none} the tester waits for its Request and answers
     * with the Reply {@code mpa} describes (defaults from the Request, see {@link #replyFrame}), then the steps run.
     */
    static void runActive(DeclarativeScenario d, ScenarioContext ctx, Setup setup, JsonNode spec) throws Exception {
        JsonNode st = spec.path("setup");
        JsonNode cn = st.path("connect");
        ObjectNode connect = JSON.createObjectNode();
        if (cn.has("ird")) connect.put("ird", cn.path("ird").asInt());
        if (cn.has("ord")) connect.put("ord", cn.path("ord").asInt());
        if (cn.has("private-data")) connect.put("private_data", cn.path("private-data").asText());
        if (st.has("dut-mpa")) connect.set("mpa", controlMpa(st.path("dut-mpa")));
        Session s = ctx.openActive(new ActiveSetup(setup, connect, cn.path("timeout-ms").asInt(0)));
        JsonNode mpa = spec.path("mpa");
        if (!(mpa.isTextual() && mpa.asText().equals("none"))) {
            MpaStartFrame request = awaitRequest(ctx, s);
            MpaStartFrame reply = sendReply(ctx, s, mpa.isObject() ? mpa : JSON.createObjectNode(), request);
            if (!reply.reject() && ctx.qp(s) < 0 && !mpa.has("expect-reject")) {
                throw new Scenario.ScenarioFailure("the DUT did not take a valid MPA Reply (its connect: "
                        + outcome(ctx, s) + "), so the scenario could not reach its fault");
            }
        }
        d.runSteps(ctx, s);
    }

    private static String outcome(ScenarioContext ctx, Session s) {
        return ctx.dut() instanceof ActiveDut a ? a.connectOutcome(s) : "?";
    }

    // ------------------------------------------------------------------ steps

    /** DUT-active: waits for the DUT's MPA Request. */
    static void awaitRequest(ScenarioRun r, JsonNode a) throws Exception {
        awaitRequest(r.ctx(), r.session());
    }

    /** DUT-active: the tester's Reply to the DUT's Request, as {@code a} describes it. */
    static void reply(ScenarioRun r, JsonNode a) throws Exception {
        sendReply(r.ctx(), r.session(), a, awaitRequest(r.ctx(), r.session()));
    }

    /** DUT-active: the DUT's connect returned as {@code expect} says (default established). */
    static void awaitConnect(ScenarioRun r, JsonNode a) throws Exception {
        boolean ok = r.ctx().qp(r.session()) >= 0;
        boolean wantFailed = "failed".equals(a.path("expect").asText("established"));
        if (ok == wantFailed) {
            throw new Scenario.ScenarioFailure("the DUT's connect " + (wantFailed ? "succeeded" : "did not"
                    + " succeed") + ": " + outcome(r.ctx(), r.session()));
        }
    }

    /** The DUT's start frame (its Reply, or its Request when DUT-active) has the fields {@code a} names. */
    static void checkMpa(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        MpaStartFrame f = c.awaitStartFrame(r.ctx().timeouts().connect());
        if (a.path("if-accepted").asBoolean(false) && (f == null || f.reject())) return;
        if (f == null) {
            throw new Scenario.ScenarioFailure("the DUT sent no MPA " + (c.dutActive() ? "Request" : "Reply"));
        }
        List<String> wrong = checkFrame(f, a, c.dutActive() ? MpaStartFrame.Kind.REQUEST : MpaStartFrame.Kind.REPLY);
        if (!wrong.isEmpty()) {
            throw new Scenario.ScenarioFailure("the DUT's MPA " + (c.dutActive() ? "Request" : "Reply") + " "
                    + String.join("; ", wrong) + " (" + f + ")");
        }
        List<String> keys = new ArrayList<>();
        a.fieldNames().forEachRemaining(k -> {
            if (!k.equals("if-accepted")) keys.add(k);
        });
        r.compared("the DUT's MPA " + (c.dutActive() ? "Request" : "Reply") + ": key, Res, PD_Length"
                + (keys.isEmpty() ? "" : ", " + String.join(", ", keys)) + " as expected");
    }

    /** A scenario for one outcome of the negotiation: a DUT whose frame differs is not supported there. */
    static void skipUnlessMpa(ScenarioRun r, JsonNode a) throws Exception {
        MpaStartFrame f = r.conn().awaitStartFrame(r.ctx().timeouts().connect());
        List<String> wrong = f == null ? List.of("none came") : checkFrame(f, a, f.kind());
        if (!wrong.isEmpty()) {
            throw new Scenario.Skip("the scenario needs a DUT whose MPA frame " + a + "; its frame "
                    + String.join("; ", wrong), true);
        }
    }

    /** No octet at all from the DUT for {@code ms}, or the quiet time ("quiet", scaled with the others). */
    static void expectSilence(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        long before = c.dutBytes();
        // watched for the whole window (a silence is only shown by its length), failing at the first octet
        c.await(x -> x.dutBytes() > before, a.isTextual() && a.asText().equals("quiet") ? r.ctx().timeouts().quiet()
                : Math.min(a.asLong(), 5000));
        if (c.dutBytes() > before) {
            throw new Scenario.ScenarioFailure("the DUT sent " + (c.dutBytes() - before)
                    + " octets where it had to stay silent");
        }
    }

    /** The octets a {@code send} with {@code tcp: {stop-before: n}} held back. */
    static void sendRest(ScenarioRun r, JsonNode a) throws Exception {
        byte[] rest = r.takeStash();
        if (rest == null) throw new IllegalArgumentException("send-rest without a send that stopped early");
        r.conn().write(rest);
    }

    /** An STag of the tester's the DUT will access: its RDMA Writes and Read Requests are judged in bounds. */
    static void testerStag(ScenarioRun r, JsonNode a) {
        r.conn().testerStag(r.value(a, "stag", 0), r.value(a, "to", 0), r.value(a, "length", 4096),
                java.util.EnumSet.of(io.rddp.sink.StagRegistration.Access.READ,
                        io.rddp.sink.StagRegistration.Access.WRITE));
    }

    /** The DUT's MPA Request of a DUT-active session. */
    static MpaStartFrame awaitRequest(ScenarioContext ctx, Session s) throws Exception {
        MpaStartFrame f = s.conn().awaitStartFrame(ctx.timeouts().connect());
        if (f == null) {
            throw new Scenario.ScenarioFailure("the DUT sent no MPA Request within " + ctx.timeouts().connect()
                    + " ms of connecting" + (s.conn().peerClose() != Link.PeerClose.OPEN ? " (it closed)" : ""));
        }
        return f;
    }

    /**
     * A {@code start} step with {@code tcp} cuts: the Request goes out in pieces, and the DUT must not answer before
     * the last one (RFC 5044 §7.1.2: the Responder waits until a Request "is received and validated").
     */
    static void start(ScenarioRun r, JsonNode a) throws Exception {
        MpaStartFrame f = DeclarativeScenario.startFrame(a, true);
        writeFrame(r.conn(), f, a);
        if (a.path("full-operation").asBoolean(false)) r.conn().fullOperation(f.crc(), false);
    }

    /** The tester's MPA Reply to the DUT's {@code request}, as {@code a} describes it; returns what was sent. */
    static MpaStartFrame sendReply(ScenarioContext ctx, Session s, JsonNode a, MpaStartFrame request)
            throws Exception {
        MpaStartFrame f = replyFrame(a, request);
        writeFrame(s.conn(), f, a);
        boolean full = a.has("full-operation") ? a.path("full-operation").asBoolean()
                : !f.reject() && !a.has("key");
        if (full) s.conn().fullOperation();
        return f;
    }

    /** Writes a start frame with the scenario's key and TCP cuts, failing when the DUT answers before the end. */
    private static void writeFrame(ScriptedConnection c, MpaStartFrame f, JsonNode a) throws Exception {
        byte[] bytes = f.toBytes();
        if (a.has("key")) {
            byte[] key = a.path("key").asText().getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(key, 0, bytes, 0, Math.min(MpaStartFrame.KEY_LENGTH, key.length));
        }
        c.injectNext(bytes.length, Injected.startFrame(a, f));
        JsonNode tcp = a.path("tcp");
        List<Integer> ends = new ArrayList<>();
        if (tcp.path("every").asInt(0) > 0) {
            for (int i = tcp.path("every").asInt(); i < bytes.length; i += tcp.path("every").asInt()) ends.add(i);
        } else {
            tcp.path("cuts").forEach(x -> ends.add(x.asInt()));
        }
        if (ends.isEmpty()) {
            c.sendStartFrame(f, bytes, new int[0], 0);
            return;
        }
        ends.add(bytes.length);
        int from = 0, pause = tcp.path("pause-ms").asInt(0);
        boolean first = true;
        for (int end : ends) {
            if (end <= from || end > bytes.length) continue;
            byte[] part = java.util.Arrays.copyOfRange(bytes, from, end);
            if (first) {
                c.sendStartFrame(f, part, new int[0], 0);
                first = false;
            } else {
                c.write(part);
            }
            from = end;
            if (from < bytes.length) {
                // the pause between parts is the fault itself; an answer before the frame is complete ends it early
                if (pause > 0) c.await(MpaSteps::answered, pause);
                if (answered(c)) {
                    throw new Scenario.ScenarioFailure("the DUT answered after " + from + " of the " + bytes.length
                            + " octets of the tester's MPA " + (c.dutActive() ? "Reply" : "Request")
                            + ", before the frame was complete");
                }
            }
        }
    }

    /** The DUT reacted to an incomplete start frame of the tester: with a Reply (passive) or an FPDU (active). */
    private static boolean answered(ScriptedConnection c) {
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.start() == null || !c.dutActive()) return true;
        }
        return false;
    }

    // ------------------------------------------------------------------ frames

    /**
     * The tester's MPA Reply: every field as {@code f} says ({@code key}, {@code m}, {@code c}, {@code r},
     * {@code res}, {@code rev}, {@code pd-length}, {@code private-length}, {@code private-data},
     * {@code enhanced: {ird, ord, p2p, send, write, read}} or {@code enhanced: false}), the rest from the DUT's
     * Request as a correct Responder would answer it: the same Rev, enhanced when the Request is (RFC 6581 §10), IRD
     * the Initiator's ORD and ORD the Initiator's IRD (§9.1), A echoed and, for peer-to-peer, the first RTR type the
     * Initiator offered (Write, Send, Read; §9.2).
     */
    static MpaStartFrame replyFrame(JsonNode f, MpaStartFrame request) {
        int rev = f.has("rev") ? f.path("rev").asInt() : request.revision();
        MpaStartFrame.Enhanced theirs = request.enhanced();
        JsonNode en = f.path("enhanced");
        MpaStartFrame.Enhanced e = null;
        boolean wantEnhanced = en.isObject() || (!en.isBoolean() && theirs != null && request.enhancedFlag())
                || (en.isBoolean() && en.asBoolean());
        if (wantEnhanced) {
            boolean p2p = en.has("p2p") ? en.path("p2p").asBoolean() : theirs != null && theirs.peerToPeer();
            boolean w = theirs != null && theirs.zeroLengthWriteRtr(), sd = theirs != null && theirs.zeroLengthSendRtr(),
                    rd = theirs != null && theirs.zeroLengthReadRtr();
            boolean pickW = p2p && w, pickS = p2p && !w && sd, pickR = p2p && !w && !sd && rd;
            e = new MpaStartFrame.Enhanced(en.path("ird").asInt(theirs != null ? theirs.ord() : 4),
                    en.path("ord").asInt(theirs != null ? theirs.ird() : 4), p2p,
                    en.path("send").asBoolean(pickS), en.path("write").asBoolean(pickW),
                    en.path("read").asBoolean(pickR));
        }
        byte[] pd = f.has("private-data") ? HexFormat.of().parseHex(f.path("private-data").asText()) : new byte[0];
        boolean m = f.path("m").asInt(0) != 0, c = f.path("c").asInt(0) != 0, r = f.path("r").asInt(0) != 0;
        MpaStartFrame base = MpaStartFrame.reply(m, c, r, rev, e, pd);
        int res = f.has("res") ? f.path("res").asInt() : base.reserved();
        byte[] privateData = base.privateData();
        if (f.has("private-length")) privateData = new byte[f.path("private-length").asInt()];
        int pdLength = f.has("pd-length") ? f.path("pd-length").asInt() : privateData.length;
        return new MpaStartFrame(MpaStartFrame.Kind.REPLY, true, m, c, r, res, rev, pdLength, privateData,
                base.enhanced());
    }

    /**
     * What is wrong with the DUT's start frame {@code f} against {@code a}: always the key and zero Res bits (RFC
     * 5044 §7.1.1; the RFC 6581 S flag 0x10 is not Res), a consistent PD_Length; then each field {@code a}
     * names: {@code rev} (a number or a list), {@code m}, {@code c}, {@code r}, {@code enhanced}, {@code ird},
     * {@code ord}, {@code ird-max}, {@code ord-max}, {@code ird-min}, {@code ord-min}, {@code p2p}, {@code send},
     * {@code write}, {@code read}, {@code rtr-any} (at least one RTR flag), {@code private-data} (the ULP's octets,
     * hex), {@code pd-length}.
     */
    static List<String> checkFrame(MpaStartFrame f, JsonNode a, MpaStartFrame.Kind kind) {
        List<String> wrong = new ArrayList<>();
        if (f.kind() != kind || !f.keyValid()) {
            wrong.add("has not the key \"MPA ID " + (kind == MpaStartFrame.Kind.REQUEST ? "Req" : "Rep") + " Frame\"");
        }
        // RFC 6581 §6 takes bit 0x10 as S whatever Rev says (Rev 2 is needed to use it, not to define it): Res
        // is 0x0F, and a set S is judged by the S rule, its IRD/ORD words in the Private Data
        if ((f.reserved() & 0x0F) != 0) wrong.add("has Res bits 0x" + Integer.toHexString(f.reserved() & 0x0F));
        if (f.enhancedFlag() && f.enhanced() == null) {
            wrong.add("has the S flag but no IRD/ORD words in its Private Data (RFC 6581 §6)");
        }
        if (f.privateData().length != f.pdLength()) {
            wrong.add("has PD_Length " + f.pdLength() + " but " + f.privateData().length + " octets of Private Data");
        }
        if (f.pdLength() > MpaStartFrame.MAX_PRIVATE_DATA) wrong.add("has PD_Length above 512");
        if (a.has("rev")) {
            boolean ok = false;
            if (a.path("rev").isArray()) {
                for (JsonNode r : a.path("rev")) ok |= r.asInt() == f.revision();
            } else {
                ok = a.path("rev").asInt() == f.revision();
            }
            if (!ok) wrong.add("has Rev " + f.revision() + ", expected " + a.path("rev"));
        }
        flag(wrong, a, "m", f.markers());
        flag(wrong, a, "c", f.crc());
        flag(wrong, a, "r", f.reject());
        MpaStartFrame.Enhanced e = f.enhanced();
        if (a.has("enhanced") && a.path("enhanced").asBoolean() != (f.enhancedFlag() && e != null)) {
            wrong.add(a.path("enhanced").asBoolean() ? "is not enhanced (S flag and IRD/ORD, RFC 6581 §6)"
                    : "is enhanced (S flag " + (f.enhancedFlag() ? "set" : "clear") + ")");
        }
        boolean needE = a.has("ird") || a.has("ord") || a.has("ird-max") || a.has("ord-max") || a.has("ird-min")
                || a.has("ord-min") || a.has("p2p") || a.has("send") || a.has("write") || a.has("read")
                || a.has("rtr-any");
        if (needE && e == null) {
            wrong.add("carries no IRD/ORD");
        } else if (needE) {
            number(wrong, a, "ird", e.ird(), 0);
            number(wrong, a, "ord", e.ord(), 0);
            number(wrong, a, "ird-max", e.ird(), 1);
            number(wrong, a, "ord-max", e.ord(), 1);
            number(wrong, a, "ird-min", e.ird(), -1);
            number(wrong, a, "ord-min", e.ord(), -1);
            bool(wrong, a, "p2p", "A (peer-to-peer)", e.peerToPeer());
            bool(wrong, a, "send", "B (zero-length Send RTR)", e.zeroLengthSendRtr());
            bool(wrong, a, "write", "C (zero-length Write RTR)", e.zeroLengthWriteRtr());
            bool(wrong, a, "read", "D (zero-length Read RTR)", e.zeroLengthReadRtr());
            if (a.path("rtr-any").asBoolean(false) && !(e.zeroLengthSendRtr() || e.zeroLengthWriteRtr()
                    || e.zeroLengthReadRtr())) {
                wrong.add("names no RTR type (B, C, D all 0)");
            }
        }
        if (a.has("private-data") && !HexFormat.of().formatHex(f.ulpPrivateData()).equals(a.path("private-data")
                .asText())) {
            wrong.add("carries Private Data " + HexFormat.of().formatHex(f.ulpPrivateData()) + ", expected "
                    + a.path("private-data").asText());
        }
        number(wrong, a, "pd-length", f.pdLength(), 0);
        return wrong;
    }

    private static void flag(List<String> wrong, JsonNode a, String name, boolean v) {
        if (a.has(name) && (a.path(name).asInt() != 0) != v) {
            wrong.add("has " + name.toUpperCase(java.util.Locale.ROOT) + " = " + (v ? 1 : 0) + ", expected "
                    + a.path(name).asInt());
        }
    }

    private static void bool(List<String> wrong, JsonNode a, String name, String what, boolean v) {
        if (a.has(name) && a.path(name).asBoolean() != v) wrong.add("has " + what + " = " + (v ? 1 : 0));
    }

    /** @param how 0 equal, 1 at most, -1 at least */
    private static void number(List<String> wrong, JsonNode a, String name, int v, int how) {
        if (!a.has(name)) return;
        int want = a.path(name).asInt();
        boolean ok = how == 0 ? v == want : how > 0 ? v <= want : v >= want;
        if (!ok) wrong.add("has " + name.replace("-max", "").replace("-min", "").toUpperCase(java.util.Locale.ROOT)
                + " " + v + ", expected " + (how == 0 ? "" : how > 0 ? "at most " : "at least ") + want);
    }

    /**
     * Agent profile: what the DUT's queue pair reports ({@code qp} op, its {@code mpa} object) against {@code a}:
     * {@code private-data} (the peer's ULP Private Data as delivered), {@code ird}, {@code ord}, {@code rev},
     * {@code crc}, {@code markers-rx}, {@code markers-tx}, {@code rtr}, and {@code state}. A value the DUT does not
     * report makes the scenario not supported there.
     */
    static void checkQp(ScenarioRun run, JsonNode a) throws Exception {
        ScenarioContext ctx = run.ctx();
        Session s = run.session();
        AgentDut agent = ctx.agent();
        int qp = ctx.qp(s);
        if (qp < 0 && a.path("if-established").asBoolean(false)) return;
        if (qp < 0) throw new Scenario.ScenarioFailure("the DUT has no queue pair for the connection: "
                + outcome(ctx, s));
        JsonNode r = agent.control().call(ControlClient.request("qp").put("qp", qp));
        if (a.path("if-established").asBoolean(false) && !"rts".equals(r.path("state").asText())) return;
        List<String> wrong = new ArrayList<>();
        var it = a.fields();
        while (it.hasNext()) {
            var e = it.next();
            String k = e.getKey();
            if (k.equals("if-established")) continue;
            if (k.equals("private-length")) {
                JsonNode pd = r.path("mpa").path("private_data");
                if (pd.isMissingNode() || pd.isNull()) {
                    throw new Scenario.Skip("the DUT does not report mpa.private_data of a queue pair", true);
                }
                if (pd.asText().length() / 2 != e.getValue().asInt()) {
                    wrong.add("private data of " + pd.asText().length() / 2 + " octets, expected "
                            + e.getValue().asInt());
                }
                continue;
            }
            JsonNode got = k.equals("state") ? r.path("state") : r.path("mpa").path(k.replace('-', '_'));
            if (got.isMissingNode() || got.isNull()) {
                throw new Scenario.Skip("the DUT does not report " + (k.equals("state") ? k : "mpa." + k)
                        + " of a queue pair", true);
            }
            if (!got.asText().equals(e.getValue().asText())) {
                wrong.add(k + " " + got.asText() + ", expected " + e.getValue().asText());
            }
        }
        if (!wrong.isEmpty()) {
            throw new Scenario.ScenarioFailure("the DUT's queue pair reports " + String.join("; ", wrong));
        }
        List<String> keys = new ArrayList<>();
        a.fieldNames().forEachRemaining(k -> {
            if (!k.equals("if-established")) keys.add(k);
        });
        run.compared("the DUT's queue pair reports " + String.join(", ", keys) + " as expected");
    }

    // ------------------------------------------------------------------ helpers of the steps above

    /** In a {@code dut} request: "dut.mr" (the session buffer's region), "dut.stag", "dut.to" anywhere in it. */
    static void substitute(ObjectNode req, Session s) {
        var it = req.fields();
        List<String> keys = new ArrayList<>();
        it.forEachRemaining(e -> keys.add(e.getKey()));
        for (String k : keys) {
            JsonNode v = req.get(k);
            if (v.isObject()) {
                substitute((ObjectNode) v, s);
            } else if (v.isTextual() && s.buffer() != null) {
                switch (v.asText()) {
                    case "dut.mr" -> req.put(k, s.buffer().mr());
                    case "dut.stag" -> req.put(k, s.buffer().stag());
                    case "dut.to" -> req.put(k, "0x" + Long.toHexString(s.buffer().to()));
                    default -> {
                    }
                }
            }
        }
    }

    /**
     * The tester as peer-to-peer Initiator sends the RTR indication its Request offered and the DUT's Reply named
     * (RFC 6581 §9.2), preferring {@code prefer} (default write, send, read): a zero-length RDMA Write (STag 0, TO 0),
     * zero-length Send, or zero-length RDMA Read Request (sink STag 0x12345678).
     */
    static void rtr(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        MpaStartFrame reply = c.peerStartFrame();
        if (reply == null || reply.enhanced() == null || !reply.enhanced().peerToPeer()) {
            throw new Scenario.ScenarioFailure("the DUT's MPA Reply does not accept the peer-to-peer model");
        }
        MpaStartFrame.Enhanced e = reply.enhanced();
        List<String> order = new ArrayList<>();
        if (a.has("prefer")) a.path("prefer").forEach(x -> order.add(x.asText()));
        else order.addAll(List.of("write", "send", "read"));
        for (String t : order) {
            switch (t) {
                case "write" -> {
                    if (!e.zeroLengthWriteRtr()) continue;
                    c.send(io.rddp.rdmap.RdmapEncoder.write(0, 0, java.nio.ByteBuffer.allocate(0), c.mulpdu(1460)));
                }
                case "send" -> {
                    if (!e.zeroLengthSendRtr()) continue;
                    c.send(io.rddp.rdmap.RdmapEncoder.send(c.nextMsn(0), java.nio.ByteBuffer.allocate(0),
                            c.mulpdu(1460)));
                }
                case "read" -> {
                    if (!e.zeroLengthReadRtr()) continue;
                    c.testerStag(0x12345678L, 0, 1, java.util.Set.of(io.rddp.sink.StagRegistration.Access.WRITE));
                    c.send(io.rddp.rdmap.RdmapEncoder.readRequest(c.nextMsn(1), new io.rddp.rdmap.ReadRequest(
                            0x12345678L, 0, 0, 0, 0)));
                }
                default -> throw new IllegalArgumentException("RTR type is write, send or read, not " + t);
            }
            return;
        }
        throw new Scenario.ScenarioFailure("the DUT's MPA Reply names none of the RTR types " + order
                + " the tester offered");
    }

    /**
     * The tester as peer-to-peer Responder answers the DUT's RTR indication when it is a zero-length RDMA Read
     * Request (RFC 5040 §5.2.1: "MUST respond with a zero-length RDMA Read Response Message").
     */
    static void answerRtr(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        c.awaitFpdus(1, r.ctx().timeouts().reaction());
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.start() != null) continue;
            if (p.rdmap() != null && p.rdmap().body() instanceof io.rddp.rdmap.ReadRequest rr && rr.size() == 0) {
                c.send(io.rddp.rdmap.RdmapEncoder.readResponse(rr.sinkStag(), rr.sinkTo(),
                        java.nio.ByteBuffer.allocate(0), c.mulpdu(1460)));
            }
            return; // only the first FPDU is the RTR
        }
    }

    /**
     * Waits for a DUT PDU with the given {@code opcode} (an RDMAP opcode name as the {@code send} step takes it, e.g.
     * read_response, write, send, terminate) and, when given, {@code stag}, {@code to}, {@code length} (payload
     * octets), {@code last}; {@code first: true} asks that it be the DUT's first FPDU.
     */
    static void expectPdu(ScenarioRun r, JsonNode a) throws Exception {
        ScenarioContext ctx = r.ctx();
        ScriptedConnection c = r.conn();
        io.rddp.rdmap.Opcode op = StepValues.opcode(a.path("opcode").asText());
        java.util.function.Predicate<ScriptedConnection.DutPdu> match = p -> {
            if (p.segment() == null || p.rdmap() == null || p.rdmap().opcode() == null) return false;
            if (p.rdmap().opcode() != op) return false;
            var h = p.segment().header();
            if (a.has("last") && h.last() != a.path("last").asBoolean()) return false;
            if (a.has("length") && p.segment().payloadLength() != a.path("length").asInt()) return false;
            if (h instanceof io.rddp.ddp.TaggedHeader t) {
                if (a.has("stag") && t.stag() != r.value(a, "stag", 0)) return false;
                if (a.has("to") && t.to() != r.value(a, "to", 0)) return false;
            } else if (a.has("stag") || a.has("to")) {
                return false;
            }
            return true;
        };
        c.await(x -> x.dutPdus().stream().anyMatch(p -> p.start() == null && match.test(p))
                || x.peerClose() != Link.PeerClose.OPEN, ctx.timeouts().reaction());
        List<ScriptedConnection.DutPdu> fpdus = c.dutPdus().stream().filter(p -> p.start() == null).toList();
        boolean found = a.path("first").asBoolean(false) ? !fpdus.isEmpty() && match.test(fpdus.get(0))
                : fpdus.stream().anyMatch(match);
        if (!found) {
            throw new Scenario.ScenarioFailure("the DUT sent no " + a + " (its FPDUs: " + fpdus.stream()
                    .map(p -> p.rdmap() != null && p.rdmap().opcode() != null ? opcodeName(p.rdmap().opcode())
                            + "/" + (p.segment() != null ? p.segment().payloadLength() : -1) : "?")
                    .toList() + ")");
        }
    }

    /**
     * Waits until the DUT sent {@code total} payload octets in FPDUs of {@code opcode}, then checks the ULPDU_Length
     * of each of them: at most {@code max-ulpdu}, and at least {@code min-ulpdu-nonfinal} for every segment of a
     * message but its last (RFC 5044 §3: MULPDU lies between 128 and 64768 octets).
     */
    static void checkFpdus(ScenarioRun r, JsonNode a) throws Exception {
        ScenarioContext ctx = r.ctx();
        ScriptedConnection c = r.conn();
        io.rddp.rdmap.Opcode op = StepValues.opcode(a.path("opcode").asText());
        long total = a.path("total").asLong(0);
        java.util.function.Function<ScriptedConnection, Long> sent = x -> x.dutPdus().stream()
                .filter(p -> p.segment() != null && p.rdmap() != null && p.rdmap().opcode() != null
                        && p.rdmap().opcode() == op)
                .mapToLong(p -> p.segment().payloadLength()).sum();
        if (!c.await(x -> sent.apply(x) >= total || x.peerClose() != Link.PeerClose.OPEN,
                ctx.timeouts().reaction())) {
            throw new Scenario.ScenarioFailure("the DUT sent " + sent.apply(c) + " of " + total + " octets of "
                    + a.path("opcode").asText() + " within " + ctx.timeouts().reaction() + " ms");
        }
        List<String> wrong = new ArrayList<>();
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.segment() == null || p.rdmap() == null || p.rdmap().opcode() == null
                    || p.rdmap().opcode() != op) {
                continue;
            }
            int ulpdu = p.segment().length();
            if (a.has("max-ulpdu") && ulpdu > a.path("max-ulpdu").asInt()) {
                wrong.add("ULPDU_Length " + ulpdu + " > " + a.path("max-ulpdu").asInt());
            }
            if (a.has("min-ulpdu-nonfinal") && !p.segment().header().last()
                    && ulpdu < a.path("min-ulpdu-nonfinal").asInt()) {
                wrong.add("a non-final segment of ULPDU_Length " + ulpdu + " < " + a.path("min-ulpdu-nonfinal")
                        .asInt());
            }
        }
        if (!wrong.isEmpty()) {
            throw new Scenario.ScenarioFailure("the DUT's FPDUs: " + String.join("; ", wrong.subList(0,
                    Math.min(4, wrong.size()))) + (wrong.size() > 4 ? " and " + (wrong.size() - 4) + " more" : ""));
        }
        r.compared("the DUT's " + op.rfcName() + " FPDUs: " + ScenarioRun.size(sent.apply(c)) + ", each ULPDU_Length"
                + " within bounds");
    }

    private static String opcodeName(io.rddp.rdmap.Opcode o) {
        return switch (o) {
            case RDMA_WRITE -> "write";
            case RDMA_READ_REQUEST -> "read";
            case RDMA_READ_RESPONSE -> "read_response";
            case SEND -> "send";
            case SEND_WITH_SE -> "send_se";
            case SEND_WITH_INVALIDATE -> "send_inv";
            case SEND_WITH_SE_AND_INVALIDATE -> "send_se_inv";
            case TERMINATE -> "terminate";
            default -> o.name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
