package io.rddp.ddp;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;

/**
 * DDP Untagged Buffer Model header, RFC 5041 §4.3 (18 octets):
 * <pre>
 * |T|L| Rsvd  | DV| RsvdULP[0:7]  |  (T = 0)
 * |               RsvdULP[8:39]                   |
 * |                 QN (32)                       |
 * |                 MSN (32)                      |
 * |                 MO (32)                       |
 * </pre>
 *
 * @param last     L flag
 * @param reserved the 4 Rsvd bits of the control field
 * @param version  DV, 2 bits
 * @param rsvdUlp  RsvdULP, all 40 bits as one number (RsvdULP[0:7] is the top octet)
 * @param qn       Queue Number, 32 bits unsigned
 * @param msn      Message Sequence Number, 32 bits unsigned
 * @param mo       Message Offset, 32 bits unsigned
 */
public record UntaggedHeader(boolean last, int reserved, int version, long rsvdUlp, long qn, long msn, long mo)
        implements DdpHeader {

    public static final long RSVD_ULP_MASK = 0xFF_FFFF_FFFFL;

    public UntaggedHeader {
        DdpHeader.checkControl(reserved, version);
        if ((rsvdUlp & ~RSVD_ULP_MASK) != 0) {
            throw new IllegalArgumentException("untagged RsvdULP is 40 bits: 0x" + Long.toHexString(rsvdUlp));
        }
        DdpHeader.checkU32("QN", qn);
        DdpHeader.checkU32("MSN", msn);
        DdpHeader.checkU32("MO", mo);
    }

    /** A header as RFC 5041 wants it on transmit: DV 1, Rsvd 0. */
    public static UntaggedHeader of(boolean last, long rsvdUlp, long qn, long msn, long mo) {
        return new UntaggedHeader(last, 0, 1, rsvdUlp, qn, msn, mo);
    }

    /**
     * Reads an untagged header at buf's position without moving it.
     *
     * @throws MalformedException when fewer than 18 bytes remain or the T bit is 1
     */
    public static UntaggedHeader parse(ByteBuffer buf) throws MalformedException {
        buf = NetworkOrder.reading(buf);
        int p = buf.position();
        if (buf.remaining() < UNTAGGED_LENGTH) {
            throw new MalformedException("untagged DDP header needs " + UNTAGGED_LENGTH + " bytes (RFC 5041 §4.3), "
                    + buf.remaining() + " remain", buf.remaining());
        }
        int control = buf.get(p) & 0xFF;
        if ((control & T_BIT) != 0) {
            throw new MalformedException("T bit is 1: not an untagged DDP header (RFC 5041 §4.1)", 0);
        }
        long rsvdUlp = ((long) (buf.get(p + 1) & 0xFF) << 32) | Integer.toUnsignedLong(buf.getInt(p + 2));
        return new UntaggedHeader((control & L_BIT) != 0, (control & RSVD_MASK) >>> 2, control & DV_MASK, rsvdUlp,
                Integer.toUnsignedLong(buf.getInt(p + 6)), Integer.toUnsignedLong(buf.getInt(p + 10)),
                Integer.toUnsignedLong(buf.getInt(p + 14)));
    }

    @Override
    public boolean tagged() {
        return false;
    }

    @Override
    public int headerLength() {
        return UNTAGGED_LENGTH;
    }

    @Override
    public int rsvdUlpFirstOctet() {
        return (int) (rsvdUlp >>> 32);
    }

    /** RsvdULP[8:39], the 32 bits where RDMAP carries the Invalidate STag (RFC 5040 §4.1). */
    public long rsvdUlpLow32() {
        return rsvdUlp & 0xFFFF_FFFFL;
    }

    @Override
    public long offset() {
        return mo;
    }

    @Override
    public UntaggedHeader withLast(boolean last) {
        return new UntaggedHeader(last, reserved, version, rsvdUlp, qn, msn, mo);
    }

    @Override
    public UntaggedHeader withOffset(long offset) {
        return new UntaggedHeader(last, reserved, version, rsvdUlp, qn, msn, offset & 0xFFFF_FFFFL);
    }

    @Override
    public void writeTo(ByteBuffer out) {
        NetworkOrder.writing(out, o -> {
            o.put((byte) controlByte()).put((byte) (rsvdUlp >>> 32)).putInt((int) rsvdUlp)
                    .putInt((int) qn).putInt((int) msn).putInt((int) mo);
        });
    }

    @Override
    public String toString() {
        return "untagged" + (last ? " L" : "") + " DV " + version + (reserved != 0 ? " Rsvd " + reserved : "")
                + " RsvdULP 0x" + Long.toHexString(rsvdUlp) + " QN " + qn + " MSN " + msn + " MO " + mo;
    }
}
