package io.rddp.tcp;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/** An IP address (4 or 16 bytes) and TCP port. Immutable; the address array is never exposed. */
public final class Endpoint {
    private final byte[] address;
    private final int port;
    private final int hash;
    private String text; // cached: output writes it per PDU (benign race: every thread computes the same string)

    public Endpoint(byte[] address, int port) {
        if (address.length != 4 && address.length != 16) {
            throw new IllegalArgumentException("address must be 4 or 16 bytes, was " + address.length);
        }
        this.address = address.clone();
        this.port = port;
        this.hash = 31 * Arrays.hashCode(address) + port;
    }

    public byte[] address() {
        return address.clone();
    }

    public int port() {
        return port;
    }

    public boolean isIpv6() {
        return address.length == 16;
    }

    /** "10.0.0.1" or "fe80::1" (RFC 5952 compressed form). */
    public String addressString() {
        try {
            String s = InetAddress.getByAddress(address).getHostAddress();
            return isIpv6() ? compressIpv6(s) : s;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen for 4 or 16 bytes
        }
    }

    /** "ip:port", with the IPv6 address in brackets. */
    @Override
    public String toString() {
        String t = text;
        if (t == null) {
            t = isIpv6() ? "[" + addressString() + "]:" + port : addressString() + ":" + port;
            text = t;
        }
        return t;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint e && e.port == port && Arrays.equals(e.address, address);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    // InetAddress prints "0:0:0:0:0:0:0:1"; tshark and people write "::1".
    private static String compressIpv6(String full) {
        String[] groups = full.split(":");
        int bestStart = -1, bestLen = 0;
        for (int i = 0; i < groups.length; ) {
            if (groups[i].equals("0")) {
                int j = i;
                while (j < groups.length && groups[j].equals("0")) j++;
                if (j - i > bestLen && j - i >= 2) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestStart < 0) return full;
        String head = String.join(":", Arrays.copyOfRange(groups, 0, bestStart));
        String tail = String.join(":", Arrays.copyOfRange(groups, bestStart + bestLen, groups.length));
        return head + "::" + tail;
    }
}
