package io.rddp.capture;

/** LINKTYPE_* values from the tcpdump.org link-layer header types registry that rddp decodes. */
public final class LinkType {
    public static final int NULL = 0;        // BSD loopback: 4-byte address family in host byte order
    public static final int ETHERNET = 1;
    public static final int RAW = 101;       // raw IPv4 or IPv6, version from the first nibble
    public static final int LOOP = 108;      // OpenBSD loopback: 4-byte address family in network byte order
    public static final int LINUX_SLL = 113;
    public static final int IPV4 = 228;
    public static final int IPV6 = 229;
    public static final int LINUX_SLL2 = 276;

    private LinkType() {
    }
}
