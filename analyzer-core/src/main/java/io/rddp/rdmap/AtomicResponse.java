package io.rddp.rdmap;

import io.rddp.MalformedException;

import io.rddp.ddp.NetworkOrder;

import java.nio.ByteBuffer;

/**
 * Atomic Operation Response Header, RFC 7306 §5.2.2 Figure 6: Original Request Identifier (32), Original Remote Data
 * Value (64) — 12 octets. (RFC 7306 §4 calls it "32 bytes long"; the figure, the field list and tshark all have 12,
 * which is what is decoded here.)
 *
 * @param originalRequestId       the Request Identifier of the request answered, 32 bits unsigned
 * @param originalRemoteDataValue the 64-bit value found at the target before the operation
 */
public record AtomicResponse(long originalRequestId, long originalRemoteDataValue) implements RdmapHeader {

    public static final int LENGTH = 12;

    public AtomicResponse {
        RdmapHeader.checkU32("Original Request Identifier", originalRequestId);
    }

    /** Reads the header at buf's position without moving it. */
    public static AtomicResponse parse(ByteBuffer buf) throws MalformedException {
        buf = NetworkOrder.reading(buf);
        if (buf.remaining() < LENGTH) {
            throw new MalformedException("Atomic Response header needs " + LENGTH + " bytes (RFC 7306 §5.2.2), "
                    + buf.remaining() + " remain", buf.remaining());
        }
        int p = buf.position();
        return new AtomicResponse(Integer.toUnsignedLong(buf.getInt(p)), buf.getLong(p + 4));
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer out) {
        NetworkOrder.writing(out, o -> {
            o.putInt((int) originalRequestId).putLong(originalRemoteDataValue);
        });
    }
}
