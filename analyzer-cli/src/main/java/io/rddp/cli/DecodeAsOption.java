package io.rddp.cli;

import io.rddp.rpcrdma.RpcRdmaStage;
import picocli.CommandLine.Option;

/** {@code --decode-as}: the upper layer of Sends, for every command that decodes (decode, analyze, stats). */
final class DecodeAsOption {
    enum Ulp {
        auto(RpcRdmaStage.DecodeAs.AUTO), rpcrdma(RpcRdmaStage.DecodeAs.RPCRDMA), none(RpcRdmaStage.DecodeAs.NONE);

        final RpcRdmaStage.DecodeAs mode;

        Ulp(RpcRdmaStage.DecodeAs mode) {
            this.mode = mode;
        }
    }

    @Option(names = "--decode-as", paramLabel = "ULP",
            description = "Upper layer of Sends: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). auto decodes "
                    + "RPC-over-RDMA on port 20049, after RFC 8797 private data, or when a Send's header and RPC XID "
                    + "agree; rpcrdma forces it on every connection; none never decodes it.")
    Ulp ulp = Ulp.auto;

    RpcRdmaStage.DecodeAs mode() {
        return ulp.mode;
    }
}
