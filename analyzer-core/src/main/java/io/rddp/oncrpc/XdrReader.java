package io.rddp.oncrpc;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an XDR stream (RFC 4506: big-endian 4-octet units, opaque data padded to a multiple of four) that may be
 * pieced together from several buffers and "holes": stretches whose length is known but whose octets the capture
 * does not hold, such as a data item reduced to an RPC-over-RDMA chunk (RFC 8166 §3.4.1). A hole can be skipped,
 * not read. Every length read from the stream is checked against what is really there before it is used.
 */
public final class XdrReader {
    private final List<ByteBuffer> pieces; // null element: a hole
    private final List<Long> lengths;
    private final long length;
    private int piece;
    private long inPiece;
    private long position;

    private XdrReader(List<ByteBuffer> pieces, List<Long> lengths) {
        this.pieces = pieces;
        this.lengths = lengths;
        long total = 0;
        for (long l : lengths) total += l;
        this.length = total;
    }

    /** The remaining octets of {@code buffer} (its position and limit are not changed). */
    public static XdrReader of(ByteBuffer buffer) {
        return builder().add(buffer).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Pieces in stream order. */
    public static final class Builder {
        private final List<ByteBuffer> pieces = new ArrayList<>();
        private final List<Long> lengths = new ArrayList<>();

        /** The remaining octets of {@code buffer}, as a view. */
        public Builder add(ByteBuffer buffer) {
            if (buffer.hasRemaining()) {
                pieces.add(buffer.slice());
                lengths.add((long) buffer.remaining());
            }
            return this;
        }

        /** {@code n} octets that are part of the stream but not available. */
        public Builder addHole(long n) {
            if (n < 0) throw new IllegalArgumentException("hole length " + n);
            if (n > 0) {
                pieces.add(null);
                lengths.add(n);
            }
            return this;
        }

        public XdrReader build() {
            return new XdrReader(new ArrayList<>(pieces), new ArrayList<>(lengths));
        }
    }

    public long position() {
        return position;
    }

    public long length() {
        return length;
    }

    public long remaining() {
        return length - position;
    }

    /** Whether the stream holds holes anywhere. */
    public boolean hasHoles() {
        return pieces.contains(null);
    }

    public long u32() throws MalformedException {
        return ((long) octet() << 24 | (long) octet() << 16 | (long) octet() << 8 | octet()) & 0xFFFF_FFFFL;
    }

    public int i32() throws MalformedException {
        return (int) u32();
    }

    public long u64() throws MalformedException {
        return u32() << 32 | u32();
    }

    /** An XDR bool: 0 or 1, anything else is not XDR (RFC 4506 §4.4). */
    public boolean bool() throws MalformedException {
        long at = position;
        long v = u32();
        if (v > 1) throw new MalformedException("XDR bool is " + v + ", must be 0 or 1", at);
        return v == 1;
    }

    /** A length word of a variable-length item, checked against {@code max} and against the octets left. */
    public long length(long max, String what) throws MalformedException {
        long at = position;
        long n = u32();
        if (n > max) throw new MalformedException(what + " length " + n + " exceeds its limit " + max, at);
        if (n > remaining()) {
            throw new MalformedException(what + " length " + n + " but only " + remaining() + " octets follow", at);
        }
        return n;
    }

    /** Skips variable-length opaque data (length word, octets, padding), holes included. */
    public long skipOpaque(long max, String what) throws MalformedException {
        long n = length(max, what);
        skip(padded(n));
        return n;
    }

    /** Variable-length opaque data, read (it must not fall in a hole). */
    public byte[] opaque(int max, String what) throws MalformedException {
        int n = (int) length(max, what);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) octet();
        skip(padded(n) - n);
        return b;
    }

    public String string(int max, String what) throws MalformedException {
        return new String(opaque(max, what), StandardCharsets.UTF_8);
    }

    /** Skips {@code n} octets; holes may be skipped. */
    public void skip(long n) throws MalformedException {
        if (n < 0 || n > remaining()) {
            throw new MalformedException("XDR item of " + n + " octets runs past the end (" + remaining() + " left)",
                    position);
        }
        long left = n;
        while (left > 0) {
            long here = Math.min(left, lengths.get(piece) - inPiece);
            inPiece += here;
            position += here;
            left -= here;
            if (inPiece == lengths.get(piece)) {
                piece++;
                inPiece = 0;
            }
        }
    }

    /** XDR roundup of a length to a multiple of four (RFC 4506 §3; RFC 8166 §2.2.4.2). */
    public static long padded(long n) {
        return (n + 3) & ~3L;
    }

    private int octet() throws MalformedException {
        if (position >= length) throw new MalformedException("XDR stream ends after " + length + " octets", position);
        ByteBuffer b = pieces.get(piece);
        if (b == null) {
            throw new MalformedException("XDR item at " + position + " lies in data the capture does not hold "
                    + "(moved by RDMA and not seen)", position);
        }
        int v = b.get((int) inPiece) & 0xFF;
        position++;
        if (++inPiece == lengths.get(piece)) {
            piece++;
            inPiece = 0;
        }
        return v;
    }
}
