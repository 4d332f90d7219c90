package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rnic.link.Link;

import java.util.ArrayList;
import java.util.List;

import static io.rddp.conformance.DutMessages.count;
import static io.rddp.conformance.DutMessages.gone;
import static io.rddp.conformance.DutMessages.pdus;
import static io.rddp.conformance.StepValues.fail;

/** The DUT's reaction to an error (RFC 5040 §4.8, §5.4): its Terminate, field by field, and its close. */
final class TerminateSteps {

    private TerminateSteps() {
    }

    /** Waits for the DUT's Terminate, or its close. */
    static void awaitTerminate(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        if (!c.await(x -> count(x, Opcode.TERMINATE) > 0 || gone(x), r.ctx().timeouts().reaction())) {
            fail("the DUT neither sent a Terminate nor closed within " + r.ctx().timeouts().reaction() + " ms");
        }
    }

    /**
     * The DUT's Terminate, field by field (RFC 5040 §4.8, §5.4): untagged on QN 2, MSN 1, MO 0, L, RV 1, Invalidate STag
     * zero; the Terminate Control's {@code layer}/{@code etype}/{@code code}, M, D and R bits ({@code m}, {@code d},
     * {@code r}), reserved bits zero; with D the DDP Segment Length and header of the tester's segment in error
     * ({@code header: previous}: the last segment the tester sent), with R its Read Request header.
     */
    static void checkTerminate(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        c.await(x -> count(x, Opcode.TERMINATE) > 0 || gone(x), r.ctx().timeouts().reaction());
        List<ScriptedConnection.DutPdu> ts = pdus(c, Opcode.TERMINATE);
        if (ts.isEmpty()) fail("the DUT sent no Terminate");
        ScriptedConnection.DutPdu p = ts.get(0);
        List<String> bad = new ArrayList<>();
        DdpHeader h = p.segment().header();
        if (!(h instanceof UntaggedHeader u)) {
            fail("the DUT's Terminate is tagged");
            return;
        }
        if (u.qn() != 2) bad.add("QN " + u.qn());
        if (u.msn() != 1) bad.add("MSN " + u.msn());
        if (u.mo() != 0) bad.add("MO " + u.mo());
        if (!u.last()) bad.add("L 0");
        if (u.version() != 1 || u.reserved() != 0) bad.add("DV " + u.version() + " Rsvd " + u.reserved());
        if (p.rdmap().control().version() != 1) bad.add("RV " + p.rdmap().control().version());
        if (p.rdmap().invalidateStag() != 0) bad.add("Invalidate STag field 0x" + Long.toHexString(p.rdmap().invalidateStag()));
        if (!(p.rdmap().body() instanceof Terminate t)) {
            fail("the DUT's Terminate header does not decode: " + p.problem());
            return;
        }
        if (a.has("layer") && t.layer() != a.path("layer").asInt()) bad.add("Layer " + t.layer());
        if (a.has("etype") && t.errorType() != a.path("etype").asInt()) bad.add("EType " + t.errorType());
        if (a.has("code") && t.errorCode() != a.path("code").asInt()) bad.add("Error Code " + t.errorCode());
        // RFC 5040 §4.8 Figure 10 says when M, D and R SHOULD be set: a difference is noted, not failed
        List<String> flags = new ArrayList<>();
        if (a.has("m") && t.segmentLengthValid() != a.path("m").asBoolean()) flags.add("M " + t.segmentLengthValid());
        if (a.has("d") && t.ddpHeaderIncluded() != a.path("d").asBoolean()) flags.add("D " + t.ddpHeaderIncluded());
        if (a.has("r") && t.rdmaHeaderIncluded() != a.path("r").asBoolean()) flags.add("R " + t.rdmaHeaderIncluded());
        if (!flags.isEmpty()) r.ctx().note("the DUT's Terminate has " + String.join(", ", flags) + " where RFC 5040 Figure 10"
                + " says otherwise (a SHOULD)");
        if (t.reserved() != 0) bad.add("reserved bits 0x" + Integer.toHexString(t.reserved()));
        DdpSegment lastSent = r.lastSent();
        if (a.path("header").asText("").equals("previous") && lastSent != null && t.ddpHeaderIncluded()) {
            if (!lastSent.header().equals(t.terminatedDdpHeader())) {
                bad.add("copied DDP header " + t.terminatedDdpHeader() + " (sent: " + lastSent.header() + ")");
            }
            int seg = lastSent.length(), payload = seg - lastSent.header().headerLength();
            // RFC 5040 §4.8: the DDP Segment Length of the segment in error; its payload length is read the same
            // way by some stacks (the judge accepts both too)
            if (t.segmentLengthValid() && t.ddpSegmentLength() != seg && t.ddpSegmentLength() != payload) {
                bad.add("DDP Segment Length " + t.ddpSegmentLength() + " (the segment had " + seg + " octets)");
            }
            if (t.rdmaHeaderIncluded()) {
                ReadRequest sent = null;
                try {
                    sent = (ReadRequest) io.rddp.rdmap.RdmapDecoder.decode(lastSent).body();
                } catch (io.rddp.MalformedException e) {
                    // not a Read Request: reported below
                }
                if (sent == null || !sent.equals(t.terminatedRdmaHeader())) {
                    bad.add("copied RDMA header " + t.terminatedRdmaHeader() + " (sent: " + sent + ")");
                }
            }
        }
        if (!bad.isEmpty()) fail("the DUT's Terminate has " + String.join(", ", bad));
        r.compared("the DUT's Terminate " + t.layer() + "/" + t.errorType() + "/" + t.errorCode() + ": QN, MSN, MO, L,"
                + " DV, RV, reserved bits" + (a.has("layer") || a.has("etype") || a.has("code") ? ", its code" : "")
                + (a.path("header").asText("").equals("previous") && t.ddpHeaderIncluded() ? ", the copied header"
                : "") + " as expected");
    }

    /** The DUT must close the connection within the reaction time ({@code fin: true}: gracefully, not by a reset). */
    static void expectClose(ScenarioRun r, JsonNode a) throws Exception {
        ScriptedConnection c = r.conn();
        if (!c.awaitClose(r.ctx().timeouts().reaction())) {
            fail("the DUT did not close the connection within " + r.ctx().timeouts().reaction() + " ms");
        }
        if (a.path("fin").asBoolean(false) && c.peerClose() == Link.PeerClose.RST) {
            fail("the DUT reset the connection where it had to close its half gracefully (FIN)");
        }
    }
}
