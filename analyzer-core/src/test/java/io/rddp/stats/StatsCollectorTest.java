package io.rddp.stats;

import io.rddp.testing.RepoPaths;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.generate.RpcRdmaWriter;
import io.rddp.mpa.Fpdu;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.RpcNames;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.stats.CaptureStats.Close;
import io.rddp.count.OpcodeCounts;
import io.rddp.stats.CaptureStats.ProcedureStats;
import io.rddp.stats.CaptureStats.StreamStats;
import io.rddp.stats.LatencyHistogram.Latency;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static io.rddp.tcp.Direction.CLIENT_TO_SERVER;
import static io.rddp.tcp.Direction.SERVER_TO_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

class StatsCollectorTest {

    @TempDir
    Path dir;

    static final long T0 = 1_700_000_000_000_000_000L;
    /** every frame after the one stamped {@code now} is a microsecond later */
    static final long STEP = 1_000;

    /** A generated connection whose frame times the traffic sets: {@code clock[0]} is the next frame's time. */
    private Path capture(String name, int port, Consumer<Gen> traffic) throws IOException {
        Path f = dir.resolve(name);
        try (PcapWriter pcap = PcapWriter.create(f, LinkType.ETHERNET, true)) {
            IwarpConnectionWriter w = new IwarpConnectionWriter(new Endpoint(new byte[]{10, 0, 0, 1}, 40000),
                    new Endpoint(new byte[]{10, 0, 0, 2}, port), IwarpConnectionWriter.Config.defaults(),
                    TcpSessionWriter.Options.defaults(), (bytes, ts) -> {
                try {
                    pcap.writePacket(ts, bytes);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Gen g = new Gen(w);
            w.tcp().clock(() -> {
                long t = g.now;
                g.now += STEP;
                return t;
            });
            w.open();
            traffic.accept(g);
        }
        return f;
    }

    static final class Gen {
        final IwarpConnectionWriter w;
        long now = T0;

        Gen(IwarpConnectionWriter w) {
            this.w = w;
        }
    }

    static CaptureStats stats(Path f) throws IOException {
        try (CaptureReader r = CaptureReaders.open(f)) {
            return new StatsCollector().run(r, () -> { });
        }
    }

    /** FPDU octets of a ULPDU (RFC 5044 §4.1): ULPDU_Length, ULPDU, PAD to 4, CRC field. */
    static long wire(int ulpdu) {
        return 2 + ulpdu + Fpdu.padLength(ulpdu) + 4;
    }

    static OpcodeCounts op(StreamStats s, Direction d, Opcode op) {
        return s.direction(d).opcodes().stream().filter(o -> o.code() == op.code()).findFirst().orElseThrow();
    }

    @Test
    void readLatencyIsRequestToFirstAndToLastResponseSegment() throws IOException {
        // five Reads of 3000 octets: the answer starts 10, 20, 30, 40, 50 µs after its Request, and its three
        // segments (1438 + 1438 + 124 octets: MULPDU 1452 for an MSS of 1460) follow a microsecond apart
        Path f = capture("reads.pcap", 4791, g -> {
            for (int i = 0; i < 5; i++) {
                g.now = T0 + 1_000_000L * (i + 1);
                long requested = g.now;
                g.w.message(CLIENT_TO_SERVER, g.w.readRequest(CLIENT_TO_SERVER,
                        new ReadRequest(0x100, 0x1000L * i, 3000, 0x200, 0)));
                g.now = requested + 10_000L * (i + 1);
                g.w.message(SERVER_TO_CLIENT, g.w.readResponse(SERVER_TO_CLIENT, 0x100, 0x1000L * i,
                        ByteBuffer.allocate(3000)));
            }
            g.w.close();
        });
        CaptureStats s = stats(f);
        assertThat(s.error()).isNull();
        assertThat(s.streams()).hasSize(1);
        StreamStats st = s.streams().get(0);
        CaptureStats.ReadStats r = st.readsByClient();
        assertThat(r.requests()).isEqualTo(5);
        assertThat(r.completed()).isEqualTo(5);
        assertThat(r.unanswered()).isZero();
        assertThat(r.unmatched()).isZero();
        assertThat(r.requestedBytes()).isEqualTo(15_000);
        // nearest rank: median of 5 is the 3rd, p99 the 5th
        assertThat(r.first()).isEqualTo(new Latency(5, 10_000, 30_000, 50_000, 50_000, 30_000, true));
        assertThat(r.last()).isEqualTo(new Latency(5, 12_000, 32_000, 52_000, 52_000, 32_000, true));
        assertThat(st.readsByServer().requests()).isZero();
        assertThat(s.readsFirst()).isEqualTo(r.first());

        OpcodeCounts req = op(st, CLIENT_TO_SERVER, Opcode.RDMA_READ_REQUEST);
        assertThat(req.segments()).isEqualTo(5);
        assertThat(req.messages()).isEqualTo(5);
        assertThat(req.payloadBytes()).isZero();
        assertThat(req.wireBytes()).isEqualTo(5 * wire(UntaggedHeader.UNTAGGED_LENGTH + ReadRequest.LENGTH));
        OpcodeCounts resp = op(st, SERVER_TO_CLIENT, Opcode.RDMA_READ_RESPONSE);
        assertThat(resp.segments()).isEqualTo(15);
        assertThat(resp.messages()).isEqualTo(5);
        assertThat(resp.payloadBytes()).isEqualTo(15_000);
        assertThat(resp.wireBytes()).isEqualTo(5 * (2 * wire(14 + 1438) + wire(14 + 124)));
        assertThat(st.clientToServer().opcodes()).hasSize(1);
        assertThat(st.serverToClient().opcodes()).hasSize(1);
        assertThat(st.clientToServer().startFrames()).isEqualTo(1);
    }

    @Test
    void readsAnsweredOutOfTheCaptureAreUnansweredAndResponsesWithoutRequestUnmatched() throws IOException {
        Path f = capture("unanswered.pcap", 4791, g -> {
            g.w.message(CLIENT_TO_SERVER, g.w.readRequest(CLIENT_TO_SERVER, new ReadRequest(0x100, 0, 64, 0x200, 0)));
            g.w.message(CLIENT_TO_SERVER, g.w.readRequest(CLIENT_TO_SERVER, new ReadRequest(0x100, 64, 64, 0x200, 64)));
            g.w.message(SERVER_TO_CLIENT, g.w.readResponse(SERVER_TO_CLIENT, 0x100, 0, ByteBuffer.allocate(64)));
            // a Read Response to the server's STag 0x300, which no Request of the server named
            g.w.message(CLIENT_TO_SERVER, g.w.readResponse(CLIENT_TO_SERVER, 0x300, 0, ByteBuffer.allocate(8)));
        });
        CaptureStats s = stats(f);
        StreamStats st = s.streams().get(0);
        assertThat(st.readsByClient().requests()).isEqualTo(2);
        assertThat(st.readsByClient().completed()).isEqualTo(1);
        assertThat(st.readsByClient().unanswered()).isEqualTo(1);
        assertThat(st.readsByServer().unmatched()).isEqualTo(1);
        assertThat(st.close().end()).isEqualTo(Close.End.CAPTURE_ENDED);
        assertThat(st.close().describe()).isEqualTo("open at capture end");
    }

    @Test
    void readsBeyondTheOutstandingCapAreForgottenButStillCountedAsUnanswered() throws IOException {
        int n = StatsCollector.MAX_OUTSTANDING_READS + 904;
        Path f = capture("flood.pcap", 4791, g -> {
            for (int i = 0; i < n; i++) {
                g.w.message(CLIENT_TO_SERVER, g.w.readRequest(CLIENT_TO_SERVER, new ReadRequest(0x100, 64L * i, 64, 0x200, 0)));
            }
            // the answer to the last Request: its STag is that of every forgotten one too, so it takes the oldest kept
            g.w.message(SERVER_TO_CLIENT, g.w.readResponse(SERVER_TO_CLIENT, 0x100, 0, ByteBuffer.allocate(64)));
            g.w.close();
        });
        CaptureStats.ReadStats r = stats(f).streams().get(0).readsByClient();
        assertThat(r.requests()).isEqualTo(n);
        assertThat(r.completed()).isEqualTo(1);
        assertThat(r.unanswered()).isEqualTo(n - 1);
        assertThat(r.first().count()).isEqualTo(1);
    }

    @Test
    void sendsAndWritesAreCountedPerDirectionWithTheirBytes() throws IOException {
        Path f = capture("sends.pcap", 4791, g -> {
            for (int i = 0; i < 3; i++) g.w.message(CLIENT_TO_SERVER, g.w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(100)));
            g.w.message(SERVER_TO_CLIENT, g.w.write(SERVER_TO_CLIENT, 0x55, 0, ByteBuffer.allocate(5000)));
            g.w.close();
        });
        StreamStats st = stats(f).streams().get(0);
        OpcodeCounts send = op(st, CLIENT_TO_SERVER, Opcode.SEND);
        assertThat(send.segments()).isEqualTo(3);
        assertThat(send.messages()).isEqualTo(3);
        assertThat(send.payloadBytes()).isEqualTo(300);
        assertThat(send.wireBytes()).isEqualTo(3 * wire(18 + 100));
        OpcodeCounts write = op(st, SERVER_TO_CLIENT, Opcode.RDMA_WRITE);
        // 5000 octets in 1438-octet tagged segments: 4 segments, one message
        assertThat(write.segments()).isEqualTo(4);
        assertThat(write.messages()).isEqualTo(1);
        assertThat(write.payloadBytes()).isEqualTo(5000);
        assertThat(write.wireBytes()).isEqualTo(3 * wire(14 + 1438) + wire(14 + 5000 - 3 * 1438));
        long mpa = st.clientToServer().wireBytes() - send.wireBytes();
        assertThat(mpa).as("the MPA Request: 20 octets of header and 4 of RFC 6581 enhanced data").isEqualTo(24);
        assertThat(st.clientToServer().startFrameBytes()).isEqualTo(24);
        assertThat(st.clientToServer().pdus()).isEqualTo(4);
        assertThat(st.close().end()).isEqualTo(Close.End.CLOSED);
    }

    @Test
    void terminatesAreListedWithTheirTypeAndTerminatedHeaderAndTheResetThatFollows() throws IOException {
        UntaggedHeader bad = UntaggedHeader.of(true, 0x03L << 32, 0, 7, 0);
        long[] terminateTime = new long[1];
        Path f = capture("terminate.pcap", 4791, g -> {
            g.w.message(CLIENT_TO_SERVER, g.w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(16)));
            g.now = T0 + 5_000_000;
            terminateTime[0] = g.now;
            g.w.message(SERVER_TO_CLIENT, g.w.terminate(SERVER_TO_CLIENT, Terminate.of(1, 2, 3, 34, bad, null)));
            g.w.tcp().reset(SERVER_TO_CLIENT);
        });
        CaptureStats s = stats(f);
        assertThat(s.terminates()).hasSize(1);
        CaptureStats.TerminateEntry t = s.terminates().get(0);
        assertThat(t.nanos()).isEqualTo(terminateTime[0]);
        assertThat(t.direction()).isEqualTo(SERVER_TO_CLIENT);
        assertThat(t.source().toString()).isEqualTo("10.0.0.2:4791");
        assertThat(t.terminate().describe()).isEqualTo("DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid");
        assertThat(t.terminate().terminatedDdpHeader()).isEqualTo(bad);
        assertThat(StatsText.terminated(t.terminate())).isEqualTo("untagged QN 0 MSN 7 MO 0 L (segment length 34)");
        StreamStats st = s.streams().get(0);
        assertThat(t.frame()).isEqualTo(st.lastFrame());
        assertThat(st.close().serverRst()).isEqualTo(t.frame() + 1);
        assertThat(st.close().end()).isEqualTo(Close.End.CLOSED);
        assertThat(st.close().describe()).isEqualTo("RST s>c " + (t.frame() + 1));
    }

    private static byte[] getattr(long xid) {
        return RpcEncoder.call(xid, RpcNames.NFS, 3, 1, new XdrWriter().opaque(new byte[32]).toByteArray());
    }

    private static byte[] nfsNull(long xid) {
        return RpcEncoder.call(xid, RpcNames.NFS, 3, 0, new byte[0]);
    }

    private static RpcRdmaHeader msg(long xid) {
        return RpcRdmaHeader.message(xid, 16, Proc.RDMA_MSG, List.of(), List.of(), null);
    }

    @Test
    void rpcCallToReplyTimeIsMatchedByXidPerProcedure() throws IOException {
        // GETATTR answered after 100 and 300 µs (interleaved), NULL after 40 µs, one GETATTR never answered
        Path f = capture("nfs.pcap", 20049, g -> {
            RpcRdmaWriter w = new RpcRdmaWriter(g.w, 0x5500, 0x10_0000);
            g.now = T0 + 1_000_000;
            w.send(RpcRdmaWriter.REQUESTER, msg(1), getattr(1));
            g.now = T0 + 1_050_000;
            w.send(RpcRdmaWriter.REQUESTER, msg(2), getattr(2));
            g.now = T0 + 1_100_000;
            w.send(RpcRdmaWriter.RESPONDER, msg(1), RpcEncoder.acceptedReply(1, 0, new XdrWriter().u32(0).toByteArray()));
            g.now = T0 + 1_350_000;
            w.send(RpcRdmaWriter.RESPONDER, msg(2), RpcEncoder.acceptedReply(2, 0, new XdrWriter().u32(0).toByteArray()));
            g.now = T0 + 2_000_000;
            w.send(RpcRdmaWriter.REQUESTER, msg(3), nfsNull(3));
            g.now = T0 + 2_040_000;
            w.send(RpcRdmaWriter.RESPONDER, msg(3), RpcEncoder.acceptedReply(3, 0, new byte[0]));
            w.send(RpcRdmaWriter.REQUESTER, msg(4), getattr(4));
            // a reply whose call is not in the capture
            w.send(RpcRdmaWriter.RESPONDER, msg(9), RpcEncoder.acceptedReply(9, 0, new byte[0]));
            g.w.close();
        });
        CaptureStats s = stats(f);
        CaptureStats.RpcStats r = s.streams().get(0).rpc();
        assertThat(r.calls()).isEqualTo(4);
        assertThat(r.replies()).isEqualTo(3);
        assertThat(r.unanswered()).isEqualTo(1);
        assertThat(r.unmatched()).isEqualTo(1);
        assertThat(r.all()).isEqualTo(new Latency(3, 40_000, 100_000, 300_000, 300_000, 440_000 / 3, true));
        assertThat(r.byProcedure()).extracting(ProcedureStats::procedure).containsExactly("NFSv3 GETATTR", "NFSv3 NULL");
        ProcedureStats getattr = r.byProcedure().get(0);
        assertThat(getattr.calls()).isEqualTo(3);
        assertThat(getattr.replies()).isEqualTo(2);
        assertThat(getattr.latency()).isEqualTo(new Latency(2, 100_000, 100_000, 300_000, 300_000, 200_000, true));
        assertThat(r.byProcedure().get(1).latency().minNs()).isEqualTo(40_000);
        assertThat(s.rpc()).isEqualTo(r);
    }

    @Test
    void aLongCallIsTimedFromItsSendAndNamedByTheCallRebuiltFromItsReadChunk() throws IOException {
        // the bundled NFS/RDMA capture (generate nfs-rdma --count 16 --seed 3): frames are 2 µs apart; the NFSv4
        // COMPOUND Long Call (RDMA_NOMSG, frame 24) is answered in frame 31, the Short one (frame 40) in frame 41
        CaptureStats s = stats(RepoPaths.root().resolve("pcaps/generated/nfs-rdma-crc.pcap"));
        CaptureStats.RpcStats r = s.streams().get(0).rpc();
        assertThat(r.calls()).isEqualTo(16);
        assertThat(r.replies()).isEqualTo(16);
        // a COMPOUND is named by its first operation that is not SEQUENCE or PUTFH
        ProcedureStats write = r.byProcedure().stream().filter(p -> p.procedure().equals("NFSv4 COMPOUND WRITE"))
                .findFirst().orElseThrow();
        assertThat(write.calls()).isEqualTo(2);
        assertThat(write.latency()).isEqualTo(new Latency(2, 14_000, 14_000, 14_000, 14_000, 14_000, true));
        ProcedureStats getattr = r.byProcedure().stream()
                .filter(p -> p.procedure().equals("NFSv4 COMPOUND GETATTR")).findFirst().orElseThrow();
        assertThat(getattr.latency()).isEqualTo(new Latency(2, 2_000, 2_000, 2_000, 2_000, 2_000, true));
        // the version probes (RPC-over-RDMA version 2, answered by ERR_VERS) carry no RPC message that is decoded
        ProcedureStats unknown = r.byProcedure().stream()
                .filter(p -> p.procedure().equals("(RPC-over-RDMA version 2)")).findFirst().orElseThrow();
        assertThat(unknown.calls()).isEqualTo(2);
    }

    /** An independent count of the rping capture: one Read in flight at a time, so each Response follows its Request. */
    @Test
    void rpingReadLatenciesAreThoseOfEachRequestAndTheResponseThatFollows() throws IOException {
        Path rping = RepoPaths.root().resolve("pcaps/siw/siw-rping-lo.pcap");
        List<Long> latencies = new ArrayList<>();
        long[] pending = {-1};
        try (CaptureReader r = CaptureReaders.open(rping)) {
            new DecodePipeline(new PduListener() {
                @Override
                public void onPdu(Pdu pdu) {
                    if (pdu.rdmap() == null) return;
                    if (pdu.rdmap().opcode() == Opcode.RDMA_READ_REQUEST) pending[0] = pdu.timestampNanos();
                    if (pdu.rdmap().opcode() == Opcode.RDMA_READ_RESPONSE) latencies.add(pdu.timestampNanos() - pending[0]);
                }
            }).run(r);
        }
        CaptureStats s = stats(rping);
        StreamStats st = s.streams().get(0);
        CaptureStats.ReadStats reads = st.readsByServer();
        List<Long> sorted = latencies.stream().sorted().toList();
        assertThat(sorted).hasSize(10);
        assertThat(reads.first()).isEqualTo(new Latency(10, sorted.get(0), sorted.get(4), sorted.get(9), sorted.get(9),
                latencies.stream().mapToLong(Long::longValue).sum() / 10, true));
        assertThat(reads.last()).isEqualTo(reads.first()); // every Response is one segment
        // rping -C 10: per round the client sends 2 Sends and 1 Read Response of 64 octets
        assertThat(op(st, CLIENT_TO_SERVER, Opcode.SEND).messages()).isEqualTo(20);
        assertThat(op(st, CLIENT_TO_SERVER, Opcode.RDMA_READ_RESPONSE).payloadBytes()).isEqualTo(640);
        assertThat(op(st, SERVER_TO_CLIENT, Opcode.RDMA_WRITE).payloadBytes()).isEqualTo(640);
        assertThat(st.close().clientFin()).isEqualTo(88);
        assertThat(st.close().serverFin()).isEqualTo(89);
        assertThat(s.frames()).isEqualTo(90);
        assertThat(s.pdus()).isEqualTo(72);
    }

    @Test
    void perftestReadBandwidthAnswersEveryOneOfItsFiftyReadsInOrder() throws IOException {
        // ib_read_bw -n 50 -s 65536: 50 Reads of 64 KiB on stream 1, many outstanding at once
        CaptureStats s = stats(RepoPaths.root().resolve("pcaps/siw/siw-read-bw-lo.pcap"));
        StreamStats st = s.streams().get(1);
        CaptureStats.ReadStats r = st.readsByClient();
        assertThat(r.requests()).isEqualTo(50);
        assertThat(r.completed()).isEqualTo(50);
        assertThat(r.unanswered()).isZero();
        assertThat(r.unmatched()).isZero();
        assertThat(r.requestedBytes()).isEqualTo(50 * 65536L);
        assertThat(op(st, SERVER_TO_CLIENT, Opcode.RDMA_READ_RESPONSE).payloadBytes()).isEqualTo(50 * 65536L);
        assertThat(r.first().minNs()).isLessThanOrEqualTo(r.first().medianNs());
        assertThat(r.first().medianNs()).isLessThanOrEqualTo(r.first().p99Ns());
        // each Read's last segment comes after its first
        assertThat(r.last().minNs()).isGreaterThanOrEqualTo(r.first().minNs());
        assertThat(r.last().maxNs()).isGreaterThanOrEqualTo(r.first().maxNs());
    }

    @Test
    void everyBundledSiwCaptureGivesStatsWhoseCountsAddUpToItsPdus() throws IOException {
        try (var files = Files.list(RepoPaths.root().resolve("pcaps/siw"))) {
            for (Path f : files.sorted().toList()) {
                CaptureStats s = stats(f);
                assertThat(s.error()).as(f.toString()).isNull();
                long pdus = 0;
                for (StreamStats st : s.streams()) {
                    for (Direction d : Direction.values()) {
                        long segments = st.direction(d).opcodes().stream().mapToLong(OpcodeCounts::segments).sum();
                        assertThat(segments + st.direction(d).startFrames()).as(f + " " + d)
                                .isEqualTo(st.direction(d).pdus());
                        long wire = st.direction(d).opcodes().stream().mapToLong(OpcodeCounts::wireBytes).sum();
                        assertThat(wire + st.direction(d).startFrameBytes()).as(f + " " + d)
                                .isEqualTo(st.direction(d).wireBytes());
                        pdus += st.direction(d).pdus();
                    }
                }
                assertThat(pdus).as(f.toString()).isEqualTo(s.pdus());
            }
        }
    }

    @Test
    void aTruncatedCaptureIsCountedUpToTheDamageAndSaysWhere() throws IOException {
        byte[] whole = Files.readAllBytes(RepoPaths.root().resolve("pcaps/siw/siw-rping-lo.pcap"));
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 30));
        CaptureStats s = stats(cut);
        assertThat(s.error()).contains("frame 90");
        assertThat(s.frames()).isEqualTo(89);
        assertThat(s.streams()).hasSize(1);
        assertThat(s.streams().get(0).readsByServer().completed()).isEqualTo(10);
    }
}
