package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Why a scenario must have the DUT to itself when scenarios run concurrently ({@code rddp conform --jobs}), or null.
 * Declared with {@code alone: "reason"}, or derived from the steps: the STags of the DUT are one namespace per
 * protection domain, and concurrent scenarios share the DUT's domain, so a scenario whose fault is an STag the DUT must
 * not hold for this stream (RFC 5040 §7.2: "invalid STag"), or that revokes one the DUT may issue again, could meet
 * another scenario's live registration under that number and be judged on someone else's buffer.
 */
final class Alone {

    /** Fields of the tester's {@code send} step that name a DUT STag. */
    private static final Set<String> DUT_STAG_FIELDS = Set.of("stag", "src-stag", "invalidate-stag");
    /** A buffer's own STag as registered (dut.stag, other.stag): what another scenario cannot hold. */
    private static final Pattern OWN_STAG = Pattern.compile("[a-z][a-z0-9_]*\\.stag");
    /** DUT operations and tester opcodes that revoke a DUT STag (RFC 5040 §2.4, §5.3). */
    private static final Set<String> REVOKING = Set.of("deregister", "invalidate", "local_inv", "send_inv",
            "send_se_inv");

    private Alone() {
    }

    /** The reason {@code entry} (a catalogue entry) runs alone, or null when it may share the DUT. */
    static String why(JsonNode entry) {
        if (entry.hasNonNull("alone")) return entry.path("alone").asText();
        return fromSteps(entry.path("steps"));
    }

    private static String fromSteps(JsonNode n) {
        return fromSteps(n, false);
    }

    /** @param sent inside a {@code send} step: what the tester puts on the wire (elsewhere a stag is the DUT's) */
    private static String fromSteps(JsonNode n, boolean sent) {
        if (n.isArray()) {
            for (JsonNode x : n) {
                String why = fromSteps(x, sent);
                if (why != null) return why;
            }
        } else if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode v = f.getValue();
                if (sent && DUT_STAG_FIELDS.contains(f.getKey()) && v.isValueNode() && !v.isBoolean()
                        && !OWN_STAG.matcher(v.asText()).matches() && !v.asText().startsWith("tester.")) {
                    return "its fault is an STag the DUT must not hold for this stream (" + f.getKey() + " "
                            + v.asText() + "): another scenario's registration could hold that number";
                }
                if ((f.getKey().equals("op") || f.getKey().equals("opcode")) && REVOKING.contains(v.asText())) {
                    return "it revokes a DUT STag (" + v.asText() + "), which the DUT may issue again to another"
                            + " scenario's registration";
                }
                // a zero-length Write or Read touches no buffer: its STag is not validated against one (RFC 5040 §7.2)
                boolean touches = !(v.path("length").asLong(-1) == 0 || v.path("size").asLong(-1) == 0);
                String why = fromSteps(v, sent || f.getKey().equals("send") && touches);
                if (why != null) return why;
            }
        }
        return null;
    }
}
