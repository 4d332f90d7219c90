package io.rddp.stats;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.decode.TsharkDifferentialTest;
import io.rddp.generate.Generator;
import io.rddp.generate.Scenario;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.RpcNames;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.stats.CaptureStats.ProcedureStats;
import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.rddp.generate.RpcRdmaWriter.REQUESTER;
import static io.rddp.generate.RpcRdmaWriter.RESPONDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Second opinion on the RPC call → reply times of {@code rddp stats}: tshark 4.0's {@code rpcordma} and {@code rpc}
 * fields give, per TCP stream and XID, the Send of the call (toward port 20049, the Requester's, RFC 8166 §5) and the
 * Send of the reply, their capture times and the procedure; the test computes calls, replies and nearest-rank min /
 * median / p99 / max per procedure from them and compares. Where the call Send itself carries the RPC call, tshark's
 * own {@code rpc.time} must equal that difference; where the call's RPC message comes later (a Read chunk, a Long
 * Call: tshark shows it when the chunk is reassembled), rpc.time starts there, and ours at the Send (RFC 8166 §4.1:
 * the transport header of the Send carries the XID). tshark ignores transport headers whose version is not 1
 * (TsharkRpcRdmaDifferentialTest), so our "(RPC-over-RDMA version 2)" row of the version probes is not compared.
 * Skipped, and said so, without tshark.
 */
class RpcLatencyTsharkTest {

    @TempDir
    Path dir;

    /** NFSv4 operation numbers tshark's nfs.main_opcode gives in these captures (RFC 8881 §18). */
    private static final Map<Integer, String> OPS = Map.of(9, "GETATTR", 25, "READ", 38, "WRITE", 18, "OPEN",
            26, "READDIR", 15, "LOOKUP");

    @Test
    void theBundledNfsCaptureHasTsharksCallToReplyTimes() throws Exception {
        // 16 calls, 2 of them version probes that tshark does not decode
        compare(RepoPaths.root().resolve("pcaps/generated/nfs-rdma-crc.pcap"), 14);
    }

    @Test
    void aLongerGeneratedNfsCaptureHasTsharksCallToReplyTimes() throws Exception {
        Path f = dir.resolve("nfs-rdma.pcap");
        try (PcapWriter w = PcapWriter.create(f, LinkType.ETHERNET, true)) {
            Generator.generate(Scenario.NFS_RDMA, new Generator.Options(0, 80, 5000, 1460, false, 11), w);
        }
        compare(f, 70); // 80 calls, one in eight a version probe
    }

    @Test
    void xidsReusedAcrossConnectionsWithUnevenTimesHaveTsharksPairs() throws Exception {
        // three connections that use the same XIDs, interleaved; call k on connection c is answered
        // 7 * (k + 1) * (c + 1) µs later, so a pairing across connections would change the figures
        Path f = RpcRdmaCapture.write(dir.resolve("three.pcap"), 3, t -> {
            long at = 1_000;
            for (int k = 0; k < 12; k++) {
                for (int c = 0; c < 3; c++) {
                    long xid = 100 + k;
                    t.at(at).c(c).send(REQUESTER, header(xid), RpcEncoder.call(xid, RpcNames.NFS, 3, k % 2 == 0 ? 1 : 0,
                            k % 2 == 0 ? new XdrWriter().opaque(new byte[32]).toByteArray() : new byte[0]));
                    t.at(at + 7L * (k + 1) * (c + 1)).c(c).send(RESPONDER, header(xid),
                            RpcEncoder.acceptedReply(xid, 0, new XdrWriter().u32(0).toByteArray()));
                    at += 1_000;
                }
            }
        });
        compare(f, 36);
    }

    private static RpcRdmaHeader header(long xid) {
        return RpcRdmaHeader.message(xid, 16, Proc.RDMA_MSG, List.of(), List.of(), null);
    }

    private static void compare(Path cap, int pairs) throws Exception {
        assumeThat(io.rddp.testing.TsharkFields.available()).as("tshark is not installed: comparison skipped").isTrue();
        Map<String, List<Long>> expected = tshark(cap);
        assertThat(expected.values().stream().mapToInt(List::size).sum()).as("pairs tshark matched").isEqualTo(pairs);
        CaptureStats s;
        try (CaptureReader r = CaptureReaders.open(cap)) {
            s = new StatsCollector().run(r, () -> { });
        }
        Map<String, ProcedureStats> ours = new TreeMap<>();
        for (ProcedureStats p : s.rpc().byProcedure()) {
            if (!p.procedure().startsWith(StatsCollector.OTHER_VERSION)) ours.put(p.procedure(), p);
        }
        assertThat(ours.keySet()).as("procedures").containsExactlyElementsOf(expected.keySet());
        assertThat(s.rpc().replies()).as("replies but those of the version probes")
                .isEqualTo(pairs + s.rpc().byProcedure().stream()
                        .filter(p -> p.procedure().startsWith(StatsCollector.OTHER_VERSION))
                        .mapToLong(ProcedureStats::replies).sum());
        for (var e : expected.entrySet()) {
            List<Long> t = e.getValue().stream().sorted().toList();
            ProcedureStats p = ours.get(e.getKey());
            int n = t.size();
            assertThat(p.replies()).as(e.getKey()).isEqualTo(n);
            assertThat(p.latency().minNs()).as(e.getKey() + " min").isEqualTo(t.get(0));
            assertThat(p.latency().medianNs()).as(e.getKey() + " median").isEqualTo(t.get((n + 1) / 2 - 1));
            assertThat(p.latency().p99Ns()).as(e.getKey() + " p99").isEqualTo(t.get((int) Math.ceil(0.99 * n) - 1));
            assertThat(p.latency().maxNs()).as(e.getKey() + " max").isEqualTo(t.get(n - 1));
        }
    }

    /** Call → reply nanoseconds per procedure, from tshark's fields alone. */
    private static Map<String, List<Long>> tshark(Path cap) throws Exception {
        Map<String, List<Long>> out = new TreeMap<>();
        Map<String, long[]> open = new HashMap<>(); // "stream/xid" → {call time, whether the call Send had the RPC}
        for (String line : run(cap, "frame.time_epoch", "tcp.stream", "tcp.dstport", "rpcordma.xid", "rpc.msgtyp",
                "rpc.program", "rpc.programversion", "rpc.procedure", "nfs.main_opcode", "rpc.time")) {
            String[] f = line.split("\t", -1);
            if (f[3].isEmpty()) continue; // no transport header tshark decodes (a Read Response, a version 2 probe)
            long nanos = new BigDecimal(f[0]).movePointRight(9).longValueExact();
            String key = f[1] + "/" + f[3];
            if (f[2].equals("20049")) {
                open.put(key, new long[]{nanos, first(f[4]).equals("0") ? 1 : 0});
                continue;
            }
            long[] call = open.remove(key);
            if (call == null || first(f[5]).isEmpty()) continue;
            long latency = nanos - call[0];
            if (call[1] == 1) {
                assertThat(new BigDecimal(first(f[9])).movePointRight(9).longValueExact()).as("rpc.time of %s", key)
                        .isEqualTo(latency);
            }
            long prog = Long.parseLong(first(f[5])), vers = Long.parseLong(first(f[6])),
                    proc = Long.parseLong(first(f[7]));
            String name = RpcNames.describe(prog, vers, proc);
            if (prog == RpcNames.NFS && vers == 4 && proc == 1) {
                String op = OPS.get(Integer.parseInt(first(f[8])));
                assertThat(op).as("nfs.main_opcode %s of %s", f[8], key).isNotNull();
                name += " " + op;
            }
            out.computeIfAbsent(name, k -> new ArrayList<>()).add(latency);
        }
        return out;
    }

    private static String first(String aggregated) {
        int comma = aggregated.indexOf(',');
        return comma < 0 ? aggregated : aggregated.substring(0, comma);
    }

    private static List<String> run(Path cap, String... fields) throws Exception {
        return io.rddp.testing.TsharkFields.run(cap, fields);
    }
}
