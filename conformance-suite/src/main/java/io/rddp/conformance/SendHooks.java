package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.rddp.ddp.DdpSegment;
import io.rddp.rdmap.Terminate;

import java.util.ArrayList;
import java.util.List;

/**
 * What the {@code send} step takes from the RDMA side: the body of a Terminate it sends, and the order its segments go
 * out in; the last segment sent is remembered for a Terminate or check that refers to it ({@code previous}).
 */
final class SendHooks {

    private SendHooks() {
    }

    /** The Terminate a {@code send: {opcode: terminate}} carries: layer/etype/code, M/D/R, reserved, copied header. */
    static Terminate terminate(ScenarioRun r, JsonNode a) {
        int layer = a.path("layer").asInt(0), etype = a.path("etype").asInt(2), code = a.path("code").asInt(7);
        int reserved = a.path("term-reserved").asInt(0);
        if (a.path("terminated").asText("").equals("previous")) {
            DdpSegment lastSent = r.lastSent();
            if (lastSent == null) throw new IllegalArgumentException("terminated: previous, but nothing was sent");
            return new Terminate(layer, etype, code, a.path("m").asBoolean(true), true, false, reserved,
                    lastSent.length(), lastSent.header(), null);
        }
        return new Terminate(layer, etype, code, a.path("m").asBoolean(false), false, false, reserved, -1, null,
                null);
    }

    /**
     * {@code order: reverse} sends the segments of a message highest offset first, with L on the last one sent
     * (RFC 5041 §5.3 only says SHOULD about the order); the last segment sent is remembered for
     * {@code terminated: previous}.
     */
    static List<DdpSegment> segments(ScenarioRun r, JsonNode a, List<DdpSegment> segs) {
        List<DdpSegment> out = segs;
        if (a.path("order").asText("").equals("reverse") && segs.size() > 1) {
            boolean last = segs.get(segs.size() - 1).header().last();
            out = new ArrayList<>();
            for (int i = segs.size() - 1; i >= 0; i--) {
                DdpSegment s = segs.get(i);
                out.add(new DdpSegment(s.header().withLast(i == 0 && last), s.payload()));
            }
        }
        if (!out.isEmpty()) r.sent(out.get(out.size() - 1));
        return out;
    }
}
