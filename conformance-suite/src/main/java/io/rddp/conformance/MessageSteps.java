package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.conformance.DutMessages.Message;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.ImmediateData;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.ReadRequest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.rddp.conformance.DutMessages.awaitMessage;
import static io.rddp.conformance.DutMessages.count;
import static io.rddp.conformance.DutMessages.gone;
import static io.rddp.conformance.StepValues.expected;
import static io.rddp.conformance.StepValues.fail;
import static io.rddp.conformance.StepValues.opcode;
import static io.rddp.conformance.StepValues.same;

/**
 * The DUT's messages on the wire (RFC 5040 §4, RFC 5041 §4): one message field by field and in its format, and how
 * many PDUs of an opcode it sent.
 */
final class MessageSteps {

    private MessageSteps() {
    }

    /**
     * The DUT's complete message {@code index} (0-based) of {@code opcode}: {@code length}, {@code data} /
     * {@code pattern}, {@code imm}, {@code stag}, {@code to}, {@code qn}, {@code invalidate-stag}, {@code segments}.
     */
    static void checkDutMessage(ScenarioRun r, JsonNode a) throws Exception {
        Opcode op = opcode(a.path("opcode").asText("send"));
        int index = a.path("index").asInt(0);
        Message m = awaitMessage(r, op, index);
        List<String> wrong = new ArrayList<>();
        if (a.has("length") && m.payload().length != r.value(a, "length", 0)) {
            wrong.add(m.payload().length + " payload octets");
        }
        byte[] want = expected(r, a);
        if (want != null && !Arrays.equals(want, m.payload())) {
            int at = 0;
            while (at < Math.min(want.length, m.payload().length) && want[at] == m.payload()[at]) at++;
            wrong.add("payload differing at octet " + at);
        }
        if (a.has("imm")) {
            long v = m.firstPdu().body() instanceof ImmediateData d ? d.data() : -1;
            if (v != r.value(a, "imm", 0)) wrong.add("Immediate Data 0x" + Long.toHexString(v));
        }
        if (m.first() instanceof TaggedHeader t) {
            if (a.has("stag") && t.stag() != r.value(a, "stag", 0)) {
                wrong.add("STag 0x" + Long.toHexString(t.stag()));
            }
            if (a.has("to") && t.to() != r.value(a, "to", 0)) {
                wrong.add("TO 0x" + Long.toHexString(t.to()));
            }
        } else if (m.first() instanceof UntaggedHeader u) {
            if (a.has("qn") && u.qn() != a.path("qn").asLong()) wrong.add("QN " + u.qn());
            if (a.has("msn") && u.msn() != a.path("msn").asLong()) wrong.add("MSN " + u.msn());
            if (a.has("invalidate-stag") && m.firstPdu().invalidateStag()
                    != r.value(a, "invalidate-stag", 0)) {
                wrong.add("Invalidate STag 0x" + Long.toHexString(m.firstPdu().invalidateStag()));
            }
        }
        if (a.has("segments") && m.segments() != a.path("segments").asInt()) wrong.add(m.segments() + " segments");
        if (m.firstPdu().body() instanceof ReadRequest rr) {
            for (String f : new String[]{"sink-stag", "sink-to", "size", "src-stag", "src-to"}) {
                if (!a.has(f)) continue;
                long got = switch (f) {
                    case "sink-stag" -> rr.sinkStag();
                    case "sink-to" -> rr.sinkTo();
                    case "size" -> rr.size();
                    case "src-stag" -> rr.sourceStag();
                    default -> rr.sourceTo();
                };
                if (got != r.value(a, f, 0)) wrong.add(f + " 0x" + Long.toHexString(got));
            }
        }
        if (a.path("format").asBoolean(false)) wrong.addAll(format(r, m, op, a));
        if (!wrong.isEmpty()) fail("the DUT's " + op.rfcName() + " " + (index + 1) + " has " + String.join(", ", wrong)
                + " (expected " + a + ")");
        r.compared("the DUT's " + op.rfcName() + " " + (index + 1) + ": " + same(a, m.payload().length,
                want != null, " of payload, equal", "imm", "stag", "to", "qn", "msn", "invalidate-stag", "segments",
                "sink-stag", "sink-to", "size", "src-stag", "src-to", "format"));
    }

    /**
     * The fields of every segment of one of the DUT's messages as RFC 5040 §4.1 Figure 4 and RFC 5041 §4 fix them: DV 1
     * and Rsvd 0, RV 1 and Rsv 0, the buffer model and QN of the opcode, L on the last segment only, the same RsvdULP,
     * QN, MSN or STag in every segment, MO or TO continuing the previous segment, the Invalidate STag field zero
     * except for Send with Invalidate ({@code invalidate-stag}), a Read Request of exactly its 28-octet header, an
     * Atomic Request at a 64-bit aligned TO (RFC 7306 §5.2.1).
     */
    private static List<String> format(ScenarioRun r, Message m, Opcode op, JsonNode a) {
        List<String> bad = new ArrayList<>();
        long next = -1;
        for (int i = 0; i < m.parts().size(); i++) {
            ScriptedConnection.DutPdu p = m.parts().get(i);
            DdpHeader h = p.segment().header();
            String at = "segment " + (i + 1) + ": ";
            if (h.version() != 1) bad.add(at + "DV " + h.version());
            if (h.reserved() != 0) bad.add(at + "DDP Rsvd " + h.reserved());
            io.rddp.rdmap.RdmapControl rc = p.rdmap().control();
            if (rc.version() != 1) bad.add(at + "RV " + rc.version());
            if (rc.reserved() != 0) bad.add(at + "RDMAP Rsv " + rc.reserved());
            if (h.tagged() != op.tagged()) bad.add(at + "T " + (h.tagged() ? 1 : 0));
            if (h.last() != (i == m.parts().size() - 1)) bad.add(at + "L " + (h.last() ? 1 : 0));
            if (h instanceof UntaggedHeader u && m.first() instanceof UntaggedHeader f) {
                if (u.qn() != op.queueNumber()) bad.add(at + "QN " + u.qn());
                if (u.msn() != f.msn()) bad.add(at + "MSN " + u.msn() + " (first segment " + f.msn() + ")");
                if (u.rsvdUlp() != f.rsvdUlp()) bad.add(at + "RsvdULP 0x" + Long.toHexString(u.rsvdUlp()));
                if (u.mo() != (next < 0 ? 0 : next)) bad.add(at + "MO " + u.mo() + " (expected " + Math.max(0, next) + ")");
                next = u.mo() + (p.payload() == null ? 0 : p.payload().length);
                long inval = p.rdmap().invalidateStag();
                boolean carries = op.carriesInvalidateStag();
                long want = carries ? r.value(a, "invalidate-stag", inval) : 0;
                if (inval != want) bad.add(at + "Invalidate STag field 0x" + Long.toHexString(inval));
            } else if (h instanceof TaggedHeader t && m.first() instanceof TaggedHeader f) {
                if (t.stag() != f.stag()) bad.add(at + "STag 0x" + Long.toHexString(t.stag()));
                if (t.rsvdUlp() != f.rsvdUlp()) bad.add(at + "RsvdULP 0x" + Integer.toHexString(t.rsvdUlp()));
                if (next >= 0 && t.to() != next) bad.add(at + "TO " + Long.toUnsignedString(t.to()));
                next = t.to() + (p.payload() == null ? 0 : p.payload().length);
            }
        }
        if (op == Opcode.RDMA_READ_REQUEST && (!(m.firstPdu().body() instanceof ReadRequest)
                || m.payload().length != ReadRequest.LENGTH)) {
            bad.add("an RDMA Read Request message of " + m.payload().length + " octets (its header is 28)");
        }
        if (op == Opcode.ATOMIC_REQUEST && m.firstPdu().body() instanceof AtomicRequest ar && (ar.remoteTo() & 7) != 0) {
            bad.add("Atomic Request at TO 0x" + Long.toHexString(ar.remoteTo()) + ", not 64-bit aligned");
        }
        return bad;
    }

    /** Exactly {@code count} PDUs of {@code opcode} from the DUT after {@code wait} ms (e.g. no more than its ORD). */
    static void expectPdus(ScenarioRun r, JsonNode a) throws Exception {
        Opcode op = opcode(a.path("opcode").asText());
        int want = a.path("count").asInt();
        ScriptedConnection c = r.conn();
        c.await(x -> count(x, op) >= want || gone(x), r.ctx().timeouts().reaction());
        // then no more for the wait (the DUT must not exceed its limit), failing at the first one past it
        c.await(x -> count(x, op) > want || gone(x), Math.min(a.path("wait").asLong(r.ctx().timeouts().quiet()), 5000));
        int n = count(c, op);
        if (n != want) fail("the DUT sent " + n + " " + op.rfcName() + " PDUs, " + want + " were expected");
    }

    static void expectNoPdu(ScenarioRun r, JsonNode a) throws Exception {
        Opcode op = opcode(a.path("opcode").asText());
        int n = count(r.conn(), op);
        if (n > 0) fail("the DUT sent " + n + " " + op.rfcName() + " PDU(s) where it must send none");
    }
}
