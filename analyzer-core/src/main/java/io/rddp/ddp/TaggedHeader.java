package io.rddp.ddp;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;

/**
 * DDP Tagged Buffer Model header, RFC 5041 §4.2 (14 octets):
 * <pre>
 * |T|L| Rsvd  | DV|   RsvdULP     |  (T = 1)
 * |                 STag (32)                     |
 * |                  TO (64)                      |
 * </pre>
 *
 * @param last     L flag
 * @param reserved the 4 Rsvd bits of the control field
 * @param version  DV, 2 bits
 * @param rsvdUlp  RsvdULP, 8 bits (the RDMAP control field under RDMAP)
 * @param stag     STag, 32 bits unsigned
 * @param to       Tagged Offset, 64 bits unsigned (print with {@link Long#toUnsignedString(long)})
 */
public record TaggedHeader(boolean last, int reserved, int version, int rsvdUlp, long stag, long to)
        implements DdpHeader {

    public TaggedHeader {
        DdpHeader.checkControl(reserved, version);
        if (rsvdUlp < 0 || rsvdUlp > 0xFF) throw new IllegalArgumentException("tagged RsvdULP is 8 bits: " + rsvdUlp);
        DdpHeader.checkU32("STag", stag);
    }

    /** A header as RFC 5041 wants it on transmit: DV 1, Rsvd 0. */
    public static TaggedHeader of(boolean last, int rsvdUlp, long stag, long to) {
        return new TaggedHeader(last, 0, 1, rsvdUlp, stag, to);
    }

    /**
     * Reads a tagged header at buf's position without moving it.
     *
     * @throws MalformedException when fewer than 14 bytes remain or the T bit is 0
     */
    public static TaggedHeader parse(ByteBuffer buf) throws MalformedException {
        buf = NetworkOrder.reading(buf);
        int p = buf.position();
        if (buf.remaining() < TAGGED_LENGTH) {
            throw new MalformedException("tagged DDP header needs " + TAGGED_LENGTH + " bytes (RFC 5041 §4.2), "
                    + buf.remaining() + " remain", buf.remaining());
        }
        int control = buf.get(p) & 0xFF;
        if ((control & T_BIT) == 0) {
            throw new MalformedException("T bit is 0: not a tagged DDP header (RFC 5041 §4.1)", 0);
        }
        return new TaggedHeader((control & L_BIT) != 0, (control & RSVD_MASK) >>> 2, control & DV_MASK,
                buf.get(p + 1) & 0xFF, Integer.toUnsignedLong(buf.getInt(p + 2)), buf.getLong(p + 6));
    }

    @Override
    public boolean tagged() {
        return true;
    }

    @Override
    public int headerLength() {
        return TAGGED_LENGTH;
    }

    @Override
    public int rsvdUlpFirstOctet() {
        return rsvdUlp;
    }

    @Override
    public long offset() {
        return to;
    }

    @Override
    public TaggedHeader withLast(boolean last) {
        return new TaggedHeader(last, reserved, version, rsvdUlp, stag, to);
    }

    @Override
    public TaggedHeader withOffset(long offset) {
        return new TaggedHeader(last, reserved, version, rsvdUlp, stag, offset);
    }

    @Override
    public void writeTo(ByteBuffer out) {
        NetworkOrder.writing(out, o -> {
            o.put((byte) controlByte()).put((byte) rsvdUlp).putInt((int) stag).putLong(to);
        });
    }

    @Override
    public String toString() {
        return "tagged" + (last ? " L" : "") + " DV " + version + (reserved != 0 ? " Rsvd " + reserved : "")
                + " RsvdULP 0x" + Integer.toHexString(rsvdUlp) + " STag 0x" + Long.toHexString(stag)
                + " TO " + Long.toUnsignedString(to);
    }
}
