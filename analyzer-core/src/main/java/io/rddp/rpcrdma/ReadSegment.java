package io.rddp.rpcrdma;

/** An RDMA read segment (RFC 8166 §3.4.5, xdr_read_chunk): the XDR Position of its chunk and a plain segment. */
public record ReadSegment(long position, RdmaSegment target) {
    static final int SIZE = 4 + RdmaSegment.SIZE;

    @Override
    public String toString() {
        return "P" + position + " " + target;
    }
}
