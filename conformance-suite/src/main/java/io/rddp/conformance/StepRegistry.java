package io.rddp.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.rddp.conformance.Shape.BIT;
import static io.rddp.conformance.Shape.BOOL;
import static io.rddp.conformance.Shape.BUFFER;
import static io.rddp.conformance.Shape.HEX;
import static io.rddp.conformance.Shape.INT;
import static io.rddp.conformance.Shape.NUM;
import static io.rddp.conformance.Shape.STEPS;
import static io.rddp.conformance.Shape.TEXT;
import static io.rddp.conformance.Shape.TRUE;
import static io.rddp.conformance.Shape.either;
import static io.rddp.conformance.Shape.ints;
import static io.rddp.conformance.Shape.key;
import static io.rddp.conformance.Shape.listOf;
import static io.rddp.conformance.Shape.obj;
import static io.rddp.conformance.Shape.oneOf;
import static io.rddp.conformance.Shape.pairs;
import static io.rddp.conformance.Shape.required;

/**
 * Every step of the scenario language, declared once: its name, the shape of its argument and its handler. The
 * loader checks scenarios against these shapes, {@link ScenarioRun} runs steps by them, and the scenarios README
 * documents exactly these (a test holds the two together).
 */
final class StepRegistry {

    // ------------------------------------------------------------------ value sets

    static final Shape OCTET = ints(0, 255);
    static final Shape HEX_SPACED = new Shape.Hex(true);
    static final Shape QUIET = either(ints(0, Long.MAX_VALUE), oneOf("quiet"));
    static final Shape RTR = oneOf("write", "send", "read");
    static final Shape ACCESS = oneOf("remote_read", "remote_write", "remote_atomic");
    /** The opcodes {@code send} encodes. */
    static final Shape SEND_OPCODE = oneOf("send", "send_se", "send_inv", "send_se_inv", "write", "read",
            "read_response", "terminate", "immediate", "immediate_se", "fetch_add", "cmp_swap", "atomic_response");
    /** The opcodes of the DUT's PDUs the checks name ({@link StepValues#opcode}). */
    static final Shape PDU_OPCODE = oneOf("write", "read", "read_request", "read_response", "send", "send_inv",
            "send_se", "send_se_inv", "terminate", "immediate", "immediate_se", "atomic_request", "fetch_add",
            "cmp_swap", "atomic_response");
    /** Completion opcodes of the DUT control protocol. */
    static final Shape WC_OPCODE = oneOf("send", "write", "read", "fetch_add", "cmp_swap", "immediate", "local_inv",
            "recv", "recv_immediate");
    static final Shape WC_STATUS = oneOf("success", "error", "loc_len_err", "loc_qp_op_err", "loc_prot_err",
            "wr_flush_err", "loc_access_err", "rem_inv_req_err", "rem_access_err", "rem_op_err", "rem_abort_err",
            "fatal_err", "general_err");
    static final Shape EVENT = oneOf("established", "disconnected", "reset", "terminate_sent", "terminate_received",
            "qp_fatal", "qp_access_err", "qp_req_err", "connect_error", "rejected", "resource_limit");
    static final Shape QP_STATE = oneOf("connecting", "rts", "closing", "terminate", "error", "closed");

    // ------------------------------------------------------------------ shared maps

    static final Shape.Obj EMPTY = obj();
    static final Shape.Obj ENHANCED = obj(key("ird", INT), key("ord", INT), key("p2p", BOOL), key("send", BOOL),
            key("write", BOOL), key("read", BOOL));
    /** TCP writes of a start frame. */
    static final Shape.Obj FRAME_TCP = obj(key("every", INT), key("cuts", listOf(INT)), key("pause-ms", INT));
    /** The fields of an MPA start frame the tester sends, each defaulted. */
    static final Shape.Obj FRAME = obj(key("key", Shape.text(".{1,16}", "up to 16 characters")), key("rev", OCTET),
            key("m", BIT), key("c", BIT), key("r", BIT), key("res", OCTET), key("pd-length", ints(0, 65535)),
            key("private-length", ints(0, 65535)), key("private-data", HEX), key("enhanced", either(ENHANCED, BOOL)));
    /** An MPA Request: IRD and ORD may be given outside {@code enhanced} too. */
    static final Shape.Obj REQUEST = FRAME.plus(key("ird", INT), key("ord", INT));
    static final Shape.Obj START = REQUEST.plus(key("tcp", FRAME_TCP), key("full-operation", BOOL));
    static final Shape.Obj REPLY = FRAME.plus(key("tcp", FRAME_TCP), key("full-operation", BOOL));
    /** What {@code check-mpa} compares in the DUT's start frame. */
    static final Shape.Obj FRAME_CHECK = obj(key("rev", either(OCTET, listOf(OCTET))), key("m", BIT), key("c", BIT),
            key("r", BIT), key("enhanced", BOOL), key("ird", INT), key("ord", INT), key("ird-max", INT),
            key("ord-max", INT), key("ird-min", INT), key("ord-min", INT), key("p2p", BOOL), key("send", BOOL),
            key("write", BOOL), key("read", BOOL), key("rtr-any", TRUE), key("private-data", HEX),
            key("pd-length", INT));
    static final Shape.Obj SEND_TCP = obj(key("every", INT), key("cuts", listOf(INT)), key("coalesce", BOOL),
            key("pause-ms", INT), key("stop-before", INT));
    static final Shape.Obj FAULTS = obj(key("crc", oneOf("right", "wrong", "other-order", "zero")),
            key("pad", OCTET), key("marker-delta", INT), key("omit-markers", BOOL));
    static final Shape.Obj SEND = obj(key("opcode", SEND_OPCODE), key("count", INT), key("length", NUM),
            key("data", HEX), key("msn", either(INT, Shape.text("[+-][0-9]+", "\"+k\" or \"-k\""))),
            key("qn", INT), key("mo", INT), key("last", BOOL), key("tagged", BOOL), key("opcode-value", ints(0, 15)),
            key("rdma-version", ints(0, 3)), key("rdmap-rsv", ints(0, 15)), key("ddp-version", ints(0, 3)),
            key("ddp-rsvd", ints(0, 15)), key("stag", NUM), key("to", NUM), key("sink-stag", NUM),
            key("sink-to", NUM), key("size", NUM), key("src-stag", NUM), key("src-to", NUM),
            key("invalidate-stag", NUM), key("imm", NUM), key("add", NUM), key("compare", NUM),
            key("compare-mask", NUM), key("swap", NUM), key("mask", NUM), key("aopcode", NUM),
            key("request-id", NUM), key("value", NUM), key("layer", INT), key("etype", INT), key("code", INT),
            key("m", BOOL), key("terminated", oneOf("previous")), key("term-reserved", INT), key("mulpdu", INT),
            key("mss", INT), key("truncate", INT), key("order", oneOf("reverse")), key("expect-placed", BOOL),
            key("faults", FAULTS), key("tcp", SEND_TCP)).exclusive(false, "data", "length");
    /** The control protocol's work request fields ({@code post_send}); numbers take expressions. */
    static final Shape.Obj POST_SEND = obj(required("opcode", oneOf("send", "send_inv", "write", "read",
                    "fetch_add", "cmp_swap", "immediate", "local_inv")), key("data", HEX),
            key("local", obj(key("mr", NUM), key("offset", NUM), key("length", NUM))),
            key("remote", obj(key("stag", NUM), key("to", NUM))), key("length", NUM), key("solicited", BOOL),
            key("signaled", BOOL), key("invalidate_stag", NUM), key("add", NUM), key("compare", NUM),
            key("swap", NUM), key("imm", NUM));
    /** A DUT control-protocol request on the scenario's queue pair: the keys of its {@code op}. */
    static final Shape DUT = new Shape.Tagged("op", obj(key("op", TEXT), key("qp", INT), key("repeat", INT),
            key("refusal-ok", BOOL)), ops());

    private static final Map<String, StepDef> BY_NAME = build();

    /** The control protocol's requests a {@code dut} step may make, with their fields (docs/dut-control.md). */
    private static Map<String, Shape.Obj> ops() {
        Map<String, Shape.Obj> m = new LinkedHashMap<>();
        m.put("post_recv", obj(key("length", NUM), key("count", INT), key("mr", NUM), key("offset", NUM)));
        m.put("post_send", POST_SEND);
        m.put("invalidate", obj(key("stag", NUM), key("timeout_ms", INT)));
        m.put("deregister", obj(key("mr", NUM)));
        m.put("write_mem", obj(key("mr", NUM), key("offset", NUM), key("data", HEX)));
        m.put("close", obj(key("abort", BOOL)));
        return m;
    }

    private StepRegistry() {
    }

    /** The step of that name, or null. */
    static StepDef get(String name) {
        return BY_NAME.get(name);
    }

    /** The step names, in the order they are declared. */
    static List<String> names() {
        return new ArrayList<>(BY_NAME.keySet());
    }

    private static Map<String, StepDef> build() {
        Map<String, StepDef> m = new LinkedHashMap<>();
        // the connection and the octets on it
        def(m, "send", SEND, DeclarativeScenario::send);
        def(m, "send-rest", EMPTY, MpaSteps::sendRest);
        def(m, "raw", HEX_SPACED, DeclarativeScenario::raw);
        def(m, "together", STEPS, NestingSteps::together);
        def(m, "wait", ints(0, Long.MAX_VALUE), DeclarativeScenario::pause);
        def(m, "fin", EMPTY, DeclarativeScenario::fin);
        def(m, "rst", EMPTY, DeclarativeScenario::rst);
        def(m, "agent-only", STEPS, NestingSteps.onlyIf(true));
        def(m, "rping-only", STEPS, NestingSteps.onlyIf(false));
        // MPA start-up
        def(m, "start", START, DeclarativeScenario::start);
        def(m, "await-reply", EMPTY, DeclarativeScenario::awaitReply);
        def(m, "full-operation", obj(key("crc", BOOL), key("markers", BOOL)), DeclarativeScenario::fullOperation);
        def(m, "await-request", EMPTY, MpaSteps::awaitRequest);
        def(m, "reply", REPLY, MpaSteps::reply);
        def(m, "await-connect", obj(key("expect", oneOf("established", "failed"))), MpaSteps::awaitConnect);
        def(m, "check-mpa", FRAME_CHECK.plus(key("if-accepted", BOOL)), MpaSteps::checkMpa);
        def(m, "skip-unless-mpa", FRAME_CHECK, MpaSteps::skipUnlessMpa);
        def(m, "check-qp", obj(key("private-data", HEX), key("private-length", INT), key("ird", INT),
                key("ord", INT), key("rev", INT), key("crc", BOOL), key("markers-rx", BOOL), key("markers-tx", BOOL),
                key("rtr", RTR), key("state", QP_STATE), key("if-established", BOOL)), MpaSteps::checkQp);
        def(m, "rtr", obj(key("prefer", listOf(RTR))), MpaSteps::rtr);
        def(m, "answer-rtr", EMPTY, MpaSteps::answerRtr);
        // the tester's buffers and answers
        def(m, "tester-buffer", obj(key("length", NUM), key("stag", NUM), key("to", NUM), key("access",
                listOf(ACCESS)), key("data", HEX)), BufferSteps::testerBuffer);
        def(m, "tester-stag", obj(key("stag", NUM), key("to", NUM), key("length", NUM)), MpaSteps::testerStag);
        def(m, "answer-reads", obj(key("count", INT), key("stag", new Shape.Num(true)), key("to",
                new Shape.Num(true)), key("extra", INT), key("short", INT), key("qn", INT), key("tagged", BOOL),
                key("mulpdu", INT)), ReadSteps::answerReads);
        def(m, "answer-atomics", obj(key("count", INT), key("value", NUM), key("request-id", NUM), key("qn", INT),
                key("tagged", BOOL)), AtomicSteps::answerAtomics);
        // the DUT, through its control channel
        def(m, "dut", DUT, DeclarativeScenario::dutOp);
        def(m, "allow-placement", obj(key("offset", NUM), key("length", NUM)), BufferSteps::allowPlacement);
        // what the DUT sent
        def(m, "expect-fpdus", ints(0, Long.MAX_VALUE), DeclarativeScenario::expectFpdus);
        def(m, "expect-quiet", QUIET, DeclarativeScenario::expectQuiet);
        def(m, "expect-silence", QUIET, MpaSteps::expectSilence);
        def(m, "expect-pdu", obj(required("opcode", PDU_OPCODE), key("length", INT), key("stag", NUM),
                key("to", NUM), key("last", BOOL), key("first", BOOL)), MpaSteps::expectPdu);
        def(m, "expect-pdus", obj(required("opcode", PDU_OPCODE), key("count", INT), key("wait", INT)),
                MessageSteps::expectPdus);
        def(m, "expect-no-pdu", obj(required("opcode", PDU_OPCODE)), MessageSteps::expectNoPdu);
        def(m, "check-fpdus", obj(required("opcode", PDU_OPCODE), key("total", INT), key("max-ulpdu", INT),
                key("min-ulpdu-nonfinal", INT)), MpaSteps::checkFpdus);
        def(m, "check-read", obj(key("data", HEX), key("length", INT), key("unless-closed", BOOL))
                .exclusive(true, "data", "length"), DeclarativeScenario::checkRead);
        def(m, "check-read-response", obj(key("index", INT), key("stag", NUM), key("to", NUM), key("length", NUM),
                key("data", HEX_SPACED), key("pattern", NUM), key("u64", NUM), key("buffer-data", BUFFER),
                key("offset", NUM)).exclusive(false, "data", "pattern", "u64", "buffer-data"),
                ReadSteps::checkReadResponse);
        def(m, "check-atomic", obj(key("index", INT), key("value", NUM), key("request-id", NUM)),
                AtomicSteps::checkAtomic);
        def(m, "check-dut-message", obj(key("opcode", PDU_OPCODE), key("index", INT), key("length", NUM),
                key("data", HEX_SPACED), key("pattern", NUM), key("imm", NUM), key("stag", NUM), key("to", NUM),
                key("qn", INT), key("msn", INT), key("invalidate-stag", NUM), key("segments", INT),
                key("sink-stag", NUM), key("sink-to", NUM), key("size", NUM), key("src-stag", NUM),
                key("src-to", NUM), key("format", BOOL)).exclusive(false, "data", "pattern"),
                MessageSteps::checkDutMessage);
        def(m, "await-terminate", EMPTY, TerminateSteps::awaitTerminate);
        def(m, "check-terminate", obj(key("layer", INT), key("etype", INT), key("code", INT), key("m", BOOL),
                key("d", BOOL), key("r", BOOL), key("header", oneOf("previous"))), TerminateSteps::checkTerminate);
        def(m, "expect-close", obj(key("fin", BOOL)), TerminateSteps::expectClose);
        // what the DUT did, through its control channel
        def(m, "check-recv", obj(key("length", INT), key("data", HEX), key("unless-closed", BOOL)),
                DeclarativeScenario::checkRecv);
        def(m, "check-wc", obj(key("opcode", WC_OPCODE), key("status", WC_STATUS), key("byte_len", NUM),
                key("imm", NUM), key("solicited", BOOL), key("invalidated_stag", NUM), key("data", HEX_SPACED),
                key("pattern", NUM)).exclusive(false, "data", "pattern"), ControlSteps::checkWc);
        def(m, "check-no-wc", obj(key("opcode", WC_OPCODE), key("ms", INT)), ControlSteps::checkNoWc);
        def(m, "check-mem", obj(key("buffer", BUFFER), key("offset", NUM), key("data", HEX_SPACED),
                key("pattern", NUM), key("u64", NUM), key("canary", TRUE), key("allow", pairs()))
                .exclusive(true, "data", "pattern", "u64", "canary").exclusive(false, "canary", "offset"),
                BufferSteps::checkMem);
        def(m, "check-event", obj(required("type", EVENT), key("layer", INT), key("etype", INT), key("code", INT)),
                ControlSteps::checkEvent);
        return Collections.unmodifiableMap(m);
    }

    private static void def(Map<String, StepDef> m, String name, Shape argument, StepHandler handler) {
        if (m.put(name, new StepDef(name, argument, handler)) != null) {
            throw new IllegalStateException("step \"" + name + "\" declared twice");
        }
    }
}
