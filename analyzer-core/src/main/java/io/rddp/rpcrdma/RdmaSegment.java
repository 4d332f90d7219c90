package io.rddp.rpcrdma;

/**
 * A plain RDMA segment (RFC 8166 §3.4.3, §4.1.2 xdr_rdma_segment): 32-bit handle (an STag), 32-bit length, 64-bit
 * offset (a Tagged Offset).
 */
public record RdmaSegment(long handle, long length, long offset) {
    static final int SIZE = 16;

    public long end() {
        return offset + length;
    }

    @Override
    public String toString() {
        return "0x" + Long.toHexString(handle) + ":" + length + "@0x" + Long.toHexString(offset);
    }
}
