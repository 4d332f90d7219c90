package io.rddp.filter;

import java.util.Arrays;

/**
 * An IPv4 (4 octets) or IPv6 (16 octets) address as a display filter compares it: the value of {@code ip.*} and
 * {@code ipv6.*}, and a literal such as {@code 10.0.2.15} or {@code fe80::1}. Two addresses of different families are
 * never equal (as in Wireshark, {@code ::ffff:10.0.2.15} is an IPv6 address, not 10.0.2.15); within a family they
 * order as unsigned numbers. Its text is the usual one (IPv6 compressed as RFC 5952 says).
 */
public record IpAddress(byte[] octets) implements Comparable<IpAddress> {

    public IpAddress {
        if (octets.length != 4 && octets.length != 16) {
            throw new IllegalArgumentException("an IP address has 4 or 16 octets, not " + octets.length);
        }
        octets = octets.clone();
    }

    @Override
    public byte[] octets() {
        return octets.clone();
    }

    public boolean isIpv6() {
        return octets.length == 16;
    }

    /** The address of {@code text} ("10.0.2.15", "fe80::1"), or null when it is not one. */
    public static IpAddress parseOrNull(String text) {
        try {
            return AddressLiteral.address(text, 1);
        } catch (FilterException e) {
            return null;
        }
    }

    /** Whether the first {@code bits} bits of this address equal those of {@code base} (same family only). */
    public boolean within(IpAddress base, int bits) {
        if (base.octets.length != octets.length) return false;
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >>> (i & 7);
            if ((octets[i >>> 3] & mask) != (base.octets[i >>> 3] & mask)) return false;
        }
        return true;
    }

    /** Unsigned order within a family; an IPv4 address before every IPv6 address (callers compare one family). */
    @Override
    public int compareTo(IpAddress o) {
        if (octets.length != o.octets.length) return Integer.compare(octets.length, o.octets.length);
        return Arrays.compareUnsigned(octets, o.octets);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpAddress a && Arrays.equals(octets, a.octets);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(octets);
    }

    /** Dotted IPv4; IPv6 as RFC 5952 §4 writes it, an IPv4-mapped address in mixed notation (§5). */
    @Override
    public String toString() {
        if (!isIpv6()) return (octets[0] & 0xff) + "." + (octets[1] & 0xff) + "." + (octets[2] & 0xff) + "." + (octets[3] & 0xff);
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) g[i] = (octets[2 * i] & 0xff) << 8 | (octets[2 * i + 1] & 0xff);
        boolean mapped = g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xffff;
        if (mapped) {
            return "::ffff:" + (octets[12] & 0xff) + "." + (octets[13] & 0xff) + "." + (octets[14] & 0xff) + "."
                    + (octets[15] & 0xff);
        }
        int bestStart = -1, bestLen = 1; // a single zero group is not compressed (§4.2.2)
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) j++;
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') sb.append(':');
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }
}
