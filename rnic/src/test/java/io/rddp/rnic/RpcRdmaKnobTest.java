package io.rddp.rnic;

import io.rddp.analyze.Analysis;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rnic.app.rpcrdma.Nfs3Server;
import io.rddp.rnic.app.rpcrdma.NfsTree;
import io.rddp.rnic.app.rpcrdma.RpcRdmaRequester;
import io.rddp.rnic.app.rpcrdma.RpcRdmaResponder;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.sink.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static io.rddp.rnic.RpcRdmaPeerTest.concat;
import static io.rddp.rnic.RpcRdmaPeerTest.connected;
import static io.rddp.rnic.RpcRdmaPeerTest.header;
import static io.rddp.rnic.RpcRdmaPeerTest.nullCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each rpcrdma-* knob of the reference responder: what the wire shows, and the analyzer's finding where it has one. */
class RpcRdmaKnobTest {

    static RnicConfig with(Bug b) {
        return RnicConfig.defaults().withBugs(Set.of(b));
    }

    static List<String> findings(Path pcap) throws Exception {
        Analysis a = Recordings.analyze(pcap);
        return Recordings.ids(a, Severity.INFO);
    }

    /** READDIR of {@value NfsTree#MANY} asking for {@code count} octets, with a Reply chunk of {@code reply}. */
    static RpcRdmaRequester.Reply readdir(RpcRdmaRequester r, boolean plus, int reply) throws Exception {
        // LOOKUP of MANY in the root: its fileid is the reply's handle
        byte[] lookup = new XdrWriter().opaque(NfsTree.handle(NfsTree.ROOT)).string(NfsTree.MANY).toByteArray();
        var x = r.call(Nfs3Server.LOOKUP, lookup, null, 0, 0).results();
        assertThat(x.u32()).isZero();
        byte[] fh = x.opaque(64, "fh");
        XdrWriter args = new XdrWriter().opaque(fh).u64(0).fixed(new byte[8]).u32(8192);
        if (plus) args.u32(32768);
        return r.call(plus ? Nfs3Server.READDIRPLUS : Nfs3Server.READDIR, args.toByteArray(), null, 0, 32768);
    }

    @Test
    void creditsZeroIsGrantedOnTheWireAndCaughtByCreditsZero(@TempDir Path dir) throws Exception {
        RpcRdmaPeerTest.Run run = RpcRdmaPeerTest.run(dir, with(Bug.RPCRDMA_CREDITS_ZERO));
        // RFC 8166 §3.3.1: with 0 credits granted the Requester may send nothing more
        assertThat(run.log()).contains("FAILED: the responder granted 0 credits");
        assertThat(findings(run.pcap())).contains("rpcrdma.credits-zero");
    }

    @Test
    void creditsOverReceivesGrantsFourTimesTheReceivesPostedWhichNoAnalyzerRuleCanSee(@TempDir Path dir)
            throws Exception {
        Path pcap = dir.resolve("c.pcapng");
        connected(Set.of(Bug.RPCRDMA_CREDITS_OVER_RECEIVES), pcap, r -> {
            r.call(Nfs3Server.NULL, new byte[0], null, 0, 0);
            assertThat(r.granted()).as("granted, against " + RpcRdmaResponder.DEFAULT_CREDITS + " receives posted")
                    .isEqualTo(4L * RpcRdmaResponder.DEFAULT_CREDITS);
        });
        // the receives a responder posts are not on the wire: no rule judges a grant larger than them
        assertThat(findings(pcap)).noneMatch(id -> id.startsWith("rpcrdma."));
    }

    @Test
    void replyChunkIgnoredSendsTheLongReplyInlineAndIsCaughtByInlineThreshold(@TempDir Path dir) throws Exception {
        RpcRdmaPeerTest.Run run = RpcRdmaPeerTest.run(dir, with(Bug.RPCRDMA_REPLY_CHUNK_IGNORED));
        // the READDIR reply does not fit the requester's 1024-octet receives: its RNIC ends the connection
        assertThat(run.log()).contains("READ big.bin").doesNotContain("READDIR many").contains("FAILED");
        assertThat(findings(run.pcap())).contains("rpcrdma.inline-threshold");
    }

    @Test
    void writeLengthsNotUpdatedReturnsTheProvidedLengthsAndIsCaughtByWriteChunkRoundup(@TempDir Path dir)
            throws Exception {
        RpcRdmaPeerTest.Run run = RpcRdmaPeerTest.run(dir, with(Bug.RPCRDMA_WRITE_LENGTHS_NOT_UPDATED));
        assertThat(run.log()).contains("FAILED: READ: count " + NfsTree.BIG_SIZE + " and data length "
                + NfsTree.BIG_SIZE + " but the Write chunk returned 131072 octets");
        // RFC 8166 §3.4.6.2: the returned Write chunk's total length MUST be the data item's
        assertThat(findings(run.pcap())).contains("rpcrdma.write-chunk-roundup");
    }

    @Test
    void errVersRangeAnswersWithTheRejectedVersionAndIsCaughtByVersion(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("v.pcapng");
        connected(Set.of(Bug.RPCRDMA_ERR_VERS_RANGE), pcap, r -> {
            RpcRdmaHeader h = r.raw(concat(header(0x77, 2, 0, 0, 0, 0), nullCall(0x77)));
            assertThat(h.errorCode()).isEqualTo(RpcRdmaHeader.ERR_VERS);
            assertThat(h.versLow()).isEqualTo(2);
            assertThat(h.versHigh()).isEqualTo(2);
        });
        assertThat(findings(pcap)).contains("rpcrdma.version");
    }

    @Test
    void errVersOfTheReferenceResponderIsNotCaughtByVersion(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("v.pcapng");
        connected(Set.of(), pcap, r -> r.raw(concat(header(0x77, 2, 0, 0, 0, 0), nullCall(0x77))));
        assertThat(findings(pcap)).doesNotContain("rpcrdma.version", "rpcrdma.error-echo");
    }

    @Test
    void inlineThresholdIgnoredSendsRepliesUpTo4096InlineAndIsCaughtByInlineThreshold(@TempDir Path dir)
            throws Exception {
        Path pcap = dir.resolve("i.pcapng");
        connected(Set.of(Bug.RPCRDMA_INLINE_THRESHOLD_IGNORED), pcap, r -> {
            // READDIRPLUS's reply is larger than 4096 octets: it still goes through the Reply chunk
            assertThat(readdir(r, true, 32768).header().proc()).isEqualTo(Proc.RDMA_NOMSG);
            // READDIR's, between 1024 and 4096 octets, is sent inline: too long for the requester's receives
            assertThatThrownBy(() -> readdir(r, false, 32768)).isInstanceOf(RpcRdmaRequester.Failure.class);
        });
        assertThat(findings(pcap)).contains("rpcrdma.inline-threshold");
    }
}
