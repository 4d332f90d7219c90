package io.rddp.conformance;

import io.rddp.rnic.link.Link;
import io.rddp.rnic.link.Recorder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.sink.StagRegistration;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;

/**
 * The rping-client profile: the DUT runs stock {@code rping -c} (rdma-core) against the tester's listener, over and over
 * ({@code while :; do rping -c -a TESTER -p PORT -C 1; done}), and is the MPA Initiator (RFC 5044 §7.1.2) of every
 * connection. The tester plays rping's server: it answers the DUT's MPA Request as a scenario says; after a valid Reply
 * rping's client advertises its start buffer in a 16-octet Send, its first FPDU. Only DUT-active scenarios that need no
 * control of the DUT beyond that run here.
 */
public final class RpingClientDut implements Dut, ActiveDut {

    /** The Data Sink the tester's RDMA Read of the client's start buffer names (the tester answers nothing itself). */
    static final long SINK_STAG = 0x7E57_0100L, SINK_TO = 0x40_0000;

    private final ServerSocket server;
    private final Set<String> caps;

    /** rping's struct rping_rdma_info: buf (BE64), rkey (BE32), size (BE32). */
    record Info(long buf, long rkey, long size) {
        static Info parse(byte[] b) {
            ByteBuffer bb = ByteBuffer.wrap(b);
            return new Info(bb.getLong(0), Integer.toUnsignedLong(bb.getInt(8)), Integer.toUnsignedLong(bb.getInt(12)));
        }
    }

    /**
     * @param listen where the tester listens for the DUT's rping -c
     * @param caps   what the DUT supports beyond rping's MPA rev 2 (e.g. crc)
     */
    public RpingClientDut(InetSocketAddress listen, Set<String> caps) throws IOException {
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(listen, 16);
        this.caps = Set.copyOf(caps);
    }

    /** Where the tester listens (the port the DUT's rping -c must connect to). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    @Override
    public String profile() {
        return "rping-client";
    }

    /** One rping client in the DUT connects to the tester: each connection is one scenario's, in turn. */
    @Override
    public JobLimit jobLimit() {
        return new JobLimit(1, "the rping-client profile: one rping client in the DUT connects to the tester, one"
                + " connection at a time, and no scenario can tell its connection from another's");
    }

    @Override
    public Set<String> capabilities() {
        return caps;
    }

    @Override
    public String describe() {
        return "rping -c connecting to the tester at " + address().getHostString() + ":" + address().getPort();
    }

    @Override
    public Session open(Setup setup, Recorder recorder, Timeouts t) throws Exception {
        throw new Scenario.Skip("rping -c connects to the tester: only DUT-active scenarios run in this profile", false);
    }

    @Override
    public Session openActive(ActiveSetup a, Recorder recorder, Timeouts t) throws Exception {
        ScriptedConnection conn;
        try {
            conn = ScriptedConnection.accept(server, t.connect(), recorder);
        } catch (java.net.SocketTimeoutException e) {
            throw new IOException("rping -c did not connect to the tester at " + address() + " within "
                    + t.connect() + " ms (run it in a loop: while :; do rping -c -a HOST -p PORT -C 1; done)");
        }
        conn.dutReceives(2, 16); // rping: one 16-octet receive, reposted after each Send of the tester
        return new Session(conn, null, -1, 2);
    }

    /**
     * rping -c has no control channel: its first FPDU (the advertisement) shows its connect succeeded; a Terminate
     * instead (e.g. after a bad Reply) shows it failed.
     */
    @Override
    public int activeQp(Session s, long timeoutMs) throws Exception {
        ScriptedConnection c = s.conn();
        c.await(x -> fpdus(x) > 0 || terminated(x) || x.peerClose() != Link.PeerClose.OPEN, timeoutMs);
        return fpdus(c) > 0 ? 0 : -1;
    }

    @Override
    public String connectOutcome(Session s) {
        ScriptedConnection c = s.conn();
        if (fpdus(c) > 0) return "established (rping -c sent its first FPDU)";
        if (terminated(c)) return "failed (rping -c sent a Terminate)";
        return c.peerClose() != Link.PeerClose.OPEN ? "failed (rping -c closed)" : "pending";
    }

    /** FPDUs of the DUT other than Terminates. */
    private static int fpdus(ScriptedConnection c) {
        int n = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.start() == null && !isTerminate(p)) n++;
        }
        return n;
    }

    private static boolean terminated(ScriptedConnection c) {
        for (ScriptedConnection.DutPdu p : c.dutPdus()) if (isTerminate(p)) return true;
        return false;
    }

    private static boolean isTerminate(ScriptedConnection.DutPdu p) {
        return p.rdmap() != null && p.rdmap().opcode() == Opcode.TERMINATE;
    }

    /**
     * A whole ping as rping's server: a Reply as a correct Responder gives it, the RDMA Read of the client's start
     * buffer, a go-ahead, the RDMA Write of the data into its sink buffer, another go-ahead; rping -c -C 1 then checks
     * and closes.
     */
    @Override
    public String liveness(Recorder recorder, Timeouts t) throws Exception {
        try (ScriptedConnection c = ScriptedConnection.accept(server, t.connect(), recorder)) {
            c.dutReceives(2, 16);
            MpaStartFrame req = c.awaitStartFrame(t.connect());
            if (req == null) return "rping -c sent no MPA Request on a fresh connection";
            c.sendStartFrame(MpaSteps.replyFrame(com.fasterxml.jackson.databind.node.MissingNode.getInstance(), req));
            c.fullOperation();
            Info start = advertisement(c, 1, t);
            if (start == null) return "rping -c sent no start-buffer advertisement after a valid MPA Reply";
            c.dutStag(start.rkey(), start.buf(), start.size(), Set.of(StagRegistration.Access.READ,
                    StagRegistration.Access.WRITE));
            c.testerStag(SINK_STAG, SINK_TO, start.size(), Set.of(StagRegistration.Access.WRITE));
            c.send(RdmapEncoder.readRequest(c.nextMsn(1), new ReadRequest(SINK_STAG, SINK_TO, start.size(),
                    start.rkey(), start.buf())));
            if (!c.await(x -> AgentDut.readResponseBytes(x) >= start.size()
                    || x.peerClose() != Link.PeerClose.OPEN, t.reaction())) {
                return "rping -c did not answer the RDMA Read of its start buffer within " + t.reaction() + " ms";
            }
            byte[] data = AgentDut.readResponseData(c, (int) start.size());
            c.send(RdmapEncoder.send(c.nextMsn(0), ByteBuffer.allocate(16), c.mulpdu(1460)));
            Info sink = advertisement(c, 2, t);
            if (sink == null) return "rping -c sent no sink-buffer advertisement after the go-ahead";
            c.dutStag(sink.rkey(), sink.buf(), sink.size(), Set.of(StagRegistration.Access.READ,
                    StagRegistration.Access.WRITE));
            c.send(RdmapEncoder.write(sink.rkey(), sink.buf(), ByteBuffer.wrap(data), c.mulpdu(1460)));
            c.send(RdmapEncoder.send(c.nextMsn(0), ByteBuffer.allocate(16), c.mulpdu(1460)));
            c.awaitClose(t.reaction());
            return null;
        }
    }

    /** The {@code n}th 16-octet Send of rping -c, as its struct rping_rdma_info, or null. */
    private static Info advertisement(ScriptedConnection c, int n, Timeouts t) throws InterruptedException {
        c.await(x -> RpingDut.sends(x) >= n || x.peerClose() != Link.PeerClose.OPEN, t.reaction());
        int seen = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() != null && p.rdmap().opcode() == Opcode.SEND && p.segment().header().last()
                    && ++seen == n) {
                return p.payload().length >= 16 ? Info.parse(p.payload()) : null;
            }
        }
        return null;
    }

    @Override
    public String placement(Session s, List<long[]> allowed) {
        return null; // rping gives no way to read the DUT's memory
    }

    @Override
    public void reset() {
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // going away anyway
        }
    }
}
