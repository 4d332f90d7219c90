package io.rddp.field;

import java.util.List;

/**
 * RDMAP (RFC 5040): the control field in DDP's RsvdULP, the Invalidate STag, and the RDMA Read Request and
 * Terminate headers; RFC 7306's Immediate Data. The atomic headers are {@link AtomicField}'s.
 */
public final class RdmapField {
    private RdmapField() {
    }

    private static final FieldList L = new FieldList();
    private static final String CONTROL = "RFC 5040 §4.1";
    private static final String READ = "RFC 5040 §4.4";
    private static final String TERM = "RFC 5040 §4.8";

    public static final Layer RDMAP = Layer.of("rdmap", Layer.Shape.LAYER, "RDMAP header", CONTROL);
    public static final Layer READ_REQUEST = Layer.of("rdmap.readRequest", Layer.Shape.LAYER,
            "RDMA Read Request header", READ);
    public static final Layer TERMINATE = Layer.of("rdmap.terminate", Layer.Shape.LAYER, "Terminate header", TERM);
    public static final Layer TERMINATED_DDP = DdpField.DDP.at("rdmap.terminate.ddpHeader", Layer.Shape.LAYER,
            "Terminated DDP header", TERM);
    public static final Layer TERMINATED_READ_REQUEST = READ_REQUEST.at("rdmap.terminate.readRequest",
            Layer.Shape.LAYER, "Terminated RDMA Read Request header", TERM);

    public static final Field VERSION = L.number(RDMAP, "version", "RDMAP version",
            "RV: 1 for RFC 5040, 0 for the RDMA Consortium's RDMAP", CONTROL);
    public static final Field OPCODE = L.number(RDMAP, "opcode", "Opcode",
            "The RDMA message type, 0..15 (RFC 7306 adds 8 to 11)", CONTROL);
    public static final Field OPCODE_NAME = L.text(RDMAP, "opcodeName", "Opcode name",
            "The opcode's name in the RFC, or Reserved", CONTROL);
    public static final Field INVALIDATE_STAG = L.hex32(RDMAP, "invalidateStag", "Invalidate STag",
            "The STag a Send with Invalidate (or Send with SE and Invalidate) invalidates at the Data Sink", CONTROL);
    public static final Field IMMEDIATE_DATA = L.uint64(RDMAP, "immediateData", "Immediate data",
            "The 8 octets of an Immediate Data message", "RFC 7306 §6.3");
    public static final Field PAYLOAD_LENGTH = L.number(RDMAP, "payloadLength", "ULP payload length",
            "Octets of ULP payload after the RDMAP headers in this segment", "RFC 5040 §4.1");
    public static final Field TRUNCATED = L.bool(RDMAP, "truncated", "Cut short",
            "The segment ended inside the opcode's header: only the fields it holds are shown", CONTROL);
    public static final Field HEADER_LENGTH = L.number(RDMAP, "headerLength", "Header length its opcode announces",
            "Octets of header the opcode needs at least (shown with truncated)", CONTROL);

    public static final Field SINK_STAG = L.hex32(READ_REQUEST, "sinkStag", "Data sink STag",
            "The Data Sink's STag the RDMA Read Response is placed in", READ);
    public static final Field SINK_TO = L.uint64(READ_REQUEST, "sinkTo", "Data sink tagged offset",
            "The Data Sink's TO of the first octet read", READ);
    public static final Field SIZE = L.number(READ_REQUEST, "size", "RDMA Read message size",
            "Octets to read", READ);
    public static final Field SRC_STAG = L.hex32(READ_REQUEST, "srcStag", "Data source STag",
            "The Data Source's STag of the buffer read", READ);
    public static final Field SRC_TO = L.uint64(READ_REQUEST, "srcTo", "Data source tagged offset",
            "The Data Source's TO of the first octet read", READ);

    public static final Field LAYER = L.number(TERMINATE, "layer", "Layer",
            "Layer of the error: 0 RDMA, 1 DDP, 2 LLP (MPA)", TERM);
    public static final Field ETYPE = L.number(TERMINATE, "etype", "Error type", "EType: the error's class", TERM);
    public static final Field CODE = L.number(TERMINATE, "code", "Error code",
            "The error code within the layer and EType", "RFC 5040 §4.8, RFC 5041 §7.2, RFC 5044 §8");
    public static final Field NAME = L.text(TERMINATE, "name", "Error",
            "The layer, EType and code in words", "RFC 5040 §4.8, RFC 5041 §7.2, RFC 5044 §8");
    public static final Field M = L.bool(TERMINATE, "m", "DDP segment length valid (M)",
            "M flag: the DDP Segment Length field is valid", TERM);
    public static final Field D = L.bool(TERMINATE, "d", "DDP header included (D)",
            "D flag: the terminated DDP header follows", TERM);
    public static final Field R = L.bool(TERMINATE, "r", "RDMAP header included (R)",
            "R flag: the terminated RDMA Read Request header follows", TERM);
    public static final Field DDP_SEGMENT_LENGTH = L.number(TERMINATE, "ddpSegmentLength", "DDP segment length",
            "Length of the DDP segment that caused the Terminate", TERM);

    static final List<Field> ALL = L.all();
}
