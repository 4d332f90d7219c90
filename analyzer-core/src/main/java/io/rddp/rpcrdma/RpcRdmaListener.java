package io.rddp.rpcrdma;

import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;

/** Receives every PDU of the pipeline with what RPC-over-RDMA made of it. */
public interface RpcRdmaListener extends PduListener {

    /**
     * @param message the RPC-over-RDMA message this PDU completed (a Send's last segment, or a rebuilt Long Call),
     *                else null
     * @param move    the chunk an RDMA Read Request, Read Response or Write on an RPC-over-RDMA connection moves,
     *                else null
     */
    void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move);

    @Override
    default void onPdu(Pdu pdu) {
        onPdu(pdu, null, null);
    }
}
