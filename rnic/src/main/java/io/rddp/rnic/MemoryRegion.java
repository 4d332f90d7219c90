package io.rddp.rnic;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;

/**
 * A registered buffer: real bytes that remote peers write, read and update through its STag within
 * [baseTo, baseTo + length) (RFC 5040 §3.2). The placement methods clip to the buffer: they are only called after
 * the sink model found the access in bounds, except under the {@link Bug#NO_BOUNDS_CHECK} knob, which must not take
 * the RNIC down either.
 */
public final class MemoryRegion {

    public enum State { VALID, INVALID, DEREGISTERED }

    private final int id;
    private final long stag;
    private final long baseTo;
    private final byte[] bytes;
    private final Set<Access> access;
    private final ProtectionDomain pd;
    private volatile State state = State.VALID;

    MemoryRegion(int id, long stag, long baseTo, int length, Set<Access> access, ProtectionDomain pd) {
        this.id = id;
        this.stag = stag;
        this.baseTo = baseTo;
        this.bytes = new byte[length];
        this.access = Set.copyOf(access);
        this.pd = pd;
    }

    public int id() {
        return id;
    }

    /** 24-bit index and 8-bit key (RFC 5040 §2.1: a 32-bit STag). */
    public long stag() {
        return stag;
    }

    /** Tagged Offset of the first octet. */
    public long baseTo() {
        return baseTo;
    }

    public int length() {
        return bytes.length;
    }

    public Set<Access> access() {
        return access;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public State state() {
        return state;
    }

    void state(State s) {
        state = s;
    }

    /** Offset in the buffer of Tagged Offset {@code to}, or -1 when outside. */
    long offsetOf(long to) {
        long off = to - baseTo;
        return Long.compareUnsigned(to, baseTo) >= 0 && off < bytes.length ? off : -1;
    }

    /** Copies {@code src} (position to limit, not moved) to Tagged Offset {@code to}, as much as fits. */
    int place(long to, ByteBuffer src) {
        long off = offsetOf(to);
        if (off < 0) return 0;
        int n = (int) Math.min(src.remaining(), bytes.length - off);
        src.duplicate().get(bytes, (int) off, n);
        return n;
    }

    /** Copies at buffer offset {@code off}, as much as fits. */
    int placeAt(int off, ByteBuffer src) {
        if (off < 0 || off >= bytes.length) return 0;
        int n = Math.min(src.remaining(), bytes.length - off);
        src.duplicate().get(bytes, off, n);
        return n;
    }

    /** {@code len} octets from Tagged Offset {@code to}; octets outside the buffer read as zero. */
    byte[] read(long to, int len) {
        byte[] out = new byte[len];
        long off = offsetOf(to);
        if (off >= 0) System.arraycopy(bytes, (int) off, out, 0, (int) Math.min(len, bytes.length - off));
        return out;
    }

    /** A view of [off, off + len) of the buffer (clipped), for sending without a copy. */
    ByteBuffer view(int off, int len) {
        int from = Math.max(0, Math.min(off, bytes.length));
        int n = Math.max(0, Math.min(len, bytes.length - from));
        return ByteBuffer.wrap(bytes, from, n).slice();
    }

    /** The memory as the owner reads it (DUT control protocol read_mem). */
    public byte[] copy(int off, int len) {
        checkRange(off, len);
        return Arrays.copyOfRange(bytes, off, off + len);
    }

    /** The owner writes its memory (write_mem, or a local fill). */
    public void write(int off, byte[] data) {
        checkRange(off, data.length);
        System.arraycopy(data, 0, bytes, off, data.length);
    }

    /** Fills the whole buffer with {@code pattern} repeated. */
    public void fill(byte[] pattern) {
        if (pattern.length == 0) return;
        for (int i = 0; i < bytes.length; i++) bytes[i] = pattern[i % pattern.length];
    }

    /**
     * RFC 7306 §5.2 atomic operation on the 64-bit value at {@code to}, in network byte order in memory. Returns the
     * original value.
     */
    synchronized long atomic(long to, boolean cmpSwap, long addOrSwap, long swapMask, long compare, long compareMask) {
        long off = offsetOf(to);
        if (off < 0 || off + 8 > bytes.length) return 0;
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long original = b.getLong((int) off);
        long updated;
        if (cmpSwap) {
            // RFC 7306 §5.2.1: swap the masked bits when the masked compare matches
            updated = ((original & compareMask) == (compare & compareMask))
                    ? (original & ~swapMask) | (addOrSwap & swapMask) : original;
        } else {
            updated = maskedAdd(original, addOrSwap, swapMask);
        }
        b.putLong((int) off, updated);
        return original;
    }

    /**
     * RFC 7306 §5.2.1 FetchAdd with an Add Mask: a bit set in the mask marks the most significant bit of a field, and
     * no carry leaves a field; a zero mask is one 64-bit field (a plain add).
     */
    static long maskedAdd(long original, long add, long mask) {
        if (mask == 0) return original + add;
        long result = 0;
        int carry = 0;
        for (int bit = 0; bit < 64; bit++) {
            int sum = (int) ((original >>> bit) & 1) + (int) ((add >>> bit) & 1) + carry;
            result |= (long) (sum & 1) << bit;
            carry = ((mask >>> bit) & 1) != 0 ? 0 : sum >>> 1;
        }
        return result;
    }

    private void checkRange(int off, int len) {
        if (off < 0 || len < 0 || (long) off + len > bytes.length) {
            throw new RnicException(RnicException.Kind.BAD_REQUEST, "range [" + off + ", +" + len
                    + ") is outside region " + id + " of " + bytes.length + " octets");
        }
    }

    @Override
    public String toString() {
        return "mr " + id + " STag 0x" + Long.toHexString(stag) + " TO 0x" + Long.toHexString(baseTo) + " len "
                + bytes.length + " " + access + " pd " + pd.id() + " " + state;
    }

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }
}
