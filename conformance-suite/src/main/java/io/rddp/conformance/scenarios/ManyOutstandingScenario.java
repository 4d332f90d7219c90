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
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.conformance.ControlClient;
import io.rddp.dut.Values;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.sink.StagRegistration;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Many operations in flight in both directions at once, every payload numbered so that order and integrity show.
 * Tester to DUT, in one burst: {@value #SENDS} Sends, {@value #WRITES} RDMA Writes and {@value #READS} RDMA Reads of
 * what the Writes placed. DUT to tester, posted before the burst arrives: {@value #DUT_SENDS} Sends with a Write after
 * every fourth, then {@value #READS} Reads of the tester's buffer. Checked: the DUT delivers the Sends in order with
 * their data (RFC 5041 §5.3), its Read Responses carry the written data in request order, its own messages go out in
 * the order posted (RFC 5040 §5.5) with their data, and its completions come in posting order.
 */
@ScenarioKeys({})
public final class ManyOutstandingScenario implements Scenario {

    static final int SENDS = 64, WRITES = 16, READS = 4, DUT_SENDS = 32;
    static final int SEND_LEN = 24, WRITE_LEN = 256, READ_LEN = 1024;
    static final long TESTER_STAG = 0x7E57_0020L, TESTER_TO = 0x50_0000L;

    private final ScenarioInfo info;

    public ManyOutstandingScenario(ScenarioInfo info, JsonNode spec) {
        this.info = info;
    }

    @Override
    public ScenarioInfo info() {
        return info;
    }

    static byte[] numbered(int n, int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) b[i] = (byte) (seed * 31 + n * 7 + i);
        b[0] = (byte) seed;
        b[1] = (byte) n;
        return b;
    }

    @Override
    public void run(ScenarioContext ctx) throws Exception {
        AgentDut agent = ctx.agent();
        Setup setup = Setup.defaults().withReceives(SENDS, SEND_LEN).withBuffer(WRITES * WRITE_LEN,
                Set.of("remote_read", "remote_write")).withIrdOrd(READS, READS).withRequest(MpaStartFrame.request(false,
                false, 2, new MpaStartFrame.Enhanced(READS, READS, false, false, false, false), new byte[0]));
        Session s = ctx.open(setup);
        ScriptedConnection c = s.conn();
        Session.DutBuffer b = s.buffer();
        ControlClient control = agent.control();

        // the tester's buffer the DUT writes into and reads from
        byte[] testerData = numbered(0, READS * READ_LEN, 0x77);
        c.testerStag(TESTER_STAG, TESTER_TO, READS * READ_LEN + WRITES * WRITE_LEN, Set.of(
                StagRegistration.Access.READ, StagRegistration.Access.WRITE));
        ObjectNode reg = ControlClient.request("register").put("length", READS * READ_LEN);
        reg.putArray("access").add("local_write");
        int sinkMr = control.call(reg).path("mr").asInt();

        // the responder speaks only after the tester's first FPDU (RFC 5044 §7.1.2): a zero-length Write
        c.send(RdmapEncoder.write(0, 0, ByteBuffer.allocate(0), c.mulpdu(1460)));
        List<Long> posted = new ArrayList<>();
        List<String> postedKinds = new ArrayList<>();
        for (int i = 0; i < DUT_SENDS; i++) {
            posted.add(post(control, ControlClient.request("post_send").put("qp", s.qp()).put("opcode", "send")
                    .put("data", HexFormat.of().formatHex(numbered(i, SEND_LEN, 0x44)))));
            postedKinds.add("send " + i);
            if (i % 4 == 3) {
                int w = i / 4;
                ObjectNode wr = ControlClient.request("post_send").put("qp", s.qp()).put("opcode", "write")
                        .put("data", HexFormat.of().formatHex(numbered(w, WRITE_LEN, 0x55)));
                wr.putObject("remote").put("stag", TESTER_STAG).put("to", Values.hex64(TESTER_TO + READS * READ_LEN
                        + (long) w * WRITE_LEN));
                posted.add(post(control, wr));
                postedKinds.add("write " + w);
            }
        }
        for (int r = 0; r < READS; r++) {
            ObjectNode rd = ControlClient.request("post_send").put("qp", s.qp()).put("opcode", "read")
                    .put("length", READ_LEN);
            rd.putObject("local").put("mr", sinkMr).put("offset", r * READ_LEN).put("length", READ_LEN);
            rd.putObject("remote").put("stag", TESTER_STAG).put("to", Values.hex64(TESTER_TO + (long) r * READ_LEN));
            posted.add(post(control, rd));
            postedKinds.add("read " + r);
        }

        // the tester's burst, in one write
        long sinkStag = 0x5EED_40L, sinkTo = 0x60_0000L;
        c.testerStag(sinkStag, sinkTo, READS * READ_LEN, Set.of(StagRegistration.Access.WRITE));
        c.hold();
        for (int i = 0; i < SENDS; i++) {
            c.send(RdmapEncoder.send(c.nextMsn(0), ByteBuffer.wrap(numbered(i, SEND_LEN, 0x11)), c.mulpdu(1460)));
            if (i % 4 == 3) {
                int w = i / 4;
                c.send(RdmapEncoder.write(b.stag(), b.to() + (long) w * WRITE_LEN,
                        ByteBuffer.wrap(numbered(w, WRITE_LEN, 0x22)), c.mulpdu(1460)));
            }
        }
        for (int r = 0; r < READS; r++) {
            c.send(RdmapEncoder.readRequest(c.nextMsn(1), new ReadRequest(sinkStag, sinkTo + (long) r * READ_LEN,
                    READ_LEN, b.stag(), b.to() + (long) r * READ_LEN)));
        }
        c.release();
        ctx.allowPlacement(0, (long) WRITES * WRITE_LEN);

        // answer the DUT's Reads in the order they come
        if (!c.await(x -> count(x, Opcode.RDMA_READ_REQUEST) >= READS || x.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN,
                ctx.timeouts().reaction())) {
            throw new ScenarioFailure("the DUT sent " + count(c, Opcode.RDMA_READ_REQUEST) + " of its " + READS
                    + " RDMA Read Requests");
        }
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() == null || p.rdmap().opcode() != Opcode.RDMA_READ_REQUEST) continue;
            if (!(p.rdmap().body() instanceof ReadRequest rr)) {
                throw new ScenarioFailure("the DUT's RDMA Read Request carries no RDMA Read Request header (RFC 5040"
                        + " §4.4): there is nothing to answer");
            }
            int off = (int) (rr.sourceTo() - TESTER_TO);
            c.send(RdmapEncoder.readResponse(rr.sinkStag(), rr.sinkTo(), ByteBuffer.wrap(Arrays.copyOfRange(
                    testerData, off, off + (int) rr.size())), c.mulpdu(1460)));
        }

        // the DUT's completions: the receives in order with their data, its own work requests in posting order
        int want = SENDS + posted.size();
        JsonNode wcs = control.call(ControlClient.request("poll").put("qp", s.qp()).put("min", want).put("max", want)
                .put("timeout_ms", ctx.timeouts().reaction()));
        List<JsonNode> recvs = new ArrayList<>(), own = new ArrayList<>();
        for (JsonNode wc : wcs.path("completions")) {
            if (!"success".equals(wc.path("status").asText())) {
                throw new ScenarioFailure("the DUT completed " + wc + " in error");
            }
            (wc.path("opcode").asText().equals("recv") ? recvs : own).add(wc);
        }
        if (recvs.size() != SENDS || own.size() != posted.size()) {
            throw new ScenarioFailure("the DUT reported " + recvs.size() + " of " + SENDS + " receives and " + own.size()
                    + " of " + posted.size() + " own completions within " + ctx.timeouts().reaction() + " ms");
        }
        for (int i = 0; i < SENDS; i++) {
            String data = HexFormat.of().formatHex(numbered(i, SEND_LEN, 0x11));
            if (!data.equals(recvs.get(i).path("data").asText())) {
                throw new ScenarioFailure("receive " + (i + 1) + " holds " + recvs.get(i).path("data").asText()
                        + ", Send " + (i + 1) + " carried " + data + ": delivered out of order or damaged");
            }
        }
        for (int i = 0; i < own.size(); i++) {
            if (own.get(i).path("wr_id").asLong() != posted.get(i)) {
                throw new ScenarioFailure("completion " + (i + 1) + " of the DUT's own work requests is " + own.get(i)
                        + ", expected the one of " + postedKinds.get(i) + " (RFC 5040 §5.5: completed in the order"
                        + " submitted)");
            }
        }

        // the DUT's Read Responses carry what the tester's Writes placed, in request order
        c.await(x -> responses(x).size() >= READS || x.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN,
                ctx.timeouts().reaction());
        List<byte[]> responses = responses(c);
        if (responses.size() < READS) throw new ScenarioFailure("the DUT answered " + responses.size() + " of "
                + READS + " RDMA Read Requests");
        for (int r = 0; r < READS; r++) {
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (int w = r * READ_LEN / WRITE_LEN; w < (r + 1) * READ_LEN / WRITE_LEN; w++) {
                expected.writeBytes(numbered(w, WRITE_LEN, 0x22));
            }
            if (!Arrays.equals(expected.toByteArray(), responses.get(r))) {
                throw new ScenarioFailure("RDMA Read Response " + (r + 1) + " does not carry what the Writes before"
                        + " its request placed (RFC 5040 §5.5: a Read Request is processed after earlier messages)");
            }
        }

        // the DUT's messages on the wire in the order posted, with their data; its Reads' sinks hold the tester's data
        List<String> wire = new ArrayList<>();
        int sends = 0, writes = 0, reads = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() == null) continue;
            Opcode op = p.rdmap().opcode();
            if (op == Opcode.SEND && p.segment().header() instanceof UntaggedHeader u && u.mo() == 0) {
                if (!Arrays.equals(p.payload(), numbered(sends, SEND_LEN, 0x44))) {
                    throw new ScenarioFailure("the DUT's Send " + (sends + 1) + " does not carry the data posted for it");
                }
                wire.add("send " + sends++);
            } else if (op == Opcode.RDMA_WRITE && p.segment().header() instanceof TaggedHeader t
                    && t.to() == TESTER_TO + READS * READ_LEN + (long) writes * WRITE_LEN) {
                wire.add("write " + writes++);
            } else if (op == Opcode.RDMA_READ_REQUEST) {
                wire.add("read " + reads++);
            }
        }
        if (!wire.equals(postedKinds)) {
            throw new ScenarioFailure("the DUT sent its messages in the order " + wire + ", they were posted as "
                    + postedKinds + " (RFC 5040 §5.5)");
        }
        byte[] sink = HexFormat.of().parseHex(control.call(ControlClient.request("read_mem").put("mr", sinkMr)
                .put("offset", 0).put("length", READS * READ_LEN)).path("data").asText());
        if (!Arrays.equals(sink, testerData)) {
            throw new ScenarioFailure("the sinks of the DUT's RDMA Reads do not hold what the tester's responses carried");
        }
        ctx.compared(READS + " RDMA Read Responses, the receives and the DUT's Sends carry what was written or posted,"
                + " equal; its messages in the order posted; its Read sinks (" + READS * READ_LEN + " octets) equal");
    }

    private static long post(ControlClient control, ObjectNode req) throws Exception {
        return control.call(req).path("wr_id").asLong();
    }

    private static int count(ScriptedConnection c, Opcode op) {
        int n = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) if (p.rdmap() != null && p.rdmap().opcode() == op) n++;
        return n;
    }

    /** The payload of each complete RDMA Read Response message of the DUT, in order. */
    private static List<byte[]> responses(ScriptedConnection c) {
        List<byte[]> out = new ArrayList<>();
        ByteArrayOutputStream cur = new ByteArrayOutputStream();
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() == null || p.rdmap().opcode() != Opcode.RDMA_READ_RESPONSE) continue;
            cur.writeBytes(p.payload());
            if (p.segment().header().last()) {
                out.add(cur.toByteArray());
                cur = new ByteArrayOutputStream();
            }
        }
        return out;
    }
}
