package io.rddp.rnic.app;

import io.rddp.rnic.Access;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.MemoryRegion;
import io.rddp.rnic.QueuePair;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicException;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.WcOpcode;
import io.rddp.rnic.WcStatus;
import io.rddp.rnic.WorkCompletion;
import io.rddp.rnic.WorkRequest;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * librdmacm's rping on the emulated RNIC, wire-compatible with rdma-core's: every Send is a 16-octet
 * {@code struct rping_rdma_info} {buf (BE64), rkey (BE32), size (BE32)}; per ping the client advertises its start
 * buffer, the server RDMA Reads it, sends a go-ahead, the client advertises its sink buffer, the server RDMA Writes
 * the bytes into it and sends another go-ahead. One receive is kept posted on each side, so the exchange is lock-step.
 */
public final class Rping {

    /** sizeof(struct rping_rdma_info) */
    static final int INFO = 16;
    /** rping's smallest and largest -S */
    public static final int MIN_SIZE = 23, MAX_SIZE = 65535;
    static final long WAIT_MS = 10_000;

    private Rping() {
    }

    /** Why a run failed, in rping's terms. */
    public static final class Failure extends Exception {
        public Failure(String message) {
            super(message);
        }
    }

    record Info(long buf, long rkey, long size) {
        static Info parse(byte[] b) {
            ByteBuffer bb = ByteBuffer.wrap(b);
            return new Info(bb.getLong(0), Integer.toUnsignedLong(bb.getInt(8)), Integer.toUnsignedLong(bb.getInt(12)));
        }

        byte[] bytes() {
            return ByteBuffer.allocate(INFO).putLong(buf).putInt((int) rkey).putInt((int) size).array();
        }
    }

    /** The bytes rping's client puts in its start buffer for ping {@code ping} (rping.c, rping_test_client). */
    public static byte[] pingData(int ping, int size) {
        byte[] b = new byte[size];
        byte[] head = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int cc = Math.min(head.length, size);
        System.arraycopy(head, 0, b, 0, cc);
        int start = 'A' + ping % ('z' - 'A' + 1);
        int c = start;
        for (int i = cc; i < size; i++) {
            b[i] = (byte) c;
            if (++c > 'z') c = 'A';
        }
        b[size - 1] = 0;
        return b;
    }

    // ---------------------------------------------------------------- server

    /**
     * Serves rping clients on {@code listener}, like {@code rping -s} (which forks a thread per connection): each
     * client on a thread of its own, so a client that connects and says nothing holds off nobody (the listener's
     * {@link io.rddp.rnic.Admission} bounds how many there are). Stops after {@code connections} clients were served
     * (0: never). Each client's pings are served until it disconnects.
     */
    public static void serve(Rnic rnic, RnicListener listener, int connections, boolean verbose, PrintStream out)
            throws InterruptedException {
        ThreadPerConnection.serve(connections, () -> listener.accept(1000, null), "rping-server-qp",
                qp -> serveClient(rnic, qp, verbose, out));
    }

    /** One client, start to end; its queue pair is destroyed afterwards. */
    private static void serveClient(Rnic rnic, QueuePair qp, boolean verbose, PrintStream out) {
        try {
            serveOne(rnic, qp, verbose, out);
            out.println("rping server: client " + qp.link().remote() + " done");
        } catch (Failure | RnicException e) {
            out.println("rping server: client " + qp.link().remote() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            rnic.closeAndDestroy(qp, 3000);
        }
    }

    /**
     * {@link #serve} of every client, quietly, on a daemon thread that is started and returned: an rping server
     * embedded in a test or a tool; interrupting the thread ends it.
     */
    public static Thread serveInBackground(Rnic rnic, RnicListener listener) {
        Thread t = new Thread(() -> {
            try {
                serve(rnic, listener, 0, false, new PrintStream(java.io.OutputStream.nullOutputStream()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rping-server");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The listener settings rping's server uses: one 16-octet receive, IRD/ORD 1 as rping asks. */
    public static ConnectionSettings serverSettings(Rnic rnic) {
        return ConnectionSettings.defaults(rnic).withRecv(1, INFO).withIrdOrd(Math.max(1, rnic.config().ird()),
                Math.max(1, rnic.config().ord()));
    }

    private static void serveOne(Rnic rnic, QueuePair qp, boolean verbose, PrintStream out)
            throws Failure, InterruptedException {
        MemoryRegion buf = null;
        try {
            while (true) {
                Info adv = receiveInfo(rnic, qp, "the client's read advertisement", true);
                if (adv == null) return; // the client disconnected between pings: done
                if (adv.size() < 1 || adv.size() > MAX_SIZE) throw new Failure("bogus size " + adv.size());
                if (buf == null || buf.length() != adv.size()) {
                    if (buf != null) rnic.deregister(buf);
                    buf = rnic.register(qp.pd(), (int) adv.size(), Set.of(Access.LOCAL_WRITE, Access.REMOTE_READ,
                            Access.REMOTE_WRITE));
                }
                qp.postOwnRecv(INFO, 1, rnic::nextWrId);
                long id = rnic.nextWrId();
                qp.postSend(WorkRequest.read(id, buf, 0, (int) adv.size(), adv.rkey(), adv.buf()));
                await(rnic, qp, id, "the RDMA Read of the client's buffer");
                if (verbose) out.println("server ping data: " + text(buf.copy(0, buf.length())));
                goAhead(rnic, qp);
                Info sink = receiveInfo(rnic, qp, "the client's write advertisement", false);
                qp.postOwnRecv(INFO, 1, rnic::nextWrId);
                id = rnic.nextWrId();
                qp.postSend(WorkRequest.write(id, buf, 0, (int) Math.min(sink.size(), adv.size()), null, sink.rkey(),
                        sink.buf()));
                await(rnic, qp, id, "the RDMA Write into the client's buffer");
                goAhead(rnic, qp);
            }
        } finally {
            if (buf != null) rnic.deregister(buf);
        }
    }

    private static void goAhead(Rnic rnic, QueuePair qp) throws Failure, InterruptedException {
        long id = rnic.nextWrId();
        qp.postSend(WorkRequest.sendInline(id, new byte[INFO], false)); // rping's server send_buf is never filled
        await(rnic, qp, id, "the go-ahead Send");
    }

    // ---------------------------------------------------------------- client

    /**
     * rping's client ({@code rping -c -C count -S size [-V]}): {@code count} pings, each checked when {@code verify}.
     *
     * @throws Failure with what went wrong, like rping's messages
     */
    public static void client(Rnic rnic, InetSocketAddress server, int count, int size, boolean verify,
                              boolean verbose, PrintStream out) throws Failure, InterruptedException {
        if (size < MIN_SIZE || size > MAX_SIZE) {
            throw new Failure("invalid size " + size + " (valid range is " + MIN_SIZE + " to " + MAX_SIZE + ")");
        }
        ConnectionSettings s = ConnectionSettings.defaults(rnic).withRecv(1, INFO).withIrdOrd(1, 1);
        QueuePair qp;
        try {
            qp = rnic.connect(server, s, WAIT_MS);
        } catch (RnicException e) {
            throw new Failure("connect error: " + e.getMessage());
        }
        Set<Access> rights = Set.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);
        MemoryRegion start = rnic.register(qp.pd(), size, rights);
        MemoryRegion sink = rnic.register(qp.pd(), size, rights);
        try {
            for (int ping = 0; count == 0 || ping < count; ping++) {
                byte[] data = pingData(ping, size);
                start.write(0, data);
                sendInfo(rnic, qp, new Info(start.baseTo(), start.stag(), size));
                recvOf(rnic, qp, "the server's go-ahead after its RDMA Read");
                qp.postOwnRecv(INFO, 1, rnic::nextWrId);
                sendInfo(rnic, qp, new Info(sink.baseTo(), sink.stag(), size));
                recvOf(rnic, qp, "the server's go-ahead after its RDMA Write");
                qp.postOwnRecv(INFO, 1, rnic::nextWrId);
                byte[] got = sink.copy(0, size);
                if (verify && !java.util.Arrays.equals(got, data)) {
                    throw new Failure("data mismatch in ping " + ping + ": sent \"" + text(data) + "\", got \""
                            + text(got) + "\"");
                }
                if (verbose) out.println("ping data: " + text(got));
            }
        } finally {
            qp.close();
            qp.awaitClosed(3000);
            rnic.destroy(qp);
            rnic.deregister(start);
            rnic.deregister(sink);
        }
    }

    private static void sendInfo(Rnic rnic, QueuePair qp, Info info) throws Failure, InterruptedException {
        long id = rnic.nextWrId();
        qp.postSend(WorkRequest.sendInline(id, info.bytes(), false));
        await(rnic, qp, id, "the advertisement Send");
    }

    // ---------------------------------------------------------------- both

    /** The next receive's 16 octets, or null when {@code endOk} and the peer disconnected instead. */
    private static Info receiveInfo(Rnic rnic, QueuePair qp, String what, boolean endOk)
            throws Failure, InterruptedException {
        WorkCompletion wc = next(rnic, qp, what, endOk);
        if (wc == null) return null;
        if (wc.opcode() != WcOpcode.RECV) throw new Failure("unexpected " + wc + " while waiting for " + what);
        if (wc.byteLength() != INFO) throw new Failure("Received bogus data, size " + wc.byteLength());
        return Info.parse(wc.data());
    }

    private static WorkCompletion recvOf(Rnic rnic, QueuePair qp, String what) throws Failure, InterruptedException {
        WorkCompletion wc = next(rnic, qp, what, false);
        if (wc.opcode() != WcOpcode.RECV) throw new Failure("unexpected " + wc + " while waiting for " + what);
        if (wc.byteLength() != INFO) throw new Failure("Received bogus data, size " + wc.byteLength());
        return wc;
    }

    private static void await(Rnic rnic, QueuePair qp, long wrId, String what) throws Failure, InterruptedException {
        WorkCompletion wc = rnic.completions().take(wrId, WAIT_MS);
        if (wc == null) throw new Failure(what + " did not complete within " + WAIT_MS / 1000 + " s"
                + reason(qp));
        if (wc.status() != WcStatus.SUCCESS) throw new Failure(what + " failed: " + wc.status().wireName()
                + (wc.detail() != null ? " (" + wc.detail() + ")" : "") + reason(qp));
    }

    /** The next receive completion of {@code qp}; Send completions are taken by {@link #await}. */
    private static WorkCompletion next(Rnic rnic, QueuePair qp, String what, boolean endOk)
            throws Failure, InterruptedException {
        long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
        while (true) {
            List<WorkCompletion> wcs = rnic.completions().poll(qp.qpn(), 1, 1, 200);
            if (!wcs.isEmpty()) {
                WorkCompletion wc = wcs.get(0);
                if (wc.status() == WcStatus.WR_FLUSH_ERR && endOk) return null;
                if (wc.status() != WcStatus.SUCCESS) throw new Failure("error while waiting for " + what + ": "
                        + wc + reason(qp));
                return wc;
            }
            QueuePair.State st = qp.state();
            if (st == QueuePair.State.CLOSED || st == QueuePair.State.ERROR) {
                if (endOk && qp.failure() == null) return null;
                throw new Failure("the connection ended while waiting for " + what + reason(qp));
            }
            if (System.nanoTime() > deadline) throw new Failure(what + " did not arrive within "
                    + WAIT_MS / 1000 + " s");
        }
    }

    private static String reason(QueuePair qp) {
        return qp.failure() != null ? " [" + qp.failure() + "]" : "";
    }

    private static String text(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) n++;
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }
}
