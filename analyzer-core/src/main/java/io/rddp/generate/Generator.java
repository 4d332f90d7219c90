package io.rddp.generate;

import io.rddp.capture.CaptureWriter;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.rddp.tcp.Direction.CLIENT_TO_SERVER;
import static io.rddp.tcp.Direction.SERVER_TO_CLIENT;

/**
 * Writes a named {@link Scenario} into a capture, streaming: memory does not grow with the capture's size. The same
 * seed gives the same bytes.
 */
public final class Generator {

    /**
     * @param sizeBytes   stop once the capture holds at least this many bytes (0: no size target)
     * @param count       messages (iterations for rping) per connection; 0 with no size target means 10
     * @param messageSize payload bytes per message of the stream scenarios
     * @param mss         TCP MSS (0: the scenario's own, 1448 for busy-rnic and 1460 for the others)
     * @param crc         CRC32c on (all scenarios; markers-crc and busy-rnic always have it)
     * @param seed        payload bytes and STags derive from it
     * @param connections connections of busy-rnic (0: 64)
     */
    public record Options(long sizeBytes, long count, int messageSize, int mss, boolean crc, long seed,
                          int connections) {
        public Options(long sizeBytes, long count, int messageSize, int mss, boolean crc, long seed) {
            this(sizeBytes, count, messageSize, mss, crc, seed, 0);
        }

        public static Options defaults() {
            return new Options(0, 0, 65536, 1460, false, 1);
        }

        long messages() {
            return count > 0 ? count : sizeBytes > 0 ? Long.MAX_VALUE : 10;
        }
    }

    /** What was written. */
    public record Summary(long frames, long bytes, long messages) {
    }

    private static final long START_NANOS = 1_700_000_000_000_000_000L;
    private static final long NANOS_PER_FRAME = 2_000;
    private static final int PCAP_RECORD_HEADER = 16;
    /** Ethernet MTU 1500 less IPv4, TCP and the timestamp option: the MSS a Linux host usually runs with. */
    private static final int BUSY_MSS = 1448;
    private static final int BUSY_MIN_MESSAGE = 16;
    private static final int BUSY_MAX_MESSAGE = 64 * 1024;
    public static final int MAX_CONNECTIONS = 60_000;

    private final CaptureWriter out;
    private final Options options;
    private final ByteBuffer pattern;
    private final SplittableRandom random;
    private long frames;
    private long bytes = 24;
    private long messages;

    private Generator(CaptureWriter out, Options options, Scenario scenario) {
        this.out = out;
        this.options = options.mss() != 0 ? options : new Options(options.sizeBytes(), options.count(),
                options.messageSize(), scenario == Scenario.BUSY_RNIC ? BUSY_MSS : 1460, options.crc(),
                options.seed(), options.connections());
        this.random = new SplittableRandom(options.seed());
        int largest = scenario == Scenario.BUSY_RNIC ? BUSY_MAX_MESSAGE : options.messageSize();
        byte[] p = new byte[Math.max(largest, 4096) + 4096];
        random.nextBytes(p);
        this.pattern = ByteBuffer.wrap(p).asReadOnlyBuffer();
    }

    public static Summary generate(Scenario scenario, Options options, CaptureWriter out) throws IOException {
        if (options.messageSize() < 0 || (options.mss() != 0 && options.mss() < 64)) {
            throw new IllegalArgumentException("message size must be >= 0 and MSS >= 64");
        }
        if (options.connections() < 0 || options.connections() > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections must be 1.." + MAX_CONNECTIONS);
        }
        Generator g = new Generator(out, options, scenario);
        try {
            g.run(scenario);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        out.flush();
        return new Summary(g.frames, g.bytes, g.messages);
    }

    private void run(Scenario scenario) {
        switch (scenario) {
            case MIXED -> mixed();
            case BUSY_RNIC -> busyRnic();
            case NFS_RDMA -> {
                Conn c = connect(0, false, false, io.rddp.rpcrdma.RpcRdmaStage.NFS_RDMA_PORT,
                        NfsRdmaTraffic.PRIVATE_DATA.toBytes());
                NfsRdmaTraffic nfs = new NfsRdmaTraffic(new RpcRdmaWriter(c.w, c.sinkStag, c.sinkTo), random);
                int size = Math.min(options.messageSize(), 1 << 20);
                while (more(c)) {
                    nfs.step(size);
                    c.done++;
                    messages++;
                }
                c.w.close();
            }
            default -> {
                Conn c = connect(0, false, scenario == Scenario.MARKERS_CRC);
                while (more(c)) step(scenario, c);
                c.w.close();
            }
        }
    }

    private boolean more(Conn c) {
        return c.done < options.messages() && (options.sizeBytes() <= 0 || bytes < options.sizeBytes());
    }

    private void mixed() {
        List<Conn> conns = new ArrayList<>();
        conns.add(connect(0, false, false));
        conns.add(connect(1, true, false));
        conns.add(connect(2, false, false));
        Scenario[] kinds = {Scenario.RPING, Scenario.WRITE_STREAM, Scenario.READ_STREAM};
        boolean any = true;
        while (any) {
            any = false;
            for (int i = 0; i < conns.size(); i++) {
                if (more(conns.get(i))) {
                    step(kinds[i], conns.get(i));
                    any = true;
                }
            }
        }
        for (Conn c : conns) c.w.close();
    }

    /** One message (one iteration for rping). */
    private void step(Scenario s, Conn c) {
        IwarpConnectionWriter w = c.w;
        int size = options.messageSize();
        switch (s) {
            case RPING -> {
                // rping: the client advertises its buffer, the server reads it, acknowledges, the client
                // advertises again, the server writes back and acknowledges (siw-rping-lo.pcap frames 8-14).
                // The Sends carry rping's struct rping_rdma_info {be64 buf; be32 rkey; be32 size} (the client's
                // buffers; the server's are zeroed go-aheads), so `analyze --profile rping` can check every access.
                w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, rpingInfo(c.srcTo, c.srcStag, 64)));
                w.message(SERVER_TO_CLIENT, w.readRequest(SERVER_TO_CLIENT,
                        new ReadRequest(c.sinkStag, c.sinkTo, 64, c.srcStag, c.srcTo)));
                w.message(CLIENT_TO_SERVER, w.readResponse(CLIENT_TO_SERVER, c.sinkStag, c.sinkTo, payload(64)));
                w.message(SERVER_TO_CLIENT, w.send(SERVER_TO_CLIENT, rpingInfo(0, 0, 0)));
                w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, rpingInfo(c.srcTo + 0x200, c.srcStag + 1, 64)));
                w.message(SERVER_TO_CLIENT, w.write(SERVER_TO_CLIENT, c.srcStag + 1, c.srcTo + 0x200, payload(64)));
                w.message(SERVER_TO_CLIENT, w.send(SERVER_TO_CLIENT, rpingInfo(0, 0, 0)));
            }
            case WRITE_STREAM, MARKERS_CRC -> {
                w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, c.sinkStag, c.sinkTo + c.done * size, payload(size)));
                if (s == Scenario.MARKERS_CRC) {
                    w.message(SERVER_TO_CLIENT, w.write(SERVER_TO_CLIENT, c.srcStag, c.srcTo + c.done * size, payload(size)));
                }
            }
            case READ_STREAM -> {
                long to = c.sinkTo + c.done * size;
                w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER,
                        new ReadRequest(c.sinkStag, to, size, c.srcStag, c.srcTo + c.done * size)));
                w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, c.sinkStag, to, payload(size)));
            }
            case SEND_STREAM -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, payload(size)));
            case SEND_INVALIDATE -> {
                // The client writes into a server STag, then asks the server to invalidate it (RFC 5040 §5.3). The
                // client, being the MPA initiator, also sends the first FPDU (RFC 5044 §7.1.2).
                long stag = (c.sinkStag + (c.done << 8)) & 0xFFFF_FFFFL;
                w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, stag, 0, payload(size)));
                w.message(CLIENT_TO_SERVER, w.sendWithInvalidate(CLIENT_TO_SERVER, payload(16), stag));
            }
            case TERMINATE -> {
                if (c.done < 3) {
                    w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, payload(64)));
                } else {
                    // MSN 4 skipped: the Data Sink sees MSN 5 and terminates with 1/2/3 "Invalid MSN - MSN range is
                    // not valid" (RFC 5041 §7.2), quoting the segment's DDP header (RFC 5040 §4.8).
                    ByteBuffer data = payload(64);
                    w.send(CLIENT_TO_SERVER, data); // consumes MSN 4 without sending it
                    var bad = w.send(CLIENT_TO_SERVER, data);
                    w.message(CLIENT_TO_SERVER, bad);
                    UntaggedHeader h = (UntaggedHeader) bad.segments().get(0).header();
                    w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT,
                            Terminate.of(1, 2, 3, bad.segments().get(0).length(), h, null)));
                    c.done = Long.MAX_VALUE - 1; // nothing may follow a Terminate (RFC 5040 §5.4)
                }
            }
            case ATOMICS -> {
                long id = c.done + 1;
                AtomicRequest req = (c.done & 1) == 0
                        ? AtomicRequest.fetchAdd(id, c.srcStag, c.srcTo + 8 * (c.done % 64), 1, 0)
                        : AtomicRequest.cmpSwap(id, c.srcStag, c.srcTo + 8 * (c.done % 64), id, ~0L, id - 1, ~0L);
                w.message(CLIENT_TO_SERVER, w.atomicRequest(CLIENT_TO_SERVER, req));
                w.message(SERVER_TO_CLIENT, w.atomicResponse(SERVER_TO_CLIENT, new AtomicResponse(id, id - 1)));
                w.message(CLIENT_TO_SERVER, w.immediateData(CLIENT_TO_SERVER, id));
            }
            case MIXED, NFS_RDMA, BUSY_RNIC -> throw new IllegalStateException(s.id() + " has no single step");
        }
        c.done++;
        messages++;
    }

    private static ByteBuffer rpingInfo(long buf, long rkey, int size) {
        return ByteBuffer.allocate(16).putLong(buf).putInt((int) rkey).putInt(size).flip();
    }

    /**
     * busy-rnic: each connection's frames wait in its own queue, and one frame at a time is taken from a connection
     * picked at random, so consecutive frames rarely belong to the same connection, as on a loaded link. A
     * connection with an empty queue gets its next message: a Send or an RDMA Write in either direction, or an RDMA
     * Read (Request from the client, Response from the server), of 16 B to 64 KiB, log-uniform so small messages
     * are as common as on real RNICs. One message in flight per connection keeps Reads within IRD and memory small.
     */
    private void busyRnic() {
        int n = options.connections() > 0 ? options.connections() : 64;
        List<Conn> conns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Endpoint client = new Endpoint(new byte[]{10, 1, (byte) (i >> 8), (byte) i}, 40000 + i % 20000);
            Endpoint server = new Endpoint(new byte[]{10, 2, (byte) (i >> 8), (byte) i}, 4791);
            Conn c = connect(client, server, true, false, new byte[0], null);
            conns.add(c);
        }
        long target = options.messages() == Long.MAX_VALUE ? Long.MAX_VALUE : options.messages() * n;
        while (messages < target && (options.sizeBytes() <= 0 || bytes < options.sizeBytes())) {
            Conn c = conns.get(random.nextInt(n));
            if (c.pending.isEmpty()) {
                busyMessage(c);
                c.done++;
                messages++;
            }
            frame(c.pending.poll(), 0);
        }
        // what is queued goes out, still interleaved, so every message is whole; then the FINs
        for (Conn c : conns) c.w.close();
        List<Conn> open = new ArrayList<>(conns);
        while (!open.isEmpty()) {
            int k = random.nextInt(open.size());
            Conn c = open.get(k);
            if (c.pending.isEmpty()) {
                open.set(k, open.get(open.size() - 1));
                open.remove(open.size() - 1);
            } else {
                frame(c.pending.poll(), 0);
            }
        }
    }

    private void busyMessage(Conn c) {
        IwarpConnectionWriter w = c.w;
        int size = (int) Math.round(Math.exp(Math.log(BUSY_MIN_MESSAGE)
                + random.nextDouble() * (Math.log(BUSY_MAX_MESSAGE) - Math.log(BUSY_MIN_MESSAGE))));
        // the Initiator's first FPDU comes first (RFC 5044 §7.1.2)
        Direction d = c.done == 0 || random.nextBoolean() ? CLIENT_TO_SERVER : SERVER_TO_CLIENT;
        long stag = d == CLIENT_TO_SERVER ? c.sinkStag : c.srcStag;
        long base = d == CLIENT_TO_SERVER ? c.sinkTo : c.srcTo;
        // Writes and Reads walk a 16 MiB window of the buffer so TOs change as on a real workload
        long to = base + ((c.done * BUSY_MAX_MESSAGE) & 0xFF_FFFFL);
        switch (random.nextInt(3)) {
            case 0 -> w.message(d, w.send(d, payload(size)));
            case 1 -> w.message(d, w.write(d, stag, to, payload(size)));
            default -> {
                w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER,
                        new ReadRequest(c.sinkStag, to, size, c.srcStag, c.srcTo + (to - base))));
                w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, c.sinkStag, to, payload(size)));
            }
        }
    }

    private ByteBuffer payload(int n) {
        int at = random.nextInt(4096);
        return pattern.duplicate().position(at).limit(at + n).slice();
    }

    private Conn connect(int index, boolean ipv6, boolean markersCrc) {
        return connect(index, ipv6, markersCrc, 4791 + index, new byte[0]);
    }

    private Conn connect(int index, boolean ipv6, boolean markersCrc, int serverPort, byte[] privateData) {
        byte[] a, b;
        if (ipv6) {
            a = new byte[16];
            b = new byte[16];
            a[0] = b[0] = (byte) 0xfd;
            a[15] = (byte) (1 + 2 * index);
            b[15] = (byte) (2 + 2 * index);
        } else {
            a = new byte[]{10, 0, (byte) index, 1};
            b = new byte[]{10, 0, (byte) index, 2};
        }
        return connect(new Endpoint(a, 40000 + index), new Endpoint(b, serverPort), options.crc() || markersCrc,
                markersCrc, privateData, this::frame);
    }

    /** With {@code sink} null the connection's frames wait in its {@link Conn#pending} queue. */
    private Conn connect(Endpoint client, Endpoint server, boolean crc, boolean markersToClient, byte[] privateData,
                         TcpSessionWriter.FrameSink sink) {
        IwarpConnectionWriter.Config cfg = IwarpConnectionWriter.Config.defaults().withMss(options.mss())
                .withCrc(crc).withMarkers(markersToClient, false);
        TcpSessionWriter.Options tcp = TcpSessionWriter.Options.defaults()
                .withIsn(CLIENT_TO_SERVER, random.nextLong() & 0xFFFF_FFFFL)
                .withIsn(SERVER_TO_CLIENT, random.nextLong() & 0xFFFF_FFFFL);
        java.util.ArrayDeque<byte[]> pending = new java.util.ArrayDeque<>();
        IwarpConnectionWriter w = new IwarpConnectionWriter(client, server, cfg, tcp,
                sink != null ? sink : (frame, t) -> pending.add(frame));
        Conn c = new Conn(w, random, pending);
        w.open(privateData, privateData);
        return c;
    }

    // Frames of all connections share one clock so the capture is in time order.
    private void frame(byte[] frame, long ignoredTimestamp) {
        try {
            out.writePacket(START_NANOS + frames * NANOS_PER_FRAME, ByteBuffer.wrap(frame));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        frames++;
        bytes += PCAP_RECORD_HEADER + frame.length;
    }

    private static final class Conn {
        final IwarpConnectionWriter w;
        final java.util.ArrayDeque<byte[]> pending;
        final long sinkStag, srcStag;
        final long sinkTo, srcTo;
        long done;

        Conn(IwarpConnectionWriter w, SplittableRandom r, java.util.ArrayDeque<byte[]> pending) {
            this.w = w;
            this.pending = pending;
            sinkStag = r.nextLong() & 0xFFFF_FF00L;
            srcStag = r.nextLong() & 0xFFFF_FF00L;
            sinkTo = (r.nextLong() & 0x0000_7FFF_FFFF_F000L);
            srcTo = (r.nextLong() & 0x0000_7FFF_FFFF_F000L);
        }
    }
}
