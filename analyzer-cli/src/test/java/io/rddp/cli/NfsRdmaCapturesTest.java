package io.rddp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Linux NFS client against Linux's nfsd over siw (pcaps/nfs-rdma/SERIES/nfsvV.pcap, made by
 * {@code ./rddp lab siw nfs-capture}): `rddp analyze` finds in each exactly what its golden file NAME.expected says,
 * every violation at every severity and each stream's totals, and the captures hold what pcaps/nfs-rdma/README.md
 * says they hold: the NFS version of the file name, calls with a Read chunk (WRITE), a Write chunk (READ) and a Reply
 * chunk (READDIR/READDIRPLUS), all answered. tshark's decode of the same frames is the second opinion
 * (TsharkDifferentialTest, TsharkRpcRdmaDifferentialTest, TsharkRpcNfsDifferentialTest in analyzer-core).
 * After an intended change of the analyzer: -Drddp.updateGolden=true rewrites the golden files' data lines and
 * keeps their # header.
 */
class NfsRdmaCapturesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;

    static List<Path> captures() throws IOException {
        try (Stream<Path> s = Files.walk(RepoPaths.pcaps().resolve("nfs-rdma"))) {
            return s.filter(p -> p.toString().endsWith(".pcap")).sorted().toList();
        }
    }

    /** Every violation ("severity check frame direction") and every stream's totals, in the report's order. */
    static List<String> analyse(Path pcap) throws IOException {
        Path out = Files.createTempFile(tmp, "analysis", ".json");
        int rc = Main.run("analyze", "--format", "json", "--fail-on", "never", "-o", out.toString(), pcap.toString());
        assertThat(rc).as("analyze " + pcap).isEqualTo(Main.EXIT_OK);
        JsonNode a = JSON.readTree(out.toFile());
        List<String> lines = new ArrayList<>();
        for (JsonNode s : a.path("streams")) {
            lines.add("stream " + s.path("stream").asInt() + " rpc-over-rdma " + s.path("rpcRdmaMessages").asLong()
                    + " messages; c>s " + totals(s.path("clientToServer")) + "; s>c " + totals(s.path("serverToClient")));
        }
        for (JsonNode v : a.path("violations")) {
            String d = v.path("direction").asText("");
            lines.add(v.path("severity").asText() + " " + v.path("check").asText() + " " + v.path("frame").asLong() + " "
                    + (d.equals("client-to-server") ? "c>s" : d.isEmpty() ? "-" : "s>c"));
        }
        return lines;
    }

    private static String totals(JsonNode dir) {
        List<String> ops = new ArrayList<>();
        dir.path("messagesByOpcode").fields().forEachRemaining(e -> ops.add(e.getKey() + " " + e.getValue().asLong()));
        return dir.path("messages").asLong() + " messages (" + String.join(", ", ops) + "), "
                + dir.path("bytesPlaced").asLong() + " octets placed, " + dir.path("bytesDelivered").asLong()
                + " delivered";
    }

    static Path golden(Path pcap) {
        return pcap.resolveSibling(pcap.getFileName().toString().replace(".pcap", ".expected"));
    }

    @TestFactory
    Stream<DynamicTest> everyKernelNfsCaptureAnalysesExactlyAsItsGoldenFileSays() throws IOException {
        List<Path> caps = captures();
        assertThat(caps).as("pcaps/nfs-rdma/").hasSizeGreaterThanOrEqualTo(3);
        return caps.stream().map(p -> DynamicTest.dynamicTest(RepoPaths.pcaps().relativize(p).toString(), () -> {
            List<String> found = analyse(p);
            if (Boolean.getBoolean("rddp.updateGolden")) {
                List<String> out = new ArrayList<>(Files.exists(golden(p))
                        ? Files.readAllLines(golden(p)).stream().filter(l -> l.startsWith("#")).toList()
                        : List.of("# " + RepoPaths.pcaps().relativize(p) + ": see README.md in this folder",
                        "# stream totals, then every violation: severity check-id frame direction (c>s: client to server)"));
                out.addAll(found);
                Files.write(golden(p), out);
            }
            assertThat(golden(p)).as("golden file (create with -Drddp.updateGolden=true)").exists();
            assertThat(found).as("analysis of " + p).containsExactlyElementsOf(
                    Files.readAllLines(golden(p)).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList());
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyCaptureHoldsItsVersionAndEveryKindOfChunkAnswered() throws IOException {
        return captures().stream().map(p -> DynamicTest.dynamicTest(RepoPaths.pcaps().relativize(p).toString(), () -> {
            String name = p.getFileName().toString();
            long version = name.startsWith("nfsv3") ? 3 : 4;
            TreeSet<Long> versions = new TreeSet<>();
            TreeSet<Long> readChunk = new TreeSet<>(), writeChunk = new TreeSet<>(), replyChunk = new TreeSet<>();
            TreeSet<Long> replied = new TreeSet<>();
            RpcRdmaListener l = (Pdu pdu, RpcRdmaMessage m, ChunkMove move) -> {
                if (m == null || m.header() == null) return;
                RpcRdmaHeader h = m.header();
                if (!m.fromRequester()) {
                    replied.add(h.xid());   // RDMA_MSG, or RDMA_NOMSG with the reply in the Reply chunk
                    return;
                }
                if (m.source() != RpcRdmaMessage.Source.INLINE) return;
                if (m.rpc() != null && m.rpc().program() == 100003) versions.add(m.rpc().version());
                if (!h.readList().isEmpty()) readChunk.add(h.xid());
                if (!h.writeList().isEmpty()) writeChunk.add(h.xid());
                if (h.replyChunk() != null) replyChunk.add(h.xid());
            };
            try (CaptureReader r = CaptureReaders.open(p)) {
                new DecodePipeline(new RpcRdmaStage(l, RpcRdmaStage.DecodeAs.AUTO)).run(r);
            }
            assertThat(versions).as("NFS versions called in " + name).containsExactly(version);
            assertThat(readChunk).as("calls with a Read chunk (WRITE)").isNotEmpty();
            assertThat(writeChunk).as("calls with a Write chunk (READ)").isNotEmpty();
            assertThat(replyChunk).as("calls with a Reply chunk (READDIR)").isNotEmpty();
            assertThat(replied).as("every chunked call answered").containsAll(readChunk).containsAll(writeChunk)
                    .containsAll(replyChunk);
        }));
    }
}
