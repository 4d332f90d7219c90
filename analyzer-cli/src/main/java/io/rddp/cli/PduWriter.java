package io.rddp.cli;

import io.rddp.decode.Pdu;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaMessage;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Writes decoded PDUs in one output format. Output errors surface as {@link UncheckedIOException}. */
interface PduWriter extends Closeable {
    /** A PDU with what RPC-over-RDMA made of it ({@code message}, {@code move} may be null). */
    void write(Pdu pdu, RpcRdmaMessage message, ChunkMove move);

    void flush() throws IOException;
}
