package io.rddp.field;

import java.util.List;

/** An 802.1Q VLAN tag of the frame the PDU ends in, as Wireshark's {@code vlan} names it (one layer per tag). */
public final class VlanField {
    private VlanField() {
    }

    private static final FieldList L = new FieldList();
    private static final String TCI = "IEEE 802.1Q §9.6";

    public static final Layer VLAN = Layer.of("vlan", Layer.Shape.LAYER, "802.1Q VLAN tag", "IEEE 802.1Q §9.6");

    public static final Field PRIORITY = L.number(VLAN, "priority", "Priority",
            "Priority Code Point (PCP), the top 3 bits of the Tag Control Information", TCI);
    public static final Field ID = L.number(VLAN, "id", "ID", "VLAN Identifier (VID), the low 12 bits of the TCI",
            TCI);
    public static final Field ETYPE = L.hex(VLAN, "etype", "Type", 4, "EtherType of what follows the tag",
            "IEEE 802.1Q §9.5");

    static final List<Field> ALL = L.all();
}
