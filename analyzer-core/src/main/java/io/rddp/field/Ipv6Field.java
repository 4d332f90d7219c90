package io.rddp.field;

import java.util.List;

/** The IPv6 fixed header of the frame the PDU ends in (RFC 8200 §3), as Wireshark's {@code ipv6} names it. */
public final class Ipv6Field {
    private Ipv6Field() {
    }

    private static final FieldList L = new FieldList();
    private static final String HDR = "RFC 8200 §3";

    public static final Layer IPV6 = Layer.of("ipv6", Layer.Shape.LAYER,
            "IPv6 header of the frame the PDU ends in", HDR);

    public static final Field VERSION = L.number(IPV6, "version", "Version", "IP version: 6", HDR);
    public static final Field FLOW = L.hex(IPV6, "flow", "Flow Label", 6, "Flow Label (20 bits)", "RFC 8200 §6");
    public static final Field PLEN = L.number(IPV6, "plen", "Payload Length",
            "Octets after the fixed header, extension headers included", HDR);
    public static final Field NXT = L.number(IPV6, "nxt", "Next Header",
            "The header after the fixed one: 6 for TCP, or an extension header", HDR);
    public static final Field HLIM = L.number(IPV6, "hlim", "Hop Limit", "Hop Limit", HDR);
    public static final Field SRC = L.address(IPV6, "src", FieldType.IPV6, "Source Address",
            "The sender's IPv6 address", HDR);
    public static final Field DST = L.address(IPV6, "dst", FieldType.IPV6, "Destination Address",
            "The receiver's IPv6 address", HDR);

    static final List<Field> ALL = L.all();
}
