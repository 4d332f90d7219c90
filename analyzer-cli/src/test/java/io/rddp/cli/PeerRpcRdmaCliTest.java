package io.rddp.cli;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.testing.TsharkFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `rddp peer --listen PORT --app rpcrdma --pcap FILE` against `rddp peer --connect HOST:PORT --app rpcrdma` over
 * loopback, then `rddp analyze FILE`, and the RPC-over-RDMA transport headers of the capture compared with tshark's
 * {@code rpcordma.*} fields (RFC 8166 §4.2 fixed fields, §4.3 list counts).
 */
class PeerRpcRdmaCliTest {

    @Test
    void requesterAgainstResponderRecordsACaptureThatAnalyzesCleanAndTsharkReadsAlike(@TempDir Path dir)
            throws Exception {
        Path pcap = dir.resolve("rpcrdma.pcapng");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        int[] serverRc = {-1};
        Thread server = new Thread(() -> serverRc[0] = Main.run(new String[]{"peer", "--listen", "127.0.0.1:" + port,
                "--app", "rpcrdma", "--connections", "1", "--pcap", pcap.toString()}));
        server.start();
        int rc = Main.EXIT_BAD_INPUT;
        for (int i = 0; i < 50 && rc == Main.EXIT_BAD_INPUT; i++) { // until the responder listens
            Thread.sleep(100);
            rc = Main.run(new String[]{"peer", "--connect", "127.0.0.1:" + port, "--app", "rpcrdma"});
        }
        assertThat(rc).as("the requester's exit code").isEqualTo(Main.EXIT_OK);
        server.join(15_000);
        assertThat(server.isAlive()).isFalse();
        assertThat(serverRc[0]).isEqualTo(Main.EXIT_OK);

        Object[] analyze = CliRun.run("analyze", pcap.toString());
        assertThat(analyze[0]).as("rddp analyze: %s%s", analyze[1], analyze[2]).isEqualTo(Main.EXIT_OK);

        Map<Long, String> ours = ours(pcap);
        assertThat(ours).as("Sends decoded as RPC-over-RDMA").hasSizeGreaterThan(20);
        // the second opinion: .ci/run installs tshark; without it the comparison is reported skipped, not passed
        org.junit.jupiter.api.Assumptions.assumeTrue(TsharkFields.available(), "tshark is not installed");
        Map<Long, String> theirs = tshark(pcap);
        assertThat(theirs).as("tshark's rpcordma fields by frame").isEqualTo(ours);
    }

    private static final String[] FIELDS = {"rpcordma.xid", "rpcordma.version", "rpcordma.flow_control",
            "rpcordma.msg_type", "rpcordma.reads_count", "rpcordma.writes_count", "rpcordma.reply_count"};

    private static Map<Long, String> ours(Path pcap) throws Exception {
        Map<Long, String> out = new TreeMap<>();
        RpcRdmaListener l = (Pdu pdu, RpcRdmaMessage m, ChunkMove move) -> {
            if (m == null || m.source() == RpcRdmaMessage.Source.POSITION_ZERO_READ_CHUNK) return;
            RpcRdmaHeader h = m.header();
            boolean lists = h.procValue() < 3;
            out.put(pdu.frame(), String.join("\t", Long.toString(h.xid()), Long.toString(h.version()),
                    Long.toString(h.credits()), Long.toString(h.procValue()),
                    lists ? Integer.toString(h.readList().size()) : "",
                    lists ? Integer.toString(h.writeList().size()) : "",
                    lists ? (h.replyChunk() == null ? "0" : "1") : ""));
        };
        try (CaptureReader r = CaptureReaders.open(pcap)) {
            new DecodePipeline(new RpcRdmaStage(l)).run(r);
        }
        return out;
    }

    private static Map<Long, String> tshark(Path pcap) throws Exception {
        String[] fields = new String[FIELDS.length + 1];
        fields[0] = "frame.number";
        System.arraycopy(FIELDS, 0, fields, 1, FIELDS.length);
        Map<Long, String> out = new TreeMap<>();
        for (String line : TsharkFields.first(pcap, fields)) {
            String[] f = line.split("\t", -1);
            if (f.length < 2 || f[1].isEmpty()) continue;
            // tshark prints the XID in hex
            f[1] = f[1].startsWith("0x") ? Long.toString(Long.parseLong(f[1].substring(2), 16)) : f[1];
            out.put(Long.parseLong(f[0]), String.join("\t", java.util.Arrays.copyOfRange(f, 1, f.length)));
        }
        return out;
    }
}
