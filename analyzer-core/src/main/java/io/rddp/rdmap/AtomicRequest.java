package io.rddp.rdmap;

import io.rddp.MalformedException;

import io.rddp.ddp.NetworkOrder;

import java.nio.ByteBuffer;

/**
 * Atomic Operation Request Header, RFC 7306 §5.2.1 Figure 4 (52 octets): Reserved (28 bits) | AOpCode (4),
 * Request Identifier (32), Remote STag (32), Remote Tagged Offset (64), Add or Swap Data (64), Add or Swap Mask (64),
 * Compare Data (64), Compare Mask (64).
 *
 * @param reserved        the 28 reserved bits (RFC 7306: zero on transmit, ignored on receive)
 * @param atomicOpcode    AOpCode, 4 bits: 0 FetchAdd, 2 CmpSwap (RFC 7306 §5.2.1 Figure 5, §10.1)
 * @param requestId       Request Identifier, 32 bits unsigned
 * @param remoteStag      Remote STag, 32 bits unsigned
 * @param remoteTo        Remote Tagged Offset, 64 bits unsigned
 * @param addOrSwapData   Add Data (FetchAdd) or Swap Data (CmpSwap)
 * @param addOrSwapMask   Add Mask or Swap Mask
 * @param compareData     Compare Data (CmpSwap; zero otherwise)
 * @param compareMask     Compare Mask (CmpSwap; all ones otherwise)
 */
public record AtomicRequest(int reserved, int atomicOpcode, long requestId, long remoteStag, long remoteTo,
                            long addOrSwapData, long addOrSwapMask, long compareData, long compareMask)
        implements RdmapHeader {

    public static final int LENGTH = 52;
    /** RFC 7306 §10.1 RDMAP Message Atomic Operation Subcodes. */
    public static final int FETCH_ADD = 0x0;
    public static final int CMP_SWAP = 0x2;

    public AtomicRequest {
        if (reserved < 0 || reserved > 0x0FFF_FFFF) {
            throw new IllegalArgumentException("Atomic Request reserved field is 28 bits: " + reserved);
        }
        if (atomicOpcode < 0 || atomicOpcode > 15) {
            throw new IllegalArgumentException("AOpCode is 4 bits: " + atomicOpcode);
        }
        RdmapHeader.checkU32("Request Identifier", requestId);
        RdmapHeader.checkU32("Remote STag", remoteStag);
    }

    /** FetchAdd with the fields RFC 7306 §5.2.1 wants for it (Compare Data 0, Compare Mask all ones). */
    public static AtomicRequest fetchAdd(long requestId, long remoteStag, long remoteTo, long addData, long addMask) {
        return new AtomicRequest(0, FETCH_ADD, requestId, remoteStag, remoteTo, addData, addMask, 0, -1L);
    }

    public static AtomicRequest cmpSwap(long requestId, long remoteStag, long remoteTo, long swapData, long swapMask,
                                        long compareData, long compareMask) {
        return new AtomicRequest(0, CMP_SWAP, requestId, remoteStag, remoteTo, swapData, swapMask, compareData,
                compareMask);
    }

    /** Reads the header at buf's position without moving it. */
    public static AtomicRequest parse(ByteBuffer buf) throws MalformedException {
        buf = NetworkOrder.reading(buf);
        if (buf.remaining() < LENGTH) {
            throw new MalformedException("Atomic Request header needs " + LENGTH + " bytes (RFC 7306 §5.2.1), "
                    + buf.remaining() + " remain", buf.remaining());
        }
        int p = buf.position();
        int first = buf.getInt(p);
        return new AtomicRequest(first >>> 4, first & 0xF, Integer.toUnsignedLong(buf.getInt(p + 4)),
                Integer.toUnsignedLong(buf.getInt(p + 8)), buf.getLong(p + 12), buf.getLong(p + 20),
                buf.getLong(p + 28), buf.getLong(p + 36), buf.getLong(p + 44));
    }

    /** "FetchAdd", "CmpSwap", "Reserved" (1) or "Unassigned n" (RFC 7306 §10.1). */
    public String operationName() {
        return switch (atomicOpcode) {
            case FETCH_ADD -> "FetchAdd";
            case 0x1 -> "Reserved";
            case CMP_SWAP -> "CmpSwap";
            default -> "Unassigned " + atomicOpcode;
        };
    }

    @Override
    public int length() {
        return LENGTH;
    }

    @Override
    public void writeTo(ByteBuffer out) {
        NetworkOrder.writing(out, o -> {
            o.putInt((reserved << 4) | atomicOpcode).putInt((int) requestId).putInt((int) remoteStag)
                    .putLong(remoteTo).putLong(addOrSwapData).putLong(addOrSwapMask).putLong(compareData)
                    .putLong(compareMask);
        });
    }
}
