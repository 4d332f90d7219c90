package io.rddp.field;

import java.util.List;

/** The IPv4 header of the frame the PDU ends in (RFC 791 §3.1), as Wireshark's {@code ip} names it. */
public final class IpField {
    private IpField() {
    }

    private static final FieldList L = new FieldList();
    private static final String HDR = "RFC 791 §3.1";

    public static final Layer IP = Layer.of("ip", Layer.Shape.LAYER, "IPv4 header of the frame the PDU ends in", HDR);

    public static final Field VERSION = L.number(IP, "version", "Version", "IP version: 4", HDR);
    public static final Field HDR_LEN = L.number(IP, "hdr_len", "Header Length",
            "Header length in octets (IHL times 4)", HDR);
    public static final Field DSFIELD = L.hex(IP, "dsfield", "Differentiated Services Field", 2,
            "The former Type of Service octet: DSCP (RFC 2474) and ECN (RFC 3168)", HDR);
    public static final Field LEN = L.number(IP, "len", "Total Length", "Octets of the datagram, header included",
            HDR);
    public static final Field ID = L.hex(IP, "id", "Identification", 4,
            "Identifies the fragments of one datagram", HDR);
    public static final Field DF = L.bool(IP, "flags.df", "Don't fragment", "The DF flag", HDR);
    public static final Field MF = L.bool(IP, "flags.mf", "More fragments", "The MF flag", HDR);
    public static final Field FRAG_OFFSET = L.number(IP, "frag_offset", "Fragment Offset",
            "Where the fragment belongs in the datagram, in units of 8 octets", HDR);
    public static final Field TTL = L.number(IP, "ttl", "Time to Live", "Time to Live (hop count)", HDR);
    public static final Field PROTO = L.number(IP, "proto", "Protocol", "The next protocol: 6 for TCP", HDR);
    public static final Field CHECKSUM = L.hex(IP, "checksum", "Header Checksum", 4,
            "The header checksum as on the wire (not verified: offloading leaves captures without one)", HDR);
    public static final Field SRC = L.address(IP, "src", FieldType.IPV4, "Source Address",
            "The sender's IPv4 address", HDR);
    public static final Field DST = L.address(IP, "dst", FieldType.IPV4, "Destination Address",
            "The receiver's IPv4 address", HDR);

    static final List<Field> ALL = L.all();
}
