package io.rddp.capture;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;

import static io.rddp.capture.Pcapng.*;

/**
 * A pcapng Interface Description Block (draft-ietf-opsawg-pcapng §4.2) with the options that decide how packet
 * timestamps of the interface are read.
 *
 * @param linkType        LinkType, 16 bits
 * @param snapLen         SnapLen, 32 bits unsigned, 0 = no limit
 * @param tsresol         if_tsresol octet: MSB clear = 10^-n seconds, MSB set = 2^-n seconds; 6 when absent
 * @param tsOffsetSeconds if_tsoffset, seconds added to every timestamp; 0 when absent
 */
record InterfaceDescription(int linkType, long snapLen, int tsresol, long tsOffsetSeconds) {
    static final int DEFAULT_TSRESOL = 6;
    static final int NANOSECONDS = 9;

    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) POW10[i] = POW10[i - 1] * 10;
    }

    InterfaceDescription {
        if (!representable(tsresol)) {
            throw new IllegalArgumentException("if_tsresol " + tsresol + " is not representable");
        }
    }

    /** Decimal exponents up to 18 and binary ones up to 63 fit the 64-bit arithmetic of {@link #toNanos}. */
    static boolean representable(int tsresol) {
        return (tsresol & 0x80) == 0 ? tsresol <= 18 : (tsresol & 0x7F) <= 63;
    }

    /**
     * Reads the whole block at the buffer's position, in the buffer's byte order, without moving it. The caller has
     * checked the block's total length against the bytes present.
     */
    static InterfaceDescription parse(ByteBuffer b) throws MalformedException {
        int p = b.position();
        int length = b.getInt(p + BLOCK_LENGTH);
        if (length < IDB_MIN_LENGTH || length > b.remaining()) {
            throw new MalformedException("Interface Description Block length " + Integer.toUnsignedString(length)
                    + " is impossible", p + BLOCK_LENGTH);
        }
        int linkType = b.getShort(p + IDB_LINK_TYPE) & 0xFFFF;
        // p + 10: Reserved, to be ignored by readers (§4.2).
        long snapLen = b.getInt(p + IDB_SNAP_LEN) & 0xFFFFFFFFL;
        int tsresol = DEFAULT_TSRESOL;
        long tsOffset = 0;
        int end = p + length - 4;
        for (int o = p + IDB_OPTIONS, n; (n = optionLength(b, o, end)) >= 0; o += 4 + pad4(n)) {
            int code = b.getShort(o) & 0xFFFF;
            // §3.5 lets a reader ignore a fixed-length option of the wrong length; Wireshark does the same.
            if (code == OPT_IF_TSRESOL && n == 1) {
                tsresol = b.get(o + 4) & 0xFF;
                if (!representable(tsresol)) {
                    throw new MalformedException("if_tsresol 0x" + Integer.toHexString(tsresol)
                            + " is finer than this reader can represent", o + 4);
                }
            } else if (code == OPT_IF_TSOFFSET && n == 8) {
                tsOffset = b.getLong(o + 4);
            }
        }
        return new InterfaceDescription(linkType, snapLen, tsresol, tsOffset);
    }

    /**
     * Converts a packet's 64-bit unsigned timestamp (§4.3: units of if_tsresol since 1970, plus if_tsoffset
     * seconds) to nanoseconds, truncating finer units. Values beyond the year 2262 wrap.
     */
    long toNanos(long ticks) {
        long nanos;
        if ((tsresol & 0x80) == 0) {
            nanos = tsresol <= 9 ? ticks * POW10[9 - tsresol] : Long.divideUnsigned(ticks, POW10[tsresol - 9]);
        } else {
            int k = tsresol & 0x7F;
            long fraction = ticks & ((1L << k) - 1);
            // fraction < 2^k, so fraction * 10^9 needs up to k + 30 bits: take it from the 128-bit product.
            long lo = fraction * 1_000_000_000L;
            long hi = Math.multiplyHigh(fraction, 1_000_000_000L);
            long fractionNanos = k == 0 ? 0 : (hi << (64 - k)) | (lo >>> k);
            nanos = (ticks >>> k) * 1_000_000_000L + fractionNanos;
        }
        return nanos + tsOffsetSeconds * 1_000_000_000L;
    }

    /** Writes the whole block at the buffer's position in the buffer's byte order and advances past it. */
    void writeTo(ByteBuffer b) {
        int length = IDB_OPTIONS + (tsresol != DEFAULT_TSRESOL ? 8 : 0) + (tsOffsetSeconds != 0 ? 12 : 0) + 4 + 4;
        b.putInt(TYPE_IDB);
        b.putInt(length);
        b.putShort((short) linkType);
        b.putShort((short) 0);
        b.putInt((int) snapLen);
        if (tsresol != DEFAULT_TSRESOL) putOption(b, OPT_IF_TSRESOL, new byte[]{(byte) tsresol});
        if (tsOffsetSeconds != 0) {
            b.putShort((short) OPT_IF_TSOFFSET);
            b.putShort((short) 8);
            b.putLong(tsOffsetSeconds);
        }
        putEndOfOptions(b);
        b.putInt(length);
    }
}
