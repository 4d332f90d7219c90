package io.rddp.rnic;

import io.rddp.analyze.Analysis;
import io.rddp.rnic.link.Recorder;
import io.rddp.rnic.app.Perftest;
import io.rddp.sink.Severity;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

import static io.rddp.rnic.Pair.next;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The perftest server of the emulated RNIC against a client that follows perftest 4.5's -R exchange message for
 * message (perftest_communication.c): version, page size, cache line, MTU, pre-connect handshake, the test connection,
 * struct pingpong_dest exchanges, the test, the report and the closing handshake.
 */
class PerftestTest {

    @ParameterizedTest
    @ValueSource(strings = {"write", "read", "send"})
    void aPerftestClientRunsItsTestAndTheRecordingAnalysesClean(String test, @TempDir Path dir) throws Exception {
        Path pcap = dir.resolve(test + ".pcapng");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int size = 65536, iters = 40;
        try (Recorder rec = Recorder.create(pcap); Rnic server = new Rnic(RnicConfig.defaults(), rec);
             Rnic client = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    Perftest.controlSettings(server));
            PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
            Thread t = new Thread(() -> {
                try {
                    Perftest.serve(server, l, size, 1, out);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            try {
                runClient(client, l.address(), test, size, iters);
            } catch (AssertionError e) {
                throw new AssertionError("the server said: " + log.toString(StandardCharsets.UTF_8), e);
            }
            t.join(20_000);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("done");
        Analysis a = Recordings.analyze(pcap);
        assertThat(Recordings.ids(a, Severity.WARNING)).as(Recordings.dump(a)).isEmpty();
        assertThat(a.streams()).hasSize(2);
    }

    private static byte[] xchg(Rnic rnic, QueuePair qp, byte[] msg) throws Exception {
        long id = rnic.nextWrId();
        qp.postSend(WorkRequest.sendInline(id, msg, false));
        assertThat(rnic.completions().take(id, 5000).status()).isEqualTo(WcStatus.SUCCESS);
        WorkCompletion r = next(rnic, qp);
        assertThat(r.status()).as("the answer to a %d-octet message", msg.length).isEqualTo(WcStatus.SUCCESS);
        assertThat(r.opcode()).isEqualTo(WcOpcode.RECV);
        assertThat(r.byteLength()).isEqualTo(msg.length);
        qp.postOwnRecv(56, 1, rnic::nextWrId);
        return r.data();
    }

    private static byte[] dest(MemoryRegion r, int qpn) {
        ByteBuffer b = ByteBuffer.allocate(56);
        b.putInt(4, 1).putInt(8, qpn).putInt(12, 0x4d5ed).putInt(16, (int) r.stag()).putLong(24, r.baseTo());
        return b.array();
    }

    static void runClient(Rnic rnic, InetSocketAddress server, String test, int size, int iters) throws Exception {
        QueuePair comm = rnic.connect(server, ConnectionSettings.defaults(rnic).withRecv(1, 56).withIrdOrd(0, 0),
                5000);
        byte[] version = xchg(rnic, comm, Arrays.copyOf("6.06".getBytes(StandardCharsets.US_ASCII), 16));
        assertThat(Double.parseDouble(new String(version, StandardCharsets.US_ASCII).trim().replace("\0", "")))
                .isGreaterThanOrEqualTo(5.70);
        assertThat(xchg(rnic, comm, ByteBuffer.allocate(4).putInt(4096).array())).containsExactly(0, 0, 16, 0);
        xchg(rnic, comm, ByteBuffer.allocate(4).putInt(64).array());
        xchg(rnic, comm, new byte[]{'3', 0});
        xchg(rnic, comm, new byte[56]);
        int rd = test.equals("read") ? 64 : 0;
        QueuePair data = rnic.connect(server, ConnectionSettings.defaults(rnic).withIrdOrd(rd, rd), 5000);
        xchg(rnic, comm, new byte[56]);
        MemoryRegion buf = rnic.register(rnic.defaultPd(), size, Set.of(Access.values()));
        MemoryRegion credit = rnic.register(rnic.defaultPd(), 8, Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        MemoryRegion mine = test.equals("send") ? credit : buf;
        ByteBuffer serverDest = null;
        for (int i = 0; i < (test.equals("send") ? 4 : 3); i++) {
            serverDest = ByteBuffer.wrap(xchg(rnic, comm, dest(mine, data.qpn())));
        }
        long rkey = Integer.toUnsignedLong(serverDest.getInt(16));
        long vaddr = serverDest.getLong(24);
        int rxDepth = 8;
        for (int i = 0; i < iters; i++) {
            switch (test) {
                case "write" -> data.postSend(WorkRequest.write(rnic.nextWrId(), buf, 0, size, null, rkey, vaddr));
                case "read" -> data.postSend(WorkRequest.read(rnic.nextWrId(), buf, 0, size, rkey, vaddr));
                default -> {
                    // perftest's iWARP flow control: at most rx_depth - 1 Sends beyond the server's credits
                    long deadline = System.currentTimeMillis() + 5000;
                    while (i - credits(credit) >= rxDepth - 1) {
                        assertThat(System.currentTimeMillis()).as("credits from the server").isLessThan(deadline);
                        Thread.sleep(1);
                    }
                    data.postSend(WorkRequest.send(rnic.nextWrId(), buf, 0, size, false));
                }
            }
            assertThat(next(rnic, data).status()).isEqualTo(WcStatus.SUCCESS);
        }
        if (!test.equals("send")) {
            xchg(rnic, comm, new byte[56]);
            for (int i = 0; i < 5; i++) xchg(rnic, comm, ByteBuffer.allocate(8).putLong(i + 1).array());
        } else {
            long deadline = System.currentTimeMillis() + 5000;
            while (credits(credit) < iters && System.currentTimeMillis() < deadline) Thread.sleep(1);
            assertThat(credits(credit)).isEqualTo(iters);
        }
        xchg(rnic, comm, new byte[56]);
        data.close();
        comm.close();
        data.awaitClosed(3000);
        comm.awaitClosed(3000);
    }

    private static int credits(MemoryRegion credit) {
        return ByteBuffer.wrap(credit.copy(0, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }
}
