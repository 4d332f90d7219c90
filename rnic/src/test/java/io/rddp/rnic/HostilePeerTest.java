package io.rddp.rnic;

import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rnic.app.Rping;
import io.rddp.sink.ErrorType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The emulated RNIC serving stacks that are broken or hostile ({@code rddp peer --app rping}): real sockets on
 * loopback send nothing, garbage, start frames cut short or trickled, FPDUs that never end, floods of Sends and of
 * Read Requests beyond the IRD under either MPA revision, resets mid-FPDU and connection churn. Each ends in bounded
 * time, the peer stays within its bounds (queue pairs, completions, heap), and a real rping client is still served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostilePeerTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();
    static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    /** Short timeouts, so that each test takes seconds. */
    static RnicConfig fast() {
        return RnicConfig.defaults().withMpaTimeout(Duration.ofSeconds(1));
    }

    static Admission fastAdmission(RnicConfig c) {
        return Admission.defaults(c).withIdleTimeout(Duration.ofSeconds(1));
    }

    /**
     * An emulated RNIC as {@code rddp peer --listen PORT --app rping} runs it (its rping server on a thread), plus a
     * listener without an application ({@link #plain}: one 64-octet receive, IRD/ORD 4) on the same RNIC for tests
     * that need its reactions without the rping server's.
     */
    static final class RpingPeer implements AutoCloseable {
        final Rnic rnic;
        final RnicListener listener;
        final RnicListener plain;
        final Thread server;

        RpingPeer(RnicConfig config, Admission admission) throws IOException {
            rnic = new Rnic(config, null);
            listener = rnic.listen(new InetSocketAddress(LO, 0), false, Rping.serverSettings(rnic), admission);
            plain = rnic.listen(new InetSocketAddress(LO, 0), false,
                    ConnectionSettings.defaults(rnic).withRecv(1, 64).withIrdOrd(4, 4), admission);
            server = Rping.serveInBackground(rnic, listener);
        }

        /** What {@code rddp peer --listen PORT --app rping} runs: default configuration and admission. */
        static RpingPeer asCli() throws IOException {
            RnicConfig c = RnicConfig.defaults();
            return new RpingPeer(c, Admission.defaults(c).withIdleTimeout(Admission.SERVER_IDLE_TIMEOUT));
        }

        static RpingPeer fastPeer() throws IOException {
            RnicConfig c = fast();
            return new RpingPeer(c, fastAdmission(c));
        }

        InetSocketAddress address() {
            return listener.address();
        }

        /** {@code rddp peer --connect HOST:PORT --app rping --count 3 --verify} (Rping.client): its time in ms. */
        long realClient() throws Exception {
            try (Rnic c = new Rnic(RnicConfig.defaults(), null)) {
                long t0 = System.nanoTime();
                Rping.client(c, address(), 3, 64, true, false, QUIET);
                return (System.nanoTime() - t0) / 1_000_000L;
            }
        }

        /** Connections of this RNIC in {@code state}. */
        long count(QueuePair.State state) {
            return rnic.qps().stream().filter(q -> q.state() == state).count();
        }

        /** No failure inside the RNIC; queue pairs and leftover completions bounded. */
        void assertBounded() {
            assertThat(rnic.internalErrors()).isEmpty();
            assertThat(rnic.qps().size()).isLessThanOrEqualTo(rnic.config().limits().maxQp());
            assertThat(rnic.completions().size()).isLessThan(4 * rnic.config().limits().maxQp());
        }

        @Override
        public void close() throws InterruptedException {
            server.interrupt();
            rnic.close();
            server.join(5000);
        }
    }

    /** Sockets this JVM can still open, both ends counted, capped at {@code want}; says so when fewer. */
    static int affordableConnections(int want) {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean u) {
            long free = u.getMaxFileDescriptorCount() - u.getOpenFileDescriptorCount() - 256;
            int n = (int) Math.max(16, Math.min(want, free / 2));
            if (n < want) {
                System.out.println("[hostile] file descriptor limit " + u.getMaxFileDescriptorCount() + ": " + n
                        + " connections instead of " + want);
            }
            return n;
        }
        return want;
    }

    static long usedHeap() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(30);
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    static void closeAll(List<? extends AutoCloseable> all) {
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                // gone already
            }
        }
    }

    /** Whether the peer reset or closed {@code s} (reads nothing else). */
    static boolean closedByPeer(Socket s) {
        try {
            s.setSoTimeout(1);
            return s.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    static int rnicThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("rnic-qp")).count();
    }

    // ------------------------------------------------------------------ the done-when checks

    @Test
    void fiveHundredIdleConnectionsHeldOpenDoNotKeepARealRpingClientOut() throws Exception {
        int n = affordableConnections(500);
        try (RpingPeer p = RpingPeer.asCli()) {
            List<Socket> idle = new ArrayList<>();
            try {
                int refused = 0;
                for (int i = 0; i < n; i++) {
                    Socket s = new Socket();
                    idle.add(s);
                    try {
                        s.connect(p.address(), 3000);
                    } catch (IOException e) {
                        refused++;
                    }
                }
                long ms = p.realClient();
                System.out.println("[hostile] real rping client (3 verified pings) with " + n + " idle connections"
                        + " held open: " + ms + " ms (" + refused + " of them not even connected)");
                assertThat(ms).as("the real client's time").isLessThan(5000);
                Admission a = p.listener.admission();
                assertThat(p.count(QueuePair.State.CONNECTING)).isLessThanOrEqualTo(2L * a.maxStartup());
            } finally {
                closeAll(idle);
            }
            Thread.sleep(1000); // threads of reset connections end within a read slice
            assertThat(rnicThreads()).isLessThanOrEqualTo(2 * p.rnic.config().limits().maxQp() + 32);
            p.assertBounded();
        }
    }

    @Test
    void fortySilentEstablishedClientsDoNotHoldOffARealOne() throws Exception {
        try (RpingPeer p = RpingPeer.asCli()) {
            List<Hostile> silent = new ArrayList<>();
            try {
                for (int i = 0; i < 40; i++) silent.add(Hostile.connect(p.address()).establish(2));
                long ms = p.realClient();
                System.out.println("[hostile] real rping client with 40 silent established clients: " + ms + " ms");
                assertThat(ms).isLessThan(5000);
            } finally {
                closeAll(silent);
            }
            p.assertBounded();
        }
    }

    @Test
    void silentEstablishedClientsWithinTheCapsAreServedBesideARealOne() throws Exception {
        // caps wide enough for all 40: none is reset, the rping server serves the real client beside them
        RnicConfig c = RnicConfig.defaults();
        Admission wide = Admission.defaults(c).withStartup(16, 16).withEstablished(48, 48)
                .withIdleTimeout(Admission.SERVER_IDLE_TIMEOUT);
        try (RpingPeer p = new RpingPeer(c, wide)) {
            List<Hostile> silent = new ArrayList<>();
            try {
                for (int i = 0; i < 40; i++) silent.add(Hostile.connect(p.address()).establish(2));
                long ms = p.realClient();
                assertThat(ms).isLessThan(5000);
                assertThat(silent.stream().filter(h -> closedByPeer(h.socket)).count()).as("silent ones reset")
                        .isZero();
            } finally {
                closeAll(silent);
            }
        }
    }

    @Test
    void idleConnectionsReopenedAsTheyCloseLetEveryRealClientThrough() throws Exception {
        try (RpingPeer p = RpingPeer.asCli(); Churn churn = new Churn(p.address(), 200)) {
            churn.awaitReopened(200, 5000); // the peer resets them and they come back: churn in full swing
            long total = 0, worst = 0;
            for (int i = 0; i < 12; i++) {
                long ms = p.realClient();
                total += ms;
                worst = Math.max(worst, ms);
            }
            System.out.println("[hostile] 12 real rping clients against 200 idle connections re-opened as they"
                    + " close: " + total + " ms in all, the slowest " + worst + " ms; " + churn.reopened()
                    + " re-opened");
            assertThat(worst).isLessThan(5000);
            p.assertBounded();
        }
    }

    @ParameterizedTest(name = "MPA rev {0}")
    @ValueSource(ints = {1, 2})
    void readRequestsBeyondTheIrdGetATerminateAndTheConnectionCloses(int revision) throws Exception {
        // RFC 5040 §6.1; under Rev 1 no IRD is negotiated (RFC 5044): the peer's own IRD (16 for rping) holds
        try (RpingPeer p = RpingPeer.asCli()) {
            long before = usedHeap();
            try (Hostile h = Hostile.connect(p.address()).establish(revision)) {
                ByteArrayOutputStream flood = new ByteArrayOutputStream();
                for (int i = 0; i < 2000; i++) {
                    flood.writeBytes(h.fpdus(RdmapEncoder.readRequest(h.nextReadMsn(),
                            new ReadRequest(0x1000 + i, 0, 0, 0x2000, 0))));
                }
                try {
                    h.send(flood.toByteArray());
                } catch (IOException e) {
                    // the peer may have closed before all of it went out
                }
                assertThat(h.awaitClose(5000)).as("the peer closed the connection").isTrue();
                Terminate t = h.terminate();
                assertThat(t).as("a Terminate").isNotNull();
                assertThat(ErrorType.of(t)).isEqualTo(ErrorType.DDP_U_MSN_RANGE);
            }
            long after = usedHeap();
            System.out.println("[hostile] rev " + revision + ": 2,000 Read Requests beyond IRD 16: heap "
                    + (before >> 20) + " -> " + (after >> 20) + " MB");
            assertThat(p.rnic.events().poll(4096, 0)).anyMatch(e -> e.type() == AsyncEvent.Type.TERMINATE_SENT
                    && e.detail().contains("rdmap.read.outstanding"));
            assertThat(after - before).isLessThan(32L << 20);
            assertThat(p.realClient()).isLessThan(5000);
            p.assertBounded();
        }
    }

    // ------------------------------------------------------------------ start-up

    @Test
    void randomBytesAreClosedAtOnce() throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer()) {
            Random r = new Random(5044);
            for (int i = 0; i < 8; i++) {
                byte[] junk = new byte[1 + r.nextInt(8192)];
                r.nextBytes(junk);
                try (Hostile h = Hostile.connect(p.address())) {
                    try {
                        h.send(junk);
                    } catch (IOException e) {
                        // closed before all of it went out
                    }
                    long t0 = System.nanoTime();
                    assertThat(h.awaitClose(3000)).isTrue();
                    // a wrong key closes at once; fewer than 16 octets wait for the MPA timeout
                    if (junk.length >= 16) assertThat((System.nanoTime() - t0) / 1_000_000L).isLessThan(900);
                    assertThat(h.received).noneMatch(pdu -> pdu.startFrame() != null);
                }
            }
            assertThat(p.realClient()).isLessThan(5000);
            p.assertBounded();
        }
    }

    @Test
    void halfAnMpaRequestIsClosedByTheMpaTimeout() throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer(); Hostile h = Hostile.connect(p.address())) {
            h.send(java.util.Arrays.copyOf(Hostile.request(2), 12));
            long t0 = System.nanoTime();
            assertThat(h.awaitClose(4000)).isTrue();
            long ms = (System.nanoTime() - t0) / 1_000_000L;
            assertThat(ms).isBetween(700L, 3000L);
            assertThat(p.realClient()).isLessThan(5000);
            p.assertBounded();
        }
    }

    @Test
    void pdLength0xFFFFIsClosedWithoutAReply() throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer(); Hostile h = Hostile.connect(p.address())) {
            byte[] req = Hostile.request(1);
            req[18] = (byte) 0xFF;
            req[19] = (byte) 0xFF;
            h.send(java.util.Arrays.copyOf(req, 40));
            long t0 = System.nanoTime();
            assertThat(h.awaitClose(3000)).isTrue();
            assertThat((System.nanoTime() - t0) / 1_000_000L).isLessThan(700);
            assertThat(h.received).noneMatch(pdu -> pdu.startFrame() != null);
            assertThat(p.realClient()).isLessThan(5000);
        }
    }

    @Test
    void slowlorisOneOctetASecondIsClosedByTheMpaTimeoutForTheWholeExchange() throws Exception {
        RnicConfig c = RnicConfig.defaults().withMpaTimeout(Duration.ofSeconds(2));
        try (RpingPeer p = new RpingPeer(c, fastAdmission(c)); Hostile h = Hostile.connect(p.address())) {
            byte[] req = Hostile.request(2);
            Thread writer = new Thread(() -> {
                try {
                    for (byte b : req) {
                        h.socket.getOutputStream().write(b);
                        Thread.sleep(1000);
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the peer, or the test is over
                }
            });
            writer.setDaemon(true);
            long t0 = System.nanoTime();
            writer.start();
            try {
                assertThat(h.awaitClose(6000)).isTrue();
                long ms = (System.nanoTime() - t0) / 1_000_000L;
                assertThat(ms).isBetween(1500L, 4000L);
            } finally {
                writer.interrupt();
            }
            assertThat(p.realClient()).isLessThan(5000);
        }
    }

    @Test
    void aFloodFromOneAddressKeepsToItsShareAndAClientFromAnotherGetsThrough() throws Exception {
        InetAddress other = InetAddress.getByName("127.0.0.2");
        try (Socket probe = new Socket()) {
            probe.bind(new InetSocketAddress(other, 0));
        } catch (IOException e) {
            assumeTrue(false, "127.0.0.2 cannot be bound here: " + e.getMessage());
        }
        int n = affordableConnections(300);
        try (RpingPeer p = RpingPeer.asCli()) {
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    Socket s = new Socket();
                    idle.add(s);
                    s.bind(new InetSocketAddress(other, 0));
                    try {
                        s.connect(p.address(), 3000);
                    } catch (IOException e) {
                        // not connected: fine
                    }
                }
                assertThat(p.realClient()).isLessThan(5000);
                Thread.sleep(300); // the accept loop caught up
                long fromOther = p.rnic.qps().stream().filter(q -> q.state() == QueuePair.State.CONNECTING
                        && q.link().remote().getAddress().equals(other)).count();
                assertThat(fromOther).isLessThanOrEqualTo(p.listener.admission().maxStartupPerSource());
            } finally {
                closeAll(idle);
            }
        }
    }

    // ------------------------------------------------------------------ established

    @Test
    void anEstablishedConnectionWithoutTrafficIsResetByTheIdleTimeout() throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer(); Hostile h = Hostile.connect(p.plain.address()).establish(2)) {
            long t0 = System.nanoTime();
            assertThat(h.awaitClose(4000)).isTrue();
            assertThat((System.nanoTime() - t0) / 1_000_000L).isBetween(700L, 3000L);
            assertThat(p.rnic.events().poll(4096, 0)).anyMatch(e -> e.detail().contains("idle timeout"));
            p.assertBounded();
        }
    }

    @Test
    void anFpduOf0xFFFFOctetsWithAShortBodyEndsByTheIdleTimeout() throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer(); Hostile h = Hostile.connect(p.plain.address()).establish(2)) {
            h.send(new byte[]{(byte) 0xFF, (byte) 0xFF, 0x40, 0x41, 1, 2, 3, 4, 5, 6, 7, 8});
            assertThat(h.awaitClose(4000)).isTrue();
            assertThat(p.realClient()).isLessThan(5000);
            p.assertBounded();
        }
    }

    @Test
    void aFloodOfSendsWithoutReceivesGetsATerminate() throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer(); Hostile h = Hostile.connect(p.plain.address()).establish(2)) {
            long before = usedHeap();
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            for (int i = 0; i < 5000; i++) {
                flood.writeBytes(h.fpdus(RdmapEncoder.send(h.nextSendMsn(), ByteBuffer.wrap(new byte[32]), 1400)));
            }
            try {
                h.send(flood.toByteArray());
            } catch (IOException e) {
                // the peer closed before all of it went out
            }
            assertThat(h.awaitClose(5000)).isTrue();
            Terminate t = h.terminate();
            assertThat(t).isNotNull();
            // RFC 5041 §7.2: no receive for the second Send: DDP, untagged buffer error, Invalid MSN - no buffer
            assertThat(ErrorType.of(t)).isEqualTo(ErrorType.DDP_U_NO_BUFFER);
            assertThat(usedHeap() - before).isLessThan(32L << 20);
            assertThat(p.realClient()).isLessThan(5000);
            p.assertBounded();
        }
    }

    @ParameterizedTest(name = "MPA rev {0}")
    @ValueSource(ints = {1, 2})
    void aHugeReadRequestGetsATerminateAndNothingIsAllocated(int revision) throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer()) {
            MemoryRegion r = p.rnic.register(p.rnic.defaultPd(), 4096, Set.of(Access.LOCAL_WRITE,
                    Access.REMOTE_READ));
            long before = usedHeap();
            for (long stag : new long[]{r.stag(), 0x7777}) {
                try (Hostile h = Hostile.connect(p.plain.address()).establish(revision)) {
                    h.send(h.fpdus(RdmapEncoder.readRequest(h.nextReadMsn(),
                            new ReadRequest(0x1000, 0, 0xFFFF_FFFFL, stag, r.baseTo()))));
                    assertThat(h.awaitClose(3000)).isTrue();
                    assertThat(h.terminate()).as("a Terminate for STag 0x" + Long.toHexString(stag)).isNotNull();
                }
            }
            assertThat(usedHeap() - before).isLessThan(16L << 20);
            assertThat(p.realClient()).isLessThan(5000);
            p.assertBounded();
        }
    }

    @Test
    void aResetInTheMiddleOfAnFpduEndsTheConnection() throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer()) {
            int port;
            try (Hostile h = Hostile.connect(p.plain.address()).establish(2)) {
                byte[] send = h.fpdus(RdmapEncoder.send(h.nextSendMsn(), ByteBuffer.wrap(new byte[40]), 1400));
                h.send(java.util.Arrays.copyOf(send, send.length / 2));
                port = h.socket.getLocalPort();
                h.reset();
            }
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (System.nanoTime() < deadline && p.rnic.qps().stream().anyMatch(q ->
                    q.link().remote().getPort() == port && q.state() != QueuePair.State.CLOSED)) {
                Thread.sleep(20);
            }
            assertThat(p.rnic.qps()).noneMatch(q -> q.link().remote().getPort() == port
                    && q.state() != QueuePair.State.CLOSED);
            assertThat(p.realClient()).isLessThan(5000);
            p.assertBounded();
        }
    }

    @Test
    void connectionChurnLeavesNothingBehind() throws Exception {
        try (RpingPeer p = RpingPeer.fastPeer()) {
            long before = usedHeap();
            for (int i = 0; i < 300; i++) {
                InetSocketAddress to = i % 2 == 0 ? p.address() : p.plain.address();
                try (Hostile h = Hostile.connect(to)) {
                    switch (i % 4) {
                        case 0 -> { } // connect and close
                        case 1 -> h.reset();
                        case 2 -> h.send(java.util.Arrays.copyOf(Hostile.request(2), 10));
                        default -> {
                            h.establish(1 + i % 2);
                            h.reset();
                        }
                    }
                } catch (IOException e) {
                    // reset by the peer's admission meanwhile: churn all the same
                }
            }
            assertThat(p.realClient()).isLessThan(5000);
            Thread.sleep(1500); // half-open ones end by the MPA timeout
            p.assertBounded();
            assertThat(p.count(QueuePair.State.CONNECTING)).isZero();
            assertThat(usedHeap() - before).isLessThan(32L << 20);
        }
    }

    /**
     * Keeps {@code n} idle connections open to {@code to} on one thread: each one the peer closes or resets is opened
     * again at once.
     */
    static final class Churn implements AutoCloseable {
        private final java.nio.channels.Selector selector;
        private final InetSocketAddress to;
        private final Thread thread;
        private volatile boolean stop;
        private volatile long reopened;

        Churn(InetSocketAddress to, int n) throws IOException {
            this.to = to;
            this.selector = java.nio.channels.Selector.open();
            for (int i = 0; i < n; i++) openOne();
            thread = new Thread(this::run, "churn");
            thread.setDaemon(true);
            thread.start();
        }

        private void openOne() throws IOException {
            var ch = java.nio.channels.SocketChannel.open();
            ch.configureBlocking(false);
            ch.connect(to);
            ch.register(selector, java.nio.channels.SelectionKey.OP_CONNECT);
        }

        private void run() {
            ByteBuffer buf = ByteBuffer.allocate(4096);
            try {
                while (!stop) {
                    selector.select(100);
                    var it = selector.selectedKeys().iterator();
                    while (it.hasNext()) {
                        var k = it.next();
                        it.remove();
                        var ch = (java.nio.channels.SocketChannel) k.channel();
                        boolean gone;
                        try {
                            if (k.isConnectable()) {
                                ch.finishConnect();
                                k.interestOps(java.nio.channels.SelectionKey.OP_READ);
                                continue;
                            }
                            buf.clear();
                            gone = ch.read(buf) < 0;
                        } catch (IOException e) {
                            gone = true;
                        }
                        if (gone) {
                            k.cancel();
                            ch.close();
                            reopened++;
                            openOne();
                        }
                    }
                }
            } catch (IOException e) {
                // the selector went away
            }
        }

        void awaitReopened(long n, long ms) throws InterruptedException {
            long deadline = System.nanoTime() + ms * 1_000_000L;
            while (reopened < n && System.nanoTime() < deadline) Thread.sleep(10);
            assertThat(reopened).as("connections re-opened").isGreaterThanOrEqualTo(n);
        }

        long reopened() {
            return reopened;
        }

        @Override
        public void close() throws Exception {
            stop = true;
            thread.join(2000);
            for (var k : selector.keys()) {
                try {
                    k.channel().close();
                } catch (IOException e) {
                    // gone already
                }
            }
            selector.close();
        }
    }
}
