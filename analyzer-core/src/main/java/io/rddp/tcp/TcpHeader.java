package io.rddp.tcp;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;

/**
 * TCP header (RFC 9293 §3.1). The static readers take an absolute index and serve {@link PacketDecoder}'s
 * allocation-free path; {@link #parse} and {@link #writeTo} use the same offsets.
 *
 * <pre>
 * |          Source Port          |       Destination Port        |
 * |                        Sequence Number                        |
 * |                    Acknowledgment Number                      |
 * |  Data |       |C|E|U|A|P|R|S|F|                               |
 * | Offset| Rsrvd |W|C|R|C|S|S|Y|I|            Window             |
 * |           Checksum            |         Urgent Pointer        |
 * |                    Options (Data Offset > 5)                  |
 * </pre>
 * The flags value keeps the low 9 bits of the 16-bit word at offset 12, so bit 8 is the former NS bit (RFC 3540,
 * historic) and the rest are RFC 9293's control bits.
 *
 * @param sourcePort      Source Port
 * @param destinationPort Destination Port
 * @param sequence        Sequence Number, unsigned 32 bits
 * @param acknowledgment  Acknowledgment Number, unsigned 32 bits
 * @param dataOffset      Data Offset in 32-bit words (5..15)
 * @param flags           control bits, see the constants
 * @param window          Window, unscaled
 * @param checksum        Checksum as on the wire
 * @param urgentPointer   Urgent Pointer
 * @param options         option bytes, (dataOffset - 5) * 4 of them (the record's own array: do not modify)
 */
public record TcpHeader(int sourcePort, int destinationPort, long sequence, long acknowledgment, int dataOffset,
                        int flags, int window, int checksum, int urgentPointer, byte[] options) {

    public static final int PROTOCOL_NUMBER = 6;
    public static final int MIN_LENGTH = 20;

    public static final int FIN = 0x01;
    public static final int SYN = 0x02;
    public static final int RST = 0x04;
    public static final int PSH = 0x08;
    public static final int ACK = 0x10;
    public static final int URG = 0x20;
    public static final int ECE = 0x40;
    public static final int CWR = 0x80;
    public static final int NS = 0x100;

    public TcpHeader {
        if (options.length % 4 != 0 || options.length > 40 || dataOffset != 5 + options.length / 4) {
            throw new IllegalArgumentException("data offset " + dataOffset + " does not match " + options.length
                    + " option bytes (options must be padded to 4-byte words, at most 40)");
        }
    }

    /** A header without options, checksum 0. */
    public static TcpHeader of(int sourcePort, int destinationPort, long sequence, long acknowledgment, int flags,
                               int window) {
        return new TcpHeader(sourcePort, destinationPort, sequence, acknowledgment, 5, flags, window, 0, 0,
                new byte[0]);
    }

    public int headerLength() {
        return dataOffset * 4;
    }

    // --- absolute readers (RFC 9293 §3.1 offsets) ---

    static int sourcePort(ByteBuffer b, int at) {
        return b.getShort(at) & 0xffff;
    }

    static int destinationPort(ByteBuffer b, int at) {
        return b.getShort(at + 2) & 0xffff;
    }

    static long sequence(ByteBuffer b, int at) {
        return b.getInt(at + 4) & 0xffffffffL;
    }

    static long acknowledgment(ByteBuffer b, int at) {
        return b.getInt(at + 8) & 0xffffffffL;
    }

    /** Data Offset in bytes. */
    static int headerLength(ByteBuffer b, int at) {
        return ((b.get(at + 12) & 0xff) >>> 4) * 4;
    }

    static int flags(ByteBuffer b, int at) {
        return b.getShort(at + 12) & 0x1ff;
    }

    static int window(ByteBuffer b, int at) {
        return b.getShort(at + 14) & 0xffff;
    }

    static final int CHECKSUM_OFFSET = 16;

    /**
     * Parses the header at the buffer's position without moving it.
     *
     * @throws MalformedException when fewer than 20 bytes or fewer than Data Offset words are present, or Data
     *                            Offset is below 5
     */
    public static TcpHeader parse(ByteBuffer buf) throws MalformedException {
        int at = buf.position();
        int have = buf.remaining();
        if (have < MIN_LENGTH) {
            throw new MalformedException("TCP header needs 20 bytes, " + have + " present", 0);
        }
        int hl = headerLength(buf, at);
        if (hl < MIN_LENGTH) { // RFC 9293 §3.1: Data Offset counts 32-bit words, at least 5
            throw new MalformedException("TCP data offset " + hl / 4 + " is below the minimum 5", 12);
        }
        if (hl > have) {
            throw new MalformedException("TCP data offset " + hl / 4 + " (" + hl + " bytes) beyond the " + have
                    + " bytes present", 12);
        }
        byte[] opts = new byte[hl - MIN_LENGTH];
        buf.get(at + MIN_LENGTH, opts);
        return new TcpHeader(sourcePort(buf, at), destinationPort(buf, at), sequence(buf, at),
                acknowledgment(buf, at), hl / 4, flags(buf, at), window(buf, at),
                buf.getShort(at + CHECKSUM_OFFSET) & 0xffff, buf.getShort(at + 18) & 0xffff, opts);
    }

    /** Writes the header at the buffer's position and advances it; the checksum component is written as is. */
    public void writeTo(ByteBuffer buf) {
        buf.putShort((short) sourcePort);
        buf.putShort((short) destinationPort);
        buf.putInt((int) sequence);
        buf.putInt((int) acknowledgment);
        buf.putShort((short) ((dataOffset << 12) | (flags & 0x1ff)));
        buf.putShort((short) window);
        buf.putShort((short) checksum);
        buf.putShort((short) urgentPointer);
        buf.put(options);
    }

    /** Flag names in bit order as tshark prints them, e.g. "SYN, ACK". */
    public static String flagNames(int flags) {
        StringBuilder sb = new StringBuilder();
        String[] names = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR", "NS"};
        for (int i = 0; i < names.length; i++) {
            if ((flags & (1 << i)) != 0) {
                if (sb.length() > 0) sb.append(", ");
                sb.append(names[i]);
            }
        }
        return sb.toString();
    }
}
