package io.rddp.conformance.rpcrdma;

import io.rddp.rpcrdma.RdmaSegment;

/**
 * A buffer of the tester's that a chunk advertises: its STag, Tagged Offset and octets. The Responder RDMA Reads it
 * (a Read chunk) or RDMA Writes into it (a Write or Reply chunk); the tester's end answers and places as an RNIC
 * would ({@link Requester}).
 *
 * @param stag     its STag
 * @param to       Tagged Offset of its first octet
 * @param data     its octets (written into by the Responder's RDMA Writes)
 * @param readable the Responder may RDMA Read it
 * @param writable the Responder may RDMA Write it
 */
public record Region(long stag, long to, byte[] data, boolean readable, boolean writable) {

    /** The whole region as one RDMA segment. */
    public RdmaSegment segment() {
        return new RdmaSegment(stag, data.length, to);
    }

    /** Whether [{@code at}, {@code at + length}) lies within the region. */
    boolean holds(long at, long length) {
        return at >= to && length >= 0 && at - to + length <= data.length;
    }
}
