package io.rddp.field;

import java.util.List;

/** DDP (RFC 5041): the control field and the tagged and untagged segment headers. */
public final class DdpField {
    private DdpField() {
    }

    private static final FieldList L = new FieldList();
    private static final String CONTROL = "RFC 5041 §4.1";
    private static final String TAGGED_HEADER = "RFC 5041 §4.2";
    private static final String UNTAGGED_HEADER = "RFC 5041 §4.3";

    public static final Layer DDP = Layer.of("ddp", Layer.Shape.LAYER, "DDP segment", "RFC 5041 §4");

    public static final Field TAGGED = L.bool(DDP, "tagged", "Tagged (T)",
            "T flag: the segment is placed in a tagged buffer (STag, TO), else in an untagged one (QN, MSN, MO)",
            CONTROL);
    public static final Field LAST = L.bool(DDP, "last", "Last (L)", "L flag: the last segment of its DDP message",
            CONTROL);
    public static final Field RSVD = L.number(DDP, "rsvd", "Reserved",
            "The 4 Rsvd bits of the control field: zero on transmit, not checked on receive", CONTROL);
    public static final Field VERSION = L.number(DDP, "version", "DDP version (DV)",
            "DV: 1 for RFC 5041", CONTROL);
    // hex, as Wireshark shows it (iwarp_ddp.rsvdulp, FT_BYTES): RDMAP's control field and Invalidate STag live there
    public static final Field RSVD_ULP = L.hex32(DDP, "rsvdUlp", "Reserved for ULP",
            "RsvdULP: 8 bits (tagged) or 40 bits (untagged) the ULP owns; RDMAP keeps its control field there",
            "RFC 5041 §4.2, §4.3");
    public static final Field STAG = L.hex32(DDP, "stag", "STag",
            "Steering Tag: names the tagged buffer the payload is placed in", TAGGED_HEADER);
    public static final Field TO = L.uint64(DDP, "to", "Tagged offset",
            "TO: where in the tagged buffer the payload's first octet goes", TAGGED_HEADER);
    public static final Field QN = L.number(DDP, "qn", "Queue number",
            "QN: the untagged buffer queue (RDMAP: 0 Send, 1 Read Request, 2 Terminate, 3 Atomic Response)",
            UNTAGGED_HEADER);
    public static final Field MSN = L.number(DDP, "msn", "Message sequence number",
            "MSN: the message's number on its queue, from 1, one more per message", UNTAGGED_HEADER);
    public static final Field MO = L.number(DDP, "mo", "Message offset",
            "MO: where in the untagged message the payload's first octet goes", UNTAGGED_HEADER);
    public static final Field TRUNCATED = L.bool(DDP, "truncated", "Cut short",
            "The ULPDU ended inside the header: only the fields it holds are shown (an STag in decimal there)",
            "RFC 5041 §4.2, §4.3");
    public static final Field HEADER_LENGTH = L.number(DDP, "headerLength", "Header length its T bit announces",
            "Octets of header a segment of its kind needs: 14 tagged, 18 untagged (shown with truncated)",
            "RFC 5041 §4.2, §4.3");

    static final List<Field> ALL = L.all();
}
