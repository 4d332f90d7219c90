package io.rddp.analyze;

import io.rddp.Notice;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.CaptureWriter;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.capture.PcapngWriter;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.rdmap.ReadRequest;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.PacketEncoder;
import io.rddp.tcp.TcpHeader;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpReassembler;
import io.rddp.tcp.TcpSessionWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static io.rddp.tcp.Direction.CLIENT_TO_SERVER;
import static io.rddp.tcp.Direction.SERVER_TO_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Captures built to exhaust an analyzer (issue: hostile captures): each is analysed to its end with the caps of
 * {@link AnalysisLimits}, the state held stays under the cap, and a warning says what was dropped and where.
 */
class HostileCaptureTest {

    @TempDir
    Path tmp;

    private static final Endpoint CLIENT = new Endpoint(new byte[]{10, 9, 0, 1}, 40000),
            SERVER = new Endpoint(new byte[]{10, 9, 0, 2}, 4791);

    private Path pcap(String name, Consumer<CaptureWriter> body) throws IOException {
        Path p = tmp.resolve(name);
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(p), 1 << 16);
             CaptureWriter w = new PcapWriter(os, LinkType.ETHERNET, true)) {
            body.accept(w);
        }
        return p;
    }

    private static void write(CaptureWriter w, long i, byte[] frame) {
        try {
            w.writePacket(1_700_000_000_000_000_000L + i * 1000, ByteBuffer.wrap(frame));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An iWARP connection (MPA rev 2, no CRC, no Markers) written into {@code w}. */
    private static IwarpConnectionWriter iwarp(CaptureWriter w) {
        long[] n = {0};
        IwarpConnectionWriter c = new IwarpConnectionWriter(CLIENT, SERVER, IwarpConnectionWriter.Config.defaults(),
                TcpSessionWriter.Options.defaults(), (frame, ts) -> write(w, n[0]++, frame));
        c.open();
        return c;
    }

    private static Analysis analyze(Path p, AnalysisLimits limits) throws IOException {
        try (CaptureReader r = CaptureReaders.open(p)) {
            return new Analyzer(limits, StagRegistry.empty(), UlpProfile.NONE).run(r, () -> { });
        }
    }

    private static boolean noticed(Analysis a, String text) {
        return a.notices().stream().anyMatch(n -> n.message().contains(text));
    }

    @Test
    void aMillionConnectionsKeepNoMoreStreamsThanTheConnectionCap() throws IOException {
        int connections = 1_000_000, cap = 1000;
        PacketEncoder enc = new PacketEncoder();
        Path p = pcap("syn-flood.pcap", w -> {
            for (int i = 0; i < connections; i++) {
                Endpoint src = new Endpoint(new byte[]{10, (byte) (i >>> 16), (byte) (i >>> 8), (byte) i}, 1024 + (i % 60000));
                write(w, i, enc.frame(src, SERVER, i * 7919L, 0, TcpHeader.SYN, 65535, ByteBuffer.allocate(0)));
            }
        });
        // The model's stream count, sampled after every frame, never passes the TCP connection cap.
        int[] peak = {0};
        SinkModel model = SinkModel.reportingTo(v -> { });
        PduListener feed = new PduListener() {
            @Override
            public void onPdu(Pdu pdu) {
            }

            @Override
            public void onConnection(TcpConnection c) {
                model.onConnection(c);
            }

            @Override
            public void onConnectionEnd(TcpConnection c, long frame, boolean captureEnded) {
                model.onConnectionEnd(c.index(), frame, captureEnded);
            }
        };
        try (CaptureReader r = CaptureReaders.open(p)) {
            new DecodePipeline(feed, TcpReassembler.Limits.defaults().withMaxConnections(cap))
                    .run(r, () -> peak[0] = Math.max(peak[0], model.openStreams()));
        }
        assertThat(peak[0]).isEqualTo(cap);
        assertThat(model.openStreams()).isZero();

        AnalysisLimits limits = AnalysisLimits.defaults().withTcp(TcpReassembler.Limits.defaults().withMaxConnections(cap));
        Analysis a = analyze(p, limits);
        assertThat(a.frames()).isEqualTo(connections);
        assertThat(a.notices()).hasSize(limits.notices());
        assertThat(a.noticesDropped()).isGreaterThanOrEqualTo(connections - cap - limits.notices());
        assertThat(a.notices().get(0).message()).contains("evicted", "least recently active of 1000 tracked connections");
        assertThat(a.notices().get(0).frame()).isEqualTo(cap + 1);
    }

    @Test
    void outOfOrderSegmentsThatNeverFillTheGapStayBounded() throws IOException {
        Path p = pcap("ooo.pcap", w -> {
            long[] n = {0};
            TcpSessionWriter t = new TcpSessionWriter(CLIENT, SERVER, TcpSessionWriter.Options.defaults(),
                    (frame, ts) -> write(w, n[0]++, frame));
            t.handshake();
            byte[] chunk = new byte[1000];
            for (int i = 0; i < 20_000; i++) { // offset 0 is never sent
                t.segment(CLIENT_TO_SERVER, t.sequenceAt(CLIENT_TO_SERVER, 1 + i * 1000L),
                        t.sequenceAt(SERVER_TO_CLIENT, 0), TcpHeader.ACK, ByteBuffer.wrap(chunk));
            }
        });
        AnalysisLimits limits = AnalysisLimits.defaults()
                .withTcp(TcpReassembler.Limits.defaults().withMaxBufferedBytes(256 << 10));
        Analysis a = analyze(p, limits);
        assertThat(a.error()).isNull();
        assertThat(noticed(a, "out-of-order data exceeds the buffer limits") || noticed(a, "outside any TCP window"))
                .as("notices: %s", a.notices().subList(0, Math.min(5, a.notices().size()))).isTrue();
    }

    @Test
    void retransmissionWithConflictingBytesIsReportedWithItsFrame() throws IOException {
        Path p = pcap("conflict.pcap", w -> {
            long[] n = {0};
            TcpSessionWriter t = new TcpSessionWriter(CLIENT, SERVER, TcpSessionWriter.Options.defaults(),
                    (frame, ts) -> write(w, n[0]++, frame));
            t.handshake();
            byte[] first = new byte[500];
            Arrays.fill(first, (byte) 1);
            t.send(CLIENT_TO_SERVER, ByteBuffer.wrap(first), 1460);
            byte[] other = new byte[500];
            Arrays.fill(other, (byte) 2);
            t.retransmit(CLIENT_TO_SERVER, 0, ByteBuffer.wrap(other));
        });
        Analysis a = analyze(p, AnalysisLimits.defaults());
        assertThat(a.notices()).anySatisfy(n -> {
            assertThat(n.message()).contains("retransmitted bytes differ from the first copy");
            assertThat(n.frame()).isEqualTo(5);
        });
    }

    @Test
    void ulpduLengthOf65535ThatNeverCompletesEndsWithoutHoldingMoreThanOneFpdu() throws IOException {
        Path p = pcap("ulpdu.pcap", w -> {
            IwarpConnectionWriter c = iwarp(w);
            ByteBuffer start = ByteBuffer.allocate(1000);
            start.putShort((short) 0xFFFF); // ULPDU_Length 65535 (RFC 5044 §4.1), then far fewer octets
            start.put(new byte[]{0x41, 0x43, 0, 0, 0, 0}).position(1000).flip();
            for (int i = 0; i < 3; i++) c.tcp().send(CLIENT_TO_SERVER, start.duplicate(), 1460);
            c.tcp().close(CLIENT_TO_SERVER);
        });
        Analysis a = analyze(p, AnalysisLimits.defaults());
        assertThat(a.error()).isNull();
        assertThat(a.pdus()).isEqualTo(2); // the MPA Request and Reply; the FPDU never completes
        assertThat(a.notices().stream().map(Notice::message).toList())
                .contains("3000 octets at the end of the direction do not complete an FPDU; not delivered");
    }

    @Test
    void thousandsOfOutstandingReadRequestsAreCappedWithAWarning() throws IOException {
        Path p = pcap("reads.pcap", w -> {
            IwarpConnectionWriter c = iwarp(w);
            for (int i = 0; i < 6000; i++) {
                c.message(CLIENT_TO_SERVER, c.readRequest(CLIENT_TO_SERVER,
                        new ReadRequest(0x100, i * 64L, 64, 0x200, i * 64L)));
            }
        });
        AnalysisLimits limits = AnalysisLimits.defaults();
        Analysis a = analyze(p, limits);
        assertThat(a.error()).isNull();
        assertThat(a.notices()).anySatisfy(n -> assertThat(n.message())
                .contains("more than " + limits.sink().maxOutstanding()));
    }

    @Test
    void anStagMapThatGrowsWithoutEndStopsAtItsCap() throws IOException {
        Path p = pcap("stags.pcap", w -> {
            IwarpConnectionWriter c = iwarp(w);
            for (int i = 0; i < 5000; i++) {
                c.message(CLIENT_TO_SERVER, c.readRequest(CLIENT_TO_SERVER,
                        new ReadRequest(0x1000 + i, 0, 8, 0x9000_0000L + i, 0)));
                c.message(SERVER_TO_CLIENT, c.readResponse(SERVER_TO_CLIENT, 0x1000 + i, 0, ByteBuffer.allocate(8)));
            }
        });
        SinkModel.Options s = SinkModel.Options.defaults();
        AnalysisLimits limits = AnalysisLimits.defaults().withSink(new SinkModel.Options(false, s.maxReportsPerCheck(),
                s.maxOpenMessages(), s.maxOutstanding(), s.maxTaggedBuffers(), s.maxRanges(), 1000));
        Analysis a = analyze(p, limits);
        assertThat(a.error()).isNull();
        assertThat(a.notices()).anySatisfy(n -> assertThat(n.message()).contains("more than 1000"));
    }

    @Test
    void aTruncatedFinalRecordKeepsEverythingBeforeItAndSaysWhere() throws IOException {
        Path p = pcap("whole.pcap", w -> {
            IwarpConnectionWriter c = iwarp(w);
            for (int i = 0; i < 10; i++) c.message(CLIENT_TO_SERVER, c.send(CLIENT_TO_SERVER, ByteBuffer.allocate(100)));
        });
        byte[] all = Files.readAllBytes(p);
        Path cut = tmp.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(all, all.length - 40));
        Analysis whole = analyze(p, AnalysisLimits.defaults()), a = analyze(cut, AnalysisLimits.defaults());
        assertThat(a.error()).contains("offset").containsIgnoringCase("frame " + whole.frames());
        assertThat(a.frames()).isEqualTo(whole.frames() - 1);
        assertThat(a.pdus()).isEqualTo(whole.pdus() - 1);
    }

    @Test
    void aPcapngBlockWhoseLengthLiesStopsTheReadWithItsOffset() throws IOException {
        Path p = tmp.resolve("lie.pcapng");
        try (OutputStream os = Files.newOutputStream(p); CaptureWriter w = new PcapngWriter(os, LinkType.ETHERNET)) {
            IwarpConnectionWriter c = iwarp(w);
            for (int i = 0; i < 5; i++) c.message(CLIENT_TO_SERVER, c.send(CLIENT_TO_SERVER, ByteBuffer.allocate(100)));
        }
        byte[] b = Files.readAllBytes(p);
        ByteOrder order = ByteBuffer.wrap(b, 8, 4).order(ByteOrder.BIG_ENDIAN).getInt() == 0x1A2B3C4D
                ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN; // the Section Header's byte-order magic
        // the last Enhanced Packet Block claims 1 GiB: its trailing length is what it really is
        int last = b.length - ByteBuffer.wrap(b, b.length - 4, 4).order(order).getInt();
        ByteBuffer.wrap(b, last + 4, 4).order(order).putInt(1 << 30);
        Files.write(p, b);
        Analysis a = analyze(p, AnalysisLimits.defaults());
        assertThat(a.error()).contains("offset " + last);
        assertThat(a.frames()).isPositive();
        assertThat(List.of(a.pdus())).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(2));
    }

    @Test
    void endlessBytesThatAreNotMpaAreLetGoAfterTheSearchCap() throws IOException {
        Path p = pcap("zeros.pcap", w -> {
            long[] n = {0};
            TcpSessionWriter t = new TcpSessionWriter(CLIENT, SERVER, TcpSessionWriter.Options.defaults(),
                    (frame, ts) -> write(w, n[0]++, frame));
            t.handshake();
            t.send(CLIENT_TO_SERVER, ByteBuffer.allocate(8 << 20), 1460); // zeros: a ULPDU_Length 0 at every offset
        });
        Analysis a = analyze(p, AnalysisLimits.defaults());
        assertThat(a.pdus()).isZero();
        assertThat(a.notices()).anySatisfy(n -> {
            assertThat(n.message()).contains("no FPDU framing found in", "the rest of this direction is not decoded");
            assertThat(n.offset()).isLessThan(2L << 20);
        });
        assertThat(a.limits()).containsEntry("mpa.search-bytes", (long) io.rddp.mpa.MpaDecoder.MAX_SEARCH);
    }
}
