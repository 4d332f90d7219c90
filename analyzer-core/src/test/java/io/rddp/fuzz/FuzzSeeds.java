package io.rddp.fuzz;

import io.rddp.Notice;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.tcp.Direction;
import io.rddp.tcp.PacketDecoder;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpListener;
import io.rddp.tcp.TcpReassembler;
import io.rddp.tcp.TcpSegment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Writes the checked-in seed inputs of the fuzz targets from the repository's small captures (pcaps/), in Jazzer's
 * layout {@code src/test/resources/io/rddp/fuzz/<Class>Inputs/<method>/}. Run by {@code fuzz/run --seeds}; the output
 * is deterministic, so rerunning it changes nothing unless the captures or the targets' input formats changed.
 */
public final class FuzzSeeds {
    private static final List<String> CAPTURES = List.of(
            "pcaps/public/softuiwarp-uiwarp.pcap",
            "pcaps/siw/host-to-siw-mpa-rev1.pcap",
            "pcaps/siw/host-to-siw-mpa-rev2-crc.pcap",
            "pcaps/siw/host-to-siw-mpa-rev2-p2p-write.pcap",
            "pcaps/siw/siw-rdma-server-client-lo.pcap",
            "pcaps/siw/siw-rping-lo.pcap",
            "pcaps/siw-cut/siw-rping-from-frame-9.pcap",
            "pcaps/generated/atomics.pcap",
            "pcaps/generated/markers-crc.pcapng",
            "pcaps/generated/mixed.pcap",
            "pcaps/generated/send-invalidate-crc.pcap.gz",
            "pcaps/generated/terminate.pcap");
    private static final List<String> VIOLATIONS = List.of(
            "crc-bad", "ddp-header-short", "last-flag-early", "marker-pointer-wrong", "msn-skipped-terminated",
            "opcode-wrong-model", "read-request-to-wrap", "read-response-order", "atomic-response-mismatch");

    private final Path root;
    private final Path out;

    private FuzzSeeds(Path root) {
        this.root = root;
        this.out = root.resolve("analyzer-core/src/test/resources/io/rddp/fuzz");
    }

    public static void main(String[] args) throws IOException {
        new FuzzSeeds(Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize()).run();
    }

    private void run() throws IOException {
        for (String c : CAPTURES) {
            byte[] bytes = Files.readAllBytes(root.resolve(c));
            String name = Path.of(c).getFileName().toString();
            write("CaptureReaderFuzzTest", "readEveryFrame", name, bytes);
            write("AnalyzerFuzzTest", "analyzeCapture", name, bytes);
            if (!name.endsWith(".gz")) {
                frames(name);
                tcp(name);
                mpa(name);
                ulpdus(name);
            }
        }
        for (String v : VIOLATIONS) {
            write("AnalyzerFuzzTest", "analyzeCapture", v + ".pcap",
                    Files.readAllBytes(root.resolve("pcaps/violations/" + v + ".pcap")));
        }
        generated();
        rpcSends();
    }

    /**
     * RpcRdmaFuzzTest#decodeSend: every distinct Send payload of the RPC-over-RDMA captures (the NFS capture, then
     * the rpcrdma- violation captures in name order), decoded as RPC-over-RDMA whatever their port.
     */
    private void rpcSends() throws IOException {
        List<Path> caps = new ArrayList<>(List.of(root.resolve("pcaps/generated/nfs-rdma-crc.pcap")));
        try (var s = Files.list(root.resolve("pcaps/violations"))) {
            s.filter(p -> p.getFileName().toString().matches("rpcrdma-.*\\.pcap")).sorted().forEach(caps::add);
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        int n = 0;
        for (Path cap : caps) {
            List<byte[]> sends = new ArrayList<>();
            io.rddp.rpcrdma.RpcRdmaListener l = (pdu, m, move) -> {
                if (m != null && m.source() == io.rddp.rpcrdma.RpcRdmaMessage.Source.INLINE && pdu.rdmap() != null) {
                    java.nio.ByteBuffer b = pdu.rdmap().payload();
                    byte[] a = new byte[b.remaining()];
                    b.duplicate().get(a);
                    sends.add(a);
                }
            };
            try (CaptureReader r = CaptureReaders.open(cap)) {
                new io.rddp.decode.DecodePipeline(new io.rddp.rpcrdma.RpcRdmaStage(l,
                        io.rddp.rpcrdma.RpcRdmaStage.DecodeAs.RPCRDMA)).run(r);
            }
            for (byte[] a : sends) {
                if (seen.add(java.util.Arrays.toString(a))) write("RpcRdmaFuzzTest", "decodeSend", "send-" + n++, a);
            }
        }
    }

    private void write(String cls, String method, String name, byte[] bytes) throws IOException {
        Path dir = out.resolve(cls + "Inputs").resolve(method);
        Files.createDirectories(dir);
        Files.write(dir.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_")), bytes);
    }

    private interface FrameVisitor {
        void frame(Frame f) throws IOException;
    }

    private void eachFrame(String name, FrameVisitor v) throws IOException {
        try (CaptureReader r = CaptureReaders.open(root.resolve(pathOf(name)))) {
            Frame f = new Frame();
            while (r.next(f)) v.frame(f);
        }
    }

    private static String pathOf(String name) {
        return CAPTURES.stream().filter(c -> c.endsWith("/" + name)).findFirst().orElseThrow();
    }

    /** PacketDecoderFuzzTest: a few frames per capture under their own link type and rewrapped in the others. */
    private void frames(String name) throws IOException {
        List<byte[]> picked = new ArrayList<>();
        int[] n = {0};
        eachFrame(name, f -> {
            n[0]++;
            if (f.linkType == LinkType.ETHERNET && (n[0] <= 2 || n[0] == 6) && picked.size() < 3) {
                byte[] b = new byte[f.data.remaining()];
                f.data.duplicate().get(b);
                picked.add(b);
            }
        });
        for (int i = 0; i < picked.size(); i++) {
            byte[] eth = picked.get(i);
            write("PacketDecoderFuzzTest", "decodeFrame", name + "-" + i + "-ethernet", frameInput(0, eth));
            byte[] ip = java.util.Arrays.copyOfRange(eth, 14, eth.length);
            boolean v6 = (ip[0] >> 4) == 6;
            if (i == 0) {
                write("PacketDecoderFuzzTest", "decodeFrame", name + "-" + i + "-raw", frameInput(2, ip));
                write("PacketDecoderFuzzTest", "decodeFrame", name + "-" + i + "-ipv", frameInput(v6 ? 6 : 5, ip));
                // BSD loopback: address family in host (little-endian) byte order
                write("PacketDecoderFuzzTest", "decodeFrame", name + "-" + i + "-null",
                        frameInput(1, concat(new byte[]{(byte) (v6 ? 24 : 2), 0, 0, 0}, ip)));
                byte[] sll = new byte[16];
                sll[14] = eth[12];
                sll[15] = eth[13];
                write("PacketDecoderFuzzTest", "decodeFrame", name + "-" + i + "-sll", frameInput(4, concat(sll, ip)));
                byte[] sll2 = new byte[20];
                sll2[0] = eth[12];
                sll2[1] = eth[13];
                write("PacketDecoderFuzzTest", "decodeFrame", name + "-" + i + "-sll2",
                        frameInput(7, concat(sll2, ip)));
            }
        }
    }

    private static byte[] frameInput(int linkSelector, byte[] frame) {
        // original length = captured (offset 0x100), no leading skip
        return concat(new byte[]{(byte) linkSelector, 1, 0, 0}, frame);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = new byte[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** TcpReassemblerFuzzTest: the capture's segments with their real flags, sequence and acknowledgment numbers. */
    private void tcp(String name) throws IOException {
        SeedWriter w = new SeedWriter();
        w.intIn(1, 4, 4).intIn(1, 1 << 16, 1 << 16).intIn(1, 64, 64).intIn(0, 1 << 12, 1 << 12);
        PacketDecoder decoder = new PacketDecoder(n -> { });
        TcpSegment seg = new TcpSegment();
        Map<String, Integer> pairs = new LinkedHashMap<>();
        int[] count = {0};
        eachFrame(name, f -> {
            if (count[0] >= TcpReassemblerFuzzTest.MAX_SEGMENTS || !decoder.decode(f, seg)) return;
            String a = seg.source().toString(), b = seg.destination().toString();
            String key = a.compareTo(b) < 0 ? a + b : b + a;
            Integer pair = pairs.computeIfAbsent(key, k -> pairs.size());
            if (pair >= TcpReassemblerFuzzTest.PAIRS.length) return;
            count[0]++;
            w.intIn(0, TcpReassemblerFuzzTest.PAIRS.length - 1, pair).bool(a.compareTo(b) > 0)
                    .intIn(0, 0xFF, seg.flags() & 0xFF)
                    .intIn(0, 3, 2).longIn(0, TcpReassemblerFuzzTest.MASK, seg.sequence())
                    .intIn(0, 2, 2).longIn(0, TcpReassemblerFuzzTest.MASK, seg.acknowledgment())
                    .intIn(0, 0xFFFF, seg.window());
            int len = Math.min(seg.payloadLength(), TcpReassemblerFuzzTest.MAX_PAYLOAD);
            w.intIn(0, TcpReassemblerFuzzTest.MAX_PAYLOAD, len).intIn(0, len, 0).bool(false);
        });
        write("TcpReassemblerFuzzTest", "reassemble", name, w.toBytes());
    }

    /** MpaDecoderFuzzTest: the first connection's two byte streams, cut as their TCP segments were. */
    private void mpa(String name) throws IOException {
        SeedWriter w = new SeedWriter();
        int maxWire = io.rddp.mpa.MpaDecoder.Options.DEFAULT.searchWindow() / 4;
        w.intIn(0, 2, 0).intIn(0, 2, 0).intIn(1, 16, 3).intIn(0, 2 * maxWire, 0).bool(false).bool(false).bool(false);
        int[] events = {0};
        int[] total = {0};
        TcpReassembler tcp = new TcpReassembler(new TcpListener() {
            @Override
            public void onData(TcpConnection c, Direction d, long offset, ByteBuffer data, long frame) {
                if (c.index() != 0 || events[0] >= MpaDecoderFuzzTest.MAX_EVENTS || total[0] > 48 << 10) return;
                while (data.hasRemaining()) {
                    int n = Math.min(data.remaining(), MpaDecoderFuzzTest.MAX_RAW);
                    byte[] b = new byte[n];
                    data.get(b);
                    events[0]++;
                    total[0] += n;
                    w.bool(d == Direction.SERVER_TO_CLIENT).intIn(0, 4, MpaDecoderFuzzTest.RAW)
                            .intIn(0, MpaDecoderFuzzTest.MAX_RAW, n).bytes(b);
                }
            }

            @Override
            public void onGap(TcpConnection c, Direction d, long offset, long length, long frame) {
            }
        });
        PacketDecoder decoder = new PacketDecoder(n -> { });
        TcpSegment seg = new TcpSegment();
        eachFrame(name, f -> {
            if (decoder.decode(f, seg)) tcp.accept(seg);
        });
        tcp.finish(0);
        write("MpaDecoderFuzzTest", "frameStreams", name, w.toBytes());
    }

    /** RdmapDecoderFuzzTest: one ULPDU per distinct DDP/RDMAP control octet, cut to 256 bytes. */
    private void ulpdus(String name) throws IOException {
        Map<Integer, byte[]> seen = new LinkedHashMap<>();
        try (CaptureReader r = CaptureReaders.open(root.resolve(pathOf(name)))) {
            new DecodePipeline(new PduListener() {
                @Override
                public void onPdu(Pdu pdu) {
                    if (pdu.fpdu() == null) return;
                    ByteBuffer u = pdu.fpdu().ulpdu().duplicate();
                    if (u.remaining() < 2) return;
                    int key = (u.get(u.position()) & 0xFF) << 8 | (u.get(u.position() + 1) & 0xFF);
                    if (seen.containsKey(key)) return;
                    byte[] b = new byte[Math.min(u.remaining(), 256)];
                    u.get(b);
                    seen.put(key, b);
                }

                @Override
                public void onNotice(Notice notice) {
                }
            }).run(r);
        }
        for (Map.Entry<Integer, byte[]> e : seen.entrySet()) {
            CRC32 crc = new CRC32();
            crc.update(e.getValue());
            write("RdmapDecoderFuzzTest", "decodeUlpdu", String.format("%s-%04x-%08x", name, e.getKey(),
                    crc.getValue()), e.getValue());
        }
    }

    /** AnalyzerFuzzTest.analyzeGeneratedConnection: a few conversations written through the encoder. */
    private void generated() throws IOException {
        for (int variant = 0; variant < 4; variant++) {
            SeedWriter w = new SeedWriter();
            boolean markers = variant >= 2, crc = variant % 2 == 1;
            long isn = variant == 3 ? 0xFFFF_FF00L : 0x1000_0000L;
            w.longIn(0, 0xFFFF_FFFFL, isn).longIn(0, 0xFFFF_FFFFL, 0x8000_0000L)
                    .intIn(64, 9000, variant == 2 ? 600 : 1460).bool(markers).bool(markers).bool(crc)
                    .intIn(1, 2, variant == 0 ? 1 : 2).intIn(0, 0x3FFF, 16).intIn(0, 0x3FFF, 16);
            byte[] data = new byte[variant * 700 + 100];
            for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 7);
            // Send c->s, Write s->c, Read Request c->s, Read Response s->c, Terminate c->s
            message(w, false, 0, 0x1234, 0, data, null);
            message(w, true, 1, 0x5678, 0x1000, data, null);
            ByteBuffer rr = ByteBuffer.allocate(28);
            rr.putInt(0x5678).putLong(0x1000).putInt(data.length).putInt(0x9abc).putLong(0x2000);
            message(w, false, 2, 0, 0, new byte[0], rr.array());
            message(w, true, 3, 0x5678, 0x1000, data, null);
            byte[] terminate = new byte[64]; // the target reads 64 octets and parses the Terminate from them
            terminate[0] = 0x01;
            terminate[1] = 0x02;
            message(w, false, 4, 0, 0, new byte[0], terminate);
            write("AnalyzerFuzzTest", "analyzeGeneratedConnection", "conversation-" + variant, w.toBytes());
        }
    }

    private static void message(SeedWriter w, boolean fromServer, int kind, long stag, long to, byte[] data,
                                byte[] header) {
        w.bool(fromServer).intIn(0, 12, kind).longIn(0, 0xFFFF_FFFFL, stag).longIn(0, Long.MAX_VALUE, to)
                .intIn(0, AnalyzerFuzzTest.MAX_DATA, data.length).bytes(data);
        if (header != null) w.bytes(header);
        w.intIn(0, 3, 0).intIn(0, 1 << 16, 0).intIn(0, 255, 0);
    }
}
