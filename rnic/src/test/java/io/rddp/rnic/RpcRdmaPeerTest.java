package io.rddp.rnic;

import io.rddp.analyze.Analysis;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.rnic.app.rpcrdma.NfsTree;
import io.rddp.rnic.app.rpcrdma.RpcRdmaRequester;
import io.rddp.rnic.app.rpcrdma.RpcRdmaResponder;
import io.rddp.rnic.link.Recorder;
import io.rddp.rpcrdma.ChunkMove;
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
import java.util.ArrayList;
import java.util.List;

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
}
