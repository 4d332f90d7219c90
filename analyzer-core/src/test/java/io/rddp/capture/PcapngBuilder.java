package io.rddp.capture;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Builds pcapng files block by block, independent of {@link PcapngWriter}, so that tests can make any block,
 * any byte order and any lie about lengths.
 */
final class PcapngBuilder {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ByteOrder order = ByteOrder.LITTLE_ENDIAN;

    /** Offset the next block will have. */
    long offset() {
        return out.size();
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    PcapngBuilder shb(ByteOrder order) {
        return shb(order, 1, -1);
    }

    PcapngBuilder shb(ByteOrder order, int major, long sectionLength) {
        this.order = order;
        ByteBuffer b = body(16);
        b.putInt(0x1A2B3C4D).putShort((short) major).putShort((short) 0).putLong(sectionLength);
        return block(0x0A0D0D0A, b);
    }

    /** An IDB; tsresol or tsoffset null leave the option out. */
    PcapngBuilder idb(int linkType, int snapLen, Integer tsresol, Long tsOffset) {
        ByteBuffer b = body(64);
        b.putShort((short) linkType).putShort((short) 0).putInt(snapLen);
        if (tsresol != null) b.putShort((short) 9).putShort((short) 1).put((byte) (int) tsresol).put(new byte[3]);
        if (tsOffset != null) b.putShort((short) 14).putShort((short) 8).putLong(tsOffset);
        b.putInt(0);
        return block(1, b);
    }

    PcapngBuilder epb(int interfaceId, long ticks, byte[] data, int originalLength, String... comments) {
        ByteBuffer b = body(20 + data.length + 3 + options(comments));
        b.putInt(interfaceId).putInt((int) (ticks >>> 32)).putInt((int) ticks).putInt(data.length)
                .putInt(originalLength).put(data);
        pad(b);
        putComments(b, comments);
        return block(6, b);
    }

    /** Obsolete Packet Block (Appendix A): 16-bit interface ID and drops count. */
    PcapngBuilder opb(int interfaceId, int drops, long ticks, byte[] data, String... comments) {
        ByteBuffer b = body(20 + data.length + 3 + options(comments));
        b.putShort((short) interfaceId).putShort((short) drops).putInt((int) (ticks >>> 32)).putInt((int) ticks)
                .putInt(data.length).putInt(data.length).put(data);
        pad(b);
        putComments(b, comments);
        return block(2, b);
    }

    PcapngBuilder spb(int originalLength, byte[] data) {
        ByteBuffer b = body(4 + data.length + 3);
        b.putInt(originalLength).put(data);
        pad(b);
        return block(3, b);
    }

    /** Any block with the given body, lengths right. */
    PcapngBuilder block(int type, byte[] body) {
        ByteBuffer b = body(body.length + 3);
        b.put(body);
        pad(b);
        return block(type, b);
    }

    PcapngBuilder raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    ByteBuffer order(ByteBuffer b) {
        return b.order(order);
    }

    private static int options(String... comments) {
        int n = 4;
        for (String c : comments) n += 4 + c.getBytes(StandardCharsets.UTF_8).length + 3;
        return n;
    }

    private static void putComments(ByteBuffer b, String... comments) {
        if (comments.length == 0) return;
        for (String c : comments) {
            byte[] t = c.getBytes(StandardCharsets.UTF_8);
            b.putShort((short) 1).putShort((short) t.length).put(t);
            pad(b);
        }
        b.putInt(0);
    }

    private ByteBuffer body(int capacity) {
        return ByteBuffer.allocate(capacity).order(order);
    }

    private static void pad(ByteBuffer b) {
        while (b.position() % 4 != 0) b.put((byte) 0);
    }

    private PcapngBuilder block(int type, ByteBuffer body) {
        int length = 12 + body.position();
        ByteBuffer b = ByteBuffer.allocate(length).order(order);
        b.putInt(type).putInt(length).put(body.array(), 0, body.position()).putInt(length);
        out.writeBytes(b.array());
        return this;
    }
}
