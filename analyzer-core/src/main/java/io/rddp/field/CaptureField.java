package io.rddp.field;

import java.util.List;

/**
 * Filter names from outside the PDU's description: its TCP stream, either of its ports or addresses, and what the
 * sink model said about its frame. The display filter adds them to each PDU.
 */
public final class CaptureField {
    private CaptureField() {
    }

    private static final FieldList L = new FieldList();

    public static final Layer VIOLATIONS = Layer.of("violation", Layer.Shape.PREFIX, "Violations at this frame", "-");

    public static final Field VIOLATION = L.bool(FrameField.PDU, "violation",
            "The sink model reported a violation at this PDU's frame",
            "Whether any check failed at the frame (see docs/checks.md)", "-");
    public static final Field VIOLATION_CHECK = L.text(VIOLATIONS, "check",
            "Check id of a violation at this frame, e.g. ddp.untagged.msn",
            "The id of each check that failed at the frame", "-");
    public static final Field VIOLATION_SEVERITY = L.text(VIOLATIONS, "severity",
            "Severity of a violation at this frame: error, warning, info",
            "The severity of each check that failed at the frame", "-");
    public static final Field TCP_STREAM = L.number(TcpField.TCP, "stream", "TCP stream (same as stream)",
            "Index of the TCP connection", "-");
    public static final Field TCP_PORT = L.number(TcpField.TCP, "port", "TCP source or destination port",
            "Either port (a filter matches when one does)", "-");
    // Wireshark's names: ip.* of an IPv4 packet, ipv6.* of an IPv6 one (an IPv4-mapped IPv6 address stays ipv6.*)
    public static final Field IP_ADDR = L.address(IpField.IP, "addr", FieldType.IPV4, "Source or destination address",
            "Either IPv4 address (a filter matches when one does)", "-");
    public static final Field IPV6_ADDR = L.address(Ipv6Field.IPV6, "addr", FieldType.IPV6,
            "Source or destination address", "Either IPv6 address (a filter matches when one does)", "-");

    static final List<Field> ALL = L.all();

    /** Every name from outside the PDU. */
    public static List<Field> all() {
        return ALL;
    }
}
