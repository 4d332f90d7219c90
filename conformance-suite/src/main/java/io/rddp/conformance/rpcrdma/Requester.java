package io.rddp.conformance.rpcrdma;

import io.rddp.conformance.ScriptedConnection;
import io.rddp.conformance.Session;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rnic.link.Link;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.sink.StagRegistration;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tester's RPC-over-RDMA version 1 Requester (RFC 8166) on one scripted connection: it sends every message's
 * octets as the scenario gives them (transport header, chunk lists, RPC message, any value), and plays the
 * Requester's RNIC for what the Responder does: answers its RDMA Read Requests from the tester's regions, places its
 * RDMA Writes into them, and reassembles its Sends. An RDMA Read of a STag the tester never advertised, or past a
 * region's end, is answered as an RNIC answers it: a Terminate (RFC 5040 §7.1, RDMAP Remote Protection Error) and
 * the end of the connection. An RDMA Write outside a region is not placed and the connection goes on, unlike an
 * RNIC: the judge names it (rpcrdma.chunk-bounds, the DDP bounds checks) and the reply that follows is judged too.
 * Both directions are judged meanwhile by the connection's judge, RPC-over-RDMA rules included. It works on the
 * scripted connection rather than on the emulated RNIC's verbs so that every octet is the scenario's and the one
 * judge sees both directions live, as in every other profile. Not thread-safe: one scenario thread drives it.
 */
public final class Requester {

    /** The Requester's inline threshold, both ways, as its RFC 8797 private data advertises it (RFC 8166 §3.3.3). */
    public static final int INLINE = 1024;
    /** STags of the tester's regions: distinct per connection, so no STag is advertised on two streams. */
    private static final AtomicLong NEXT_STAG = new AtomicLong(0x7E5C_0000L);

    private final Session session;
    private final ScriptedConnection c;
    private final Map<Long, Region> regions = new LinkedHashMap<>();
    private final List<byte[]> received = new ArrayList<>();
    private final Map<Long, ByteArrayOutputStream> partial = new LinkedHashMap<>();
    private int seen;
    private int taken;
    private long nextTo = 0x1000_0000L;
    private long xid = 0x5EED_0000L + (NEXT_STAG.get() & 0xFFF) * 0x100;
    private String terminated;

    public Requester(Session session) {
        this.session = session;
        this.c = session.conn();
    }

    public Session session() {
        return session;
    }

    public ScriptedConnection conn() {
        return c;
    }

    /** A fresh XID. */
    public long nextXid() {
        return ++xid;
    }

    // ---------------------------------------------------------------- memory

    /** A region the Responder may RDMA Read, holding {@code data}. */
    public Region readable(byte[] data) {
        return register(data.clone(), true, false);
    }

    /** A region of {@code length} octets the Responder may RDMA Write. */
    public Region writable(int length) {
        return register(new byte[length], false, true);
    }

    /**
     * A readable region holding {@code data} that a chunk advertises as {@code advertised} octets long (more than it
     * holds): the judge holds the Responder to the advertisement, the tester's end answers a Read past the data
     * as an RNIC does ({@link #pump}: a Terminate).
     */
    public Region readableAdvertised(byte[] data, long advertised) {
        return register(data.clone(), true, false, advertised);
    }

    private Region register(byte[] data, boolean read, boolean write) {
        return register(data, read, write, data.length);
    }

    private Region register(byte[] data, boolean read, boolean write, long advertised) {
        long stag = NEXT_STAG.getAndAdd(0x100);
        Region r = new Region(stag, nextTo, data, read, write);
        nextTo += Math.max(0x1000, (Math.max(data.length, advertised) + 0xFFFL) & ~0xFFFL);
        regions.put(stag, r);
        c.testerStag(stag, r.to(), advertised, read ? Set.of(StagRegistration.Access.READ)
                : Set.of(StagRegistration.Access.WRITE));
        return r;
    }

    /** A STag the tester never registered (RFC 5040 §7.1: a Read of it is an invalid STag). */
    public long unknownStag() {
        return NEXT_STAG.getAndAdd(0x100) | 0x80;
    }

    /**
     * A chunk segment as advertised though no region (or a smaller one) backs it: the judge holds the Responder to
     * the advertisement, which is all it can know, while the tester's end answers an access beyond its real
     * regions as an RNIC does ({@link #pump}: a Terminate).
     */
    public RdmaSegment advertise(RdmaSegment s) {
        c.testerStag(s.handle(), s.offset(), s.length(), Set.of(StagRegistration.Access.READ));
        return s;
    }

    /** The first {@code n} octets the Responder wrote into a region (segments returned in a reply say how many). */
    public byte[] written(List<RdmaSegment> returned, List<Region> provided) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < returned.size() && i < provided.size(); i++) {
            Region r = provided.get(i);
            RdmaSegment s = returned.get(i);
            long off = s.offset() - r.to();
            if (s.handle() != r.stag() || off < 0 || off + s.length() > r.data().length) continue;
            out.write(r.data(), (int) off, (int) s.length());
        }
        return out.toByteArray();
    }

    // ---------------------------------------------------------------- sending

    /** Sends {@code message} as it is in one RDMA Send (segmented to the connection's MULPDU). */
    public void send(byte[] message) throws IOException {
        pump();
        c.send(RdmapEncoder.send(c.nextMsn(0), ByteBuffer.wrap(message), c.mulpdu(1460)));
    }

    /** A transport header of version 1 followed by {@code payload}. */
    public static byte[] message(RpcRdmaHeader h, byte[] payload) {
        byte[] head = h.toBytes();
        byte[] out = java.util.Arrays.copyOf(head, head.length + payload.length);
        System.arraycopy(payload, 0, out, head.length, payload.length);
        return out;
    }

    /** An RDMA_MSG or RDMA_NOMSG header asking for {@code credits}. */
    public static RpcRdmaHeader header(long xid, long credits, Proc proc, List<ReadSegment> reads,
                                       List<List<RdmaSegment>> writes, List<RdmaSegment> reply) {
        return RpcRdmaHeader.message(xid, credits, proc, reads, writes, reply);
    }

    // ---------------------------------------------------------------- receiving

    /**
     * The next message of the Responder's not taken yet, waiting at most {@code waitMs} (serving its RDMA Reads
     * meanwhile); null when none came in time or the connection ended.
     */
    public byte[] next(long waitMs) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        while (true) {
            pump();
            if (taken < received.size()) return received.get(taken++);
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0 || c.peerClose() != Link.PeerClose.OPEN || terminated != null) return null;
            int have = c.dutPdus().size();
            c.await(x -> x.dutPdus().size() > have || x.peerClose() != Link.PeerClose.OPEN, Math.min(left, 200));
        }
    }

    /**
     * The Responder's answer to {@code xid}, waiting at most {@code waitMs}; messages with other XIDs that come
     * first are set aside (and returned by {@link #others()}) until an await asks for their XID: replies need not
     * come in the order of their calls (RFC 8166 §4.1 matches them by XID). {@code replyChunk}: the regions of the
     * call's Reply chunk, for a Long Reply. Null when none came.
     */
    public Answer await(long xidWanted, long waitMs, List<Region> replyChunk) throws IOException,
            InterruptedException {
        Answer early = others.take(xidWanted);
        if (early != null) return withReplyChunk(early, replyChunk);
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            byte[] m = next(Math.max(0, left));
            if (m == null) return null;
            Answer a = Answer.of(m, null);
            if (a.header() != null && a.header().xid() == xidWanted) return withReplyChunk(a, replyChunk);
            others.add(a);
        }
    }

    private Answer withReplyChunk(Answer a, List<Region> replyChunk) {
        if (a.header().proc() == Proc.RDMA_NOMSG && a.header().replyChunk() != null && replyChunk != null) {
            return Answer.of(a.raw(), written(a.header().replyChunk(), replyChunk));
        }
        return a;
    }

    private final SetAside others = new SetAside();

    /** Messages {@link #await} set aside and no await took since: answers to other XIDs, or undecodable ones. */
    public List<Answer> others() {
        return others.all();
    }

    /** Why the tester's end terminated the connection (an RDMA Read it could not serve), or null. */
    public String terminated() {
        return terminated;
    }

    /** Whether the Responder closed the connection (FIN or RST). */
    public boolean closed() {
        return c.peerClose() != Link.PeerClose.OPEN;
    }

    /** Takes what the Responder sent since the last call: RDMA Reads served, Writes placed, Sends reassembled. */
    public void pump() throws IOException {
        List<ScriptedConnection.DutPdu> pdus = c.dutPdus();
        for (; seen < pdus.size(); seen++) {
            ScriptedConnection.DutPdu p = pdus.get(seen);
            if (p.rdmap() == null || p.segment() == null || p.rdmap().opcode() == null) continue;
            Opcode op = p.rdmap().opcode();
            if (op == Opcode.RDMA_READ_REQUEST && p.rdmap().body() instanceof ReadRequest rr) {
                serveRead(rr);
            } else if (op == Opcode.RDMA_WRITE && p.segment().header() instanceof TaggedHeader t) {
                place(t, p.payload());
            } else if ((op == Opcode.SEND || op == Opcode.SEND_WITH_SE || op == Opcode.SEND_WITH_INVALIDATE
                    || op == Opcode.SEND_WITH_SE_AND_INVALIDATE) && p.segment().header() instanceof UntaggedHeader u
                    && u.qn() == 0) {
                ByteArrayOutputStream b = partial.computeIfAbsent(u.msn(), k -> new ByteArrayOutputStream());
                if (u.mo() == b.size()) b.write(p.payload(), 0, p.payload().length);
                if (u.last()) received.add(partial.remove(u.msn()).toByteArray());
            }
        }
    }

    private void serveRead(ReadRequest rr) throws IOException {
        Region r = regions.get(rr.sourceStag());
        if (terminated != null) return;
        if (r == null || !r.readable() || !r.holds(rr.sourceTo(), rr.size())) {
            // what the Requester's RNIC does with it: RDMAP Remote Protection Error, invalid STag or base/bounds
            terminated = "the Responder RDMA Read " + rr.size() + " octets at 0x" + Long.toHexString(rr.sourceTo())
                    + " of STag 0x" + Long.toHexString(rr.sourceStag()) + (r == null ? ", a STag the tester never"
                    + " advertised" : ", outside the advertised segment") + ": the tester's end sent a Terminate";
            c.send(RdmapEncoder.terminate(c.nextMsn(2), Terminate.of(Terminate.LAYER_RDMA, 1, r == null ? 0 : 1)));
            c.finish();
            return;
        }
        c.dutStag(rr.sinkStag(), rr.sinkTo(), rr.size(), Set.of(StagRegistration.Access.WRITE));
        byte[] data = java.util.Arrays.copyOfRange(r.data(), (int) (rr.sourceTo() - r.to()),
                (int) (rr.sourceTo() - r.to() + rr.size()));
        c.send(RdmapEncoder.readResponse(rr.sinkStag(), rr.sinkTo(), ByteBuffer.wrap(data), c.mulpdu(1460)));
    }

    /** An RDMA Write is placed where it lands within a writable region; beyond it, nothing is placed (judged). */
    private void place(TaggedHeader t, byte[] payload) {
        Region r = regions.get(t.stag());
        if (r == null || !r.writable() || !r.holds(t.to(), payload.length)) return;
        System.arraycopy(payload, 0, r.data(), (int) (t.to() - r.to()), payload.length);
    }
}
