package io.rddp.bench;

import io.rddp.rnic.Access;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.MemoryRegion;
import io.rddp.rnic.QueuePair;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.WcStatus;
import io.rddp.rnic.WorkCompletion;
import io.rddp.rnic.WorkRequest;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * RDMA Write streaming between two emulated RNICs over loopback TCP: 64 KiB Writes, CRC32c on, the receiving RNIC
 * judging every FPDU with the sink model (its only receive path: the model's verdict decides placement) and placing
 * the payload into registered memory. Each operation is a batch of Writes fenced by a Send, whose receive completion
 * shows the receiver has placed everything before it (RFC 5040 §5.5 ordering). The "bytes" counter is Write payload
 * per second. {@code tcp} is the ceiling: the same number of octets through a plain loopback socket in this JVM.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
public class RnicBenchmark {

    static final int MESSAGE = 64 * 1024;
    static final int BATCH = 64;

    /** TCP MSS the FPDUs are sized for (MULPDU, RFC 5044 §8): 1460 is an Ethernet link, 9000-ish a jumbo one. */
    @Param({"1460", "8960"})
    public int mss;

    @Param({"true"})
    public boolean crc;

    private Rnic server, client;
    private QueuePair clientQp, serverQp;
    private MemoryRegion source, target;
    private long wrId;

    private ServerSocket tcpServer;
    private Socket tcpOut;
    private Thread tcpSink;
    private byte[] tcpChunk;
    private volatile long tcpReceived;

    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;
    }

    @Setup(Level.Trial)
    public void connect() throws Exception {
        RnicConfig cfg = RnicConfig.defaults().withCrc(crc).withMss(mss).withRevisions(java.util.Set.of(2));
        server = new Rnic(cfg, null);
        client = new Rnic(cfg, null);
        RnicListener l = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                ConnectionSettings.defaults(server).withRecv(4, 64));
        clientQp = client.connect(l.address(), ConnectionSettings.defaults(client).withRecv(4, 64), 5000);
        serverQp = l.accept(5000, null);
        if (serverQp == null || !serverQp.awaitEstablished(5000)) throw new IllegalStateException("no connection");
        target = server.register(server.defaultPd(), MESSAGE * BATCH, EnumSet.of(Access.LOCAL_WRITE,
                Access.REMOTE_WRITE));
        source = client.register(client.defaultPd(), MESSAGE * BATCH, EnumSet.of(Access.LOCAL_WRITE));
        byte[] pattern = new byte[MESSAGE * BATCH];
        for (int i = 0; i < pattern.length; i++) pattern[i] = (byte) (i * 31 + 7);
        source.write(0, pattern);

        tcpServer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        tcpOut = new Socket(InetAddress.getLoopbackAddress(), tcpServer.getLocalPort());
        Socket in = tcpServer.accept();
        tcpChunk = new byte[MESSAGE];
        tcpSink = new Thread(() -> {
            byte[] buf = new byte[64 * 1024];
            try (InputStream s = in.getInputStream()) {
                int n;
                while ((n = s.read(buf)) > 0) tcpReceived += n;
            } catch (IOException ignored) {
                // closed at tear-down
            }
        }, "tcp-sink");
        tcpSink.setDaemon(true);
        tcpSink.start();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        long errors = serverQp.violations().stream().filter(v -> v.severity() == io.rddp.sink.Severity.ERROR).count();
        client.close();
        server.close();
        tcpOut.close();
        tcpServer.close();
        if (errors > 0) throw new IllegalStateException("the receiver's model found " + errors + " violations");
    }

    @Benchmark
    public void rnicWrite(Bytes counter) throws Exception {
        for (int i = 0; i < BATCH; i++) {
            clientQp.postSend(WorkRequest.write(++wrId, source, i * MESSAGE, MESSAGE, null, target.stag(),
                    target.baseTo() + (long) i * MESSAGE).signaled(false));
        }
        clientQp.postSend(WorkRequest.sendInline(++wrId, new byte[4], false));
        WorkCompletion sent = client.completions().take(wrId, 10_000);
        List<WorkCompletion> got = server.completions().poll(serverQp.qpn(), 1, 1, 10_000);
        if (sent == null || sent.status() != WcStatus.SUCCESS || got.size() != 1
                || got.get(0).status() != WcStatus.SUCCESS) {
            throw new IllegalStateException("batch did not complete: " + sent + " " + got + " "
                    + serverQp.failure());
        }
        serverQp.postOwnRecv(64, 1, server::nextWrId);
        counter.bytes += (long) MESSAGE * BATCH;
    }

    @Benchmark
    public void tcp(Bytes counter) throws Exception {
        long want = tcpReceived + (long) MESSAGE * BATCH;
        OutputStream out = tcpOut.getOutputStream();
        for (int i = 0; i < BATCH; i++) out.write(tcpChunk);
        while (tcpReceived < want) Thread.onSpinWait();
        counter.bytes += (long) MESSAGE * BATCH;
    }
}
