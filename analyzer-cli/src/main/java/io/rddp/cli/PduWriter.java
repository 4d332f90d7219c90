package io.rddp.cli;

import io.rddp.decode.Pdu;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaMessage;

import io.rddp.tcp.Endpoint;

import java.io.Closeable;
import java.nio.ByteBuffer;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Writes decoded PDUs in one output format. Output errors surface as {@link UncheckedIOException}. */
interface PduWriter extends Closeable {
    /** A PDU with what RPC-over-RDMA made of it ({@code message}, {@code move} may be null). */
    void write(Pdu pdu, RpcRdmaMessage message, ChunkMove move);

    void flush() throws IOException;

    /** A FIN or RST of a stream that carried iWARP (text formats show it, so a Terminate is seen with its close). */
    default void tcpEvent(long frame, long relativeNanos, Endpoint source, Endpoint destination, String event) {
    }

    /** {@code -x}: the octets of the PDU just written (text formats). */
    default void hexDump(String title, ByteBuffer bytes) {
    }

    /** Several files: the next PDUs are of this one. */
    default void file(String name) {
    }
}
