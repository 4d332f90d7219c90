package io.rddp.rdmap;

import io.rddp.MalformedException;

import io.rddp.ddp.NetworkOrder;

import java.nio.ByteBuffer;

/**
 * RDMA Read Request Header, RFC 5040 §4.4 Figure 6 (28 octets), right after the untagged DDP header:
 * Data Sink STag (32), Data Sink Tagged Offset (64), RDMA Read Message Size (32), Data Source STag (32),
 * Data Source Tagged Offset (64). Also the "Terminated RDMA Header" of a Terminate (RFC 5040 §4.8).
 *
 * @param sinkStag   SinkSTag, 32 bits unsigned
 * @param sinkTo     SinkTO, 64 bits unsigned
 * @param size       RDMARDSZ, 0 to 2^32-1 octets
 * @param sourceStag SrcSTag, 32 bits unsigned
 * @param sourceTo   SrcTO, 64 bits unsigned
 */
public record ReadRequest(long sinkStag, long sinkTo, long size, long sourceStag, long sourceTo)
        implements RdmapHeader {

    public static final int LENGTH = 28;

    public ReadRequest {
        RdmapHeader.checkU32("Data Sink STag", sinkStag);
        RdmapHeader.checkU32("RDMA Read Message Size", size);
        RdmapHeader.checkU32("Data Source STag", sourceStag);
    }

    /** Reads the header at buf's position without moving it. */
    public static ReadRequest parse(ByteBuffer buf) throws MalformedException {
        buf = NetworkOrder.reading(buf);
        if (buf.remaining() < LENGTH) {
            throw new MalformedException("RDMA Read Request header needs " + LENGTH + " bytes (RFC 5040 §4.4), "
                    + buf.remaining() + " remain", buf.remaining());
        }
        int p = buf.position();
        return new ReadRequest(Integer.toUnsignedLong(buf.getInt(p)), buf.getLong(p + 4),
                Integer.toUnsignedLong(buf.getInt(p + 12)), Integer.toUnsignedLong(buf.getInt(p + 16)),
                buf.getLong(p + 20));
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer out) {
        NetworkOrder.writing(out, o -> {
            o.putInt((int) sinkStag).putLong(sinkTo).putInt((int) size).putInt((int) sourceStag).putLong(sourceTo);
        });
    }

    @Override
    public String toString() {
        return "Read Request sink STag 0x" + Long.toHexString(sinkStag) + " TO " + Long.toUnsignedString(sinkTo)
                + " size " + size + " source STag 0x" + Long.toHexString(sourceStag)
                + " TO " + Long.toUnsignedString(sourceTo);
    }
}
