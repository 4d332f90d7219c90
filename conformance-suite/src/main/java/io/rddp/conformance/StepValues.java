package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.rdmap.Opcode;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * What the RDMA steps share: the standard payload, expected octets, the opcode names the scenario language uses, and
 * how a check words its failure and what it found as expected. The RDMA steps (buffers, Reads, Atomics, Terminates,
 * the DUT's messages and completions) are stateless: what a run remembers (named buffers, requests answered, the last
 * segment sent) is its {@link ScenarioRun}; the {@link StepRegistry} maps the step names to their handlers.
 */
final class StepValues {

    private StepValues() {
    }

    /** The standard payload: octet i of a message is 'a' + i % 26, as the {@code length} of a send gives. */
    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) ('a' + i % 26);
        return b;
    }

    /** Expected octets from {@code data} (hex) or {@code length} (the standard pattern), or null when neither. */
    static byte[] expected(ScenarioRun r, JsonNode a) {
        if (a.has("data")) return HexFormat.of().parseHex(a.path("data").asText().replace(" ", ""));
        if (a.has("pattern")) return pattern((int) r.value(a, "pattern", 0));
        return null;
    }

    static Opcode opcode(String name) {
        return switch (name) {
            case "write" -> Opcode.RDMA_WRITE;
            case "read", "read_request" -> Opcode.RDMA_READ_REQUEST;
            case "read_response" -> Opcode.RDMA_READ_RESPONSE;
            case "send" -> Opcode.SEND;
            case "send_inv" -> Opcode.SEND_WITH_INVALIDATE;
            case "send_se" -> Opcode.SEND_WITH_SE;
            case "send_se_inv" -> Opcode.SEND_WITH_SE_AND_INVALIDATE;
            case "terminate" -> Opcode.TERMINATE;
            case "immediate" -> Opcode.IMMEDIATE_DATA;
            case "immediate_se" -> Opcode.IMMEDIATE_DATA_WITH_SE;
            case "atomic_request", "fetch_add", "cmp_swap" -> Opcode.ATOMIC_REQUEST;
            case "atomic_response" -> Opcode.ATOMIC_RESPONSE;
            default -> throw new IllegalArgumentException("unknown opcode \"" + name + "\"");
        };
    }

    /**
     * What a check of a DUT message found as expected: its length and data ("1 MiB, data equal") and the other keys
     * of {@code a} it compared.
     */
    static String same(JsonNode a, int length, boolean data, String equal, String... keys) {
        List<String> out = new ArrayList<>();
        String n = ScenarioRun.size(length);
        if (data) out.add(n + equal);
        else if (a.has("length")) out.add(n + ", as long as expected");
        List<String> fields = new ArrayList<>();
        for (String k : keys) if (a.has(k)) fields.add(k);
        if (!fields.isEmpty()) out.add(String.join(", ", fields) + " as expected");
        if (out.isEmpty()) out.add(n + " received");
        return String.join("; ", out);
    }

    static String snippet(byte[] b, int at) {
        return HexFormat.of().formatHex(b, at, Math.min(b.length, at + 16)) + (b.length > at + 16 ? "..." : "");
    }

    static void fail(String why) throws Scenario.ScenarioFailure {
        throw new Scenario.ScenarioFailure(why);
    }
}
