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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The server side of perftest's {@code ib_write_bw}, {@code ib_read_bw} and {@code ib_send_bw} with {@code -R}
 * (rdma_cm), as perftest 4.5 speaks it: a first connection is a control channel of small Sends (version "6.06",
 * page size, cache line, MTU, 56-octet {@code struct pingpong_dest} records, the client's bandwidth report), each
 * answered in kind; the second connection carries the test. The server need not be told which test runs: RDMA
 * Writes land in its buffer, RDMA Reads are answered from it, and Sends are received into posted buffers with
 * credits RDMA-Written back as perftest's iWARP flow control expects (a little-endian count of messages received,
 * at the client's credit buffer). Clients are served at once, each control channel on a thread of its own (the
 * listener's {@link io.rddp.rnic.Admission} bounds how many); a client's test connection is the next one from its
 * address after its pre-connect handshake, and the receive buffers of the tests running share 256 MB
 * ({@link #RECEIVE_MEMORY}; a test waits up to 30 s for its share).
 */
public final class Perftest {

    /** sizeof(struct pingpong_dest) */
    static final int DEST = 56;
    static final byte[] VERSION = "6.06".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** How long a control channel may stay silent (a test of the default 5000 iterations takes seconds). */
    static final long IDLE_MS = 10 * 60 * 1000;
    /** Receives posted on the test connection for ib_send_bw: perftest's largest default rx depth. */
    static final int RECEIVES = 512;
    /** Octets of posted receives at most, over all tests running (large -s gives fewer receives). */
    static final long RECEIVE_MEMORY = 256L << 20;
    /** How long a test waits for its test connection, and for its share of the receive memory. */
    static final long TEST_WAIT_MS = 30_000;

    private Perftest() {
    }

    /** Control-channel listener settings: one receive for the largest control message. */
    public static ConnectionSettings controlSettings(Rnic rnic) {
        return ConnectionSettings.defaults(rnic).withRecv(1, DEST).withIrdOrd(0, 0);
    }

    /**
     * Serves perftest clients on {@code listener} until {@code tests} clients were served (0: forever).
     *
     * @param size the clients' {@code -s} (ib_send_bw needs receives of that size)
     */
    public static void serve(Rnic rnic, RnicListener listener, int size, int tests, PrintStream out)
            throws InterruptedException {
        Dispatch dispatch = new Dispatch(rnic, size);
        listener.settings(controlSettings(rnic));
        listener.settingsBy(dispatch::settingsFor);
        java.util.Set<Thread> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
        int done = 0;
        try {
            while (tests == 0 || done < tests || !running.isEmpty()) {
                QueuePair qp = listener.accept(200, null);
                if (qp == null) continue;
                Test owner = dispatch.claim(qp);
                if (owner != null) {
                    owner.dataArrived(qp);
                    continue;
                }
                if (tests != 0 && done >= tests) {
                    // served what it was asked to: no new client
                    qp.close();
                    rnic.destroy(qp);
                    continue;
                }
                done++;
                Test t = new Test(rnic, listener, dispatch, qp, size, out);
                Thread th = new Thread(() -> {
                    try {
                        t.serveClient();
                    } finally {
                        running.remove(Thread.currentThread());
                    }
                }, "perftest-qp" + qp.qpn());
                th.setDaemon(true);
                running.add(th);
                th.start();
            }
        } finally {
            listener.settingsBy(null);
            for (Thread th : List.copyOf(running)) th.interrupt();
        }
    }

    /**
     * Which connection is whose test connection: a client that finished its pre-connect handshake waits for the next
     * connection from its address, which gets the test connection's settings.
     */
    private static final class Dispatch {
        final Rnic rnic;
        final int size;
        /** clients waiting for their test connection, by address, first come first served */
        final Map<InetAddress, ArrayDeque<Test>> waiting = new HashMap<>();
        /** connections that got a test connection's settings, by their remote address and port */
        final Map<InetSocketAddress, Test> assigned = new HashMap<>();
        /** receive memory left for tests to take, in KiB */
        final Semaphore memory = new Semaphore((int) (RECEIVE_MEMORY >> 10));

        Dispatch(Rnic rnic, int size) {
            this.rnic = rnic;
            this.size = size;
        }

        synchronized void expect(Test t, InetAddress from) {
            waiting.computeIfAbsent(from, k -> new ArrayDeque<>()).add(t);
        }

        /** The listener's choice for an arriving connection: a waiting test's settings, else the control channel's. */
        synchronized ConnectionSettings settingsFor(InetSocketAddress remote) {
            ArrayDeque<Test> q = waiting.get(remote.getAddress());
            if (q == null) return null;
            Test t = q.poll();
            if (q.isEmpty()) waiting.remove(remote.getAddress());
            if (t == null) return null;
            assigned.put(remote, t);
            return t.dataSettings;
        }

        /** The test {@code qp} is the test connection of, or null for a new client's control channel. */
        synchronized Test claim(QueuePair qp) {
            return assigned.remove(qp.link().remote());
        }

        synchronized void forget(Test t) {
            waiting.values().forEach(q -> q.remove(t));
            waiting.values().removeIf(ArrayDeque::isEmpty);
            assigned.values().removeIf(x -> x == t);
        }
    }

    /** One client's test: the control channel, then the test connection. */
    private static final class Test {
        final Rnic rnic;
        final RnicListener listener;
        final Dispatch dispatch;
        final QueuePair control;
        final int size;
        final PrintStream out;
        volatile QueuePair data;
        volatile ConnectionSettings dataSettings;
        volatile MemoryRegion buffer;
        volatile Thread receiver;
        volatile long received;
        volatile long creditStag = -1, creditTo;
        int dests;
        int memoryKib;
        boolean handshakeDone;

        Test(Rnic rnic, RnicListener listener, Dispatch dispatch, QueuePair control, int size, PrintStream out) {
            this.rnic = rnic;
            this.listener = listener;
            this.dispatch = dispatch;
            this.control = control;
            this.size = size;
            this.out = out;
        }

        /** The whole client on its own thread; its connections are closed and destroyed afterwards. */
        void serveClient() {
            try {
                run();
                out.println("perftest server: " + summary());
            } catch (Rping.Failure | RnicException e) {
                out.println("perftest server: client " + control.link().remote() + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                try {
                    close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        void run() throws Rping.Failure, InterruptedException {
            while (true) {
                WorkCompletion wc = nextRecv(control);
                if (wc == null) return; // the client closed the control channel: the test is over
                byte[] msg = wc.data() == null ? new byte[0] : wc.data();
                control.postOwnRecv(DEST, 1, rnic::nextWrId);
                byte[] answer;
                if (msg.length == 16) {
                    answer = java.util.Arrays.copyOf(VERSION, 16); // perftest needs a version >= 5.70
                } else if (msg.length == DEST) {
                    answer = onDest(msg);
                } else {
                    answer = msg; // page size, cache line, MTU, report values: the client's own values suit it
                }
                long id = rnic.nextWrId();
                control.postSend(WorkRequest.sendInline(id, answer, false));
                WorkCompletion sent = rnic.completions().take(id, Rping.WAIT_MS);
                if (sent == null || sent.status() != WcStatus.SUCCESS) {
                    throw new Rping.Failure("answering on the control channel failed: " + sent);
                }
            }
        }

        private byte[] onDest(byte[] msg) throws Rping.Failure, InterruptedException {
            boolean zeros = true;
            for (byte b : msg) zeros &= b == 0;
            if (!handshakeDone) {
                // the pre-connect handshake: the test connection follows as soon as the client has the answer
                handshakeDone = true;
                int count = (int) Math.max(16, Math.min(RECEIVES, RECEIVE_MEMORY / Math.max(1, size)));
                int kib = (int) Math.min(RECEIVE_MEMORY >> 10, ((long) count * size + 1023) >> 10);
                if (!dispatch.memory.tryAcquire(kib, TEST_WAIT_MS, TimeUnit.MILLISECONDS)) {
                    throw new Rping.Failure("the tests running hold the receive memory (" + (RECEIVE_MEMORY >> 20)
                            + " MB) for " + TEST_WAIT_MS / 1000 + " s");
                }
                memoryKib = kib;
                dataSettings = ConnectionSettings.defaults(rnic).withRecv(count, size)
                        .withIrdOrd(rnic.config().limits().maxIrdOrd(), rnic.config().limits().maxIrdOrd());
                dispatch.expect(this, control.link().remote().getAddress());
                return new byte[DEST];
            }
            if (zeros) return new byte[DEST];
            ByteBuffer b = ByteBuffer.wrap(msg);
            creditStag = Integer.toUnsignedLong(b.getInt(16));
            creditTo = b.getLong(24);
            dests++;
            return dest();
        }

        /** The test connection arrived (on the serving thread): its buffer, then its receives on a thread. */
        /** Why the test connection could not be set up, for the client's error. */
        private volatile String dataFailure;

        void dataArrived(QueuePair q) {
            // quiet on purpose while the test runs: the test connection's traffic (and its idle timeout) stands for it
            control.idleTimeout(java.time.Duration.ZERO);
            Thread t = new Thread(() -> {
                try {
                    buffer = rnic.register(q.pd(), 2 * Math.max(size, 65536), Set.of(Access.LOCAL_WRITE,
                            Access.REMOTE_READ, Access.REMOTE_WRITE));
                    data = q;
                    synchronized (this) {
                        notifyAll();
                    }
                    absorb(q);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RnicException e) {
                    dataFailure = e.getMessage();
                    q.close();
                } finally {
                    control.idleTimeout(listener.admission().idleTimeout());
                    synchronized (this) {
                        notifyAll();
                    }
                }
            }, "perftest-data-qp" + q.qpn());
            t.setDaemon(true);
            t.start();
            receiver = t; // only once started: a waiter takes a receiver that is not alive for one that has ended
        }

        /** Waits for the test connection (the client opens it right after the pre-connect handshake). */
        private void awaitData() throws InterruptedException {
            synchronized (this) {
                long deadline = System.currentTimeMillis() + TEST_WAIT_MS;
                while (data == null && System.currentTimeMillis() < deadline
                        && (receiver == null || receiver.isAlive())) {
                    wait(100);
                }
            }
        }

        /** ib_send_bw: receives reposted, credits written back (perftest_resources.c, ctx_set_credit_wqes). */
        private void absorb(QueuePair q) throws InterruptedException {
            while (q.state() != QueuePair.State.CLOSED) {
                List<WorkCompletion> wcs = rnic.completions().poll(q.qpn(), 16, 1, 200);
                for (WorkCompletion wc : wcs) {
                    if (wc.opcode() != WcOpcode.RECV || wc.status() != WcStatus.SUCCESS) continue;
                    received++;
                    try {
                        q.postOwnRecv(size, 1, rnic::nextWrId);
                        if (creditStag >= 0) {
                            byte[] credit = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                                    .putInt((int) received).array();
                            q.postSend(WorkRequest.write(rnic.nextWrId(), null, 0, 4, credit, creditStag, creditTo)
                                    .signaled(false));
                        }
                    } catch (RnicException e) {
                        return; // the connection is going away
                    }
                }
            }
        }

        /** This server's struct pingpong_dest: big-endian fields, rkey and vaddr of the test buffer. */
        private byte[] dest() throws Rping.Failure, InterruptedException {
            awaitData();
            if (data == null || buffer == null) {
                throw new Rping.Failure(dataFailure != null ? "the test connection failed: " + dataFailure
                        : "the test connection did not arrive");
            }
            ByteBuffer b = ByteBuffer.allocate(DEST);
            b.putInt(0, 0);                                   // lid: none on iWARP
            b.putInt(4, data.params().ird());                 // out_reads
            b.putInt(8, data.qpn());                          // qpn
            b.putInt(12, new SecureRandom().nextInt() & 0xFFFFFF); // psn
            b.putInt(16, (int) buffer.stag());                // rkey
            b.putLong(24, buffer.baseTo());                   // vaddr
            return b.array();
        }

        private WorkCompletion nextRecv(QueuePair q) throws Rping.Failure, InterruptedException {
            long deadline = System.currentTimeMillis() + IDLE_MS;
            while (System.currentTimeMillis() < deadline) {
                List<WorkCompletion> wcs = rnic.completions().poll(q.qpn(), 1, 1, 200);
                if (!wcs.isEmpty()) {
                    WorkCompletion wc = wcs.get(0);
                    if (wc.status() == WcStatus.WR_FLUSH_ERR) return null;
                    if (wc.status() != WcStatus.SUCCESS) throw new Rping.Failure("control channel: " + wc);
                    if (wc.opcode() == WcOpcode.RECV) return wc;
                    continue;
                }
                if (q.state() == QueuePair.State.CLOSED || q.state() == QueuePair.State.ERROR) return null;
            }
            throw new Rping.Failure("the control channel was silent for " + IDLE_MS / 1000 + " s");
        }

        String summary() {
            return "client " + control.link().remote() + " done" + (received > 0 ? ", " + received
                    + " Sends received" : "") + (dests > 0 ? "" : " (no test connection)");
        }

        void close() throws InterruptedException {
            dispatch.forget(this);
            try {
                control.close();
                control.awaitClosed(3000);
                rnic.destroy(control);
                QueuePair q = data;
                if (q != null) {
                    q.close();
                    q.awaitClosed(3000);
                    rnic.destroy(q);
                }
                if (receiver != null) receiver.join(5000);
            } finally {
                if (buffer != null) rnic.deregister(buffer);
                if (memoryKib > 0) dispatch.memory.release(memoryKib);
                memoryKib = 0;
            }
        }
    }
}
