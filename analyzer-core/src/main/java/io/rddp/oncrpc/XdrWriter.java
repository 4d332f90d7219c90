package io.rddp.oncrpc;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Builds an XDR stream (RFC 4506); the encoder half of {@link XdrReader}, used by generators and tests. */
public final class XdrWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public XdrWriter u32(long v) {
        out.write((int) (v >>> 24));
        out.write((int) (v >>> 16));
        out.write((int) (v >>> 8));
        out.write((int) v);
        return this;
    }

    public XdrWriter u64(long v) {
        return u32(v >>> 32).u32(v);
    }

    public XdrWriter bool(boolean v) {
        return u32(v ? 1 : 0);
    }

    /** Variable-length opaque: length word, octets, zero padding to four. */
    public XdrWriter opaque(byte[] data) {
        u32(data.length);
        return fixed(data);
    }

    /** Fixed-length opaque: octets and zero padding to four. */
    public XdrWriter fixed(byte[] data) {
        out.write(data, 0, data.length);
        for (long i = data.length; i < XdrReader.padded(data.length); i++) out.write(0);
        return this;
    }

    public XdrWriter string(String s) {
        return opaque(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Octets as they are, no length and no padding (an already encoded stream). */
    public XdrWriter raw(byte[] data) {
        out.write(data, 0, data.length);
        return this;
    }

    public int size() {
        return out.size();
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }

    public ByteBuffer toBuffer() {
        return ByteBuffer.wrap(toByteArray());
    }
}
