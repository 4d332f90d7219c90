package io.rddp.capture;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Block and option layout of pcapng (draft-ietf-opsawg-pcapng), shared by {@link PcapngReader} and
 * {@link PcapngWriter}. Offsets are from the start of the block; fields are in the section's byte order.
 */
final class Pcapng {
    // §3.1 General Block Structure: Block Type, Block Total Length, body, Block Total Length again.
    static final int BLOCK_TYPE = 0;
    static final int BLOCK_LENGTH = 4;
    static final int BLOCK_BODY = 8;
    /** Type, both lengths: a block without a body. */
    static final int BLOCK_OVERHEAD = 12;

    // §10.1 Standardized Block Type Codes (Name Resolution 4, Interface Statistics 5, Decryption Secrets 0xA and
    // unknown types are skipped).
    static final int TYPE_SHB = 0x0A0D0D0A;
    static final int TYPE_IDB = 0x00000001;
    static final int TYPE_OPB = 0x00000002;     // Appendix A, obsolete Packet Block
    static final int TYPE_SPB = 0x00000003;
    static final int TYPE_EPB = 0x00000006;
    static final int TYPE_CB_COPY = 0x00000BAD;
    static final int TYPE_CB_NO_COPY = 0x40000BAD;

    // §4.1 Section Header Block.
    static final int SHB_BYTE_ORDER_MAGIC = 8;
    static final int SHB_MAJOR = 12;
    static final int SHB_MINOR = 14;
    static final int SHB_SECTION_LENGTH = 16;
    static final int SHB_OPTIONS = 24;
    static final int SHB_MIN_LENGTH = SHB_OPTIONS + 4;
    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;

    // §4.2 Interface Description Block.
    static final int IDB_LINK_TYPE = 8;
    static final int IDB_SNAP_LEN = 12;
    static final int IDB_OPTIONS = 16;
    static final int IDB_MIN_LENGTH = IDB_OPTIONS + 4;

    // §4.3 Enhanced Packet Block; Appendix A Packet Block has the same layout with a 16-bit Interface ID
    // followed by a 16-bit Drops Count in the first word.
    static final int EPB_INTERFACE = 8;
    static final int EPB_TIMESTAMP_HIGH = 12;
    static final int EPB_TIMESTAMP_LOW = 16;
    static final int EPB_CAPTURED_LENGTH = 20;
    static final int EPB_ORIGINAL_LENGTH = 24;
    static final int EPB_DATA = 28;
    static final int EPB_MIN_LENGTH = EPB_DATA + 4;

    // §4.4 Simple Packet Block.
    static final int SPB_ORIGINAL_LENGTH = 8;
    static final int SPB_DATA = 12;
    static final int SPB_MIN_LENGTH = SPB_DATA + 4;

    // §3.5 Options: 16-bit code, 16-bit length, value padded to 32 bits.
    static final int OPT_ENDOFOPT = 0;
    static final int OPT_COMMENT = 1;
    static final int OPT_SHB_USERAPPL = 4;
    static final int OPT_IF_TSRESOL = 9;
    static final int OPT_IF_TSOFFSET = 14;

    private Pcapng() {
    }

    static int pad4(int n) {
        return (n + 3) & ~3;
    }

    /**
     * Checks the option TLV starting at {@code p} (§3.5) against {@code end} and returns its value length, or -1 for
     * opt_endofopt or when fewer than 4 bytes remain (both end the list: §3.5 says readers must not rely on
     * opt_endofopt being there).
     */
    static int optionLength(ByteBuffer b, int p, int end) throws MalformedException {
        if (end - p < 4 || (b.getShort(p) & 0xFFFF) == OPT_ENDOFOPT) {
            return -1;
        }
        int length = b.getShort(p + 2) & 0xFFFF;
        if (length > end - p - 4) {
            throw new MalformedException("option " + (b.getShort(p) & 0xFFFF) + " claims " + length
                    + " bytes, only " + (end - p - 4) + " left in the block", p);
        }
        return length;
    }

    /** §3.5: a string option is UTF-8, not zero-terminated, but a zero octet ends it. */
    static String string(ByteBuffer b, int p, int length, byte[] scratch) {
        b.get(p, scratch, 0, length);
        int n = 0;
        while (n < length && scratch[n] != 0) n++;
        return new String(scratch, 0, n, StandardCharsets.UTF_8);
    }

    /** Writes one option at the buffer's position, padded to 32 bits (§3.5), and advances past it. */
    static void putOption(ByteBuffer b, int code, byte[] value) {
        b.putShort((short) code);
        b.putShort((short) value.length);
        b.put(value);
        for (int i = value.length; i < pad4(value.length); i++) b.put((byte) 0);
    }

    static void putEndOfOptions(ByteBuffer b) {
        b.putShort((short) OPT_ENDOFOPT);
        b.putShort((short) 0);
    }
}
