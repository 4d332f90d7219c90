package io.rddp.conformance.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.conformance.AgentDut;
import io.rddp.conformance.Scenario;
import io.rddp.conformance.ScenarioKeys;
import io.rddp.conformance.ScenarioContext;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.ScriptedConnection;
import io.rddp.conformance.Session;
import io.rddp.conformance.Setup;
import io.rddp.conformance.ControlClient;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.sink.StagRegistration;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * RFC 7306 §5.3: atomicity "MUST be assured in the context of concurrent atomic accesses by other RDMAP Streams on
 * the same RNIC". {@value #STREAMS} connections in one protection domain FetchAdd 1 to the same 64-bit word, {@value
 * #DEPTH} requests in flight on each, {@value #ROUNDS} rounds: every Original Remote Data Value must be returned exactly
 * once (0 to n - 1) and the word must end at n. A lost update shows as a repeated value and a short sum.
 */
@ScenarioKeys({})
public final class AtomicConcurrencyScenario implements Scenario {

    static final int STREAMS = 4, DEPTH = 4, ROUNDS = 25;

    private final ScenarioInfo info;

    public AtomicConcurrencyScenario(ScenarioInfo info, JsonNode spec) {
        this.info = info;
    }

    @Override
    public ScenarioInfo info() {
        return info;
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        AgentDut agent = ctx.agent();
        ObjectNode reg = ControlClient.request("register").put("length", 64).put("fill", "00");
        reg.putArray("access").add("local_write").add("remote_read").add("remote_write").add("remote_atomic");
        JsonNode mr = agent.control().call(reg);
        long stag = mr.path("stag").asLong();
        long to = Long.parseUnsignedLong(mr.path("to").asText().substring(2), 16);
        List<Session> sessions = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            Session s = ctx.open(Setup.defaults().withBuffer(0, Set.of()));
            if (s.qp() < 0) throw new ScenarioFailure("connection " + (i + 1) + " was not established");
            s.conn().dutStag(stag, to, 64, Set.of(StagRegistration.Access.READ, StagRegistration.Access.WRITE,
                    StagRegistration.Access.ATOMIC));
            sessions.add(s);
        }
        for (int round = 1; round <= ROUNDS; round++) {
            for (Session s : sessions) {
                ScriptedConnection c = s.conn();
                c.hold();
                for (int k = 0; k < DEPTH; k++) {
                    long msn = c.nextMsn(1);
                    c.send(RdmapEncoder.atomicRequest(msn, AtomicRequest.fetchAdd(msn, stag, to, 1, 0)));
                }
                c.release();
            }
            int want = round * DEPTH;
            for (Session s : sessions) {
                if (!s.conn().await(x -> responses(x).size() >= want
                        || x.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN, ctx.timeouts().reaction())) {
                    throw new ScenarioFailure("round " + round + ": the DUT answered " + responses(s.conn()).size()
                            + " of " + want + " FetchAdds on one connection");
                }
            }
        }
        TreeSet<Long> seen = new TreeSet<>();
        int total = 0;
        for (Session s : sessions) {
            for (long v : responses(s.conn())) {
                total++;
                if (!seen.add(v)) {
                    throw new ScenarioFailure("Original Remote Data Value " + v + " was returned twice: two FetchAdds"
                            + " of different streams read the same value (a lost update)");
                }
            }
        }
        long n = (long) STREAMS * DEPTH * ROUNDS;
        if (total != n || seen.first() != 0 || seen.last() != n - 1) {
            throw new ScenarioFailure(total + " FetchAdds returned values from " + seen.first() + " to " + seen.last()
                    + "; " + n + " distinct values 0 to " + (n - 1) + " were expected");
        }
        byte[] mem = HexFormat.of().parseHex(agent.control().call(ControlClient.request("read_mem")
                .put("mr", mr.path("mr").asInt()).put("offset", 0).put("length", 8)).path("data").asText());
        long value = ByteBuffer.wrap(mem).order(agent.bigEndianAtomics() ? ByteOrder.BIG_ENDIAN
                : ByteOrder.LITTLE_ENDIAN).getLong();
        if (value != n) throw new ScenarioFailure("the word holds " + value + " after " + n + " FetchAdds of 1");
        ctx.compared(n + " FetchAdds: each value 0 to " + (n - 1) + " returned once, the word holds " + n);
        for (Session s : sessions) s.conn().finish();
    }

    private static List<Long> responses(ScriptedConnection c) {
        List<Long> out = new ArrayList<>();
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() != null && p.rdmap().opcode() == Opcode.ATOMIC_RESPONSE
                    && p.rdmap().body() instanceof AtomicResponse r) {
                out.add(r.originalRemoteDataValue());
            }
        }
        return out;
    }
}
