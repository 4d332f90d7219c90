package io.rddp.gui.model;

import java.io.UTFDataFormatException;
import java.util.Arrays;

/**
 * The field store's record under construction: a growable byte array with {@link java.io.DataOutputStream}'s
 * encodings (big-endian numbers, modified UTF-8 with a two-byte length), so that {@link java.io.DataInputStream}
 * reads it back. Not a DataOutputStream over a ByteArrayOutputStream: that takes a lock for every byte, and a record
 * has a few hundred of them, for every PDU of the capture.
 */
final class RecordBuffer {
    private byte[] bytes = new byte[512];
    private int size;

    void reset() {
        size = 0;
    }

    int size() {
        return size;
    }

    /** The backing array; its first {@link #size()} bytes are the record. */
    byte[] array() {
        return bytes;
    }

    private void room(int n) {
        if (size + n > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + n));
    }

    void writeByte(int v) {
        room(1);
        bytes[size++] = (byte) v;
    }

    void writeBoolean(boolean v) {
        writeByte(v ? 1 : 0);
    }

    void writeShort(int v) {
        room(2);
        bytes[size] = (byte) (v >>> 8);
        bytes[size + 1] = (byte) v;
        size += 2;
    }

    void writeInt(int v) {
        room(4);
        bytes[size] = (byte) (v >>> 24);
        bytes[size + 1] = (byte) (v >>> 16);
        bytes[size + 2] = (byte) (v >>> 8);
        bytes[size + 3] = (byte) v;
        size += 4;
    }

    void write(byte[] b, int off, int len) {
        room(len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
    }

    /** The next {@code len} octets of {@code b} from its position, which does not move. */
    void write(java.nio.ByteBuffer b, int len) {
        room(len);
        b.get(b.position(), bytes, size, len);
        size += len;
    }

    /** Seven bits a byte, low first, the high bit saying more follow. */
    void writeVarLong(long v) {
        room(10);
        while ((v & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[size++] = (byte) v;
    }

    /** As {@link java.io.DataOutputStream#writeUTF}: a two-byte length, then modified UTF-8. */
    void writeUTF(CharSequence s) throws UTFDataFormatException {
        int n = s.length();
        room(2 + 3 * n);
        int start = size;
        int at = start + 2;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c != 0 && c < 0x80) {
                bytes[at++] = (byte) c;
            } else if (c < 0x800) {
                bytes[at++] = (byte) (0xC0 | (c >> 6));
                bytes[at++] = (byte) (0x80 | (c & 0x3F));
            } else {
                bytes[at++] = (byte) (0xE0 | (c >> 12));
                bytes[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                bytes[at++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        int len = at - start - 2;
        if (len > 0xFFFF) throw new UTFDataFormatException("text of " + len + " bytes: more than 65535");
        bytes[start] = (byte) (len >>> 8);
        bytes[start + 1] = (byte) len;
        size = at;
    }
}
