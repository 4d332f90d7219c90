package io.rddp.filter;

import io.rddp.testing.RepoPaths;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaStage;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Filters over the real captures, and the registry against every key the decoders emit. */
class DisplayFilterCaptureTest {

    private static List<Long> frames(String capture, String filter) throws Exception {
        DisplayFilter f = DisplayFilter.compile(filter);
        FieldRecord r = new FieldRecord();
        List<Long> out = new ArrayList<>();
        try (CaptureReader reader = CaptureReaders.open(RepoPaths.root().resolve(capture))) {
            new DecodePipeline(new RpcRdmaStage((RpcRdmaListener) (pdu, m, mv) -> {
                DisplayFilter.describe(pdu, m, mv, null, null, r);
                if (f.matches(r)) out.add(pdu.frame());
            }, RpcRdmaStage.DecodeAs.AUTO)).run(reader);
        }
        return out;
    }

    @Test
    void rpingCapture() throws Exception {
        // tshark: Send in 8, Read Request in 9, Read Response in 10; the MPA Request in 4, Reply in 6
        assertThat(frames("pcaps/siw/siw-rping-lo.pcap", "rdmap.opcode == 1")).startsWith(9L);
        assertThat(frames("pcaps/siw/siw-rping-lo.pcap", "mpa.kind == \"request\" || mpa.kind == \"reply\""))
                .containsExactly(4L, 6L);
        assertThat(frames("pcaps/siw/siw-rping-lo.pcap", "!rdmap && !ddp")).containsExactly(4L, 6L);
        assertThat(frames("pcaps/siw/siw-rping-lo.pcap", "rdmap.opcodeName contains \"Read\" && frame <= 10"))
                .containsExactly(9L, 10L);
        assertThat(frames("pcaps/siw/siw-rping-lo.pcap", "tcp.port == 39655 && frame < 9")).containsExactly(4L, 6L, 8L);
        assertThat(frames("pcaps/siw/siw-rping-lo.pcap", "stream == 1")).isEmpty();
        assertThat(frames("pcaps/siw/siw-rping-lo.pcap", "violation")).isEmpty();
    }

    @Test
    void nfsCaptureHasListFields() throws Exception {
        List<Long> all = frames("pcaps/generated/nfs-rdma-crc.pcap", "rpcrdma");
        List<Long> withReads = frames("pcaps/generated/nfs-rdma-crc.pcap", "rpcrdma.reads.handle > 0");
        assertThat(withReads).isNotEmpty();
        assertThat(all).containsAll(withReads).hasSizeGreaterThan(withReads.size());
        assertThat(frames("pcaps/generated/nfs-rdma-crc.pcap", "rpc.programName == \"NFS\"")).isNotEmpty();
    }

    @Test
    void everyKeyTheRegistryEmitsIsAFilterName() throws IOException {
        TreeSet<String> seen = new TreeSet<>();
        FieldRecord r = new FieldRecord();
        List<Path> captures;
        try (Stream<Path> s = Files.walk(RepoPaths.root().resolve("pcaps"))) {
            captures = s.filter(p -> p.toString().matches(".*\\.pcap(ng)?(\\.gz)?$")).toList();
        }
        for (Path p : captures) {
            try (CaptureReader reader = CaptureReaders.open(p)) {
                new DecodePipeline(new RpcRdmaStage((RpcRdmaListener) (pdu, m, mv) -> {
                    DisplayFilter.describe(pdu, m, mv, List.of("x"), List.of("error"), r);
                    seen.addAll(r.all().keySet());
                }, RpcRdmaStage.DecodeAs.AUTO)).run(reader);
            } catch (io.rddp.capture.CaptureException e) {
                // a truncated regression capture: what was read counts
            }
        }
        List<String> unknown = seen.stream().filter(n -> FilterFields.get(n) == null).toList();
        assertThat(unknown).as("keys emitted but not in FilterFields").isEmpty();
        for (Map.Entry<String, List<Object>> e : r.all().entrySet()) {
            assertThat(FilterFields.get(e.getKey())).isNotNull();
        }
        assertThat(seen).contains("rdmap.opcode", "ddp.msn", "rpcrdma.reads.handle", "rpc.ops", "tcp.port");
    }
}
