package io.rddp.conformance;

import io.rddp.rnic.link.Recorder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.sink.StagRegistration;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The rping profile: the DUT runs stock {@code rping -s} (rdma-core) and the tester plays rping's client. The DUT's
 * buffer is learned from its first RDMA Read Request (rping's server never advertises it: its STag, address and
 * length are the Data Sink fields of that request), so tagged faults can be aimed at a real, registered buffer.
 * rping keeps one 16-octet receive posted and reposts it after each Send. Scenarios that need more control than
 * rping gives are skipped.
 */
public final class RpingDut implements Dut {

    /** The tester's start buffer as it advertises it (any STag and address: the tester answers the Read itself). */
    static final long TESTER_TO = 0x10_0000;
    /**
     * The tester's STag index differs per connection: one STag advertised on two streams is what RFC 5042 §6.1.1
     * forbids (the analyzer flags it as security.stag-stream), and a scenario's liveness connection is a second one.
     */
    private static final AtomicInteger NEXT_STAG = new AtomicInteger();

    static long testerStag() {
        return 0x7E57_0001L + ((long) (NEXT_STAG.getAndIncrement() & 0xFF) << 8);
    }
    static final int SIZE = 64;
    /** How often a new connection is tried while rping -s restarts between connections. */
    static final int CONNECT_TRIES = 30;
    /** How long a fresh connection must stay up to count as accepted by a listening rping. */
    static final int SETTLE_MS = 150;

    /**
     * Connections tried per set-up or liveness check when rping -s stalls before the scenario's fault: it answers the
     * MPA Request but never RDMA Reads the advertised buffer (siw 6.12 does now and then, whatever the connection
     * before did). The stall is not what the scenario tests, so one more fresh connection is tried, and noted.
     */
    static final int SETUP_TRIES = 2;
    /**
     * How long a connection that is not the last try waits for rping -s to read the advertised buffer: it does so
     * within a round trip (tens of ms in an emulated guest), so one that has not in a second has stalled and is
     * replaced; the last try waits the whole reaction wait.
     */
    static final int EARLY_TRY_READ_WAIT_MS = 1000;

    private final InetSocketAddress target;
    private final List<String> openNotes = new java.util.ArrayList<>();
    private final Set<String> caps;
    private final int restartMs;
    private final Readiness ready;
    private long lastConnect = -1;

    /** @param caps what the DUT is known to support, beyond rping's MPA rev 2 (e.g. crc, markers) */
    public RpingDut(InetSocketAddress target, Set<String> caps) {
        this(target, caps, 0, Readiness.NONE);
    }

    /**
     * @param restartMs how long rping -s needs to listen again after a connection (a loop restarting it in an
     *                  emulated VM needs about a second); the tester waits that long between connections, unless
     * @param ready     says earlier that rping -s listens again (the lab asks the guest); {@link Readiness#NONE}:
     *                  only {@code restartMs}
     */
    public RpingDut(InetSocketAddress target, Set<String> caps, int restartMs, Readiness ready) {
        this.target = target;
        this.caps = Set.copyOf(caps);
        this.restartMs = restartMs;
        this.ready = ready;
    }

    @Override
    public String profile() {
        return "rping";
    }

    /** rping -s serves one connection, then is restarted for the next: scenarios take it one at a time. */
    @Override
    public JobLimit jobLimit() {
        return new JobLimit(1, "the rping profile: rping -s serves one connection and is restarted for the next");
    }

    @Override
    public Set<String> capabilities() {
        return caps;
    }

    /** rping -s reads every 16-octet Send as an advertisement: it gets a valid one, of a sink the judge knows. */
    @Override
    public byte[] sendPayload(Session s, byte[] pattern) {
        if (pattern.length != 16) return pattern;
        return advertisement(s.conn(), s.buffer() != null ? s.buffer().length() : SIZE);
    }

    @Override
    public String describe() {
        return "rping -s at " + target.getHostString() + ":" + target.getPort();
    }

    /** rping's MPA Request: Rev 2, enhanced, IRD/ORD 1/1 (what rdma_cm sends for rping's conn_param). */
    static MpaStartFrame request() {
        return MpaStartFrame.request(false, false, 2, new MpaStartFrame.Enhanced(1, 1, false, false, false, false),
                new byte[0]);
    }

    @Override
    public Session open(Setup s, Recorder recorder, Timeouts t) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return openOnce(s, recorder, t, readWait(attempt, t));
            } catch (Stalled e) {
                if (attempt == SETUP_TRIES) {
                    throw new Scenario.Skip(e.getMessage() + " (" + SETUP_TRIES + " connections in a row)", false);
                }
                openNotes.add("connection " + attempt + ": " + e.getMessage() + " before the scenario's fault; the"
                        + " scenario ran on a fresh connection");
            }
        }
    }

    @Override
    public List<String> takeOpenNotes() {
        List<String> n = List.copyOf(openNotes);
        openNotes.clear();
        return n;
    }

    /** The wait for rping -s's RDMA Read Request on try {@code attempt}. */
    private static long readWait(int attempt, Timeouts t) {
        return attempt < SETUP_TRIES ? Math.min(EARLY_TRY_READ_WAIT_MS, t.reaction()) : t.reaction();
    }

    private Session openOnce(Setup s, Recorder recorder, Timeouts t, long readWaitMs) throws Exception {
        ScriptedConnection conn = connect(recorder, t);
        try {
            conn.dutReceives(2, 16); // rping: one receive, reposted after each Send of the tester
            Session.DutBuffer buffer = null;
            if (s.request() != null) {
                conn.sendStartFrame(s.request());
                MpaStartFrame reply = conn.awaitStartFrame(t.connect());
                if (reply != null && !reply.reject()) {
                    conn.fullOperation();
                    if (s.bufferLength() > 0) buffer = learnBuffer(conn, t, readWaitMs);
                }
            }
            return new Session(conn, buffer, -1, 2);
        } catch (Exception | Error e) {
            // no session holds the connection: closing it here lets rping -s see the end of it and exit
            conn.close();
            throw e;
        }
    }

    /**
     * rping -s serves one connection and is restarted: a connection made before it listens again is refused, or —
     * through a port forward that accepts first, as qemu's does — closed at once without a word. A connection still
     * up after {@link #SETTLE_MS} reached a listening rping; others are retried, a bounded number of times.
     */
    private ScriptedConnection connect(Recorder recorder, Timeouts t) throws Exception {
        // the probe runs before the first connection too: it tells a fresh rping -s from the one it reported last
        if (!ready.await(t.connect()) && lastConnect > 0) {
            long wait = restartMs - (System.nanoTime() - lastConnect) / 1_000_000L;
            // pacing, not a wait for an answer: without a readiness probe rping -s gives no sign that it listens
            // again but a connection
            if (wait > 0) Thread.sleep(wait);
        }
        lastConnect = System.nanoTime();
        String last = "";
        for (int i = 0; i < CONNECT_TRIES; i++) {
            try {
                // the connection itself is the probe: a second one would sit in rping's listen backlog (3) as a
                // half-open connection until siw's MPA timeout, and enough of them lock rping -s out
                ScriptedConnection c = ScriptedConnection.connect(target, t.connect(), recorder);
                if (!c.awaitClose(Math.max(SETTLE_MS, t.quiet() / 2))) return c;
                c.close();
                last = "the connection was closed at once (rping -s not listening yet)";
            } catch (java.io.IOException e) {
                last = e.getMessage();
            }
            Thread.sleep(200); // a bounded retry's back-off (CONNECT_TRIES)
        }
        throw new java.io.IOException("rping -s at " + target + " does not accept connections (tried "
                + CONNECT_TRIES + " times over about " + CONNECT_TRIES * (SETTLE_MS + 200) / 1000 + " s): " + last);
    }

    /**
     * The first half of a ping: the tester advertises its start buffer, the DUT RDMA Reads it (its Read Request names
     * the DUT's own buffer as the Data Sink), the tester answers. Returns the DUT's buffer; the DUT then sends its
     * go-ahead and waits for the tester's next Send.
     */
    static Session.DutBuffer learnBuffer(ScriptedConnection c, Timeouts t, long readWaitMs) throws Exception {
        long stag = testerStag();
        c.testerStag(stag, TESTER_TO, SIZE, Set.of(StagRegistration.Access.READ, StagRegistration.Access.WRITE));
        c.send(RdmapEncoder.send(c.nextMsn(0), info(TESTER_TO, stag, SIZE), c.mulpdu(1460)));
        if (!c.await(x -> readRequest(x) != null || x.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN, readWaitMs)) {
            throw new Stalled("rping -s sent no RDMA Read Request for the advertised buffer");
        }
        ReadRequest rr = readRequest(c);
        if (rr == null) throw new Scenario.Skip("rping -s closed instead of reading the advertised buffer", false);
        c.dutStag(rr.sinkStag(), rr.sinkTo(), rr.size(), Set.of(StagRegistration.Access.READ,
                StagRegistration.Access.WRITE));
        byte[] data = io.rddp.rnic.app.Rping.pingData(0, (int) rr.size());
        c.send(RdmapEncoder.readResponse(rr.sinkStag(), rr.sinkTo(), ByteBuffer.wrap(data), c.mulpdu(1460)));
        // the go-ahead: a 16-octet Send
        c.await(x -> sends(x) >= 1 || x.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN, t.reaction());
        return new Session.DutBuffer(rr.sinkStag(), rr.sinkTo(), (int) rr.size(), -1);
    }

    /**
     * A Send payload rping's server takes as a valid advertisement: a sink buffer of the tester's, registered with the
     * judge, so whatever rping -s does with it (an RDMA Write or Read of {@code size} octets) is judged correct.
     */
    static byte[] advertisement(ScriptedConnection c, int size) {
        long stag = 0x7E57_0003L, to = 0x30_0000;
        c.testerStag(stag, to, size, Set.of(StagRegistration.Access.READ, StagRegistration.Access.WRITE));
        return info(to, stag, size).array();
    }

    static ByteBuffer info(long buf, long rkey, long size) {
        return ByteBuffer.allocate(16).putLong(buf).putInt((int) rkey).putInt((int) size).flip();
    }

    static ReadRequest readRequest(ScriptedConnection c) {
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() != null && p.rdmap().opcode() == Opcode.RDMA_READ_REQUEST
                    && p.rdmap().body() instanceof ReadRequest rr) {
                return rr;
            }
        }
        return null;
    }

    static int sends(ScriptedConnection c) {
        int n = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() != null && p.rdmap().opcode() == Opcode.SEND && p.segment().header().last()) n++;
        }
        return n;
    }

    /** rping -s answered the MPA Request and then did nothing with the advertised buffer. */
    static final class Stalled extends Exception {
        Stalled(String message) {
            super(message);
        }
    }

    @Override
    public String liveness(Recorder recorder, Timeouts t) throws Exception {
        String dead = null;
        for (int attempt = 1; attempt <= SETUP_TRIES; attempt++) {
            try {
                return livenessOnce(recorder, t, readWait(attempt, t));
            } catch (Stalled e) {
                dead = e.getMessage() + " (" + SETUP_TRIES + " connections in a row)";
            }
        }
        return dead;
    }

    private String livenessOnce(Recorder recorder, Timeouts t, long readWaitMs) throws Exception {
        try (ScriptedConnection c = connect(recorder, t)) {
            c.sendStartFrame(request());
            MpaStartFrame reply = c.awaitStartFrame(t.connect());
            if (reply == null || reply.reject()) return "rping -s gave no usable MPA Reply to a fresh connection";
            c.fullOperation();
            Session.DutBuffer b;
            try {
                b = learnBuffer(c, t, readWaitMs);
            } catch (Scenario.Skip e) {
                return e.getMessage();
            }
            if (sends(c) < 1) return "rping -s sent no go-ahead after its RDMA Read";
            // second half: advertise a sink; the DUT writes the ping back and sends its second go-ahead
            long sinkStag = 0x7E57_0002L, sinkTo = 0x20_0000;
            c.testerStag(sinkStag, sinkTo, b.length(), Set.of(StagRegistration.Access.WRITE));
            c.send(RdmapEncoder.send(c.nextMsn(0), info(sinkTo, sinkStag, b.length()), c.mulpdu(1460)));
            if (!c.await(x -> sends(x) >= 2 || x.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN, t.reaction())) {
                return "rping -s did not finish a ping on a fresh connection within " + t.reaction() + " ms";
            }
            byte[] written = writes(c);
            byte[] sent = io.rddp.rnic.app.Rping.pingData(0, b.length());
            if (!java.util.Arrays.equals(written, sent)) {
                return "rping -s wrote back \"" + new String(written, StandardCharsets.US_ASCII).trim()
                        + "\" instead of what it read";
            }
            c.finish();
            c.awaitClose(t.reaction());
            return null;
        }
    }

    static byte[] writes(ScriptedConnection c) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.rdmap() != null && p.rdmap().opcode() == Opcode.RDMA_WRITE) out.writeBytes(p.payload());
        }
        return out.toByteArray();
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
    }
}
