package io.rddp.capture;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The 24-octet pcap file header (draft-ietf-opsawg-pcap §4 "File Header"), written in the byte order of the
 * machine that wrote the file; the magic number tells which order and which timestamp resolution.
 *
 * @param order           byte order of every multi-octet field of the file
 * @param nanos           true for magic 0xA1B23C4D (record timestamps in ns), false for 0xA1B2C3D4 (µs)
 * @param versionMajor    2 for every pcap file in use
 * @param versionMinor    4 normally
 * @param snapLen         SnapLen, 32 bits unsigned
 * @param linkTypeAndInfo the whole "LinkType and additional information" field, 32 bits unsigned
 */
record PcapFileHeader(ByteOrder order, boolean nanos, int versionMajor, int versionMinor, long snapLen,
                      long linkTypeAndInfo) {
    static final int LENGTH = 24;
    static final int MAGIC_MICRO = 0xA1B2C3D4;
    static final int MAGIC_NANO = 0xA1B23C4D;

    /**
     * The link-layer header type. draft-ietf-opsawg-pcap §4: only the lower 16 bits are the LinkType; the upper
     * bits carry the FCS length (bits 28-31), the P bit saying it is present (bit 26) and reserved bits.
     */
    int linkType() {
        return (int) (linkTypeAndInfo & 0xFFFF);
    }

    /** Reads the header at the buffer's position without moving it. */
    static PcapFileHeader parse(ByteBuffer b) throws MalformedException {
        int p = b.position();
        if (b.remaining() < LENGTH) {
            throw new MalformedException("a pcap file header needs " + LENGTH + " bytes, only " + b.remaining()
                    + " present", b.limit());
        }
        // draft-ietf-opsawg-pcap §4: Magic Number, in the writer's byte order; its swapped form means little-endian.
        int magic = b.duplicate().order(ByteOrder.BIG_ENDIAN).getInt(p);
        ByteOrder order;
        boolean nanos;
        if (magic == MAGIC_MICRO || magic == MAGIC_NANO) {
            order = ByteOrder.BIG_ENDIAN;
            nanos = magic == MAGIC_NANO;
        } else if (magic == Integer.reverseBytes(MAGIC_MICRO) || magic == Integer.reverseBytes(MAGIC_NANO)) {
            order = ByteOrder.LITTLE_ENDIAN;
            nanos = magic == Integer.reverseBytes(MAGIC_NANO);
        } else {
            throw new MalformedException(String.format("magic 0x%08x is not a pcap magic number", magic), p);
        }
        ByteBuffer v = b.duplicate().order(order);
        return new PcapFileHeader(order, nanos,
                v.getShort(p + 4) & 0xFFFF,          // Major Version
                v.getShort(p + 6) & 0xFFFF,          // Minor Version
                // p + 8, p + 12: Reserved1 (was thiszone) and Reserved2 (was sigfigs), ignored by readers (§4)
                v.getInt(p + 16) & 0xFFFFFFFFL,      // SnapLen
                v.getInt(p + 20) & 0xFFFFFFFFL);     // LinkType and additional information
    }

    /** Writes the header at the buffer's position in {@link #order()} and advances past it. */
    void writeTo(ByteBuffer b) {
        ByteOrder saved = b.order();
        b.order(order);
        b.putInt(nanos ? MAGIC_NANO : MAGIC_MICRO);
        b.putShort((short) versionMajor);
        b.putShort((short) versionMinor);
        b.putInt(0);
        b.putInt(0);
        b.putInt((int) snapLen);
        b.putInt((int) linkTypeAndInfo);
        b.order(saved);
    }
}
