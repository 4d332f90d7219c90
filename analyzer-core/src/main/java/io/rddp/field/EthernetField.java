package io.rddp.field;

import java.util.List;

/** The Ethernet II header of the frame the PDU ends in (IEEE 802.3 §3.2), as Wireshark's {@code eth} names it. */
public final class EthernetField {
    private EthernetField() {
    }

    private static final FieldList L = new FieldList();
    private static final String MAC = "IEEE 802.3 §3.2";

    public static final Layer ETH = Layer.of("eth", Layer.Shape.LAYER,
            "Ethernet II header of the frame the PDU ends in", MAC);

    public static final Field DST = L.address(ETH, "dst", FieldType.ETHER, "Destination",
            "Destination MAC address", "IEEE 802.3 §3.2.4");
    public static final Field SRC = L.address(ETH, "src", FieldType.ETHER, "Source", "Source MAC address",
            "IEEE 802.3 §3.2.5");
    public static final Field TYPE = L.hex(ETH, "type", "Type", 4,
            "EtherType of what follows: 0x0800 IPv4, 0x86dd IPv6, 0x8100 an 802.1Q tag", "IEEE 802.3 §3.2.6");

    static final List<Field> ALL = L.all();
}
