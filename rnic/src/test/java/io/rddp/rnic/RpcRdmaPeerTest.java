package io.rddp.rnic;

import io.rddp.analyze.Analysis;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.XdrReader;
import io.rddp.rnic.app.rpcrdma.Nfs3Server;
import io.rddp.rnic.app.rpcrdma.NfsTree;
import io.rddp.rnic.app.rpcrdma.RpcRdmaRequester;
import io.rddp.rnic.app.rpcrdma.RpcRdmaResponder;
import io.rddp.rnic.link.Recorder;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.sink.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference RPC-over-RDMA responder and the minimal requester against each other over loopback TCP, recorded
 * and analysed: RFC 8166 transactions (Read chunks, Write chunks, Reply chunk, Long Call) carrying NFSv3 (RFC 1813).
 */
class RpcRdmaPeerTest {

    /** A recorded run: what the requester printed, the capture. */
    record Run(String log, Path pcap) {
    }

    static Run run(Path dir, RnicConfig responderConfig) throws Exception {
        Path pcap = dir.resolve("rpcrdma.pcapng");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        try (Recorder rec = Recorder.create(pcap); Rnic server = new Rnic(responderConfig, rec);
             Rnic client = new Rnic(RnicConfig.defaults(), null)) {
            RpcRdmaResponder responder = new RpcRdmaResponder(server, RpcRdmaResponder.Options.defaults());
            RnicListener l = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), true,
                    responder.listenerSettings());
            Thread t = responder.serveInBackground(l);
            try {
                RpcRdmaRequester.run(client, l.address(), out);
            } catch (RpcRdmaRequester.Failure e) {
                out.println("FAILED: " + e.getMessage());
            } finally {
                t.interrupt();
                t.join(5000);
            }
        }
        return new Run(log.toString(StandardCharsets.UTF_8), pcap);
    }

    /** What the analyzer's RPC-over-RDMA layer decoded: one line per RPC message, with where it came from. */
    static List<String> decoded(Path pcap) throws Exception {
        List<String> out = new ArrayList<>();
        RpcRdmaListener l = (Pdu pdu, RpcRdmaMessage m, ChunkMove move) -> {
            if (m != null && m.rpc() != null) out.add(m.source() + " " + m.rpc().summary());
        };
        try (CaptureReader r = CaptureReaders.open(pcap)) {
            new DecodePipeline(new RpcRdmaStage(l)).run(r);
        }
        return out;
    }

    @Test
    void requesterRunsEveryProcedureAndTheCaptureAnalysesWithoutViolations(@TempDir Path dir) throws Exception {
        Run run = run(dir, RnicConfig.defaults());
        assertThat(run.log()).doesNotContain("FAILED")
                .contains("responder private data: send 1024, receive 1024")
                .contains("NULL: OK, 32 credits granted")
                .contains("GETATTR /: directory, via RDMA_MSG")
                .contains("GETATTR / as a Long Call: directory")
                .contains("READ big.bin: " + NfsTree.BIG_SIZE + " octets through a Write chunk of 2 segments, verified")
                .contains("WRITE scratch: 3000 octets through a Read chunk, read back and verified")
                .contains("READDIR many: " + NfsTree.MANY_ENTRIES + " entries through a Reply chunk")
                .contains("READDIRPLUS many: " + NfsTree.MANY_ENTRIES + " entries through a Reply chunk");
        Analysis a = Recordings.analyze(run.pcap());
        assertThat(Recordings.ids(a, Severity.INFO)).as(Recordings.dump(a)).isEmpty();
        List<String> rpc = decoded(run.pcap());
        assertThat(rpc).as(String.join("\n", rpc))
                .contains("INLINE Call NFSv3 NULL", "INLINE Reply NFSv3 NULL")
                .contains("INLINE Call NFSv3 GETATTR", "INLINE Reply NFSv3 GETATTR OK")
                .contains("POSITION_ZERO_READ_CHUNK Call NFSv3 GETATTR") // RFC 8166 §3.5.3 Long Call
                .contains("INLINE Call NFSv3 LOOKUP", "INLINE Reply NFSv3 LOOKUP OK")
                .contains("INLINE Reply NFSv3 READ OK data " + NfsTree.BIG_SIZE + " (in Write chunk)")
                .contains("INLINE Call NFSv3 WRITE data 3000", "INLINE Reply NFSv3 WRITE OK")
                .contains("REPLY_CHUNK Reply NFSv3 READDIR OK", "REPLY_CHUNK Reply NFSv3 READDIRPLUS OK");
    }

    // ---------------------------------------------------------------- RDMA_ERROR and discards (RFC 8166 §4.5)

    /** A responder with {@code bugs} and a requester connected to it, for raw exchanges. */
    interface Exchange {
        void on(RpcRdmaRequester r) throws Exception;
    }

    static void connected(Set<Bug> bugs, Path pcap, Exchange e) throws Exception {
        try (Recorder rec = pcap == null ? null : Recorder.create(pcap);
             Rnic server = new Rnic(RnicConfig.defaults().withBugs(bugs), rec);
             Rnic client = new Rnic(RnicConfig.defaults(), null)) {
            RpcRdmaResponder responder = new RpcRdmaResponder(server, RpcRdmaResponder.Options.defaults());
            RnicListener l = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), true,
                    responder.listenerSettings());
            Thread t = responder.serveInBackground(l);
            try (RpcRdmaRequester r = RpcRdmaRequester.connect(client, l.address(), true)) {
                e.on(r);
            } finally {
                t.interrupt();
                t.join(5000);
            }
        }
    }

    /** Four fixed words (RFC 8166 §4.2) and the given rest. */
    static byte[] header(long xid, long vers, long proc, int... rest) {
        ByteBuffer b = ByteBuffer.allocate(16 + 4 * rest.length).putInt((int) xid).putInt((int) vers).putInt(32)
                .putInt((int) proc);
        for (int w : rest) b.putInt(w);
        return b.array();
    }

    static byte[] nullCall(long xid) {
        return RpcEncoder.call(xid, Nfs3Server.PROG, Nfs3Server.VERS, Nfs3Server.NULL, new byte[0]);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void anotherVersionGetsErrVersOneToOneEchoingTheRequestsVersion() throws Exception {
        connected(Set.of(), null, r -> {
            RpcRdmaHeader h = r.raw(concat(header(0x77, 2, 0, 0, 0, 0), nullCall(0x77)));
            assertThat(h.proc()).isEqualTo(Proc.RDMA_ERROR); // RFC 8166 §4.5.1
            assertThat(h.errorCode()).isEqualTo(RpcRdmaHeader.ERR_VERS);
            assertThat(h.xid()).isEqualTo(0x77);
            assertThat(h.version()).as("§4.5: rdma_vers of the failing request").isEqualTo(2);
            assertThat(h.versLow()).isEqualTo(1);
            assertThat(h.versHigh()).isEqualTo(1);
        });
    }

    @Test
    void malformedChunkListsGetErrChunk() throws Exception {
        connected(Set.of(), null, r -> {
            // RFC 8166 §3.4.5: a Position that is not a multiple of four
            byte[] misaligned = header(0x81, 1, 0, 1, 2, 0x1234, 8, 0, 0x1000, 0, 0, 0);
            RpcRdmaHeader h = r.raw(concat(misaligned, nullCall(0x81)));
            assertThat(h.proc()).isEqualTo(Proc.RDMA_ERROR);
            assertThat(h.errorCode()).isEqualTo(RpcRdmaHeader.ERR_CHUNK);
            assertThat(h.xid()).isEqualTo(0x81);
            // a Write chunk counting more segments than the message holds: not valid XDR (§4.5.2)
            assertThat(r.raw(header(0x82, 1, 0, 0, 1, 1000, 0, 0, 0, 0, 0)).errorCode())
                    .isEqualTo(RpcRdmaHeader.ERR_CHUNK);
            // §4.5.2: RDMA_NOMSG with no chunk lists at all
            assertThat(r.raw(header(0x83, 1, 1, 0, 0, 0, 0, 0, 0)).errorCode()).isEqualTo(RpcRdmaHeader.ERR_CHUNK);
            // §4.6.1: RDMA_MSGP
            assertThat(r.raw(concat(header(0x84, 1, 2, 0, 0, 0, 0, 0), nullCall(0x84))).errorCode())
                    .isEqualTo(RpcRdmaHeader.ERR_CHUNK);
            // §4.5.2: rdma_xid not the RPC message's XID
            assertThat(r.raw(concat(header(0x85, 1, 0, 0, 0, 0), nullCall(0x86))).errorCode())
                    .isEqualTo(RpcRdmaHeader.ERR_CHUNK);
            // the connection still serves calls
            assertThat(r.call(Nfs3Server.NULL, new byte[0], null, 0, 0).rpc().acceptStat()).isZero();
        });
    }

    @Test
    void rdmaDoneShortMessagesAndRequesterErrorsAreSilentlyDiscarded() throws Exception {
        connected(Set.of(), null, r -> {
            r.sendOnly(header(0x91, 1, 3, 0, 0, 0)); // §4.6.2: RDMA_DONE, receivers MUST silently discard
            r.sendOnly(header(0x92, 1, 0)); // §4.5: 16 octets, fewer than 28: the XID cannot be trusted
            r.sendOnly(header(0x93, 1, 4, 1, 1, 1)); // §4.2.4: a Responder MUST silently discard RDMA_ERROR
            // the first answer that comes is the one to the NULL call sent after them
            RpcRdmaHeader h = r.raw(concat(header(0x94, 1, 0, 0, 0, 0), nullCall(0x94)));
            assertThat(h.xid()).isEqualTo(0x94);
            assertThat(h.proc()).isEqualTo(Proc.RDMA_MSG);
        });
    }

    @Test
    void unknownProcedureAndProgramGetProcUnavailAndProgUnavail() throws Exception {
        connected(Set.of(), null, r -> {
            // RFC 5531 §9: PROC_UNAVAIL for a procedure the program does not have
            assertThat(r.call(21, new byte[0], null, 0, 0).rpc().acceptStat()).isEqualTo(Nfs3Server.PROC_UNAVAIL);
            byte[] mount = RpcEncoder.call(0x99, 100005, 3, 0, new byte[0]);
            byte[] reply = r.exchange(concat(header(0x99, 1, 0, 0, 0, 0), mount));
            RpcRdmaHeader h = RpcRdmaHeader.parse(ByteBuffer.wrap(reply));
            assertThat(h.proc()).isEqualTo(Proc.RDMA_MSG);
            RpcMessage rpc = RpcMessage.parse(XdrReader.of(ByteBuffer.wrap(reply, h.length(), reply.length
                    - h.length())), null, null);
            assertThat(rpc.xid()).isEqualTo(0x99);
            assertThat(rpc.acceptStat()).as("RFC 5531 §9: PROG_UNAVAIL").isEqualTo(Nfs3Server.PROG_UNAVAIL);
        });
    }
}
