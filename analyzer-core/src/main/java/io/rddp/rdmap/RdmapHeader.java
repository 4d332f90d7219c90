package io.rddp.rdmap;

import java.nio.ByteBuffer;

/**
 * An opcode-specific RDMAP header that follows the DDP header at the start of a message: RDMA Read Request
 * (RFC 5040 §4.4), Terminate (RFC 5040 §4.8), Immediate Data (RFC 7306 §6.2), Atomic Request and Response
 * (RFC 7306 §5.2.1, §5.2.2).
 */
public sealed interface RdmapHeader permits ReadRequest, Terminate, ImmediateData, AtomicRequest, AtomicResponse {

    /** Bytes this header takes on the wire. */
    int length();

    /** Writes the header at out's position and advances it. */
    void writeTo(ByteBuffer out);

    static void checkU32(String name, long value) {
        if (value < 0 || value > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(name + " is 32 bits unsigned: " + value);
        }
    }
}
