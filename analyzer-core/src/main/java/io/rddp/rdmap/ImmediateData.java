package io.rddp.rdmap;

import io.rddp.MalformedException;

import io.rddp.ddp.NetworkOrder;

import java.nio.ByteBuffer;

/**
 * The 8 bytes of an Immediate Data or Immediate Data with SE message, RFC 7306 §6.2 Figure 7, kept as one big-endian
 * 64-bit value.
 *
 * @param data the Immediate Data
 */
public record ImmediateData(long data) implements RdmapHeader {

    public static final int LENGTH = 8;

    /** Reads the 8 bytes at buf's position without moving it. */
    public static ImmediateData parse(ByteBuffer buf) throws MalformedException {
        buf = NetworkOrder.reading(buf);
        if (buf.remaining() < LENGTH) {
            throw new MalformedException("Immediate Data is " + LENGTH + " bytes (RFC 7306 §6.2), "
                    + buf.remaining() + " remain", buf.remaining());
        }
        return new ImmediateData(buf.getLong(buf.position()));
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer out) {
        NetworkOrder.writing(out, o -> {
            o.putLong(data);
        });
    }

    @Override
    public String toString() {
        return "Immediate Data 0x" + Long.toHexString(data);
    }
}
