package io.rddp.capture;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static io.rddp.capture.Pcapng.*;

/**
 * A pcapng Section Header Block (draft-ietf-opsawg-pcapng §4.1). Its Byte-Order Magic sets the byte order of every
 * block of the section, itself included.
 *
 * @param order           byte order of the section
 * @param versionMajor    1 for every section this reader understands (§4.1)
 * @param versionMinor    0, or 2 which §4.1 says to treat as 0
 * @param sectionLength   length of the section after this block, or -1 when not given (§4.1)
 * @param userApplication shb_userappl option, or null
 */
record SectionHeader(ByteOrder order, int versionMajor, int versionMinor, long sectionLength,
                     String userApplication) {

    /** Reads the whole block at the buffer's position without moving it; the buffer's own order is ignored. */
    static SectionHeader parse(ByteBuffer b) throws MalformedException {
        int p = b.position();
        if (b.remaining() < SHB_MIN_LENGTH) {
            throw new MalformedException("a Section Header Block needs at least " + SHB_MIN_LENGTH + " bytes, only "
                    + b.remaining() + " present", p);
        }
        ByteOrder order = byteOrder(b, p);
        ByteBuffer v = b.duplicate().order(order);
        long length = v.getInt(p + BLOCK_LENGTH) & 0xFFFFFFFFL;
        if (length < SHB_MIN_LENGTH || length > b.remaining()) {
            throw new MalformedException("Section Header Block length " + length + " is impossible", p + BLOCK_LENGTH);
        }
        int major = v.getShort(p + SHB_MAJOR) & 0xFFFF;
        int minor = v.getShort(p + SHB_MINOR) & 0xFFFF;
        long sectionLength = v.getLong(p + SHB_SECTION_LENGTH);
        String userAppl = null;
        // Options of a section of another major version may be laid out differently (§4.1): leave them alone.
        if (major == 1) {
            int end = p + (int) length - 4;
            byte[] scratch = null;
            for (int o = p + SHB_OPTIONS, n; (n = optionLength(v, o, end)) >= 0; o += 4 + pad4(n)) {
                if ((v.getShort(o) & 0xFFFF) == OPT_SHB_USERAPPL) {
                    if (scratch == null) scratch = new byte[0x10000];
                    userAppl = string(v, o + 4, n, scratch);
                }
            }
        }
        return new SectionHeader(order, major, minor, sectionLength, userAppl);
    }

    /** §4.1: the Byte-Order Magic 0x1A2B3C4D, read 8 octets after the palindromic Block Type. */
    static ByteOrder byteOrder(ByteBuffer b, int blockStart) throws MalformedException {
        int magic = b.duplicate().order(ByteOrder.BIG_ENDIAN).getInt(blockStart + SHB_BYTE_ORDER_MAGIC);
        if (magic == BYTE_ORDER_MAGIC) return ByteOrder.BIG_ENDIAN;
        if (magic == Integer.reverseBytes(BYTE_ORDER_MAGIC)) return ByteOrder.LITTLE_ENDIAN;
        throw new MalformedException(String.format("byte-order magic 0x%08x is neither 0x1a2b3c4d nor 0x4d3c2b1a",
                magic), blockStart + SHB_BYTE_ORDER_MAGIC);
    }

    /** Writes the whole block at the buffer's position in {@link #order()} and advances past it. */
    void writeTo(ByteBuffer b) {
        ByteOrder saved = b.order();
        b.order(order);
        byte[] appl = userApplication == null ? null : userApplication.getBytes(StandardCharsets.UTF_8);
        int length = SHB_OPTIONS + (appl == null ? 0 : 4 + pad4(appl.length)) + 4 + 4;
        b.putInt(TYPE_SHB);
        b.putInt(length);
        b.putInt(BYTE_ORDER_MAGIC);
        b.putShort((short) versionMajor);
        b.putShort((short) versionMinor);
        b.putLong(sectionLength);
        if (appl != null) putOption(b, OPT_SHB_USERAPPL, appl);
        putEndOfOptions(b);
        b.putInt(length);
        b.order(saved);
    }
}
