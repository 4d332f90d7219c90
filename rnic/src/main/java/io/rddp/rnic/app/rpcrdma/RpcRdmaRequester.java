package io.rddp.rnic.app.rpcrdma;

import io.rddp.MalformedException;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.XdrReader;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rnic.Access;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.MemoryRegion;
import io.rddp.rnic.QueuePair;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicException;
import io.rddp.rpcrdma.CmPrivateData;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A minimal RPC-over-RDMA version 1 Requester (RFC 8166) of NFSv3, one call at a time, to drive
 * {@link RpcRdmaResponder}: WRITE's data goes in a Read chunk (RFC 8267 §3.1), a call too large for the call inline
 * threshold goes as a Long Call (a Position Zero Read chunk in an RDMA_NOMSG), READ's data comes back through a Write
 * chunk and large replies through a Reply chunk (§3.5.3), as the caller provides them.
 */
public final class RpcRdmaRequester implements AutoCloseable {
    /** Why a call or the run failed. */
    public static final class Failure extends Exception {
        Failure(String message) {
            super(message);
        }
    }

    /** Receives kept posted: the one reply of the call in flight, and room for a late error. */
    static final int RECEIVES = 4;
    /** The credits each call asks for (§3.3.1). */
    static final long REQUESTED = 32;
    /** A Write chunk's segments are at most this long: a large chunk shows several segments updated. */
    static final int SEGMENT = 64 << 10;

    /** What a call brought back. */
    public record Reply(RpcRdmaHeader header, byte[] payload, byte[] writeData, RpcMessage rpc) {
        /** The results after the RPC reply header (RFC 5531 §9), with the Write chunk's data, if any, after them. */
        public XdrReader results() {
            ByteBuffer b = ByteBuffer.wrap(payload);
            b.position((int) rpc.bodyOffset());
            return XdrReader.of(b);
        }
    }

    private final Rnic rnic;
    private final Verbs v;
    private final int inline;
    private long xid = 0x5EED0000L;
    private long granted = 1; // §3.3.3: one credit until the first reply says more

    private RpcRdmaRequester(Rnic rnic, Verbs v, int inline) {
        this.rnic = rnic;
        this.v = v;
        this.inline = inline;
    }

    /**
     * Connects with receives of the 1024-octet inline threshold and, when {@code privateData}, RFC 8797 private
     * data advertising it.
     */
    public static RpcRdmaRequester connect(Rnic rnic, InetSocketAddress target, boolean privateData)
            throws Failure, InterruptedException {
        int inline = RpcRdmaResponder.DEFAULT_INLINE;
        ConnectionSettings s = ConnectionSettings.defaults(rnic).withRecv(RECEIVES, inline);
        if (privateData) s = s.withPrivateData(new CmPrivateData(1, false, inline, inline).toBytes());
        try {
            return new RpcRdmaRequester(rnic, new Verbs(rnic, rnic.connect(target, s, Verbs.WAIT_MS)), inline);
        } catch (RnicException e) {
            throw new Failure("connect error: " + e.getMessage());
        }
    }

    public QueuePair qp() {
        return v.qp();
    }

    /** The responder's RFC 8797 private data in its MPA Reply, or null. */
    public CmPrivateData responderPrivateData() {
        return v.qp().peerStartFrame() == null ? null : CmPrivateData.parse(v.qp().peerStartFrame().ulpPrivateData());
    }

    /** The credits the last reply granted. */
    public long granted() {
        return granted;
    }

    /** Sends {@code message} as it is (a test's malformed header) and returns the header of what comes back. */
    public RpcRdmaHeader raw(byte[] message) throws Failure, InterruptedException {
        return header(exchange(message));
    }

    /** Sends {@code message} as it is and returns the octets of the message that comes back. */
    public byte[] exchange(byte[] message) throws Failure, InterruptedException {
        send(message);
        return receive();
    }

    /** Sends {@code message} as it is, waiting for nothing back (one the responder is to discard). */
    public void sendOnly(byte[] message) throws Failure, InterruptedException {
        send(message);
    }

    /**
     * One NFSv3 call.
     *
     * @param args       the arguments; with {@code data}, those before the data item, ending with its length word
     * @param data       WRITE's data, moved in a Read chunk, or null
     * @param writeChunk octets of the Write chunk to provide for READ's data, 0 for none
     * @param replyChunk octets of the Reply chunk to provide, 0 for none
     */
    public Reply call(int proc, byte[] args, byte[] data, int writeChunk, int replyChunk)
            throws Failure, InterruptedException {
        return call(proc, args, data, writeChunk, replyChunk, false);
    }

    /** {@link #call(int, byte[], byte[], int, int)}, as a Long Call even when it fits inline if {@code longCall}. */
    public Reply call(int proc, byte[] args, byte[] data, int writeChunk, int replyChunk, boolean longCall)
            throws Failure, InterruptedException {
        if (granted < 1) throw new Failure("the responder granted " + granted + " credits: no call may be sent");
        long id = ++xid;
        byte[] head = RpcEncoder.call(id, Nfs3Server.PROG, Nfs3Server.VERS, proc, args);
        List<MemoryRegion> regions = new ArrayList<>();
        try {
            List<ReadSegment> reads = new ArrayList<>();
            byte[] payload = head;
            if (data != null) { // RFC 8166 §3.4.5: Position is the data item's offset in the Payload stream
                reads.add(new ReadSegment(head.length, segment(regions, data, Access.REMOTE_READ)));
            }
            List<List<RdmaSegment>> writes = new ArrayList<>();
            List<MemoryRegion> writeMrs = new ArrayList<>(); // a region per segment, as a page list registers
            if (writeChunk > 0) {
                List<RdmaSegment> chunk = new ArrayList<>();
                for (int at = 0; at < writeChunk; at += SEGMENT) {
                    MemoryRegion mr = region(regions, Math.min(SEGMENT, writeChunk - at), Access.REMOTE_WRITE);
                    writeMrs.add(mr);
                    chunk.add(new RdmaSegment(mr.stag(), mr.length(), mr.baseTo()));
                }
                writes.add(chunk);
            }
            MemoryRegion replyMr = replyChunk > 0 ? region(regions, replyChunk, Access.REMOTE_WRITE) : null;
            List<RdmaSegment> reply = replyMr == null ? null
                    : List.of(new RdmaSegment(replyMr.stag(), replyChunk, replyMr.baseTo()));
            RpcRdmaHeader h = RpcRdmaHeader.message(id, REQUESTED, Proc.RDMA_MSG, reads, writes, reply);
            if (longCall || h.length() + payload.length > inline) { // §3.5.3: a Long Call, the whole call in Position Zero
                byte[] whole = data == null ? payload : unreduced(head, data);
                List<ReadSegment> pz = List.of(new ReadSegment(0, segment(regions, whole, Access.REMOTE_READ)));
                h = RpcRdmaHeader.message(id, REQUESTED, Proc.RDMA_NOMSG, pz, writes, reply);
                payload = new byte[0];
            }
            byte[] msg = Arrays.copyOf(h.toBytes(), h.length() + payload.length);
            System.arraycopy(payload, 0, msg, h.length(), payload.length);
            send(msg);
            return reply(id, receive(), writeMrs, replyMr);
        } finally {
            for (MemoryRegion r : regions) rnic.deregister(r);
        }
    }

    private Reply reply(long id, byte[] msg, List<MemoryRegion> writeMrs, MemoryRegion replyMr) throws Failure {
        RpcRdmaHeader h = header(msg);
        if (h.xid() != id) throw new Failure("a reply to xid 0x" + Long.toHexString(h.xid()) + ", not 0x"
                + Long.toHexString(id));
        if (h.proc() != Proc.RDMA_ERROR) granted = h.credits();
        if (h.proc() == Proc.RDMA_ERROR) return new Reply(h, new byte[0], null, null);
        byte[] payload;
        if (h.proc() == Proc.RDMA_NOMSG) {
            if (h.replyChunk() == null || replyMr == null) throw new Failure("RDMA_NOMSG reply without a Reply chunk");
            payload = gather(List.of(replyMr), h.replyChunk());
        } else if (h.proc() == Proc.RDMA_MSG) {
            payload = Arrays.copyOfRange(msg, h.length(), msg.length);
        } else {
            throw new Failure("a reply of procedure " + h.proc());
        }
        byte[] written = null;
        if (!writeMrs.isEmpty() && !h.writeList().isEmpty()) written = gather(writeMrs, h.writeList().get(0));
        try {
            RpcMessage rpc = RpcMessage.parse(XdrReader.of(ByteBuffer.wrap(payload)), null, null);
            if (rpc.call() || rpc.xid() != id) throw new Failure("the reply's RPC message is not the reply to 0x"
                    + Long.toHexString(id));
            return new Reply(h, payload, written, rpc);
        } catch (MalformedException e) {
            throw new Failure("the RPC reply does not decode: " + e.getMessage());
        }
    }

    /** The octets a returned chunk says were written, segment by segment, from the region behind it. */
    private static byte[] gather(List<MemoryRegion> mrs, List<RdmaSegment> returned) throws Failure {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        if (returned.size() != mrs.size()) throw new Failure("a chunk of " + mrs.size() + " segments returned with "
                + returned.size());
        for (int i = 0; i < returned.size(); i++) {
            RdmaSegment s = returned.get(i);
            MemoryRegion mr = mrs.get(i);
            long off = s.offset() - mr.baseTo();
            if (s.handle() != mr.stag() || off < 0 || off + s.length() > mr.length()) {
                throw new Failure("a returned segment " + s + " is not one this requester provided");
            }
            out.writeBytes(mr.copy((int) off, (int) s.length()));
        }
        return out.toByteArray();
    }

    private static byte[] unreduced(byte[] head, byte[] data) {
        byte[] out = Arrays.copyOf(head, head.length + (int) XdrReader.padded(data.length));
        System.arraycopy(data, 0, out, head.length, data.length);
        return out;
    }

    private MemoryRegion region(List<MemoryRegion> regions, int length, Access remote) {
        MemoryRegion r = rnic.register(v.qp().pd(), length, Set.of(Access.LOCAL_WRITE, remote));
        regions.add(r);
        return r;
    }

    private RdmaSegment segment(List<MemoryRegion> regions, byte[] data, Access remote) {
        MemoryRegion r = region(regions, data.length, remote);
        r.write(0, data);
        return new RdmaSegment(r.stag(), data.length, r.baseTo());
    }

    private void send(byte[] msg) throws Failure, InterruptedException {
        try {
            v.send(msg, "the call Send");
        } catch (Verbs.Failure e) {
            throw new Failure(e.getMessage());
        }
    }

    private byte[] receive() throws Failure, InterruptedException {
        try {
            byte[] msg = v.receive("the reply", false, Verbs.WAIT_MS);
            rnic.postOwnRecv(v.qp(), inline, 1);
            return msg;
        } catch (Verbs.Failure e) {
            throw new Failure(e.getMessage());
        }
    }

    private static RpcRdmaHeader header(byte[] msg) throws Failure {
        try {
            return RpcRdmaHeader.parse(ByteBuffer.wrap(msg));
        } catch (MalformedException e) {
            throw new Failure("the reply's transport header does not decode: " + e.getMessage());
        }
    }

    @Override
    public void close() throws InterruptedException {
        v.qp().close();
        v.qp().awaitClosed(3000);
        rnic.destroy(v.qp());
    }

    // ---------------------------------------------------------------- the run of `rddp peer --app rpcrdma --connect`

    /**
     * NULL; GETATTR of the root, inline and as a Long Call; READ of {@value NfsTree#BIG} through a Write chunk,
     * every octet checked; WRITE of {@value NfsTree#SCRATCH} through a Read chunk, read back and checked; READDIR and
     * READDIRPLUS of {@value NfsTree#MANY} through a Reply chunk. One line per step on {@code out}.
     */
    public static void run(Rnic rnic, InetSocketAddress target, PrintStream out) throws Failure,
            InterruptedException {
        try (RpcRdmaRequester r = connect(rnic, target, true)) {
            Nfs3Client nfs = new Nfs3Client(r);
            CmPrivateData pd = r.responderPrivateData();
            out.println("connected; responder private data: " + (pd == null ? "none" : "send " + pd.sendSize()
                    + ", receive " + pd.receiveSize()));
            nfs.nullProc();
            out.println("NULL: OK, " + r.granted() + " credits granted");
            out.println("GETATTR /: " + nfs.getattr(NfsTree.ROOT, false));
            out.println("GETATTR / as a Long Call: " + nfs.getattr(NfsTree.ROOT, true));
            long big = nfs.lookup(NfsTree.ROOT, NfsTree.BIG);
            byte[] got = nfs.read(big, 0, 2 * SEGMENT);
            if (!Arrays.equals(got, NfsTree.bigContent())) throw new Failure("READ " + NfsTree.BIG + ": the "
                    + got.length + " octets returned are not the file's");
            out.println("READ " + NfsTree.BIG + ": " + got.length + " octets through a Write chunk of 2 segments,"
                    + " verified");
            long scratch = nfs.lookup(NfsTree.ROOT, NfsTree.SCRATCH);
            byte[] data = new byte[3000];
            for (int i = 0; i < data.length; i++) data[i] = (byte) (i % 251);
            nfs.write(scratch, 0, data);
            byte[] back = nfs.read(scratch, 0, 4096);
            if (!Arrays.equals(back, data)) throw new Failure("WRITE " + NfsTree.SCRATCH + ": read back "
                    + back.length + " octets that differ from the " + data.length + " written");
            out.println("WRITE " + NfsTree.SCRATCH + ": " + data.length + " octets through a Read chunk, read back"
                    + " and verified");
            long many = nfs.lookup(NfsTree.ROOT, NfsTree.MANY);
            out.println("READDIR " + NfsTree.MANY + ": " + nfs.readdir(many, false) + " entries through a Reply chunk");
            out.println("READDIRPLUS " + NfsTree.MANY + ": " + nfs.readdir(many, true)
                    + " entries through a Reply chunk");
        }
    }

    /** The arguments and results of the procedures {@link #run} uses (RFC 1813 §3.3). */
    static final class Nfs3Client {
        private final RpcRdmaRequester r;

        Nfs3Client(RpcRdmaRequester r) {
            this.r = r;
        }

        void nullProc() throws Failure, InterruptedException {
            Reply rep = r.call(Nfs3Server.NULL, new byte[0], null, 0, 0);
            if (rep.rpc() == null || rep.rpc().acceptStat() != Nfs3Server.SUCCESS) throw new Failure("NULL failed");
        }

        String getattr(long fileid, boolean longCall) throws Failure, InterruptedException {
            XdrWriter args = new XdrWriter().opaque(NfsTree.handle(fileid));
            Reply rep = r.call(Nfs3Server.GETATTR, args.toByteArray(), null, 0, 0, longCall);
            In x = results(rep, "GETATTR");
            long type = x.u32();
            return (type == Nfs3Server.NF3DIR ? "directory" : "file") + ", via " + rep.header().proc();
        }

        long lookup(long dir, String name) throws Failure, InterruptedException {
            In x = results(r.call(Nfs3Server.LOOKUP, new XdrWriter().opaque(NfsTree.handle(dir)).string(name)
                    .toByteArray(), null, 0, 0), "LOOKUP " + name);
            return NfsTree.fileid(x.opaque(Nfs3Server.FHSIZE));
        }

        byte[] read(long fileid, long offset, int count) throws Failure, InterruptedException {
            Reply rep = r.call(Nfs3Server.READ, new XdrWriter().opaque(NfsTree.handle(fileid)).u64(offset).u32(count)
                    .toByteArray(), null, count, 0);
            In x = results(rep, "READ");
            x.skipAttr();
            long n = x.u32();
            x.u32(); // eof
            long length = x.u32();
            if (rep.writeData() == null || rep.writeData().length != length || n != length) {
                throw new Failure("READ: count " + n + " and data length " + length + " but the Write chunk returned "
                        + (rep.writeData() == null ? "nothing" : rep.writeData().length + " octets"));
            }
            return rep.writeData();
        }

        void write(long fileid, long offset, byte[] data) throws Failure, InterruptedException {
            byte[] args = new XdrWriter().opaque(NfsTree.handle(fileid)).u64(offset).u32(data.length)
                    .u32(Nfs3Server.FILE_SYNC).u32(data.length).toByteArray();
            In x = results(r.call(Nfs3Server.WRITE, args, data, 0, 0), "WRITE");
            x.skipWcc();
            long count = x.u32();
            if (count != data.length) throw new Failure("WRITE: " + count + " of " + data.length + " octets written");
        }

        int readdir(long dir, boolean plus) throws Failure, InterruptedException {
            XdrWriter args = new XdrWriter().opaque(NfsTree.handle(dir)).u64(0).fixed(new byte[8]);
            if (plus) args.u32(8192).u32(32768);
            else args.u32(8192);
            Reply rep = r.call(plus ? Nfs3Server.READDIRPLUS : Nfs3Server.READDIR, args.toByteArray(), null, 0,
                    plus ? 32768 : 16384);
            if (rep.header().proc() != Proc.RDMA_NOMSG) {
                throw new Failure("READDIR: the reply came as " + rep.header().proc() + ", not through the Reply chunk");
            }
            In x = results(rep, "READDIR");
            x.skipAttr();
            x.skip(8);
            int entries = 0;
            while (x.bool()) {
                entries++;
                x.skip(8);
                x.opaque(Nfs3Server.MAX_NAME);
                x.skip(8);
                if (plus) {
                    x.skipAttr();
                    if (x.bool()) x.opaque(Nfs3Server.FHSIZE);
                }
            }
            if (!x.bool()) throw new Failure("READDIR: eof not set after " + entries + " entries");
            return entries;
        }

        /** Reads results; a result that does not decode is the responder's failure. */
        static final class In {
            private final XdrReader x;
            private final String what;

            In(XdrReader x, String what) {
                this.x = x;
                this.what = what;
            }

            long u32() throws Failure {
                try {
                    return x.u32();
                } catch (MalformedException e) {
                    throw new Failure(what + ": results do not decode: " + e.getMessage());
                }
            }

            boolean bool() throws Failure {
                long b = u32();
                if (b > 1) throw new Failure(what + ": an XDR bool of " + b);
                return b == 1;
            }

            byte[] opaque(int max) throws Failure {
                try {
                    return x.opaque(max, what);
                } catch (MalformedException e) {
                    throw new Failure(what + ": results do not decode: " + e.getMessage());
                }
            }

            void skip(long n) throws Failure {
                try {
                    x.skip(n);
                } catch (MalformedException e) {
                    throw new Failure(what + ": results do not decode: " + e.getMessage());
                }
            }

            /** post_op_attr (RFC 1813 §2.6) */
            void skipAttr() throws Failure {
                if (bool()) skip(84);
            }

            /** wcc_data: pre_op_attr of 24 octets, post_op_attr */
            void skipWcc() throws Failure {
                if (bool()) skip(24);
                skipAttr();
            }
        }

        private static In results(Reply rep, String what) throws Failure {
            if (rep.rpc() == null) throw new Failure(what + ": RDMA_ERROR " + rep.header().errorCode());
            if (rep.rpc().replyStat() != 0 || rep.rpc().acceptStat() != Nfs3Server.SUCCESS) {
                throw new Failure(what + ": RPC reply not accepted with SUCCESS");
            }
            In x = new In(rep.results(), what);
            long status = x.u32();
            if (status != Nfs3Server.NFS3_OK) throw new Failure(what + ": nfsstat3 " + status);
            return x;
        }
    }
}
