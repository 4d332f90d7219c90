package io.rddp.rpcrdma;

import io.rddp.MalformedException;
import io.rddp.Notice;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpMessage;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.XdrReader;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.ReadRequest;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The RPC-over-RDMA layer (RFC 8166) above the decode pipeline: recognises RPC-over-RDMA connections, decodes the
 * transport header of every Send on them and the RPC message it carries, matches the RDMA Reads and Writes to the
 * chunks they move, and rebuilds Long Calls and Long Replies from those chunks. It emits facts; the sink model
 * judges them.
 * <p>
 * A connection is taken as RPC-over-RDMA only on evidence (port 20049, RFC 8797 private data, or a Send whose
 * header parses and whose RPC message repeats its XID), so short Sends of other ULPs stay opaque payload.
 * State is bounded: per connection at most {@link #MAX_TRANSACTIONS} open transactions and {@link #MAX_RETAINED}
 * octets kept of each rebuilt message.
 */
public final class RpcRdmaStage implements PduListener {

    public enum DecodeAs {
        /** decide per connection on evidence */
        AUTO,
        /** every connection is RPC-over-RDMA ({@code --decode-as rpcrdma}) */
        RPCRDMA,
        /** no connection is */
        NONE
    }

    /** RFC 8166 §5 (and RFC 5667): the NFS/RDMA port. */
    public static final int NFS_RDMA_PORT = 20049;
    /** The largest Send kept whole: RFC 8797 §5.1 inline sizes reach 256 KiB. */
    static final int MAX_SEND = 256 << 10;
    /** Open transactions kept per direction; the oldest is dropped (with a notice) beyond this. */
    public static final int MAX_TRANSACTIONS = 1024;
    /** Octets kept of a Long Call or Long Reply: enough for every RPC and NFS header. */
    public static final int MAX_RETAINED = 64 << 10;
    /** Replied transactions remembered, to tell a late RDMA operation from one that matches nothing. */
    static final int RECENT = 64;
    /** Sends tried by the heuristic before a connection is left alone. */
    static final int HEURISTIC_TRIES = 16;
    static final int MAX_CONNECTIONS = 4096;

    private final RpcRdmaListener out;
    private final DecodeAs mode;
    private final Map<Integer, Conn> connections = new LinkedHashMap<>();
    private final io.rddp.tcp.ConnectionCache<Conn> cache = new io.rddp.tcp.ConnectionCache<>();

    public RpcRdmaStage(RpcRdmaListener out) {
        this(out, DecodeAs.AUTO);
    }

    public RpcRdmaStage(RpcRdmaListener out, DecodeAs mode) {
        this.out = out;
        this.mode = mode;
    }

    // ---------------------------------------------------------------- per-connection state

    private static final class Conn {
        final TcpConnection tcp;
        RpcRdmaMessage.Recognition recognition;
        boolean opaque;
        int tries;
        Direction requester = Direction.CLIENT_TO_SERVER;
        final SendBuffer[] sends = {new SendBuffer(), new SendBuffer()};
        /** open transactions by the direction their call went */
        @SuppressWarnings("unchecked")
        final LinkedHashMap<Long, Txn>[] open = new LinkedHashMap[]{new LinkedHashMap<>(), new LinkedHashMap<>()};
        @SuppressWarnings("unchecked")
        final LinkedHashMap<Long, Txn>[] recent = new LinkedHashMap[]{new LinkedHashMap<>(), new LinkedHashMap<>()};
        /**
         * Read Requests in the order sent, per responder direction: Read Responses come back in that order
         * (RFC 5040 §5.2.1), naming the Data Sink STag and TO of their request.
         */
        @SuppressWarnings("unchecked")
        final ArrayDeque<PendingRead>[] reads = new ArrayDeque[]{new ArrayDeque<>(), new ArrayDeque<>()};
        boolean[] closed = new boolean[2];

        Conn(TcpConnection tcp) {
            this.tcp = tcp;
        }
    }

    /** The untagged Send message being assembled in one direction (RFC 5041 §5.2: by MO). */
    private static final class SendBuffer {
        byte[] bytes = new byte[0];
        long msn = -1;
        int length; // octets contiguous from MO 0
        long total; // MO + length of the furthest segment seen
        boolean broken;
        long firstFrame;
    }

    /** One RPC transaction: the call's chunks and what has been moved for them. */
    private static final class Txn {
        final long xid;
        final RpcRdmaHeader call;
        RpcMessage.CallKey key; // learned later for a Long Call
        final long frame;
        boolean replied;
        /** Position Zero Read chunk (Long Call) and the Reply chunk (Long Reply), each rebuilt up to MAX_RETAINED */
        final Rebuild longCall;
        final Rebuild longReply;

        void keyFrom(RpcMessage rpc) {
            key = new RpcMessage.CallKey(rpc.program(), rpc.version(), rpc.procedure());
        }

        Txn(long xid, RpcRdmaHeader call, RpcMessage.CallKey key, long frame) {
            this.xid = xid;
            this.call = call;
            this.key = key;
            this.frame = frame;
            long pz = 0;
            for (ReadSegment s : call.readList()) if (s.position() == 0) pz += s.target().length();
            this.longCall = pz > 0 ? new Rebuild(pz) : null;
            this.longReply = call.replyChunk() != null ? new Rebuild(RpcRdmaHeader.length(call.replyChunk())) : null;
        }
    }

    private static final class Rebuild {
        final long length;
        final byte[] bytes;
        long received;
        boolean done;

        Rebuild(long length) {
            this.length = length;
            this.bytes = new byte[(int) Math.min(length, MAX_RETAINED)];
        }

        void put(long at, ByteBuffer data) {
            received += data.remaining();
            if (at >= bytes.length || at < 0) return;
            int n = (int) Math.min(data.remaining(), bytes.length - at);
            data.duplicate().get(bytes, (int) at, n);
        }

        /** The first {@code n} octets, those not kept as a hole. */
        XdrReader reader(long n) {
            int kept = (int) Math.min(n, bytes.length);
            return XdrReader.builder().add(ByteBuffer.wrap(bytes, 0, kept)).addHole(n - kept).build();
        }
    }

    /** An RDMA Read Request; {@code txn} null when it matched no chunk. */
    private record PendingRead(Txn txn, int segment, long segmentOffset, long sinkStag, long sinkTo,
                               boolean afterReply) {
    }

    private Conn conn(TcpConnection c) {
        Conn k = cache.get(c);
        if (k != null) return k;
        k = connections.get(c.index());
        if (k == null) {
            if (connections.size() >= MAX_CONNECTIONS) {
                Iterator<Conn> it = connections.values().iterator();
                Conn old = it.next();
                it.remove();
                cache.remove(old.tcp);
                out.onNotice(new Notice(Notice.Severity.WARNING, "rpcrdma", 0, old.tcp.index(), -1,
                        "RPC-over-RDMA state of stream " + old.tcp.index() + " dropped: more than " + MAX_CONNECTIONS
                                + " connections open"));
            }
            k = new Conn(c);
            if (mode == DecodeAs.RPCRDMA) {
                k.recognition = RpcRdmaMessage.Recognition.FORCED;
            } else if (mode == DecodeAs.NONE) {
                k.opaque = true;
            } else if (c.client().port() == NFS_RDMA_PORT || c.server().port() == NFS_RDMA_PORT) {
                k.recognition = RpcRdmaMessage.Recognition.PORT;
            }
            connections.put(c.index(), k);
        }
        cache.put(c, k);
        return k;
    }

    // ---------------------------------------------------------------- events

    @Override
    public void onPdu(Pdu pdu) {
        Conn k = conn(pdu.connection());
        if (pdu.startFrame() != null) {
            CmPrivateData pd = CmPrivateData.parse(pdu.startFrame().ulpPrivateData());
            if (pd != null && !k.opaque && k.recognition == null) k.recognition = RpcRdmaMessage.Recognition.PRIVATE_DATA;
            out.onPdu(pdu, null, null);
            return;
        }
        if (k.opaque || pdu.rdmap() == null || pdu.rdmap().opcode() == null) {
            out.onPdu(pdu, null, null);
            return;
        }
        Opcode op = pdu.rdmap().opcode();
        DdpHeader h = pdu.ddp().header();
        if (h instanceof UntaggedHeader u && u.qn() == 0 && isSend(op)) {
            onSend(k, pdu, u);
        } else if (k.recognition != null && op == Opcode.RDMA_READ_REQUEST) {
            out.onPdu(pdu, null, readRequest(k, pdu, (ReadRequest) pdu.rdmap().body()));
        } else if (k.recognition != null && op == Opcode.RDMA_READ_RESPONSE && h instanceof TaggedHeader t) {
            readResponse(k, pdu, t);
        } else if (k.recognition != null && op == Opcode.RDMA_WRITE && h instanceof TaggedHeader t) {
            out.onPdu(pdu, null, write(k, pdu, t));
        } else {
            out.onPdu(pdu, null, null);
        }
    }

    private static boolean isSend(Opcode op) {
        return op == Opcode.SEND || op == Opcode.SEND_WITH_INVALIDATE || op == Opcode.SEND_WITH_SE
                || op == Opcode.SEND_WITH_SE_AND_INVALIDATE;
    }

    private void onSend(Conn k, Pdu pdu, UntaggedHeader u) {
        ByteBuffer payload = pdu.rdmap().payload();
        if (u.mo() == 0 && u.last()) { // the usual case: the whole message in one segment, read as a view
            onSendMessage(k, pdu, payload.duplicate(), payload.remaining(), pdu.firstFrame());
            return;
        }
        SendBuffer sb = k.sends[pdu.direction().ordinal()];
        if (u.mo() == 0 || u.msn() != sb.msn) {
            sb.msn = u.msn();
            sb.length = 0;
            sb.total = 0;
            sb.broken = u.mo() != 0;
            sb.firstFrame = pdu.firstFrame();
        }
        long end = u.mo() + payload.remaining();
        sb.total = Math.max(sb.total, end);
        if (u.mo() == sb.length && end <= MAX_SEND) {
            if (sb.bytes.length < end) {
                sb.bytes = Arrays.copyOf(sb.bytes, (int) Math.min(MAX_SEND, Math.max(end, 2L * sb.bytes.length)));
            }
            payload.duplicate().get(sb.bytes, sb.length, payload.remaining());
            sb.length = (int) end;
        } else if (u.mo() != sb.length) {
            sb.broken = true;
        }
        if (!u.last()) {
            out.onPdu(pdu, null, null);
            return;
        }
        sb.msn = -1;
        if (sb.broken) {
            // A segment was missing or out of order: the message cannot be decoded as a whole.
            if (k.recognition != null) {
                out.onPdu(pdu, new RpcRdmaMessage(RpcRdmaMessage.Source.INLINE, pdu.direction() == k.requester,
                        (int) Math.min(Integer.MAX_VALUE, sb.total), null,
                        "Send message incomplete in the capture (segments missing or out of MO order)", null, null,
                        k.recognition), null);
            } else {
                out.onPdu(pdu, null, null);
            }
            return;
        }
        onSendMessage(k, pdu, ByteBuffer.wrap(sb.bytes, 0, sb.length), (int) Math.min(Integer.MAX_VALUE, sb.total),
                sb.firstFrame);
    }

    private void onSendMessage(Conn k, Pdu pdu, ByteBuffer msg, int sendLength, long firstFrame) {
        if (k.recognition == null) {
            if (!looksLikeRpcRdma(msg)) {
                if (++k.tries >= HEURISTIC_TRIES) k.opaque = true;
                out.onPdu(pdu, null, null);
                return;
            }
            k.recognition = RpcRdmaMessage.Recognition.CONSISTENT_XID;
        }
        int d = pdu.direction().ordinal();
        int other = 1 - d;
        RpcRdmaHeader header = null;
        String headerProblem = null;
        try {
            header = RpcRdmaHeader.parse(msg);
        } catch (MalformedException e) {
            headerProblem = e.getMessage();
        }
        if (sendLength < RpcRdmaHeader.MIN_LENGTH && !(header != null && header.proc() == Proc.RDMA_ERROR)) {
            // RFC 8166 §4.5: shorter than 28 octets, even the XID cannot be trusted. (The 20-octet ERR_CHUNK
            // RDMA_ERROR that §4.1.2 defines is the one message allowed to be shorter.)
            headerProblem = "message of " + sendLength + " octets is shorter than the minimal RPC-over-RDMA header ("
                    + RpcRdmaHeader.MIN_LENGTH + " octets, RFC 8166 §4.5)";
        }
        RpcMessage rpc = null;
        String rpcProblem = null;
        if (header != null && header.version() == 1 && header.proc() == Proc.RDMA_MSG
                && sendLength >= RpcRdmaHeader.MIN_LENGTH) {
            ByteBuffer payload = msg.duplicate();
            payload.position(msg.position() + header.length());
            boolean call = payload.remaining() >= 8 && payload.getInt(payload.position() + 4) == 0;
            XdrReader x = call ? withReadChunks(payload, header.readList()) : XdrReader.of(payload);
            try {
                rpc = RpcMessage.parse(x, xid -> key(k.open[other].get(xid), k.recent[other].get(xid)),
                        writeChunks(header));
            } catch (MalformedException e) {
                rpcProblem = e.getMessage();
            }
        }
        boolean fromRequester = fromRequester(k, pdu.direction(), header, rpc);
        if (fromRequester && rpc != null && rpc.call()) k.requester = pdu.direction();
        RpcRdmaMessage.Source source = RpcRdmaMessage.Source.INLINE;
        long xid = header != null ? header.xid() : -1;
        if (header != null && headerProblem == null && header.version() == 1) {
            if (fromRequester && (header.proc() == Proc.RDMA_MSG || header.proc() == Proc.RDMA_NOMSG)) {
                open(k, d, new Txn(xid, header, rpc != null && rpc.call()
                        ? new RpcMessage.CallKey(rpc.program(), rpc.version(), rpc.procedure()) : null, pdu.frame()));
            } else if (!fromRequester) {
                Txn t = k.open[other].remove(xid);
                if (t != null) {
                    t.replied = true;
                    remember(k.recent[other], t);
                    if (header.proc() == Proc.RDMA_NOMSG && header.replyChunk() != null && t.longReply != null) {
                        long returned = RpcRdmaHeader.length(header.replyChunk());
                        source = RpcRdmaMessage.Source.REPLY_CHUNK;
                        if (t.longReply.received < Math.min(returned, t.longReply.length)) {
                            rpcProblem = "Reply chunk data not all in the capture: " + t.longReply.received + " of "
                                    + returned + " octets written";
                        } else if (returned > t.longReply.length) {
                            rpcProblem = "Reply chunk returns " + returned + " octets but the Requester provided "
                                    + t.longReply.length;
                        } else {
                            try {
                                rpc = RpcMessage.parse(t.longReply.reader(returned),
                                        x2 -> key(k.open[other].get(x2), k.recent[other].get(x2)), writeChunks(header));
                            } catch (MalformedException e) {
                                rpcProblem = e.getMessage();
                            }
                        }
                    }
                }
            }
        }
        out.onPdu(pdu, new RpcRdmaMessage(source, fromRequester, sendLength, header, headerProblem, rpc, rpcProblem,
                k.recognition), null);
    }

    private static RpcMessage.CallKey key(Txn open, Txn recent) {
        Txn t = open != null ? open : recent;
        return t == null ? null : t.key;
    }

    /** Reply Write chunks in list order, for the results that were reduced (RFC 8166 §3.4.6.1). */
    private static java.util.function.LongSupplier writeChunks(RpcRdmaHeader header) {
        Iterator<List<RdmaSegment>> it = header.writeList().iterator();
        return () -> {
            if (!it.hasNext()) return -1;
            List<RdmaSegment> w = it.next();
            return w.isEmpty() ? -1 : RpcRdmaHeader.length(w); // an empty Write chunk means "inline" (§4.3.2.3)
        };
    }

    /**
     * The unreduced Payload stream of a call: the Read chunks (RFC 8166 §3.4.5) go back in at their Positions as
     * holes of the chunk's length (their octets arrive later, by RDMA Read), padded to XDR alignment as the
     * reduced stream dropped the roundup (§3.4.4.4). Position Zero chunks are the whole message (Long Call) and
     * are not part of an RDMA_MSG stream.
     */
    private static XdrReader withReadChunks(ByteBuffer payload, List<ReadSegment> reads) {
        if (reads.isEmpty()) return XdrReader.of(payload);
        Map<Long, Long> chunks = new java.util.TreeMap<>();
        for (ReadSegment s : reads) {
            if (s.position() > 0) chunks.merge(s.position(), s.target().length(), Long::sum);
        }
        XdrReader.Builder b = XdrReader.builder();
        long consumedUnreduced = 0; // position in the unreduced stream
        int inlineAt = 0;
        for (Map.Entry<Long, Long> c : chunks.entrySet()) {
            long take = c.getKey() - consumedUnreduced;
            if (take < 0 || inlineAt + take > payload.remaining()) break; // Position out of range: rules report it
            ByteBuffer part = payload.duplicate();
            part.position(payload.position() + inlineAt).limit((int) (payload.position() + inlineAt + take));
            b.add(part).addHole(XdrReader.padded(c.getValue()));
            inlineAt += take;
            consumedUnreduced = c.getKey() + XdrReader.padded(c.getValue());
        }
        ByteBuffer rest = payload.duplicate();
        rest.position(payload.position() + inlineAt);
        return b.add(rest).build();
    }

    /** A Send that parses as an RDMA_MSG whose RPC message repeats the XID: RFC 8166 §4.2.1 says it must. */
    private static boolean looksLikeRpcRdma(ByteBuffer msg) {
        try {
            RpcRdmaHeader h = RpcRdmaHeader.parse(msg);
            if (h.version() != 1 || h.proc() != Proc.RDMA_MSG) return false;
            int at = msg.position() + h.length();
            if (msg.limit() - at < 12) return false;
            long xid = msg.getInt(at) & 0xFFFF_FFFFL;
            long type = msg.getInt(at + 4) & 0xFFFF_FFFFL;
            if (xid != h.xid() || type > 1) return false;
            return type == 1 || msg.getInt(at + 8) == 2; // a call carries rpcvers 2 (RFC 5531 §9)
        } catch (MalformedException e) {
            return false;
        }
    }

    private static boolean fromRequester(Conn k, Direction d, RpcRdmaHeader h, RpcMessage rpc) {
        if (rpc != null) return rpc.call();
        int other = 1 - d.ordinal();
        if (h != null) {
            if (k.open[other].containsKey(h.xid())) return false;
            if (h.proc() != Proc.RDMA_ERROR && !h.readList().isEmpty()) return true;
        }
        return d == k.requester;
    }

    private void open(Conn k, int d, Txn t) {
        LinkedHashMap<Long, Txn> open = k.open[d];
        open.remove(t.xid);
        if (open.size() >= MAX_TRANSACTIONS) {
            Iterator<Txn> it = open.values().iterator();
            Txn old = it.next();
            it.remove();
            out.onNotice(new Notice(Notice.Severity.WARNING, "rpcrdma", t.frame, k.tcp.index(), -1,
                    "more than " + MAX_TRANSACTIONS + " RPC-over-RDMA transactions open; forgot XID 0x"
                            + Long.toHexString(old.xid) + " of frame " + old.frame));
        }
        open.put(t.xid, t);
    }

    private static void remember(LinkedHashMap<Long, Txn> recent, Txn t) {
        recent.remove(t.xid);
        if (recent.size() >= RECENT) {
            Iterator<Txn> it = recent.values().iterator();
            it.next();
            it.remove();
        }
        recent.put(t.xid, t);
    }

    // ---------------------------------------------------------------- chunk moves

    private record Match(Txn txn, ChunkMove.Chunk chunk, int chunkIndex, int segment, RdmaSegment target,
                         long chunkOffset, boolean afterReply) {
    }

    /** The advertised segment of an open (or recently replied) call that holds {@code to} under {@code handle}. */
    private static Match find(Conn k, int requester, long handle, long to, boolean read) {
        Match m = find(k.open[requester].values(), handle, to, read, false);
        return m != null ? m : find(k.recent[requester].values(), handle, to, read, true);
    }

    private static Match find(Iterable<Txn> txns, long handle, long to, boolean read, boolean after) {
        Match loose = null;
        for (Txn t : txns) {
            if (read) {
                for (int i = 0; i < t.call.readList().size(); i++) {
                    RdmaSegment g = t.call.readList().get(i).target();
                    if (g.handle() != handle) continue;
                    Match m = new Match(t, ChunkMove.Chunk.READ, chunkIndex(t.call.readList(), i), i, g,
                            chunkOffset(t.call.readList(), i), after);
                    if (Long.compareUnsigned(to - g.offset(), g.length()) < 0) return m;
                    if (loose == null) loose = m;
                }
            } else {
                for (int w = 0; w < t.call.writeList().size(); w++) {
                    List<RdmaSegment> chunk = t.call.writeList().get(w);
                    long before = 0;
                    for (int i = 0; i < chunk.size(); i++) {
                        RdmaSegment g = chunk.get(i);
                        Match m = new Match(t, ChunkMove.Chunk.WRITE, w, i, g, before, after);
                        before += g.length();
                        if (g.handle() != handle) continue;
                        if (Long.compareUnsigned(to - g.offset(), g.length()) < 0) return m;
                        if (loose == null) loose = m;
                    }
                }
                if (t.call.replyChunk() != null) {
                    long before = 0;
                    for (int i = 0; i < t.call.replyChunk().size(); i++) {
                        RdmaSegment g = t.call.replyChunk().get(i);
                        Match m = new Match(t, ChunkMove.Chunk.REPLY, 0, i, g, before, after);
                        before += g.length();
                        if (g.handle() != handle) continue;
                        if (Long.compareUnsigned(to - g.offset(), g.length()) < 0) return m;
                        if (loose == null) loose = m;
                    }
                }
            }
        }
        return loose; // same handle, offset outside every segment: reported as out of bounds
    }

    /** Read chunks are numbered by the list order of their Positions' first segments (RFC 8166 §3.4.5). */
    private static int chunkIndex(List<ReadSegment> reads, int i) {
        List<Long> positions = new ArrayList<>();
        for (int j = 0; j <= i; j++) {
            if (!positions.contains(reads.get(j).position())) positions.add(reads.get(j).position());
        }
        return positions.indexOf(reads.get(i).position());
    }

    /** Octets of the Position Zero chunk before segment {@code i} (segments concatenate in list order, §3.4.5). */
    private static long chunkOffset(List<ReadSegment> reads, int i) {
        long pos = reads.get(i).position();
        long n = 0;
        for (int j = 0; j < i; j++) if (reads.get(j).position() == pos) n += reads.get(j).target().length();
        return n;
    }

    private static ChunkMove move(ChunkMove.Op op, Match m, long to, long length) {
        if (m == null) return new ChunkMove(op, -1, null, -1, -1, -1, length, false, false);
        long off = to - m.target.offset();
        boolean in = Long.compareUnsigned(off, m.target.length()) < 0 || (length == 0 && off == m.target.length());
        in = in && length <= m.target.length() - off;
        return new ChunkMove(op, m.txn.xid, m.chunk, m.chunkIndex, m.segment, off, length, in, m.afterReply);
    }

    private ChunkMove readRequest(Conn k, Pdu pdu, ReadRequest rr) {
        int responder = pdu.direction().ordinal();
        Match m = find(k, 1 - responder, rr.sourceStag(), rr.sourceTo(), true);
        ChunkMove move = move(ChunkMove.Op.READ_REQUEST, m, rr.sourceTo(), rr.size());
        ArrayDeque<PendingRead> reads = k.reads[responder];
        if (reads.size() >= MAX_TRANSACTIONS) reads.poll();
        reads.add(new PendingRead(m == null ? null : m.txn, m == null ? -1 : m.segment, move.segmentOffset(),
                rr.sinkStag(), rr.sinkTo(), m != null && m.afterReply));
        return move;
    }

    private void readResponse(Conn k, Pdu pdu, TaggedHeader t) {
        int responder = 1 - pdu.direction().ordinal();
        ArrayDeque<PendingRead> reads = k.reads[responder];
        PendingRead p = reads.peek();
        if (p == null || p.sinkStag != t.stag()) { // a request not captured: find the one this answers
            p = null;
            for (PendingRead r : reads) {
                if (r.sinkStag == t.stag()) {
                    p = r;
                    break;
                }
            }
        }
        if (p != null && t.last()) reads.remove(p);
        ByteBuffer data = pdu.rdmap().payload();
        if (p == null || p.txn == null) {
            out.onPdu(pdu, null, null); // an RDMA Read not for a chunk (or not seen): nothing to say here
            return;
        }
        ReadSegment s = p.txn.call.readList().get(p.segment);
        long off = p.segmentOffset + (t.to() - p.sinkTo);
        boolean in = off >= 0 && off + data.remaining() <= s.target().length();
        ChunkMove move = new ChunkMove(ChunkMove.Op.READ_RESPONSE, p.txn.xid, ChunkMove.Chunk.READ,
                chunkIndex(p.txn.call.readList(), p.segment), p.segment, off, data.remaining(), in, p.afterReply);
        RpcRdmaMessage rebuilt = null;
        Rebuild lc = p.txn.longCall;
        if (s.position() == 0 && lc != null && !lc.done && in) {
            lc.put(chunkOffset(p.txn.call.readList(), p.segment) + off, data);
            if (lc.received >= lc.length) {
                lc.done = true;
                RpcMessage rpc = null;
                String problem = null;
                try {
                    rpc = RpcMessage.parse(lc.reader(lc.length), null, null);
                } catch (MalformedException e) {
                    problem = e.getMessage();
                }
                if (rpc != null && rpc.call()) {
                    p.txn.keyFrom(rpc);
                }
                rebuilt = new RpcRdmaMessage(RpcRdmaMessage.Source.POSITION_ZERO_READ_CHUNK, true,
                        (int) Math.min(Integer.MAX_VALUE, lc.length), p.txn.call, null, rpc, problem, k.recognition);
            }
        }
        out.onPdu(pdu, rebuilt, move);
    }

    private ChunkMove write(Conn k, Pdu pdu, TaggedHeader t) {
        int responder = pdu.direction().ordinal();
        ByteBuffer data = pdu.rdmap().payload();
        Match m = find(k, 1 - responder, t.stag(), t.to(), false);
        ChunkMove move = move(ChunkMove.Op.WRITE, m, t.to(), data.remaining());
        if (m != null && m.chunk == ChunkMove.Chunk.REPLY && move.inBounds() && m.txn.longReply != null) {
            m.txn.longReply.put(m.chunkOffset + move.segmentOffset(), data);
        }
        return move;
    }

    // ---------------------------------------------------------------- pass-through

    @Override
    public void onMessage(TcpConnection connection, Direction direction, DdpMessage message) {
        out.onMessage(connection, direction, message);
    }

    @Override
    public void onNotice(Notice notice) {
        out.onNotice(notice);
    }

    @Override
    public void onConnection(TcpConnection connection) {
        out.onConnection(connection);
    }

    @Override
    public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
        Conn k = connections.get(connection.index());
        if (k != null) k.sends[direction.ordinal()].broken = true;
        out.onGap(connection, direction, offset, length, frame);
    }

    @Override
    public void onFramingError(TcpConnection connection, Direction direction, long frame, String detail) {
        out.onFramingError(connection, direction, frame, detail);
    }

    @Override
    public void onConnectionEnd(TcpConnection connection, long frame, boolean captureEnded) {
        connections.remove(connection.index());
        cache.remove(connection);
        out.onConnectionEnd(connection, frame, captureEnded);
    }

    @Override
    public void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
        Conn k = connections.get(connection.index());
        if (k != null) {
            k.closed[direction.ordinal()] = true;
            if (reset || (k.closed[0] && k.closed[1])) {
                connections.remove(connection.index());
                cache.remove(connection);
            }
        }
        out.onClose(connection, direction, reset, frame);
    }
}
