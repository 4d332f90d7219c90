package io.rddp.rnic.app.rpcrdma;

import io.rddp.MalformedException;
import io.rddp.rnic.Access;
import io.rddp.rnic.Bug;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.MemoryRegion;
import io.rddp.rnic.QueuePair;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicException;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.WorkRequest;
import io.rddp.rpcrdma.CmPrivateData;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A reference RPC-over-RDMA version 1 Responder (RFC 8166) serving NFSv3 ({@link Nfs3Server}) over {@link NfsTree}:
 * the device under test of the RPC-over-RDMA conformance profile. Per connection it keeps {@code credits} receives
 * of the inline threshold posted, grants that many credits at most (§3.3.1), pulls Read chunks by RDMA Read (a
 * Position Zero chunk is a Long Call, others are data items such as WRITE's data, RFC 8267 §3.1), pushes READ's data
 * into the first Write chunk by RDMA Write and returns the Write list with the lengths written (§3.4.6), and sends a
 * reply too large for the reply inline threshold through the Reply chunk as RDMA_NOMSG (§3.5.3). Errors in a
 * call's transport header get RDMA_ERROR (§4.5): ERR_VERS 1..1 for another version, ERR_CHUNK for chunk lists it
 * cannot use; RDMA_MSGP gets ERR_CHUNK (§4.6.1); RDMA_DONE and RDMA_ERROR are discarded (§4.6.2, §4.2.4), as is a
 * message shorter than 28 octets (§4.5). Each connection is served on a thread of its own, one call at a time.
 */
public final class RpcRdmaResponder {
    /** RFC 8166 §3.3.3: the inline threshold every receiver supports. */
    public static final int DEFAULT_INLINE = 1024;
    /** The largest inline threshold taken: the emulated RNIC hands up at most 4096 octets of a receive. */
    public static final int MAX_INLINE = 4096;
    public static final int DEFAULT_CREDITS = 32, MAX_CREDITS = 128;
    /** Knob rpcrdma-inline-threshold-ignored: the size such a responder assumes (Linux's default inline size). */
    static final int ASSUMED_INLINE = 4096;

    /**
     * @param inline  this side's send and receive inline size: the receives it posts, the most it sends, and what
     *                it advertises in RFC 8797 private data (a multiple of 1024, 1024 to {@value #MAX_INLINE})
     * @param credits receives kept posted, and the most credits granted
     */
    public record Options(int inline, int credits) {
        public Options {
            if (inline < DEFAULT_INLINE || inline > MAX_INLINE || inline % 1024 != 0) {
                throw new IllegalArgumentException("the inline threshold must be a multiple of 1024 from 1024 to "
                        + MAX_INLINE + ", got " + inline);
            }
            if (credits < 1 || credits > MAX_CREDITS) {
                throw new IllegalArgumentException("credits must be 1 to " + MAX_CREDITS + ", got " + credits);
            }
        }

        public static Options defaults() {
            return new Options(DEFAULT_INLINE, DEFAULT_CREDITS);
        }
    }

    private final Rnic rnic;
    private final Options options;
    private final NfsTree tree = new NfsTree();
    private final Nfs3Server nfs = new Nfs3Server(tree);

    public RpcRdmaResponder(Rnic rnic, Options options) {
        this.rnic = rnic;
        this.options = options;
    }

    public NfsTree tree() {
        return tree;
    }

    /** Listener settings before any Request is seen: the receives and no private data (manual accept chooses). */
    public ConnectionSettings listenerSettings() {
        return ConnectionSettings.defaults(rnic).withRecv(options.credits(), options.inline());
    }

    /**
     * The settings to accept {@code qp} with: the receives, and RFC 8797 private data with this side's inline
     * sizes when the Requester sent its own (RFC 8797 §5: without it, both sides assume 1024).
     */
    ConnectionSettings settingsFor(QueuePair qp) {
        ConnectionSettings s = listenerSettings();
        CmPrivateData theirs = qp.peerStartFrame() == null ? null
                : CmPrivateData.parse(qp.peerStartFrame().ulpPrivateData());
        if (theirs == null) return s;
        return s.withPrivateData(new CmPrivateData(1, false, options.inline(), options.inline()).toBytes());
    }

    /**
     * Serves Requesters on {@code listener} (a manual one: the MPA Reply answers the Request's private data) until
     * {@code connections} were served (0: never). Each connection is served until the Requester disconnects.
     */
    public void serve(RnicListener listener, int connections, PrintStream out) throws InterruptedException {
        io.rddp.rnic.app.ThreadPerConnection.serve(connections, () -> listener.acceptChoosing(1000, this::settingsFor),
                "rpcrdma-responder-qp", qp -> serveClient(qp, out));
    }

    /** {@link #serve} of every Requester, quietly, on a daemon thread; interrupting it ends it. */
    public Thread serveInBackground(RnicListener listener) {
        Thread t = new Thread(() -> {
            try {
                serve(listener, 0, new PrintStream(java.io.OutputStream.nullOutputStream()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rpcrdma-responder");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void serveClient(QueuePair qp, PrintStream out) {
        try {
            int calls = new Connection(new Verbs(rnic, qp), replyThreshold(qp)).run();
            out.println("rpcrdma responder: requester " + qp.link().remote() + " done, " + calls + " call"
                    + (calls == 1 ? "" : "s"));
        } catch (Verbs.Failure | RnicException e) {
            out.println("rpcrdma responder: requester " + qp.link().remote() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            rnic.closeAndDestroy(qp, 3000);
        }
    }

    /** RFC 8166 §3.3.2: the smaller of what this side sends and what the Requester receives (RFC 8797 §5.1). */
    private int replyThreshold(QueuePair qp) {
        if (rnic.config().has(Bug.RPCRDMA_INLINE_THRESHOLD_IGNORED)) return ASSUMED_INLINE;
        CmPrivateData theirs = qp.peerStartFrame() == null ? null
                : CmPrivateData.parse(qp.peerStartFrame().ulpPrivateData());
        return Math.min(options.inline(), theirs == null ? DEFAULT_INLINE : theirs.receiveSize());
    }

    /** One connection's calls, one at a time. */
    private final class Connection {
        private final Verbs v;
        private final int replyThreshold;
        private int calls;

        Connection(Verbs v, int replyThreshold) {
            this.v = v;
            this.replyThreshold = replyThreshold;
        }

        int run() throws Verbs.Failure, InterruptedException {
            while (true) {
                byte[] msg = v.receive("a call", true, -1);
                if (msg == null) return calls;
                // RFC 8166 §3.3.1: the receive is back before the reply that grants credits for it is sent
                rnic.postOwnRecv(v.qp(), options.inline(), 1);
                onMessage(msg);
            }
        }

        private void onMessage(byte[] msg) throws Verbs.Failure, InterruptedException {
            boolean answerAll = rnic.config().has(Bug.RPCRDMA_DISCARDS_ANSWERED);
            if (msg.length < RpcRdmaHeader.MIN_LENGTH) { // §4.5: the XID cannot be trusted, silently discarded
                if (answerAll) chunkError(msg.length >= 4 ? ByteBuffer.wrap(msg).getInt(0) & 0xFFFF_FFFFL : 0, 1);
                return;
            }
            ByteBuffer b = ByteBuffer.wrap(msg);
            long xid = b.getInt(0) & 0xFFFF_FFFFL, vers = b.getInt(4) & 0xFFFF_FFFFL;
            long requested = b.getInt(8) & 0xFFFF_FFFFL, proc = b.getInt(12) & 0xFFFF_FFFFL;
            if (proc == Proc.RDMA_ERROR.ordinal()) { // §4.2.4: a Responder MUST silently discard it
                if (answerAll) chunkError(xid, requested);
                return;
            }
            if (vers != 1) { // §4.5.1; §4.2: the four fixed words mean the same in every version
                boolean wrong = rnic.config().has(Bug.RPCRDMA_ERR_VERS_RANGE);
                error(RpcRdmaHeader.error(xid, vers, grant(requested), RpcRdmaHeader.ERR_VERS, wrong ? vers : 1,
                        wrong ? vers : 1));
                return;
            }
            RpcRdmaHeader h;
            try {
                h = RpcRdmaHeader.parse(b);
            } catch (MalformedException e) {
                xdrError(xid, requested); // §4.5.2, an invalid rdma_proc included
                return;
            }
            if (h.proc() == Proc.RDMA_DONE) { // §4.6.2: receivers MUST silently discard it
                if (answerAll) chunkError(xid, requested);
                return;
            }
            if (h.proc() == Proc.RDMA_MSGP) { // §4.6.1: Responders SHOULD answer ERR_CHUNK
                xdrError(xid, requested);
                return;
            }
            int inline = h.proc() == Proc.RDMA_MSG ? msg.length - h.length() : 0;
            if (Chunks.problem(h, inline) != null) {
                xdrError(xid, requested);
                return;
            }
            calls++;
            byte[] call = pull(h, Arrays.copyOfRange(msg, h.length(), h.length() + inline));
            // §4.5.2: an rdma_xid that is not the RPC message's XID is an XDR error of the header
            if (call.length < 4 || (ByteBuffer.wrap(call).getInt(0) & 0xFFFF_FFFFL) != xid) {
                xdrError(xid, requested);
                return;
            }
            RpcReply reply;
            try {
                reply = nfs.call(call);
            } catch (MalformedException e) {
                chunkError(xid, requested); // not even an RPC call header: no RPC reply is possible
                return;
            }
            if (rnic.config().has(Bug.RPCRDMA_UNKNOWN_CALLS_DROPPED) && undispatched(reply)) return;
            reply(h, grant(requested), reply);
        }

        /** §4.5.2 ERR_CHUNK for a header that does not parse; knob rpcrdma-xdr-errors-dropped drops the call. */
        private void xdrError(long xid, long requested) throws Verbs.Failure, InterruptedException {
            if (!rnic.config().has(Bug.RPCRDMA_XDR_ERRORS_DROPPED)) chunkError(xid, requested);
        }

        /** Whether {@code reply} says the call reached no procedure (RFC 5531 §9). */
        private boolean undispatched(RpcReply reply) {
            ByteBuffer b = ByteBuffer.wrap(reply.head());
            if (b.remaining() < 24) return false;
            long replyStat = b.getInt(8) & 0xFFFF_FFFFL;
            if (replyStat == 1) return (b.getInt(12) & 0xFFFF_FFFFL) == 0; // RPC_MISMATCH
            long accept = b.getInt(20) & 0xFFFF_FFFFL;
            return accept == Nfs3Server.PROG_UNAVAIL || accept == Nfs3Server.PROG_MISMATCH
                    || accept == Nfs3Server.PROC_UNAVAIL;
        }

        /** The call's Payload stream: the Long Call itself, or the inline part with the Read chunks reinserted. */
        private byte[] pull(RpcRdmaHeader h, byte[] inline) throws Verbs.Failure, InterruptedException {
            if (h.readList().isEmpty()) return inline;
            long total = 0;
            for (ReadSegment r : h.readList()) total += r.target().length();
            byte[] all = new byte[(int) total];
            if (total > 0) {
                MemoryRegion sink = rnic.register(v.qp().pd(), (int) total, Set.of(Access.LOCAL_WRITE,
                        Access.REMOTE_WRITE));
                try {
                    int at = 0;
                    for (ReadSegment r : h.readList()) {
                        int n = (int) r.target().length();
                        if (n > 0) v.run(WorkRequest.read(0, sink, at, n, r.target().handle(), r.target().offset()),
                                "the RDMA Read of a Read chunk (xid 0x" + Long.toHexString(h.xid()) + ")");
                        at += n;
                    }
                    all = sink.copy(0, (int) total);
                } finally {
                    rnic.deregister(sink);
                }
            }
            if (h.readList().get(0).position() == 0) return all; // a Long Call: Chunks.problem allows no other chunk
            List<byte[]> chunks = new ArrayList<>();
            int at = 0;
            for (long length : Chunks.byPosition(h.readList()).values()) {
                chunks.add(Arrays.copyOfRange(all, at, at + (int) length));
                at += (int) length;
            }
            return Chunks.reinsert(inline, h.readList(), chunks);
        }

        private void reply(RpcRdmaHeader call, long credits, RpcReply reply) throws Verbs.Failure,
                InterruptedException {
            List<List<RdmaSegment>> writes = new ArrayList<>();
            byte[] payload;
            List<RdmaSegment> first = call.writeList().isEmpty() ? List.of() : call.writeList().get(0);
            boolean overrun = rnic.config().has(Bug.RPCRDMA_CHUNK_OVERRUN);
            if (reply.data() != null && !first.isEmpty()) {
                if (reply.data().length > RpcRdmaHeader.length(first) && !overrun) { // §4.5.3: before writing past it
                    chunkError(call.xid(), credits);
                    return;
                }
                push(first, reply.data(), "a Write chunk");
                writes.add(rnic.config().has(Bug.RPCRDMA_WRITE_LENGTHS_NOT_UPDATED) ? first
                        : Chunks.filled(first, reply.data().length));
                payload = reply.reduced();
            } else {
                writes.add(Chunks.filled(first, 0)); // §4.3.2.2 unused, or §4.3.2.3 empty: the item goes inline
                payload = reply.unreduced();
            }
            for (int i = 1; i < call.writeList().size(); i++) writes.add(Chunks.filled(call.writeList().get(i), 0));
            if (call.writeList().isEmpty()) writes.clear();
            if (rnic.config().has(Bug.RPCRDMA_UNUSED_WRITE_CHUNK_DROPPED)) writes.removeIf(w -> Chunks.length(w) == 0);
            List<ReadSegment> reads = rnic.config().has(Bug.RPCRDMA_READ_LIST_ECHOED) ? call.readList() : List.of();
            List<RdmaSegment> replyChunk = call.replyChunk();
            RpcRdmaHeader inline = RpcRdmaHeader.message(call.xid(), credits, Proc.RDMA_MSG, reads, writes,
                    replyChunk == null ? null : Chunks.filled(replyChunk, 0));
            if (inline.length() + payload.length <= replyThreshold
                    || rnic.config().has(Bug.RPCRDMA_REPLY_CHUNK_IGNORED)) {
                send(inline, payload);
            } else if (replyChunk != null && (RpcRdmaHeader.length(replyChunk) >= payload.length || overrun)) {
                push(replyChunk, payload, "the Reply chunk"); // §3.5.3 Long Reply
                send(RpcRdmaHeader.message(call.xid(), credits, Proc.RDMA_NOMSG, reads, writes,
                        Chunks.filled(replyChunk, payload.length)), new byte[0]);
            } else {
                chunkError(call.xid(), credits); // §4.5.3: no RPC-level reply is possible for that XID
            }
        }

        /** RDMA Writes of {@code data} into {@code chunk}, contiguously in segment order (§3.4.6). */
        private void push(List<RdmaSegment> chunk, byte[] data, String what) throws Verbs.Failure,
                InterruptedException {
            int at = 0;
            for (int i = 0; i < chunk.size(); i++) {
                RdmaSegment s = chunk.get(i);
                boolean last = i == chunk.size() - 1 && rnic.config().has(Bug.RPCRDMA_CHUNK_OVERRUN);
                int n = (int) (last ? data.length - at : Math.min(data.length - at, s.length()));
                if (n <= 0) break;
                v.run(WorkRequest.write(0, null, 0, n, Arrays.copyOfRange(data, at, at + n), s.handle(), s.offset()),
                        "the RDMA Write into " + what);
                at += n;
            }
        }

        private void send(RpcRdmaHeader h, byte[] payload) throws Verbs.Failure, InterruptedException {
            byte[] head = h.toBytes();
            byte[] msg = Arrays.copyOf(head, head.length + payload.length);
            System.arraycopy(payload, 0, msg, head.length, payload.length);
            v.send(msg, "the reply Send (xid 0x" + Long.toHexString(h.xid()) + ")");
        }

        private void chunkError(long xid, long requested) throws Verbs.Failure, InterruptedException {
            error(RpcRdmaHeader.error(xid, 1, grant(requested), RpcRdmaHeader.ERR_CHUNK, -1, -1));
        }

        private void error(RpcRdmaHeader h) throws Verbs.Failure, InterruptedException {
            v.send(h.toBytes(), "the RDMA_ERROR Send (xid 0x" + Long.toHexString(h.xid()) + ")");
        }
    }

    /** §3.3.1: the Requester's request, at least one and at most the receives kept posted. */
    private long grant(long requested) {
        if (rnic.config().has(Bug.RPCRDMA_CREDITS_ZERO)) return 0;
        if (rnic.config().has(Bug.RPCRDMA_CREDITS_OVER_RECEIVES)) return 4L * options.credits();
        return Math.max(1, Math.min(requested, options.credits()));
    }
}
