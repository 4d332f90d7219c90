package io.rddp.tcp;

import java.nio.ByteBuffer;

/**
 * The Internet checksum (RFC 1071): the 16-bit one's complement of the one's complement sum of 16-bit words.
 * Used for the IPv4 header (RFC 791 §3.1) and, with a pseudo-header, for TCP (RFC 9293 §3.1, RFC 8200 §8.1).
 */
public final class InternetChecksum {
    private InternetChecksum() {
    }

    /**
     * Adds {@code length} bytes at absolute index {@code from} of {@code buf} to a running 32-bit sum; an odd final
     * byte is padded with a zero byte (RFC 1071 §1). The buffer's position is not moved.
     */
    public static long add(long sum, ByteBuffer buf, int from, int length) {
        int i = from;
        int end = from + length;
        for (; i + 1 < end; i += 2) {
            sum += buf.getShort(i) & 0xffff;
        }
        if (i < end) {
            sum += (buf.get(i) & 0xff) << 8;
        }
        return sum;
    }

    /** Adds a 16-bit value to a running sum. */
    public static long add16(long sum, int value) {
        return sum + (value & 0xffff);
    }

    /** Adds the bytes of an address (4 or 16 bytes) to a running sum. */
    public static long addAddress(long sum, byte[] address) {
        for (int i = 0; i < address.length; i += 2) {
            sum += ((address[i] & 0xff) << 8) | (address[i + 1] & 0xff);
        }
        return sum;
    }

    /** Folds the carries and complements: the value to store in a checksum field. */
    public static int finish(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return (int) (~sum & 0xffff);
    }

    /**
     * TCP checksum over the pseudo-header (RFC 9293 §3.1 for IPv4, RFC 8200 §8.1 for IPv6) and the segment at
     * absolute index {@code from}, {@code length} bytes long, with its checksum field counted as it is in the buffer
     * (write 0 there first when computing, leave it when verifying: a correct segment then sums to 0).
     */
    public static int tcp(byte[] source, byte[] destination, ByteBuffer buf, int from, int length) {
        long sum = addAddress(0, source);
        sum = addAddress(sum, destination);
        if (source.length == 4) {
            sum = add16(sum, TcpHeader.PROTOCOL_NUMBER);
            sum = add16(sum, length);
        } else {
            sum += length & 0xffffffffL; // 32-bit upper-layer packet length, RFC 8200 §8.1
            sum = add16(sum, TcpHeader.PROTOCOL_NUMBER);
        }
        return finish(add(sum, buf, from, length));
    }
}
