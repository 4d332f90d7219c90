package io.rddp.oncrpc;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.testing.RepoPaths;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Linux NFSv4.1 and v4.2 clients' COMPOUNDs against Linux's nfsd (pcaps/nfs-rdma/, real traffic over siw) decode
 * to their last operation, calls and replies alike: OPEN with CLAIM_FH and CLAIM_NULL, OPEN4_CREATE and the
 * OPEN4resok with its delegation (RFC 8881 §18.16) included, so what follows an OPEN (ACCESS, GETATTR, GETFH) is
 * named too. tshark names the same operations (TsharkRpcNfsDifferentialTest).
 */
class KernelNfsCompoundDecodeTest {

    @ParameterizedTest
    @ValueSource(strings = {"nfs-rdma/6.1/nfsv4.1.pcap", "nfs-rdma/6.1/nfsv4.2.pcap", "nfs-rdma/6.12/nfsv4.1.pcap",
            "nfs-rdma/6.12/nfsv4.2.pcap"})
    void everyCompoundOfTheKernelClientAndServerDecodesToItsLastOperation(String name) throws IOException {
        Path cap = RepoPaths.pcap(name);
        List<String> partial = new ArrayList<>();
        List<String> opens = new ArrayList<>();
        RpcRdmaListener l = (Pdu pdu, RpcRdmaMessage m, ChunkMove move) -> {
            if (m == null || m.rpc() == null || m.rpc().program() != RpcNames.NFS || m.rpc().ulp() == null) return;
            UlpInfo u = m.rpc().ulp();
            if (u.moreOperations() > 0 || u.problem() != null) {
                partial.add("frame " + pdu.frame() + ": " + u.operations() + " +" + u.moreOperations() + " "
                        + u.problem());
            }
            if (u.operations().stream().anyMatch(o -> o.startsWith("OPEN "))
                    || u.operations().contains("OPEN")) {
                opens.add(String.join(", ", u.operations()));
            }
        };
        try (CaptureReader r = CaptureReaders.open(cap)) {
            new DecodePipeline(new RpcRdmaStage(l, RpcRdmaStage.DecodeAs.AUTO)).run(r);
        }
        assertThat(opens).as("the capture opens files").isNotEmpty();
        assertThat(partial).as("COMPOUNDs decoded only in part").isEmpty();
    }
}
