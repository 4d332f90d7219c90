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
     * @param mss         TCP MSS
     * @param crc         CRC32c on (all scenarios; markers-crc always has it)
     * @param seed        payload bytes and STags derive from it
     */
    public record Options(long sizeBytes, long count, int messageSize, int mss, boolean crc, long seed) {
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

    private final CaptureWriter out;
    private final Options options;
    private final ByteBuffer pattern;
    private final SplittableRandom random;
    private long frames;
    private long bytes = 24;
    private long messages;

    private Generator(CaptureWriter out, Options options) {
        this.out = out;
        this.options = options;
        this.random = new SplittableRandom(options.seed());
        byte[] p = new byte[Math.max(options.messageSize(), 4096) + 4096];
        random.nextBytes(p);
        this.pattern = ByteBuffer.wrap(p).asReadOnlyBuffer();
    }

    public static Summary generate(Scenario scenario, Options options, CaptureWriter out) throws IOException {
        if (options.messageSize() < 0 || options.mss() < 64) {
            throw new IllegalArgumentException("message size must be >= 0 and MSS >= 64");
        }
        Generator g = new Generator(out, options);
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
            case MIXED, NFS_RDMA -> throw new IllegalStateException(s.id() + " has no single step");
        }
        c.done++;
        messages++;
    }

    private static ByteBuffer rpingInfo(long buf, long rkey, int size) {
        return ByteBuffer.allocate(16).putLong(buf).putInt((int) rkey).putInt(size).flip();
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
        Endpoint client = new Endpoint(a, 40000 + index), server = new Endpoint(b, serverPort);
        IwarpConnectionWriter.Config cfg = IwarpConnectionWriter.Config.defaults().withMss(options.mss())
                .withCrc(options.crc() || markersCrc).withMarkers(markersCrc, false);
        TcpSessionWriter.Options tcp = TcpSessionWriter.Options.defaults()
                .withIsn(CLIENT_TO_SERVER, random.nextLong() & 0xFFFF_FFFFL)
                .withIsn(SERVER_TO_CLIENT, random.nextLong() & 0xFFFF_FFFFL);
        IwarpConnectionWriter w = new IwarpConnectionWriter(client, server, cfg, tcp, this::frame);
        Conn c = new Conn(w, random);
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
        final long sinkStag, srcStag;
        final long sinkTo, srcTo;
        long done;

        Conn(IwarpConnectionWriter w, SplittableRandom r) {
            this.w = w;
            sinkStag = r.nextLong() & 0xFFFF_FF00L;
            srcStag = r.nextLong() & 0xFFFF_FF00L;
            sinkTo = (r.nextLong() & 0x0000_7FFF_FFFF_F000L);
            srcTo = (r.nextLong() & 0x0000_7FFF_FFFF_F000L);
        }
    }
}
