package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.conformance.DutMessages.Message;
import io.rddp.ddp.TaggedHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.rddp.conformance.BufferSteps.read;
import static io.rddp.conformance.DutMessages.awaitMessage;
import static io.rddp.conformance.DutMessages.count;
import static io.rddp.conformance.DutMessages.gone;
import static io.rddp.conformance.DutMessages.pdus;
import static io.rddp.conformance.StepValues.expected;
import static io.rddp.conformance.StepValues.fail;
import static io.rddp.conformance.StepValues.same;
import static io.rddp.conformance.StepValues.snippet;

/** RDMA Read (RFC 5040 §4.4, §5.2.2): answers to the DUT's Read Requests, checks of its Read Responses. */
final class ReadSteps {

    private ReadSteps() {
    }

    /**
     * Answers the DUT's next {@code count} RDMA Read Requests with the tester buffer's octets (RFC 5040 §4.4: the
     * Data Sink STag and TO of the request), unless overridden: {@code stag}, {@code to} (expressions, "sink.stag"
     * and "sink.to" meaning the request's), {@code extra} octets more or {@code short} fewer than asked,
     * {@code qn}/{@code tagged} for malformed answers.
     */
    static void answerReads(ScenarioRun r, JsonNode a) throws Exception {
        int n = a.path("count").asInt(1);
        int want = r.readsAnswered() + n;
        ScriptedConnection c = r.conn();
        if (!c.await(x -> count(x, Opcode.RDMA_READ_REQUEST) >= want || gone(x), r.ctx().timeouts().reaction())
                || count(c, Opcode.RDMA_READ_REQUEST) < want) {
            fail("the DUT sent " + count(c, Opcode.RDMA_READ_REQUEST) + " RDMA Read Requests, " + want
                    + " were expected");
        }
        List<ScriptedConnection.DutPdu> reqs = pdus(c, Opcode.RDMA_READ_REQUEST);
        NamedBuffer tester = r.tester();
        byte[] testerData = r.testerData();
        for (int i = r.readsAnswered(); i < want; i++) {
            if (!(reqs.get(i).rdmap().body() instanceof ReadRequest rr)) {
                fail("the DUT's RDMA Read Request " + (i + 1) + " carries no RDMA Read Request header (RFC 5040 §4.4):"
                        + " there is nothing to answer");
                return;
            }
            long size = rr.size() + a.path("extra").asInt(0) - a.path("short").asInt(0);
            long off = rr.sourceTo() - (tester == null ? 0 : tester.to());
            byte[] data = new byte[(int) Math.max(0, size)];
            for (int k = 0; k < data.length; k++) {
                long at = off + k;
                data[k] = at >= 0 && at < testerData.length ? testerData[(int) at] : 0;
            }
            long stag = a.has("stag") ? sinkValue(r, a, "stag", rr) : rr.sinkStag();
            long to = a.has("to") ? sinkValue(r, a, "to", rr) : rr.sinkTo();
            RdmapEncoder.Builder b = RdmapEncoder.readResponse(stag, to, ByteBuffer.wrap(data),
                    a.has("mulpdu") ? a.path("mulpdu").asInt() : c.mulpdu(1460));
            if (a.has("qn")) b.qn(a.path("qn").asLong());
            if (a.has("tagged")) b.tagged(a.path("tagged").asBoolean());
            WireMark.Faults injected = new WireMark.Faults();
            if (size > rr.size()) injected.add((size - rr.size()) + " octets more than the " + rr.size() + " the Read"
                    + " asked", "rdmap.payloadLength");
            if (size < rr.size()) injected.add((rr.size() - size) + " octets fewer than the " + rr.size() + " the"
                    + " Read asked", "rdmap.payloadLength");
            if (stag != rr.sinkStag()) injected.add("STag 0x" + Long.toHexString(stag) + ", not the Read's Data Sink",
                    "ddp.stag");
            if (to != rr.sinkTo()) injected.add("TO 0x" + Long.toHexString(to) + ", not the Read's Data Sink TO",
                    "ddp.to");
            if (a.has("qn")) injected.add("QN " + a.path("qn").asLong() + " in a tagged message", "ddp.qn");
            if (a.has("tagged") && !a.path("tagged").asBoolean()) injected.add("T 0 (a Read Response is tagged)",
                    "ddp.tagged");
            c.send(b, io.rddp.mpa.FpduEncoder.Faults.NONE, injected);
        }
        r.readsAnswered(want);
    }

    private static long sinkValue(ScenarioRun r, JsonNode a, String field, ReadRequest rr) {
        String e = a.path(field).asText().replace(" ", "");
        e = e.replace("sink.stag", Long.toString(rr.sinkStag())).replace("sink.to", Long.toUnsignedString(rr.sinkTo()));
        ObjectNode tmp = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        tmp.put(field, e);
        return r.value(tmp, field, 0);
    }

    /** The DUT's RDMA Read Response {@code index} (0-based): {@code stag}, {@code to}, {@code length}, data. */
    static void checkReadResponse(ScenarioRun r, JsonNode a) throws Exception {
        Message m = awaitMessage(r, Opcode.RDMA_READ_RESPONSE, a.path("index").asInt(0));
        if (!(m.first() instanceof TaggedHeader t)) {
            fail("the DUT's RDMA Read Response " + (a.path("index").asInt(0) + 1) + " is untagged (RFC 5040 §5.2.2: it"
                    + " references a Tagged Buffer)");
            return;
        }
        List<String> wrong = new ArrayList<>();
        if (a.has("stag") && t.stag() != r.value(a, "stag", 0)) {
            wrong.add("STag 0x" + Long.toHexString(t.stag()));
        }
        if (a.has("to") && t.to() != r.value(a, "to", 0)) {
            wrong.add("TO 0x" + Long.toHexString(t.to()));
        }
        if (a.has("length") && m.payload().length != r.value(a, "length", 0)) {
            wrong.add(m.payload().length + " octets");
        }
        byte[] want = expected(r, a);
        if (want == null && a.has("u64")) {
            ByteBuffer bb = ByteBuffer.allocate(8);
            if (!r.ctx().agent().bigEndianAtomics()) bb.order(java.nio.ByteOrder.LITTLE_ENDIAN);
            want = bb.putLong(r.value(a, "u64", 0)).array();
        }
        if (want == null && a.has("buffer-data")) {
            // octets of a DUT buffer as the scenario wrote them: compared against memory read back
            NamedBuffer b = r.named(a.path("buffer-data").asText());
            want = read(r.ctx().agent(), b, (int) r.value(a, "offset", 0), m.payload().length);
        }
        if (want != null && !Arrays.equals(want, m.payload())) {
            int at = 0;
            while (at < Math.min(want.length, m.payload().length) && want[at] == m.payload()[at]) at++;
            wrong.add("payload differing at octet " + at + " (" + snippet(m.payload(), at) + " instead of "
                    + snippet(want, at) + ")");
        }
        if (!wrong.isEmpty()) fail("RDMA Read Response " + (a.path("index").asInt(0) + 1) + " has "
                + String.join(", ", wrong) + " (expected " + a + ")");
        r.compared("RDMA Read Response " + (a.path("index").asInt(0) + 1) + ": " + same(a, m.payload().length,
                want != null, " read back, equal", "stag", "to"));
    }
}
