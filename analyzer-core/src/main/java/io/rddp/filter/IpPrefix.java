package io.rddp.filter;

/**
 * A CIDR block of a display filter ({@code 10.0.2.0/24}, {@code fe80::/10}): {@code ip.addr == 10.0.2.0/24} matches
 * an address whose first {@code bits} bits are those of {@code address}. Host bits set in the literal are ignored,
 * as Wireshark ignores them.
 */
public record IpPrefix(IpAddress address, int bits) {

    public IpPrefix {
        int max = address.isIpv6() ? 128 : 32;
        if (bits < 0 || bits > max) throw new IllegalArgumentException("prefix length " + bits + " not in 0.." + max);
    }

    public boolean contains(IpAddress a) {
        return a.within(address, bits);
    }

    @Override
    public String toString() {
        return address + "/" + bits;
    }
}
