package io.rddp.conformance.rpcrdma;

import io.rddp.conformance.Dut;
import io.rddp.conformance.JobLimit;
import io.rddp.conformance.RpcReaction;
import io.rddp.conformance.Scenario;
import io.rddp.conformance.ScriptedConnection;
import io.rddp.conformance.Session;
import io.rddp.conformance.Setup;
import io.rddp.conformance.Timeouts;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rnic.link.Recorder;
import io.rddp.rpcrdma.CmPrivateData;
import io.rddp.rpcrdma.Proc;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

/**
 * The rpcrdma profile: the DUT is an RPC-over-RDMA version 1 Responder (RFC 8166) serving NFSv3 (RFC 1813) at
 * {@code HOST:PORT} (20049 by default, RFC 5667), e.g. Linux's nfsd (svcrdma) or {@code rddp peer --app rpcrdma}.
 * The tester is the Requester: it connects with an MPA Request carrying RFC 8797 private data (inline thresholds of
 * {@value Requester#INLINE} octets both ways), and drives the Responder through the transport header, the chunk
 * lists and the RPC messages of each scenario ({@link Requester}). What a scenario needs of the server's file tree
 * is in {@link Export}; everything else it learns over the protocol. The Responder serves each connection on its
 * own, so scenarios run {@value #LANES} at once with {@code --jobs}.
 */
public final class RpcRdmaDut implements Dut {

    /** RFC 5667 §5 (and RFC 8166 §5): the NFS/RDMA port. */
    public static final int DEFAULT_PORT = 20049;
    /** Scenarios at once: each opens connections of its own. */
    static final int LANES = 4;

    private final InetSocketAddress target;
    private final Export export;
    private final java.util.concurrent.atomic.AtomicInteger slots = new java.util.concurrent.atomic.AtomicInteger();

    public RpcRdmaDut(InetSocketAddress target, Export export) {
        this.target = target;
        this.export = export;
    }

    public Export export() {
        return export;
    }

    /**
     * Where a scenario may write in the export's file: its own 64 KiB of the first 1 MiB, handed out in turn, so
     * scenarios running at once never read back each other's data.
     */
    long fileOffset() {
        return (long) (slots.getAndIncrement() % 15) << 16;
    }

    @Override
    public String profile() {
        return "rpcrdma";
    }

    @Override
    public Set<String> capabilities() {
        return Set.of("mpa-rev2");
    }

    @Override
    public String describe() {
        return "RPC-over-RDMA responder at " + target.getHostString() + ":" + target.getPort();
    }

    /** The tester's MPA Request: Rev 2, enhanced, and the Requester's RFC 8797 private data. */
    static MpaStartFrame request(boolean privateData) {
        return MpaStartFrame.request(false, false, 2, new MpaStartFrame.Enhanced(4, 4, false, false, false, false),
                privateData ? new CmPrivateData(1, false, Requester.INLINE, Requester.INLINE).toBytes() : new byte[0]);
    }

    @Override
    public Session open(Setup setup, Recorder recorder, Timeouts t) throws Exception {
        return open(recorder, t, setup.request() != null ? setup.request() : request(true));
    }

    /** A connection in Full Operation after the MPA Request {@code request} (RFC 8797 private data or none). */
    Session open(Recorder recorder, Timeouts t, MpaStartFrame request) throws Exception {
        ScriptedConnection c = ScriptedConnection.connectRpcRdma(target, t.connect(), recorder);
        try {
            c.sendStartFrame(request);
            MpaStartFrame reply = c.awaitStartFrame(t.connect());
            if (reply == null) {
                if (c.peerClose() != io.rddp.rnic.link.Link.PeerClose.OPEN) {
                    throw new java.io.EOFException("the Responder closed the connection instead of an MPA Reply");
                }
                throw new Scenario.DutSilent("no MPA Reply within " + t.connect() + " ms");
            }
            if (reply.reject()) throw new Scenario.ScenarioFailure("the Responder rejected the MPA Request");
            c.fullOperation();
            return new Session(c, null, -1, -1);
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
    }

    /** A NULL call (RFC 1813 §3.3.0) on a fresh connection must come back accepted, with credits granted. */
    @Override
    public String liveness(Recorder recorder, Timeouts t) throws Exception {
        try (Session s = open(recorder, t, request(true))) {
            Requester r = new Requester(s);
            long xid = r.nextXid();
            r.send(Requester.message(Requester.header(xid, 8, Proc.RDMA_MSG, List.of(), List.of(), null),
                    Nfs3.call(xid, Nfs3.NULL, new byte[0])));
            Answer a = r.await(xid, t.reaction(), null);
            if (a == null) return "no reply to a NULL call on a fresh connection within " + t.reaction() + " ms";
            if (a.reaction() != RpcReaction.SUCCESS) return "a NULL call on a fresh connection got " + a.describe();
            if (a.header().credits() < 1) return "the NULL reply on a fresh connection grants " + a.header().credits()
                    + " credits (RFC 8166 §3.3.1: MUST NOT be zero)";
            s.conn().finish();
            return null;
        }
    }

    /**
     * {@code n} connection set-ups, each with a NULL call, as a scenario's start ({@link
     * io.rddp.conformance.RoundTrips}): milliseconds each.
     */
    public List<Long> measure(int n, Timeouts t) throws Exception {
        List<Long> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            String dead = liveness(Recorder.counting(1 << 20), t);
            if (dead != null) throw new java.io.IOException(dead);
            out.add((System.nanoTime() - start) / 1_000_000L);
        }
        return out;
    }

    @Override
    public String placement(Session s, List<long[]> allowed) {
        return null; // the Responder's memory is its own: what it wrote into the tester's chunks is checked instead
    }

    @Override
    public JobLimit jobLimit() {
        return new JobLimit(LANES, "the rpcrdma profile: each scenario opens connections of its own, "
                + LANES + " at most at once");
    }

    @Override
    public Dut lane(int k) {
        return this;
    }

    @Override
    public void reset() {
    }

    @Override
    public void close() {
    }
}
