package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;

import java.util.ArrayList;
import java.util.List;

import static io.rddp.conformance.DutMessages.count;
import static io.rddp.conformance.DutMessages.gone;
import static io.rddp.conformance.DutMessages.pdus;
import static io.rddp.conformance.StepValues.fail;

/** Atomic operations (RFC 7306): answers to the DUT's Atomic Requests, checks of its Atomic Responses. */
final class AtomicSteps {

    private AtomicSteps() {
    }

    /**
     * Answers the DUT's next {@code count} Atomic Requests (RFC 7306 §5.2.2: QN 3, the request's identifier) with
     * {@code value} as the Original Remote Data Value; {@code qn}, {@code tagged}, {@code request-id} override.
     */
    static void answerAtomics(ScenarioRun r, JsonNode a) throws Exception {
        int n = a.path("count").asInt(1);
        int want = r.atomicsAnswered() + n;
        ScriptedConnection c = r.conn();
        if (!c.await(x -> count(x, Opcode.ATOMIC_REQUEST) >= want || gone(x), r.ctx().timeouts().reaction())
                || count(c, Opcode.ATOMIC_REQUEST) < want) {
            fail("the DUT sent " + count(c, Opcode.ATOMIC_REQUEST) + " Atomic Requests, " + want + " were expected");
        }
        List<ScriptedConnection.DutPdu> reqs = pdus(c, Opcode.ATOMIC_REQUEST);
        for (int i = r.atomicsAnswered(); i < want; i++) {
            if (!(reqs.get(i).rdmap().body() instanceof AtomicRequest ar)) {
                fail("the DUT's Atomic Request " + (i + 1) + " carries no Atomic Request header (RFC 7306 §4.2):"
                        + " there is nothing to answer");
                return;
            }
            long id = r.value(a, "request-id", ar.requestId());
            long qn = a.path("qn").asLong(3);
            long msn = c.nextMsn((int) Math.min(3, qn));
            RdmapEncoder.Builder b = RdmapEncoder.atomicResponse(msn, new AtomicResponse(id,
                    r.value(a, "value", 0)));
            if (a.has("qn")) b.qn(qn);
            if (a.has("tagged")) b.tagged(a.path("tagged").asBoolean());
            WireMark.Faults injected = new WireMark.Faults();
            if (id != ar.requestId()) injected.add("request identifier " + id + " where the request had "
                    + ar.requestId(), "rdmap.atomicResponse.requestId");
            if (qn != 3) injected.add("QN " + qn + " (Atomic Responses go on QN 3)", "ddp.qn");
            if (a.has("tagged") && a.path("tagged").asBoolean()) injected.add("T 1 (an Atomic Response is untagged)",
                    "ddp.tagged");
            c.send(b, io.rddp.mpa.FpduEncoder.Faults.NONE, injected);
        }
        r.atomicsAnswered(want);
    }

    /** The DUT's Atomic Response {@code index}: the Original Remote Data Value {@code value}, {@code request-id}. */
    static void checkAtomic(ScenarioRun r, JsonNode a) throws Exception {
        int index = a.path("index").asInt(0);
        ScriptedConnection c = r.conn();
        c.await(x -> count(x, Opcode.ATOMIC_RESPONSE) > index || gone(x), r.ctx().timeouts().reaction());
        List<ScriptedConnection.DutPdu> rs = pdus(c, Opcode.ATOMIC_RESPONSE);
        if (rs.size() <= index) fail("the DUT sent " + rs.size() + " Atomic Responses; response " + (index + 1)
                + " was expected");
        if (!(rs.get(index).rdmap().body() instanceof AtomicResponse resp)) {
            fail("Atomic Response " + (index + 1) + " has no readable header");
            return;
        }
        if (!(rs.get(index).segment().header() instanceof UntaggedHeader h)) {
            fail("Atomic Response " + (index + 1) + " is tagged (RFC 7306 §5.2.2: it consumes an Untagged Buffer)");
            return;
        }
        List<String> wrong = new ArrayList<>();
        if (a.has("value") && resp.originalRemoteDataValue() != r.value(a, "value", 0)) {
            wrong.add("Original Remote Data Value 0x" + Long.toHexString(resp.originalRemoteDataValue()));
        }
        if (a.has("request-id") && resp.originalRequestId() != r.value(a, "request-id", 0)) {
            wrong.add("Original Request Identifier " + resp.originalRequestId());
        }
        if (h.qn() != 3) wrong.add("QN " + h.qn());
        if (!wrong.isEmpty()) fail("Atomic Response " + (index + 1) + " has " + String.join(", ", wrong)
                + " (expected " + a + ")");
        r.compared("Atomic Response " + (index + 1) + ": " + (a.has("value") ? "Original Remote Data Value 0x"
                + Long.toHexString(resp.originalRemoteDataValue()) + ", " : "") + (a.has("request-id")
                ? "request identifier " + resp.originalRequestId() + ", " : "") + "QN 3, as expected");
    }
}
