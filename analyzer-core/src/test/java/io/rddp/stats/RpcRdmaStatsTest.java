package io.rddp.stats;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.generate.RpcRdmaWriter;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.RpcNames;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.stats.CaptureStats.ProcedureStats;
import io.rddp.stats.CaptureStats.RpcStats;
import io.rddp.stats.LatencyHistogram.Latency;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rddp.testing.RepoPaths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.rddp.generate.RpcRdmaWriter.REQUESTER;
import static io.rddp.generate.RpcRdmaWriter.RESPONDER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rddp stats} on RPC-over-RDMA traffic written here, with expectations worked out by hand: calls matched to
 * replies by XID on their own connection (RFC 5531 §9, RFC 8166 §4.2.1), how calls end (replied, unanswered,
 * dropped at the cap), and the octets moved inline and through each chunk kind (RFC 8166 §3.4.5, §3.4.6, §3.5).
 */
class RpcRdmaStatsTest {

    @TempDir
    Path dir;

    private static CaptureStats stats(Path f) throws IOException {
        try (CaptureReader r = CaptureReaders.open(f)) {
            return new StatsCollector().run(r, () -> { });
        }
    }

    private static RpcRdmaHeader msg(long xid) {
        return RpcRdmaHeader.message(xid, 16, Proc.RDMA_MSG, List.of(), List.of(), null);
    }

    private static byte[] getattr(long xid) {
        return RpcEncoder.call(xid, RpcNames.NFS, 3, 1, new XdrWriter().opaque(new byte[32]).toByteArray());
    }

    private static byte[] ok(long xid) {
        return RpcEncoder.acceptedReply(xid, 0, new XdrWriter().u32(0).toByteArray());
    }

    private static ProcedureStats procedure(RpcStats r, String name) {
        return r.byProcedure().stream().filter(p -> p.procedure().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theSameXidOnTwoConnectionsIsTwoCallsEachAnsweredOnItsOwnConnection() throws IOException {
        // XID 7 on both connections; B answers after 20 µs, A after 100 µs. Matching by XID alone would pair A's
        // call with B's reply (10 µs) or count one reply unmatched.
        Path f = RpcRdmaCapture.write(dir.resolve("two.pcap"), 2, t -> {
            t.at(1_000).c(0).send(REQUESTER, msg(7), getattr(7));
            t.at(1_010).c(1).send(REQUESTER, msg(7), getattr(7));
            t.at(1_030).c(1).send(RESPONDER, msg(7), ok(7));
            t.at(1_100).c(0).send(RESPONDER, msg(7), ok(7));
        });
        CaptureStats s = stats(f);
        assertThat(s.streams()).hasSize(2);
        assertThat(s.streams().get(0).rpc().all()).isEqualTo(new Latency(1, 100_000, 100_000, 100_000, 100_000,
                100_000, true));
        assertThat(s.streams().get(1).rpc().all()).isEqualTo(new Latency(1, 20_000, 20_000, 20_000, 20_000, 20_000,
                true));
        assertThat(s.rpc().calls()).isEqualTo(2);
        assertThat(s.rpc().replies()).isEqualTo(2);
        assertThat(s.rpc().unmatched()).isZero();
        assertThat(s.rpc().unanswered()).isZero();
        ProcedureStats getattr = procedure(s.rpc(), "NFSv3 GETATTR");
        assertThat(getattr.latency()).isEqualTo(new Latency(2, 20_000, 20_000, 100_000, 100_000, 60_000, true));
    }

    @Test
    void anXidReusedOnOneConnectionBeforeItsReplyLeavesTheFirstCallUnanswered() throws IOException {
        Path f = RpcRdmaCapture.write(dir.resolve("reuse.pcap"), 1, t -> {
            t.at(1_000).c(0).send(REQUESTER, msg(5), getattr(5));
            t.at(1_010).c(0).send(REQUESTER, msg(5), getattr(5));
            t.at(1_050).c(0).send(RESPONDER, msg(5), ok(5));
        });
        RpcStats r = stats(f).rpc();
        assertThat(r.calls()).isEqualTo(2);
        assertThat(r.replies()).isEqualTo(1);
        assertThat(r.unanswered()).isEqualTo(1);
        // the reply answers the call that holds the XID now: the second
        assertThat(r.all().minNs()).isEqualTo(40_000);
        ProcedureStats getattr = procedure(r, "NFSv3 GETATTR");
        assertThat(getattr.calls()).isEqualTo(2);
        assertThat(getattr.unanswered()).isEqualTo(1);
    }

    @Test
    void aCallNeverAnsweredIsUnansweredUnderItsProcedureAndAReplyToNoCallIsUnmatched() throws IOException {
        Path f = RpcRdmaCapture.write(dir.resolve("lonely.pcap"), 1, t -> {
            // MOUNT v3 MNT (RFC 1813 Appendix I), never answered
            t.at(1_000).c(0).send(REQUESTER, msg(1), RpcEncoder.call(1, RpcNames.MOUNT, 3, 1,
                    new XdrWriter().string("/export").toByteArray()));
            // a reply to XID 9, which no call carried
            t.at(2_000).c(0).send(RESPONDER, msg(9), ok(9));
        });
        RpcStats r = stats(f).rpc();
        assertThat(r.calls()).isEqualTo(1);
        assertThat(r.replies()).isZero();
        assertThat(r.unanswered()).isEqualTo(1);
        assertThat(r.unmatched()).isEqualTo(1);
        assertThat(r.all()).isEqualTo(Latency.NONE);
        assertThat(r.byProcedure()).containsExactly(new ProcedureStats("MOUNT v3 MNT", 1, 0, 1, 0, Latency.NONE));
        // the unmatched reply still moved its octets inline
        assertThat(r.bytes().replies().sends()).isEqualTo(1);
        assertThat(r.bytes().replies().payloadBytes()).isEqualTo(ok(9).length);
    }

    @Test
    void callsBeyondTheOpenCapAreDroppedAndTheLateReplyOfADroppedCallIsUnmatched() throws IOException {
        int n = StatsCollector.MAX_OPEN_CALLS + 3;
        Path f = RpcRdmaCapture.write(dir.resolve("flood.pcap"), 1, t -> {
            for (int x = 1; x <= n; x++) t.c(0).send(REQUESTER, msg(x), getattr(x));
            t.c(0).send(RESPONDER, msg(n), ok(n)); // the newest call: still open
            t.c(0).send(RESPONDER, msg(1), ok(1)); // the oldest: dropped when call n + 1 - 3 ... n came
        });
        RpcStats r = stats(f).rpc();
        assertThat(r.calls()).isEqualTo(n);
        assertThat(r.dropped()).isEqualTo(3);
        assertThat(r.replies()).isEqualTo(1);
        assertThat(r.unmatched()).isEqualTo(1);
        assertThat(r.unanswered()).isEqualTo(n - 3 - 1);
        ProcedureStats getattr = procedure(r, "NFSv3 GETATTR");
        assertThat(getattr.calls()).isEqualTo(n);
        assertThat(getattr.dropped()).isEqualTo(3);
        assertThat(getattr.replies() + getattr.unanswered() + getattr.dropped()).isEqualTo(getattr.calls());
        assertThat(r.all().count()).isEqualTo(1);
        // the text says what the cap did
        java.io.StringWriter text = new java.io.StringWriter();
        StatsText.print(stats(f), "flood.pcap", new java.io.PrintWriter(text));
        assertThat(text.toString()).contains("  1 reply to no call seen\n")
                .contains("  3 calls dropped unanswered: more than 1024 open on one connection\n")
                .containsPattern("\\n +0 +NFSv3 GETATTR +" + n + " +1 +" + (n - 4) + " +3 ");
    }

    @Test
    void chunkOctetsAreAdvertisedByTheCallReturnedByTheReplyAndMovedByTheTaggedPlacements() throws IOException {
        byte[] call1 = getattr(1);
        byte[] reply1 = ok(1);
        // an NFSv4 COMPOUND of SEQUENCE, PUTFH, READ sent as a Long Call (RFC 8166 §3.5.3): RDMA_NOMSG and a
        // Position Zero Read chunk of the whole call
        byte[] compound = new XdrWriter().opaque(new byte[0]).u32(1).u32(3)
                .u32(53).fixed(new byte[16]).u32(1).u32(0).u32(0).bool(false)
                .u32(22).opaque(new byte[28])
                .u32(25).fixed(new byte[16]).u64(0).u32(4096).toByteArray();
        byte[] call2 = RpcEncoder.call(2, RpcNames.NFS, 4, 1, compound);
        byte[] reply2 = RpcEncoder.acceptedReply(2, 0, new XdrWriter().u32(0).opaque(new byte[0]).u32(0)
                .toByteArray());
        RpcRdmaHeader[] headers = new RpcRdmaHeader[4];
        Path f = RpcRdmaCapture.write(dir.resolve("chunks.pcap"), 1, t -> {
            RpcRdmaWriter c = t.c(0);
            // call 1: a Read chunk of two segments (1000 + 500) at one Position, a Write chunk of 2 x 4096
            List<ReadSegment> reads = List.of(
                    new ReadSegment(call1.length, new RdmaSegment(0x11, 1000, 0x1000)),
                    new ReadSegment(call1.length, new RdmaSegment(0x12, 500, 0x2000)));
            List<RdmaSegment> write = List.of(new RdmaSegment(0x21, 4096, 0x3000), new RdmaSegment(0x22, 4096, 0x4000));
            headers[0] = RpcRdmaHeader.message(1, 16, Proc.RDMA_MSG, reads, List.of(write), null);
            c.send(REQUESTER, headers[0], call1);
            c.pull(reads, new byte[1500]);
            List<RdmaSegment> returned = c.push(write, new byte[5000]); // 4096 + 904
            headers[1] = RpcRdmaHeader.message(1, 16, Proc.RDMA_MSG, List.of(), List.of(returned), null);
            c.send(RESPONDER, headers[1], reply1);
            // call 2: the Long Call, with a Reply chunk of 2048 for a Long Reply
            List<ReadSegment> pz = List.of(new ReadSegment(0, new RdmaSegment(0x31, call2.length, 0x5000)));
            List<RdmaSegment> replyChunk = List.of(new RdmaSegment(0x41, 2048, 0x6000));
            headers[2] = RpcRdmaHeader.message(2, 16, Proc.RDMA_NOMSG, pz, List.of(), replyChunk);
            c.send(REQUESTER, headers[2], new byte[0]);
            c.pull(pz, call2);
            List<RdmaSegment> replied = c.push(replyChunk, reply2);
            headers[3] = RpcRdmaHeader.message(2, 16, Proc.RDMA_NOMSG, List.of(), List.of(), replied);
            c.send(RESPONDER, headers[3], new byte[0]);
            // an RDMA Write to an STag no call advertised
            c.write(0x99, 0, new byte[64]);
        });
        CaptureStats s = stats(f);
        ChunkBytes b = s.streams().get(0).rpc().bytes();
        assertThat(b.read()).isEqualTo(new ChunkBytes.Chunk(2, 1500 + call2.length, 0, 1500 + call2.length));
        assertThat(b.positionZero()).isEqualTo(new ChunkBytes.Chunk(1, call2.length, 0, call2.length));
        assertThat(b.write()).isEqualTo(new ChunkBytes.Chunk(1, 8192, 5000, 5000));
        assertThat(b.reply()).isEqualTo(new ChunkBytes.Chunk(1, 2048, reply2.length, reply2.length));
        assertThat(b.unattributed()).isEqualTo(64);
        assertThat(b.calls()).isEqualTo(new ChunkBytes.Inline(2, headers[0].length() + headers[2].length(),
                call1.length, 0, 0));
        assertThat(b.replies()).isEqualTo(new ChunkBytes.Inline(2, headers[1].length() + headers[3].length(),
                reply1.length, 0, 0));
        assertThat(b.towardResponder()).isEqualTo(call1.length + 1500 + call2.length);
        assertThat(b.towardRequester()).isEqualTo(reply1.length + 5000 + reply2.length);
        assertThat(s.rpc().bytes()).isEqualTo(b);
        // the Long Call is named by the call rebuilt from its chunk, and timed from its RDMA_NOMSG Send
        assertThat(s.rpc().byProcedure()).extracting(ProcedureStats::procedure)
                .containsExactly("NFSv3 GETATTR", "NFSv4 COMPOUND READ");
        assertThat(s.rpc().replies()).isEqualTo(2);
    }

    @Test
    void anRdmaDoneIsNotACallAndASendThatIsNoHeaderIsCountedUndecoded() throws IOException {
        Path f = RpcRdmaCapture.write(dir.resolve("done.pcap"), 1, t -> {
            t.c(0).send(REQUESTER, msg(1), getattr(1));
            t.c(0).send(RESPONDER, msg(1), ok(1));
            // RDMA_DONE (RFC 8166 §4.6.2: never sent, silently discarded): xid, vers 1, credits, proc 3
            t.c(0).sendRaw(REQUESTER, new XdrWriter().u32(2).u32(1).u32(16).u32(3).toByteArray());
            // 12 octets: not even a header (§4.5: 28 octets at least)
            t.c(0).sendRaw(REQUESTER, new byte[12]);
        });
        RpcStats r = stats(f).rpc();
        assertThat(r.calls()).isEqualTo(1);
        assertThat(r.unanswered()).isZero();
        assertThat(r.bytes().calls().undecoded()).isEqualTo(2);
        assertThat(r.bytes().calls().undecodedBytes()).isEqualTo(16 + 12);
    }

    /**
     * The RPC-over-RDMA faults of the violation corpus (malformed headers, replies to nothing, chunks out of bounds,
     * XID mismatches...) are counted, not thrown: every call ends as one of replied, unanswered or dropped, and the
     * capture's figures are the sum of its streams'.
     */
    @Test
    void everyRpcOverRdmaCaptureOfTheCorpusGivesFiguresThatAddUp() throws IOException {
        List<Path> captures;
        try (var files = Files.list(RepoPaths.root().resolve("pcaps/violations"))) {
            captures = new java.util.ArrayList<>(files.filter(f -> f.getFileName().toString().startsWith("rpcrdma-")
                    && f.toString().endsWith(".pcap")).sorted().toList());
        }
        captures.add(RepoPaths.root().resolve("pcaps/generated/nfs-rdma-crc.pcap"));
        assertThat(captures).hasSizeGreaterThan(20);
        long callsSeen = 0;
        for (Path f : captures) {
            CaptureStats s = stats(f);
            assertThat(s.error()).as(f.toString()).isNull();
            RpcStats r = s.rpc();
            assertThat(r.calls()).as(f + ": calls end once").isEqualTo(r.replies() + r.unanswered() + r.dropped());
            for (ProcedureStats p : r.byProcedure()) {
                assertThat(p.calls()).as(f + " " + p.procedure())
                        .isEqualTo(p.replies() + p.unanswered() + p.dropped());
                assertThat(p.latency().count()).isEqualTo(p.replies());
            }
            assertThat(r.byProcedure().stream().mapToLong(ProcedureStats::calls).sum()).isEqualTo(r.calls());
            ChunkBytes sum = ChunkBytes.NONE;
            long calls = 0, unmatched = 0;
            for (CaptureStats.StreamStats st : s.streams()) {
                sum = sum.plus(st.rpc().bytes());
                calls += st.rpc().calls();
                unmatched += st.rpc().unmatched();
            }
            assertThat(r.bytes()).as(f.toString()).isEqualTo(sum);
            assertThat(r.calls()).isEqualTo(calls);
            assertThat(r.unmatched()).isEqualTo(unmatched);
            callsSeen += r.calls();
        }
        assertThat(callsSeen).isPositive();
    }
}
