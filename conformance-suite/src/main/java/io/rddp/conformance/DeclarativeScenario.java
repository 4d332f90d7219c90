package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.ddp.DdpSegment;
import io.rddp.conformance.ControlClient;
import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A scenario written as data (conformance-suite/src/main/resources/io/rddp/conformance/scenarios/*.yaml): a setup,
 * steps the tester carries out, and the reactions it accepts. The steps cover the common shape of a conformance
 * test: open a connection, send correct and faulty PDUs with any field at any value, and watch the DUT. The format is
 * described in the README of the scenarios folder.
 */
final class DeclarativeScenario implements Scenario {

    private final ScenarioInfo info;
    private final JsonNode spec;

    DeclarativeScenario(ScenarioInfo info, JsonNode spec) {
        this.info = info;
        this.spec = spec;
    }

    @Override
    public ScenarioInfo info() {
        return info;
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        Setup setup = setup(spec);
        if (MpaSteps.dutActive(spec)) {
            MpaSteps.runActive(this, ctx, setup, spec); // the DUT is the MPA Initiator
            return;
        }
        Session s = MpaSteps.openPassive(ctx, setup, spec);
        if (setup.request() != null) {
            s.conn().injectedStartFrame(Injected.startFrame(spec.path("mpa"), setup.request()));
        }
        MpaStartFrame reply = s.conn().peerStartFrame();
        if (setup.request() != null && reply == null && !spec.path("mpa").has("expect-reject")) {
            throw new DutSilent("the DUT gave no MPA Reply to a valid Request, so the scenario could not reach its"
                    + " fault");
        }
        if (setup.request() != null && reply != null && reply.reject() && !spec.path("mpa").has("expect-reject")) {
            throw new ScenarioFailure("the DUT rejected a valid MPA Request, so the scenario could not reach its"
                    + " fault");
        }
        runSteps(ctx, s);
    }

    /** The scenario's steps on {@code s}, one {@link ScenarioRun}, with its extra DUT buffers registered first. */
    void runSteps(ScenarioContext ctx, Session s) throws Exception {
        ScenarioRun run = new ScenarioRun(ctx, s, spec);
        BufferSteps.registerBuffers(run);
        run.steps(spec.path("steps"));
    }

    // ------------------------------------------------------------------ setup

    static Setup setup(JsonNode spec) {
        Setup s = Setup.defaults();
        JsonNode st = spec.path("setup");
        if (st.has("receives") || st.has("receive-length")) {
            s = s.withReceives(st.path("receives").asInt(s.receives()), st.path("receive-length")
                    .asInt(s.receiveLength()));
        }
        if (st.has("buffer") || st.has("access")) {
            java.util.Set<String> access = new java.util.HashSet<>();
            if (st.has("access")) st.path("access").forEach(a -> access.add(a.asText()));
            else access.addAll(s.bufferAccess());
            s = s.withBuffer(st.path("buffer").asInt(s.bufferLength()), access);
        }
        if (st.path("manual-accept").asBoolean(false)) s = s.withManualAccept(true);
        if (st.has("ird") || st.has("ord")) s = s.withIrdOrd(st.path("ird").asInt(-1), st.path("ord").asInt(-1));
        JsonNode mpa = spec.path("mpa");
        if (mpa.isTextual() && mpa.asText().equals("none")) return s.withRequest(null);
        if (mpa.isObject()) s = s.withRequest(startFrame(mpa, true));
        return s;
    }

    /** An MPA start frame from {key, m, c, r, res, rev, pd-length, private-data, enhanced{...}}. */
    static MpaStartFrame startFrame(JsonNode f, boolean request) {
        int rev = f.path("rev").asInt(2);
        MpaStartFrame.Enhanced e = null;
        JsonNode en = f.path("enhanced");
        if (rev >= 2 && !(en.isBoolean() && !en.asBoolean())) {
            e = new MpaStartFrame.Enhanced(en.path("ird").asInt(f.path("ird").asInt(4)),
                    en.path("ord").asInt(f.path("ord").asInt(4)), en.path("p2p").asBoolean(false),
                    en.path("send").asBoolean(false), en.path("write").asBoolean(false), en.path("read").asBoolean(false));
        }
        byte[] pd = f.has("private-data") ? HexFormat.of().parseHex(f.path("private-data").asText()) : new byte[0];
        boolean m = f.path("m").asInt(0) != 0, c = f.path("c").asInt(0) != 0, r = f.path("r").asInt(0) != 0;
        MpaStartFrame base = request ? MpaStartFrame.request(m, c, rev, e, pd) : MpaStartFrame.reply(m, c, r, rev, e, pd);
        int res = f.has("res") ? f.path("res").asInt() : base.reserved();
        int pdLength = f.has("pd-length") ? f.path("pd-length").asInt() : base.pdLength();
        byte[] privateData = base.privateData();
        if (f.has("private-length")) privateData = new byte[f.path("private-length").asInt()];
        boolean keyValid = !f.has("key");
        MpaStartFrame out = new MpaStartFrame(base.kind(), keyValid, m, c, r && request || base.reject(), res, rev,
                f.has("private-length") && !f.has("pd-length") ? privateData.length : pdLength, privateData,
                base.enhanced());
        return out;
    }

    // ------------------------------------------------------------------ steps

    /** An MPA Request as given; cut into TCP writes with {@code tcp}, the DUT watched between them. */
    static void start(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        MpaStartFrame f = startFrame(a, true);
        if (a.has("tcp")) {
            MpaSteps.start(r, a);
        } else if (a.has("key")) {
            byte[] bytes = f.toBytes();
            byte[] key = a.path("key").asText().getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(key, 0, bytes, 0, Math.min(16, key.length));
            c.injectNext(bytes.length, Injected.startFrame(a, f));
            c.write(bytes);
        } else {
            c.injectNext(f.toBytes().length, Injected.startFrame(a, f));
            c.sendStartFrame(f);
        }
        if (a.path("full-operation").asBoolean(false) && !a.has("tcp")) c.fullOperation(f.crc(), false);
    }

    /** The DUT's MPA Reply; Full Operation when it accepts. */
    static void awaitReply(ScenarioRun r, JsonNode a) throws Exception {
        MpaStartFrame reply = r.conn().awaitStartFrame(r.ctx().timeouts().connect());
        if (reply != null && !reply.reject()) r.conn().fullOperation();
    }

    static void fullOperation(ScenarioRun r, JsonNode a) {
        r.conn().fullOperation(a.path("crc").asBoolean(false), a.path("markers").asBoolean(false));
    }

    static void raw(ScenarioRun r, JsonNode a) throws Exception {
        r.conn().write(HexFormat.of().parseHex(a.asText().replace(" ", "")));
    }

    static void pause(ScenarioRun r, JsonNode a) throws InterruptedException {
        Thread.sleep(Math.min(a.asLong(), 10_000)); // the tester's own pacing, which the scenario's fault is made of
    }

    static void fin(ScenarioRun r, JsonNode a) throws Exception {
        r.conn().finish();
    }

    static void rst(ScenarioRun r, JsonNode a) throws Exception {
        r.conn().abort();
    }

    static void expectFpdus(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        if (!c.awaitFpdus(a.asInt(), r.ctx().timeouts().reaction())) {
            throw new ScenarioFailure("the DUT sent " + fpdus(c) + " FPDUs, " + a.asInt() + " were expected");
        }
    }

    /**
     * The DUT's RDMA Read Response carries what the buffer holds: {@code data}, the octets; or {@code length}, the
     * default payload pattern of the send step.
     */
    static void checkRead(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        ScenarioContext ctx = r.ctx();
        byte[] want = a.has("data") ? HexFormat.of().parseHex(a.path("data").asText()) : payload(a);
        boolean some = c.await(x -> AgentDut.readResponseBytes(x) >= want.length
                || x.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN, ctx.timeouts().reaction());
        if (a.path("unless-closed").asBoolean(false) && AgentDut.readResponseBytes(c) < want.length
                && c.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN) {
            return; // the DUT refused what came before (a reaction the scenario judges)
        }
        if (!some) {
            throw new ScenarioFailure("no RDMA Read Response of " + want.length + " octets within "
                    + ctx.timeouts().reaction() + " ms");
        }
        byte[] got = AgentDut.readResponseData(c, want.length);
        if (!java.util.Arrays.equals(got, want)) {
            throw new ScenarioFailure("the RDMA Read Response carried " + HexFormat.of().formatHex(got)
                    + ", the buffer holds " + HexFormat.of().formatHex(want));
        }
        r.compared(ScenarioRun.size(want.length) + " read back, equal");
    }

    /** No FPDU from the DUT for {@code ms}, or the quiet time ("quiet"). */
    static void expectQuiet(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        int before = fpdus(c);
        // watched for the whole window, failing at the first FPDU
        c.await(x -> fpdus(x) > before, a.isTextual() && a.asText().equals("quiet") ? r.ctx().timeouts().quiet()
                : Math.min(a.asLong(), 5000));
        if (fpdus(c) > before) {
            throw new ScenarioFailure("the DUT sent " + (fpdus(c) - before) + " FPDU(s) where it had to wait");
        }
    }

    private static int fpdus(ScriptedConnection c) {
        int n = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) if (p.start() == null) n++;
        return n;
    }

    /**
     * {@code count} (default 1) messages, every field defaulted from the connection's state and overridable, written
     * one FPDU per write unless {@code tcp} says otherwise ({@code coalesce}: everything in one write).
     */
    static void send(ScenarioRun r, JsonNode a) throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        List<Integer> cuts = new ArrayList<>();
        int times = a.path("count").asInt(1);
        for (int i = 0; i < times; i++) encode(r, a, all, cuts);
        byte[] bytes = all.toByteArray();
        JsonNode tcp = a.path("tcp");
        int[] at;
        if (tcp.path("every").asInt(0) > 0) {
            int k = tcp.path("every").asInt();
            at = new int[(bytes.length - 1) / k];
            for (int i = 0; i < at.length; i++) at[i] = (i + 1) * k;
        } else if (tcp.has("cuts")) {
            at = new int[tcp.path("cuts").size()];
            for (int i = 0; i < at.length; i++) at[i] = tcp.path("cuts").get(i).asInt();
        } else if (tcp.path("coalesce").asBoolean(false)) {
            at = new int[0];
        } else {
            at = cuts.stream().mapToInt(Integer::intValue).limit(Math.max(0, cuts.size() - 1)).toArray();
        }
        if (tcp.path("stop-before").asInt(0) > 0) {
            // all but the last octets now; a send-rest step writes them (RFC 5044 §6: an FPDU is whole or nothing)
            int keep = Math.min(bytes.length, tcp.path("stop-before").asInt());
            r.stash(java.util.Arrays.copyOfRange(bytes, bytes.length - keep, bytes.length));
            bytes = java.util.Arrays.copyOf(bytes, bytes.length - keep);
            final int n = bytes.length;
            at = java.util.Arrays.stream(at).filter(x -> x < n).toArray();
        }
        r.conn().write(bytes, at, tcp.path("pause-ms").asInt(0));
    }

    /** One message's FPDUs appended to {@code all}, the end of each FPDU to {@code cuts}. */
    private static void encode(ScenarioRun r, JsonNode a, ByteArrayOutputStream all, List<Integer> cuts) {
        ScenarioContext ctx = r.ctx();
        Session s = r.session();
        ScriptedConnection c = r.conn();
        String op = a.path("opcode").asText("send");
        int mulpdu = a.has("mulpdu") ? a.path("mulpdu").asInt() : c.mulpdu(a.path("mss").asInt(1460));
        byte[] data = a.path("length").isTextual() && !a.has("data") ? StepValues.pattern((int) r.value(a, "length", 0))
                : payload(a);
        if ((op.equals("send") || op.equals("send_se")) && !a.has("data")) data = ctx.dut().sendPayload(s, data);
        ByteBuffer d = ByteBuffer.wrap(data);
        io.rddp.rdmap.Opcode opcode = StepValues.opcode(op);
        long due = opcode.tagged() ? -1 : c.peekMsn(Math.max(0, opcode.queueNumber())); // before msn() counts it
        RdmapEncoder.Builder b = switch (op) {
            case "send" -> RdmapEncoder.send(msn(c, 0, a), d, mulpdu);
            case "send_se" -> RdmapEncoder.sendWithSe(msn(c, 0, a), d, mulpdu);
            case "send_inv" -> RdmapEncoder.sendWithInvalidate(msn(c, 0, a), d, mulpdu,
                    r.value(a, "invalidate-stag", 0));
            case "send_se_inv" -> RdmapEncoder.sendWithSeAndInvalidate(msn(c, 0, a), d, mulpdu,
                    r.value(a, "invalidate-stag", 0));
            case "write" -> RdmapEncoder.write(r.value(a, "stag", dutStag(s)), r.value(a, "to", dutTo(s)), d, mulpdu);
            case "read_response" -> RdmapEncoder.readResponse(r.value(a, "stag", dutStag(s)),
                    r.value(a, "to", dutTo(s)), d, mulpdu);
            case "read" -> {
                // a Data Sink STag of its own per request, so that the judge holds each response to its own size
                long sinkStag = r.value(a, "sink-stag", 0x5EED00 | (c.peekMsn(1) & 0xFF));
                long sinkTo = r.value(a, "sink-to", 0x1000);
                long size = r.value(a, "size", 64);
                c.testerStag(sinkStag, sinkTo, Math.max(size, 1), java.util.Set.of(
                        io.rddp.sink.StagRegistration.Access.WRITE));
                yield RdmapEncoder.readRequest(msn(c, 1, a), new ReadRequest(sinkStag, sinkTo, size,
                        r.value(a, "src-stag", dutStag(s)), r.value(a, "src-to", dutTo(s)))).data(d);
            }
            case "terminate" -> RdmapEncoder.terminate(msn(c, 2, a), SendHooks.terminate(r, a)).data(d);
            case "immediate" -> RdmapEncoder.immediateData(msn(c, 0, a), r.value(a, "imm", 0x1122334455667788L))
                    .data(d);
            case "immediate_se" -> RdmapEncoder.immediateDataWithSe(msn(c, 0, a), r.value(a, "imm", 1)).data(d);
            case "fetch_add", "cmp_swap" -> {
                long id = r.value(a, "request-id", c.peekMsn(1));
                AtomicRequest ar = new AtomicRequest(0, (int) r.value(a, "aopcode", op.equals("fetch_add")
                        ? AtomicRequest.FETCH_ADD : AtomicRequest.CMP_SWAP), id, r.value(a, "stag", dutStag(s)),
                        r.value(a, "to", dutTo(s)), r.value(a, "add", r.value(a, "swap", 1)),
                        r.value(a, "mask", op.equals("fetch_add") ? 0 : -1L), r.value(a, "compare", 0),
                        op.equals("fetch_add") ? -1L : r.value(a, "compare-mask", -1L));
                yield RdmapEncoder.atomicRequest(msn(c, 1, a), ar).data(d);
            }
            case "atomic_response" -> RdmapEncoder.atomicResponse(msn(c, 3, a),
                    new AtomicResponse(r.value(a, "request-id", 1), r.value(a, "value", 0))).data(d);
            default -> throw new IllegalArgumentException("unknown opcode \"" + op + "\"");
        };
        if (a.has("opcode-value")) b.opcode(a.path("opcode-value").asInt());
        if (a.has("qn")) b.qn(a.path("qn").asLong());
        if (a.has("mo")) b.mo(a.path("mo").asLong());
        if (a.has("last")) b.lastFlag(a.path("last").asBoolean());
        if (a.has("rdma-version")) b.rdmaVersion(a.path("rdma-version").asInt());
        if (a.has("rdmap-rsv")) b.rdmapReserved(a.path("rdmap-rsv").asInt());
        if (a.has("ddp-version")) b.ddpVersion(a.path("ddp-version").asInt());
        if (a.has("ddp-rsvd")) b.ddpReserved(a.path("ddp-rsvd").asInt());
        if (a.has("tagged")) b.tagged(a.path("tagged").asBoolean());
        if (a.has("stag") && !op.equals("write") && !op.equals("read_response") && !op.startsWith("fetch")
                && !op.startsWith("cmp")) {
            b.stag(r.value(a, "stag", 0));
        }
        if (a.has("to") && !op.equals("write") && !op.equals("read_response") && !op.startsWith("fetch")
                && !op.startsWith("cmp")) {
            b.to(r.value(a, "to", 0));
        }
        if (a.has("invalidate-stag") && !op.contains("inv")) b.invalidateStag(r.value(a, "invalidate-stag", 0));
        List<DdpSegment> segs = SendHooks.segments(r, a, b.segments());
        FpduEncoder.Faults f = faults(a.path("faults"));
        int queue = Math.max(0, opcode.queueNumber()); // the opcode's: a part with a faulty QN still continues it
        WireMark.Faults injected = injected(r, a, opcode, due, data.length, r.openMessage(queue));
        if (!opcode.tagged()) {
            // a message left open (L 0) is continued by a part with its MSN at the MO after what was sent
            long used = a.has("msn") ? Injected.msn(due, a) : due;
            r.openMessage(queue, a.path("last").asBoolean(true) ? null
                    : new long[]{used, a.path("mo").asLong(0) + data.length});
        }
        for (DdpSegment seg : segs) {
            ByteBuffer u = seg.toByteBuffer();
            if (a.has("truncate")) u = ByteBuffer.wrap(java.util.Arrays.copyOf(u.array(), a.path("truncate").asInt()));
            byte[] fpdu = c.fpdu(u, f, injected);
            all.writeBytes(fpdu);
            cuts.add(all.size());
        }
        if ((op.equals("write") || op.equals("read_response")) && a.path("expect-placed").asBoolean(true)) {
            placed(ctx, s, r.value(a, "to", dutTo(s)), data.length);
        }
    }

    /** The fields of a {@code send} set to a faulty value, for the report ({@link Injected#send}). */
    private static WireMark.Faults injected(ScenarioRun r, JsonNode a, io.rddp.rdmap.Opcode op, long due,
                                            int length, long[] open) {
        Session s = r.session();
        long stag = 0, to = 0, len = length;
        switch (op) {
            case RDMA_WRITE, RDMA_READ_RESPONSE, ATOMIC_REQUEST -> {
                stag = r.value(a, "stag", dutStag(s));
                to = r.value(a, "to", dutTo(s));
            }
            case RDMA_READ_REQUEST -> {
                stag = r.value(a, "src-stag", dutStag(s));
                to = r.value(a, "src-to", dutTo(s));
                len = r.value(a, "size", 64);
            }
            default -> {
            }
        }
        return Injected.send(r.conn(), a, op, due, stag, to, len, new long[]{dutStag(s), dutTo(s)}, open);
    }

    /** Octets a correct tagged message puts into the DUT buffer are allowed by the placement check. */
    private static void placed(ScenarioContext ctx, Session s, long to, int length) {
        if (s.buffer() == null || length == 0) return;
        long off = to - s.buffer().to();
        ctx.allowPlacement(off, length);
    }

    private static byte[] payload(JsonNode a) {
        if (a.has("data")) return HexFormat.of().parseHex(a.path("data").asText());
        int n = a.path("length").asInt(0);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) ('a' + i % 26);
        return b;
    }

    /** The MSN: absolute, "+k"/"-k" from the next one, or the next one; the count follows what was sent. */
    private static long msn(ScriptedConnection c, int qn, JsonNode a) {
        if (!a.has("msn")) return c.nextMsn(qn);
        long m = Injected.msn(c.peekMsn(qn), a);
        while (c.peekMsn(qn) <= m && m - c.peekMsn(qn) < 1_000_000) c.nextMsn(qn);
        return m;
    }

    private static long dutStag(Session s) {
        return s.buffer() == null ? 0x12345600L : s.buffer().stag();
    }

    private static long dutTo(Session s) {
        return s.buffer() == null ? 0 : s.buffer().to();
    }

    static FpduEncoder.Faults faults(JsonNode f) {
        FpduEncoder.Faults out = FpduEncoder.Faults.NONE;
        if (f.isMissingNode()) return out;
        switch (f.path("crc").asText("right")) {
            case "wrong" -> out = out.withCrc(FpduEncoder.Crc.WRONG);
            case "other-order" -> out = out.withCrc(FpduEncoder.Crc.OTHER_BYTE_ORDER);
            case "zero" -> out = out.withCrc(FpduEncoder.Crc.ZERO);
            default -> {
            }
        }
        if (f.has("pad")) out = out.withPadByte(f.path("pad").asInt());
        if (f.has("marker-delta")) out = out.withMarkerPointerDelta(f.path("marker-delta").asInt());
        if (f.path("omit-markers").asBoolean(false)) out = out.withoutMarkers();
        return out;
    }

    /** Agent profile: the DUT's receive completion of the tester's Send. */
    static void checkRecv(ScenarioRun r, JsonNode a) throws Exception {
        ScenarioContext ctx = r.ctx();
        Session s = r.session();
        AgentDut agent = ctx.agent();
        int qp = ctx.qp(s);
        if (qp < 0) {
            // the DUT's accept gave no queue pair: the connection failed during the MPA exchange (siw: RST)
            if (a.path("unless-closed").asBoolean(false) && s.conn().awaitClose(ctx.timeouts().reaction())) return;
            throw new ScenarioFailure("the DUT has no queue pair for the connection (its accept failed), so no"
                    + " receive completion");
        }
        // one completion at a time: the next check-recv takes the next receive
        JsonNode wcs = agent.control().call(ControlClient.request("poll").put("qp", qp).put("max", 1)
                .put("timeout_ms", ctx.timeouts().reaction()));
        JsonNode wc = firstRecv(wcs);
        for (int i = 0; i < 16 && wc.isMissingNode() && wcs.path("completions").size() > 0; i++) {
            // only completions of work requests the DUT was told to post so far: the receive is next
            wcs = agent.control().call(ControlClient.request("poll").put("qp", qp).put("max", 1)
                    .put("timeout_ms", ctx.timeouts().reaction()));
            wc = firstRecv(wcs);
        }
        if (a.path("unless-closed").asBoolean(false) && !"success".equals(wc.path("status").asText())
                && s.conn().awaitClose(ctx.timeouts().reaction())) {
            return; // the DUT refused the message (a reaction the scenario judges), so it owes no completion
        }
        if (!"success".equals(wc.path("status").asText())) {
            String events = "";
            try {
                events = "; its events: " + agent.control().call(ControlClient.request("events").put("max", 8))
                        .path("events");
            } catch (java.io.IOException | io.rddp.dut.DutException e) {
                // the completions say enough
            }
            throw new ScenarioFailure("the DUT did not complete the receive: " + wcs.path("completions") + events);
        }
        if (a.has("length") && wc.path("byte_len").asLong() != a.path("length").asLong()) {
            throw new ScenarioFailure("the DUT received " + wc.path("byte_len") + " octets, " + a.path("length")
                    + " were sent");
        }
        if (a.has("data") && !a.path("data").asText().equals(wc.path("data").asText())) {
            throw new ScenarioFailure("the DUT received " + wc.path("data") + ", " + a.path("data") + " was sent");
        }
        r.compared("receive completion: success" + (a.has("length") ? ", " + ScenarioRun.size(a.path("length")
                .asLong()) + " as sent" : "") + (a.has("data") ? ", data equal" : ""));
    }

    /** The first receive completion of a poll's answer (or a flushed one: its status says why), else missing. */
    private static JsonNode firstRecv(JsonNode wcs) {
        for (JsonNode wc : wcs.path("completions")) {
            if (wc.path("opcode").asText("recv").startsWith("recv")) return wc;
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** Agent profile: a control-protocol operation on the session's queue pair. */
    static void dutOp(ScenarioRun r, JsonNode a) throws Exception {
        ScenarioContext ctx = r.ctx();
        Session s = r.session();
        AgentDut agent = ctx.agent();
        ObjectNode req = ((ObjectNode) a.deepCopy());
        if (!req.has("qp") && ctx.qp(s) >= 0) req.put("qp", ctx.qp(s));
        int times = req.has("repeat") ? req.remove("repeat").asInt(1) : 1;
        // refusal-ok: the DUT's verbs may refuse the operation locally (e.g. a Read with ORD 0): then nothing goes
        // on the wire, which the steps after judge
        boolean refusalOk = req.has("refusal-ok") && req.remove("refusal-ok").asBoolean();
        MpaSteps.substitute(req, s);
        r.resolve(req);
        for (int i = 0; i < times; i++) {
            ObjectNode one = req.deepCopy();
            try {
                agent.control().call(one);
            } catch (io.rddp.dut.DutException e) {
                if (!refusalOk) throw e;
                ctx.note("the DUT refused " + one.path("op").asText() + " locally: " + e.getMessage());
                return;
            }
            ControlSteps.afterDutOp(r, one);
        }
    }

    /** Used by the report for a short description of a step list. */
    static String describeSteps(JsonNode spec) {
        List<String> out = new ArrayList<>();
        for (JsonNode step : spec.path("steps")) out.add(step.toString());
        return String.join("; ", out);
    }
}
