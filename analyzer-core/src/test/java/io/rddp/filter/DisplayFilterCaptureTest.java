package io.rddp.filter;

import io.rddp.testing.RepoPaths;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaStage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Filters over the real captures, and the registry against every key the decoders emit. */
class DisplayFilterCaptureTest {

    /** The frames of the PDUs of {@code capture} that {@code filter} selects, in capture order. */
    static List<Long> frames(String capture, String filter) throws Exception {
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
}
