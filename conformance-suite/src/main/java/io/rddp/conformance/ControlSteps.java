package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.rdmap.Opcode;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static io.rddp.conformance.DutMessages.count;
import static io.rddp.conformance.DutMessages.gone;
import static io.rddp.conformance.StepValues.expected;
import static io.rddp.conformance.StepValues.fail;

/**
 * The DUT through its control channel (agent profile): what a {@code dut} request changed that the judge must know,
 * and the completions and asynchronous events the DUT reports.
 */
final class ControlSteps {

    private ControlSteps() {
    }

    /** After a control request: what it changed that the judge must know (revoked STags). */
    static void afterDutOp(ScenarioRun r, ObjectNode req) {
        String op = req.path("op").asText();
        switch (op) {
            case "deregister" -> {
                long mr = req.path("mr").asLong(-1);
                for (NamedBuffer n : r.dutBuffers()) if (n.mr() == mr) r.conn().revokeDutStag(n.stag());
            }
            case "invalidate" -> r.conn().revokeDutStag(req.path("stag").asLong());
            case "post_recv" -> {
                // the judge learns of the receives (RFC 5041 §7.1 untagged checks 2-5): MSNs 1..n take them
                r.conn().dutReceives(r.postReceives(req.path("count").asLong(1)), req.path("length").asLong());
            }
            case "post_send" -> {
                if (req.path("opcode").asText().equals("local_inv")) {
                    r.conn().revokeDutStag(req.path("invalidate_stag").asLong());
                }
            }
            default -> {
            }
        }
    }

    /**
     * The DUT's next completion on the scenario's queue pair, compared with {@code opcode}, {@code status}
     * ("error": any but success), {@code byte_len}, {@code imm}, {@code solicited}, {@code invalidated_stag},
     * {@code data}/{@code pattern}.
     */
    static void checkWc(ScenarioRun r, JsonNode a) throws Exception {
        AgentDut agent = r.ctx().agent();
        JsonNode wcs = agent.control().call(ControlClient.request("poll").put("qp", r.session().qp()).put("max", 1)
                .put("timeout_ms", r.ctx().timeouts().reaction()));
        JsonNode wc = wcs.path("completions").path(0);
        if (wc.isMissingNode()) fail("the DUT reported no completion within " + r.ctx().timeouts().reaction() + " ms");
        List<String> wrong = new ArrayList<>();
        String status = a.path("status").asText("success");
        String got = wc.path("status").asText();
        if (status.equals("error") ? got.equals("success") : !status.equals(got)) {
            wrong.add("status " + got + " (expected " + status + ")");
        }
        if (a.has("opcode") && !a.path("opcode").asText().equals(wc.path("opcode").asText())) {
            wrong.add("opcode " + wc.path("opcode").asText() + " (expected " + a.path("opcode").asText() + ")");
        }
        if (a.has("byte_len") && wc.path("byte_len").asLong() != r.value(a, "byte_len", 0)) {
            wrong.add("byte_len " + wc.path("byte_len") + " (expected " + a.path("byte_len") + ")");
        }
        if (a.has("imm")) {
            long want = r.value(a, "imm", 0);
            String imm = wc.path("imm").asText("");
            if (imm.isEmpty() || Long.parseUnsignedLong(imm.substring(2), 16) != want) {
                wrong.add("imm " + (imm.isEmpty() ? "missing" : imm) + " (expected 0x" + Long.toHexString(want) + ")");
            }
        }
        if (a.has("solicited") && wc.path("solicited").asBoolean(false) != a.path("solicited").asBoolean()) {
            wrong.add("solicited " + wc.path("solicited").asBoolean(false) + " (expected " + a.path("solicited") + ")");
        }
        if (a.has("invalidated_stag")) {
            long want = r.value(a, "invalidated_stag", 0);
            if (!wc.has("invalidated_stag") || wc.path("invalidated_stag").asLong() != want) {
                wrong.add("invalidated_stag " + wc.path("invalidated_stag") + " (expected " + want + ")");
            }
        }
        byte[] data = expected(r, a);
        if (data != null && !HexFormat.of().formatHex(data).equals(wc.path("data").asText())) {
            wrong.add("data " + wc.path("data").asText() + " (expected " + HexFormat.of().formatHex(data) + ")");
        }
        if (!wrong.isEmpty()) fail("the DUT's completion " + wc + " has " + String.join(", ", wrong));
        List<String> same = new ArrayList<>();
        same.add("status " + got);
        if (a.has("byte_len")) same.add("byte_len " + ScenarioRun.size(wc.path("byte_len").asLong()));
        for (String k : new String[]{"imm", "solicited", "invalidated_stag"}) if (a.has(k)) same.add(k);
        if (data != null) same.add(ScenarioRun.size(data.length) + " of data equal");
        r.compared("completion " + wc.path("opcode").asText(a.path("opcode").asText("")) + ": "
                + String.join(", ", same));
    }

    /**
     * No successful completion (of {@code opcode}, if given) within {@code ms} (default: the quiet time, or a moment
     * when the DUT already terminated or closed): what was sent must not have been delivered or completed.
     */
    static void checkNoWc(ScenarioRun r, JsonNode a) throws Exception {
        AgentDut agent = r.ctx().agent();
        ScriptedConnection c = r.conn();
        int ms = a.has("ms") ? a.path("ms").asInt() : r.ctx().timeouts().quiet();
        long deadline = System.nanoTime() + ms * 1_000_000L;
        boolean last = false;
        while (!last) {
            // once the DUT terminated or closed, what it completed is there at once: no need to wait the quiet time
            last = gone(c) || count(c, Opcode.TERMINATE) > 0 || System.nanoTime() >= deadline;
            long slice = last ? 5 : Math.max(1, Math.min(10, (deadline - System.nanoTime()) / 1_000_000L));
            JsonNode wcs = agent.control().call(ControlClient.request("poll").put("qp", r.session().qp()).put("max", 64)
                    .put("min", 64).put("timeout_ms", slice));
            for (JsonNode wc : wcs.path("completions")) {
                if (a.has("opcode") && !a.path("opcode").asText().equals(wc.path("opcode").asText())) continue;
                if (wc.path("status").asText().equals("success")) {
                    fail("the DUT completed " + wc + " successfully, where nothing may be delivered or completed");
                }
            }
        }
    }

    /** Agent: an async event of {@code type} on the scenario's queue pair ({@code layer}/{@code etype}/{@code code}). */
    static void checkEvent(ScenarioRun r, JsonNode a) throws Exception {
        AgentDut agent = r.ctx().agent();
        String type = a.path("type").asText();
        long deadline = System.nanoTime() + r.ctx().timeouts().reaction() * 1_000_000L;
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            JsonNode evs = agent.control().call(ControlClient.request("events").put("max", 64).put("timeout_ms", 100));
            for (JsonNode e : evs.path("events")) {
                if (e.has("qp") && e.path("qp").asInt() != r.session().qp()) continue;
                seen.add(e.path("type").asText());
                if (!e.path("type").asText().equals(type)) continue;
                if (a.has("layer") && e.path("layer").asInt(-1) != a.path("layer").asInt()) continue;
                if (a.has("etype") && e.path("etype").asInt(-1) != a.path("etype").asInt()) continue;
                if (a.has("code") && e.path("code").asInt(-1) != a.path("code").asInt()) continue;
                return;
            }
        }
        fail("the DUT reported no " + type + " event for its queue pair " + r.session().qp() + " (saw " + seen + ")");
    }
}
