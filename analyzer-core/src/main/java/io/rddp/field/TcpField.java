package io.rddp.field;

import java.util.List;

/**
 * The TCP header of the frame the PDU ends in (RFC 9293 §3.1), as Wireshark's {@code tcp} names it: sequence and
 * acknowledgment numbers relative to the connection's base as tshark counts them by default, and raw.
 */
public final class TcpField {
    private TcpField() {
    }

    private static final FieldList L = new FieldList();
    private static final String HDR = "RFC 9293 §3.1";

    public static final Layer TCP = Layer.of("tcp", Layer.Shape.LAYER, "TCP header of the frame the PDU ends in",
            HDR);

    public static final Field SRCPORT = L.number(TCP, "srcport", "Source Port", "The sender's port", HDR);
    public static final Field DSTPORT = L.number(TCP, "dstport", "Destination Port", "The receiver's port", HDR);
    public static final Field SEQ = L.number(TCP, "seq", "Sequence Number",
            "Sequence number relative to the direction's base, as tshark counts it: 0 at the SYN, else 1 at the first"
                    + " segment the capture shows", HDR);
    public static final Field SEQ_RAW = L.number(TCP, "seq_raw", "Sequence Number (raw)",
            "Sequence number as on the wire", HDR);
    public static final Field ACK = L.number(TCP, "ack", "Acknowledgment Number",
            "Acknowledgment number relative to the other direction's base (only with ACK set)", HDR);
    public static final Field ACK_RAW = L.number(TCP, "ack_raw", "Acknowledgment number (raw)",
            "Acknowledgment number as on the wire (only with ACK set)", HDR);
    public static final Field HDR_LEN = L.number(TCP, "hdr_len", "Header Length",
            "Header length in octets (Data Offset times 4)", HDR);
    public static final Field FLAGS = L.hex(TCP, "flags", "Flags", 4, "The 12 bits after Data Offset", HDR);
    public static final Field URG = L.bool(TCP, "flags.urg", "Urgent", "The URG control bit", HDR);
    public static final Field ACK_FLAG = L.bool(TCP, "flags.ack", "Acknowledgment", "The ACK control bit", HDR);
    public static final Field PUSH = L.bool(TCP, "flags.push", "Push", "The PSH control bit", HDR);
    public static final Field RESET = L.bool(TCP, "flags.reset", "Reset", "The RST control bit", HDR);
    public static final Field SYN = L.bool(TCP, "flags.syn", "Syn", "The SYN control bit", HDR);
    public static final Field FIN = L.bool(TCP, "flags.fin", "Fin", "The FIN control bit", HDR);
    public static final Field WINDOW = L.number(TCP, "window_size_value", "Window",
            "The Window field as on the wire, not scaled", HDR);
    public static final Field CHECKSUM = L.hex(TCP, "checksum", "Checksum", 4,
            "The checksum as on the wire (not verified: offloading leaves captures without one)", HDR);
    public static final Field URGENT_POINTER = L.number(TCP, "urgent_pointer", "Urgent Pointer", "Urgent Pointer",
            HDR);
    public static final Field LEN = L.number(TCP, "len", "TCP Segment Len", "Octets of payload in the segment",
            "-");

    static final List<Field> ALL = L.all();
}
