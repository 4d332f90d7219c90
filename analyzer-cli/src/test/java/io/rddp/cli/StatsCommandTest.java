package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.stats.CaptureStats;
import io.rddp.stats.StatsCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rddp stats}: the text of bundled captures against golden files (pcaps/expected/NAME.stats.txt; after an
 * intended change: mvn -pl analyzer-cli test -Dtest=StatsCommandTest -Drddp.updateGolden=true), the JSON against
 * the engine's own numbers, several files, and bad input.
 */
class StatsCommandTest {

    @TempDir
    Path tmp;

    private String err;

    private int run(String... args) {
        Object[] r = CliRun.run(args);
        err = (String) r[2];
        return (int) r[0];
    }

    private static String cap(String rel) {
        return RepoPaths.pcaps().resolve(rel).toString();
    }

    private static CaptureStats engine(String rel) throws Exception {
        try (CaptureReader r = CaptureReaders.open(RepoPaths.pcaps().resolve(rel))) {
            return new StatsCollector().run(r, () -> { });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"siw/siw-rping-lo.pcap", "generated/nfs-rdma-crc.pcap", "generated/terminate.pcap"})
    void textStatsOfABundledCaptureAreItsGoldenFile(String rel) throws Exception {
        Path out = tmp.resolve("stats.txt");
        assertThat(run("stats", "-o", out.toString(), cap(rel))).isEqualTo(Main.EXIT_OK);
        // the file as a person would name it from the repository root
        String actual = Files.readString(out, StandardCharsets.UTF_8).replace(cap(rel), "pcaps/" + rel);
        Path golden = RepoPaths.pcaps().resolve("expected").resolve(rel.replace('/', '_') + ".stats.txt");
        if (Boolean.getBoolean("rddp.updateGolden")) Files.writeString(golden, actual, StandardCharsets.UTF_8);
        assertThat(golden).as("golden file (create with -Drddp.updateGolden=true)").exists();
        assertThat(actual.lines()).containsExactlyElementsOf(Files.readAllLines(golden, StandardCharsets.UTF_8));
    }

    @Test
    void jsonParsesAndCarriesTheEnginesNumbers() throws Exception {
        Path out = tmp.resolve("s.json");
        assertThat(run("stats", "--format", "json", "-o", out.toString(), cap("siw/siw-rping-lo.pcap"))).isZero();
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        CaptureStats s = engine("siw/siw-rping-lo.pcap");
        assertThat(root.path("file").asText()).endsWith("siw-rping-lo.pcap");
        assertThat(root.path("summary").path("frames").asLong()).isEqualTo(s.frames()).isEqualTo(90);
        assertThat(root.path("summary").path("pdus").asLong()).isEqualTo(s.pdus());
        assertThat(root.path("summary").path("durationNs").asLong()).isEqualTo(s.durationNanos());
        JsonNode stream = root.path("streams").get(0);
        CaptureStats.StreamStats st = s.streams().get(0);
        assertThat(stream.path("client").asText()).isEqualTo(st.client().toString());
        JsonNode ops = stream.path("serverToClient").path("opcodes");
        assertThat(ops.size()).isEqualTo(st.serverToClient().opcodes().size());
        for (int i = 0; i < ops.size(); i++) {
            io.rddp.count.OpcodeCounts o = st.serverToClient().opcodes().get(i);
            assertThat(ops.get(i).path("name").asText()).isEqualTo(o.name());
            assertThat(ops.get(i).path("segments").asLong()).isEqualTo(o.segments());
            assertThat(ops.get(i).path("messages").asLong()).isEqualTo(o.messages());
            assertThat(ops.get(i).path("payloadBytes").asLong()).isEqualTo(o.payloadBytes());
            assertThat(ops.get(i).path("wireBytes").asLong()).isEqualTo(o.wireBytes());
        }
        JsonNode first = stream.path("reads").path("byServer").path("first");
        assertThat(first.path("count").asLong()).isEqualTo(10);
        assertThat(first.path("minNs").asLong()).isEqualTo(st.readsByServer().first().minNs());
        assertThat(first.path("medianNs").asLong()).isEqualTo(st.readsByServer().first().medianNs());
        assertThat(first.path("p99Ns").asLong()).isEqualTo(st.readsByServer().first().p99Ns());
        assertThat(first.path("maxNs").asLong()).isEqualTo(st.readsByServer().first().maxNs());
        assertThat(first.path("exact").asBoolean()).isTrue();
        assertThat(stream.path("reads").path("byClient").path("first").isNull()).isTrue();
        assertThat(stream.path("close").path("end").asText()).isEqualTo("closed");
        assertThat(stream.path("close").path("clientFin").asLong()).isEqualTo(88);
        assertThat(stream.path("rpc").path("calls").asLong()).isZero();

        // the text shows the same median, in µs
        Path text = tmp.resolve("s.txt");
        run("stats", "-o", text.toString(), cap("siw/siw-rping-lo.pcap"));
        long median = first.path("medianNs").asLong();
        assertThat(Files.readString(text)).contains(String.format("%d.%03d", median / 1000, median % 1000));
    }

    @Test
    void jsonTerminatesNameTheirTypeAndTerminatedHeaderAndRpcProceduresTheirTimes() throws Exception {
        Path out = tmp.resolve("t.json");
        assertThat(run("stats", "--format", "json", "-o", out.toString(), cap("generated/terminate.pcap"),
                cap("generated/nfs-rdma-crc.pcap"))).isZero();
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        assertThat(root.isArray()).isTrue();
        JsonNode t = root.get(0).path("terminates").get(0);
        assertThat(t.path("frame").asLong()).isEqualTo(11);
        assertThat(t.path("layer").asInt()).isEqualTo(1);
        assertThat(t.path("etype").asInt()).isEqualTo(2);
        assertThat(t.path("code").asInt()).isEqualTo(3);
        assertThat(t.path("layerName").asText()).isEqualTo("DDP");
        assertThat(t.path("codeName").asText()).isEqualTo("Invalid MSN - MSN range is not valid");
        assertThat(t.path("direction").asText()).isEqualTo("server-to-client");
        assertThat(t.path("ddpHeader").path("msn").asLong()).isEqualTo(5);
        assertThat(t.path("time").asText()).matches("\\d+\\.\\d{9}");

        CaptureStats nfs = engine("generated/nfs-rdma-crc.pcap");
        JsonNode rpc = root.get(1).path("rpc");
        assertThat(rpc.path("calls").asLong()).isEqualTo(nfs.rpc().calls()).isEqualTo(16);
        JsonNode procs = rpc.path("procedures");
        assertThat(procs.size()).isEqualTo(nfs.rpc().byProcedure().size());
        for (int i = 0; i < procs.size(); i++) {
            CaptureStats.ProcedureStats p = nfs.rpc().byProcedure().get(i);
            assertThat(procs.get(i).path("procedure").asText()).isEqualTo(p.procedure());
            assertThat(procs.get(i).path("latency").path("medianNs").asLong()).isEqualTo(p.latency().medianNs());
        }
    }

    /**
     * The chunk octets of the bundled NFS/RDMA capture, counted by hand from its decode (rddp decode, frames 7-76;
     * the pattern repeats twice): Read chunks 2 NFSv3 WRITEs of 2 x 1500 (frames 13-17) and 2 Long Calls of 6188
     * (frames 26-30); Write chunks 2 READs of 3000 (frames 20-22); Reply chunks 2 READDIRPLUS replies of
     * 1438 + 1438 + 1220 + 752 = 4848 (frames 33-36) into 2 x 4096 offered.
     */
    @Test
    void jsonCarriesTheOctetsOfEachChunkKindAdvertisedReturnedAndMoved() throws Exception {
        Path out = tmp.resolve("nfs.json");
        assertThat(run("stats", "--format", "json", "-o", out.toString(), cap("generated/nfs-rdma-crc.pcap"))).isZero();
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        JsonNode bytes = root.path("streams").get(0).path("rpc").path("bytes");
        assertThat(bytes).isEqualTo(root.path("rpc").path("bytes")); // one stream: the capture's figures
        JsonNode read = bytes.path("read");
        assertThat(read.path("chunks").asLong()).isEqualTo(4);
        assertThat(read.path("advertised").asLong()).isEqualTo(2 * 3000 + 2 * 6188);
        assertThat(read.path("moved").asLong()).isEqualTo(2 * 3000 + 2 * 6188);
        assertThat(read.path("returned").asLong()).isZero();
        JsonNode pz = bytes.path("positionZero");
        assertThat(pz.path("chunks").asLong()).isEqualTo(2);
        assertThat(pz.path("moved").asLong()).isEqualTo(2 * 6188);
        JsonNode write = bytes.path("write");
        assertThat(write.path("chunks").asLong()).isEqualTo(2);
        assertThat(write.path("returned").asLong()).isEqualTo(2 * 3000);
        assertThat(write.path("moved").asLong()).isEqualTo(2 * 3000);
        JsonNode reply = bytes.path("reply");
        assertThat(reply.path("chunks").asLong()).isEqualTo(2);
        assertThat(reply.path("advertised").asLong()).isEqualTo(2 * 2 * 4096);
        assertThat(reply.path("moved").asLong()).isEqualTo(2 * 4848).isEqualTo(reply.path("returned").asLong());
        assertThat(bytes.path("unattributed").asLong()).isZero();
        // 16 Sends each way; what the Sends carried is their payload (rddp stats' opcode table: 2120 and 1664)
        JsonNode calls = bytes.path("calls"), replies = bytes.path("replies");
        assertThat(calls.path("sends").asLong()).isEqualTo(16);
        assertThat(replies.path("sends").asLong()).isEqualTo(16);
        assertThat(calls.path("headerBytes").asLong() + calls.path("payloadBytes").asLong()).isEqualTo(2120);
        assertThat(replies.path("headerBytes").asLong() + replies.path("payloadBytes").asLong()).isEqualTo(1664);
        assertThat(bytes.path("total").asLong()).isEqualTo(bytes.path("towardResponder").asLong()
                + bytes.path("towardRequester").asLong());
        assertThat(bytes.path("towardResponder").asLong()).isEqualTo(calls.path("payloadBytes").asLong() + 18376);
        assertThat(bytes.path("towardRequester").asLong())
                .isEqualTo(replies.path("payloadBytes").asLong() + 6000 + 9696);
        JsonNode wr = root.path("rpc").path("procedures");
        for (JsonNode p : wr) {
            assertThat(p.path("calls").asLong()).as(p.path("procedure").asText()).isEqualTo(p.path("replies").asLong()
                    + p.path("unanswered").asLong() + p.path("dropped").asLong());
        }
        assertThat(root.path("rpc").path("dropped").asLong()).isZero();
    }

    @Test
    void aFolderGivesStatsOfEveryCaptureInIt() throws Exception {
        Path out = tmp.resolve("siw.txt");
        assertThat(run("stats", "-o", out.toString(), RepoPaths.pcaps().resolve("siw").toString())).isZero();
        List<String> headers = Files.readAllLines(out).stream().filter(l -> l.startsWith("rddp stats: ")).toList();
        assertThat(headers).hasSize(9);
    }

    @Test
    void badInputIsAClearErrorWithFileAndFrameNeverAStackTrace() throws Exception {
        byte[] whole = Files.readAllBytes(RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap"));
        Path cut = tmp.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2 + 5));
        Path out = tmp.resolve("cut.txt");
        assertThat(run("stats", "-o", out.toString(), cut.toString())).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err).contains("cut.pcap").containsPattern("frame \\d+").doesNotContain("Exception")
                .doesNotContain("\tat ");
        assertThat(Files.readString(out)).contains("Incomplete:").contains("iWARP streams: 1");

        assertThat(run("stats", tmp.resolve("missing.pcap").toString())).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err).contains("missing.pcap").contains("no such file");

        Path notACapture = tmp.resolve("text.pcap");
        Files.writeString(notACapture, "this is not a capture file at all");
        assertThat(run("stats", notACapture.toString())).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err).contains("text.pcap").doesNotContain("Exception");

        Path empty = Files.createDirectory(tmp.resolve("empty"));
        assertThat(run("stats", empty.toString())).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err).contains("no capture files");
    }

    @Test
    void helpAnswersAndNoFileIsAUsageError() {
        assertThat(run("stats", "--help")).isZero();
        assertThat(run("stats")).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err).contains("FILE");
    }
}
