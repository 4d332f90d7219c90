package io.rddp.field;

import java.util.List;

/** MPA (RFC 5044): the MPA Request/Reply start frames with RFC 6581's enhanced private data, and FPDUs. */
public final class MpaField {
    private MpaField() {
    }

    private static final FieldList L = new FieldList();
    private static final String FRAME = "RFC 5044 §7.1.1";
    private static final String FPDU = "RFC 5044 §4.1";
    private static final String ENHANCED = "RFC 6581 §6";

    public static final Layer MPA = Layer.of("mpa", Layer.Shape.LAYER, "MPA layer (start frame or FPDU)",
            "RFC 5044 §4.1, §7.1.1");

    public static final Field KIND = L.text(MPA, "kind", "Kind",
            "request or reply (MPA Request/Reply Frame), or fpdu", "RFC 5044 §7.1.1, §4.1");
    public static final Field KEY_VALID = L.bool(MPA, "keyValid", "Key valid",
            "Whether the 16-octet Key is the Request's or the Reply's (shown only when it is not)", FRAME);
    public static final Field M = L.bool(MPA, "m", "Markers required (M)",
            "The sender requires Markers in the FPDUs it receives", FRAME);
    public static final Field C = L.bool(MPA, "c", "CRC (C)", "The sender wants CRCs in the FPDUs", FRAME);
    public static final Field R = L.bool(MPA, "r", "Reject (R)", "The Reply rejects the connection", FRAME);
    public static final Field RES = L.number(MPA, "res", "Reserved bits (Res)",
            "The reserved bits after the flags: zero on transmit", FRAME);
    public static final Field REV = L.number(MPA, "rev", "Revision",
            "MPA revision: 1 (RFC 5044), 2 for enhanced connection establishment (RFC 6581)", FRAME);
    public static final Field PD_LENGTH = L.number(MPA, "pdLength", "Private data length",
            "Octets of private data that follow the frame's header", FRAME);
    public static final Field PRIVATE_DATA = L.add(MPA, "privateData", "Private data", FieldType.BYTES, Base.NONE,
            "The private data (with Rev 2, after the IRD/ORD words)", FRAME);
    public static final Field IRD = L.number(MPA, "ird", "IRD (RFC 6581)",
            "Inbound RDMA Read Request queue depth the sender offers", ENHANCED);
    public static final Field ORD = L.number(MPA, "ord", "ORD (RFC 6581)",
            "Outbound RDMA Read Request queue depth the sender wants", ENHANCED);
    public static final Field PEER_TO_PEER = L.bool(MPA, "peerToPeer", "Peer-to-peer (RFC 6581)",
            "Control flag A: peer-to-peer mode, the initiator sends a Ready-to-Receive (RTR) message", ENHANCED);
    public static final Field RTR_SEND = L.bool(MPA, "rtrSend", "Zero-length Send RTR",
            "Control flag B: a zero-length Send may be the RTR message", ENHANCED);
    public static final Field RTR_WRITE = L.bool(MPA, "rtrWrite", "Zero-length Write RTR",
            "Control flag C: a zero-length RDMA Write may be the RTR message", ENHANCED);
    public static final Field RTR_READ = L.bool(MPA, "rtrRead", "Zero-length Read RTR",
            "Control flag D: a zero-length RDMA Read Request may be the RTR message", ENHANCED);
    public static final Field OFFSET = L.number(MPA, "offset", "TCP stream offset",
            "Where the FPDU starts in the TCP stream, in octets from the first one the capture shows", "-");
    public static final Field ULPDU_LENGTH = L.number(MPA, "ulpduLength", "ULPDU length",
            "ULPDU_Length: octets of the ULPDU (the DDP segment), Markers and pad not counted", FPDU);
    public static final Field PAD = L.number(MPA, "pad", "Pad length",
            "Octets of PAD that align the FPDU to 4 octets", FPDU);
    public static final Field MARKERS = L.number(MPA, "markers", "Markers",
            "Markers removed from the FPDU (shown only when there are any)", "RFC 5044 §4.3");
    /** The label of {@link #CRC} when CRCs were not negotiated. */
    public static final String CRC_UNCHECKED_LABEL = "CRC field (not negotiated, not checked)";
    public static final Field CRC = L.hex32(MPA, "crc", "CRC32c",
            "The CRC field, read least significant octet first; on the wire even when CRCs were not negotiated"
                    + " (then labelled \"" + CRC_UNCHECKED_LABEL + "\")",
            "RFC 5044 §4.1, §4.4");
    public static final Field CRC_OK = L.bool(MPA, "crcOk", "CRC good",
            "Whether the CRC matches the FPDU; absent when CRCs are not in use", "RFC 5044 §4.4");
    public static final Field INFERRED = L.bool(MPA, "inferred", "Parameters inferred (no handshake seen)",
            "The MPA parameters (Markers, CRC) were guessed from the stream, no Request/Reply was captured", "-");

    static final List<Field> ALL = L.all();
}
