package io.rddp.sink;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a user knows of one STag (RFC 5040 §3.2: "STag; range of Tagged Offsets ...; remote access rights ...;
 * association between a given STag and a given RDMAP Stream"), e.g. from the `--stags` file.
 *
 * @param stag            the STag, 32 bits unsigned
 * @param baseTo          first valid Tagged Offset, 64 bits unsigned
 * @param length          octets from baseTo on, 64 bits unsigned (0: only zero-length access)
 * @param access          remote access rights granted
 * @param owner           the side whose buffer it is, or null for either side
 * @param streams         the TCP streams the STag is associated with; empty for any stream
 * @param validFromFrame  first frame at which the STag is valid (0: from the start)
 * @param validUntilFrame last frame at which it is valid ({@link Long#MAX_VALUE}: to the end)
 */
public record StagRegistration(long stag, long baseTo, long length, Set<Access> access, Side owner,
                               Set<Integer> streams, long validFromFrame, long validUntilFrame) {

    /** Remote access rights (RFC 5040 §3.2; atomics per RFC 7306 §5). */
    public enum Access { READ, WRITE, ATOMIC }

    public StagRegistration {
        if (stag < 0 || stag > 0xFFFF_FFFFL) throw new IllegalArgumentException("STag is 32 bits: " + stag);
        access = access.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(access));
        streams = Set.copyOf(streams);
        if (validUntilFrame < validFromFrame) {
            throw new IllegalArgumentException("valid until " + validUntilFrame + " before valid from "
                    + validFromFrame);
        }
    }

    /** Valid on every stream for the whole capture. */
    public static StagRegistration of(long stag, long baseTo, long length, Set<Access> access) {
        return new StagRegistration(stag, baseTo, length, access, null, Set.of(), 0, Long.MAX_VALUE);
    }

    public boolean appliesTo(int stream) {
        return streams.isEmpty() || streams.contains(stream);
    }

    public boolean validAt(long frame) {
        return frame >= validFromFrame && frame <= validUntilFrame;
    }

    /** Whether [to, to + len) lies within [baseTo, baseTo + length), all unsigned 64-bit. */
    public boolean contains(long to, long len) {
        long off = to - baseTo;
        if (Long.compareUnsigned(to, baseTo) < 0 || Long.compareUnsigned(off, length) > 0) return false;
        return Long.compareUnsigned(len, length - off) <= 0;
    }

    @Override
    public String toString() {
        return "STag 0x" + Long.toHexString(stag) + " TO 0x" + Long.toHexString(baseTo) + " length "
                + Long.toUnsignedString(length) + " " + access + (owner != null ? " owner " + owner : "")
                + (streams.isEmpty() ? "" : " streams " + streams)
                + (validFromFrame > 0 ? " from frame " + validFromFrame : "")
                + (validUntilFrame < Long.MAX_VALUE ? " until frame " + validUntilFrame : "");
    }
}
