package io.rddp.field;

import java.util.List;

/** RPC-over-RDMA version 1 (RFC 8166): the transport header, its chunk lists and how the analyzer found it. */
public final class RpcRdmaField {
    private RpcRdmaField() {
    }

    private static final FieldList L = new FieldList();
    private static final String HDR = "RFC 8166 §4.2";
    private static final String ERR = "RFC 8166 §4.5";

    public static final Layer RPCRDMA = Layer.of("rpcrdma", Layer.Shape.LAYER, "RPC-over-RDMA transport header", HDR);
    /** An RDMA segment of a chunk: shown in the read list and in Write and Reply chunks. */
    public static final Layer SEGMENT = Layer.of("rpcrdma.segment", Layer.Shape.TEMPLATE, "RDMA segment",
            "RFC 8166 §3.4.3");
    public static final Layer READS = SEGMENT.at("rpcrdma.reads", Layer.Shape.LIST, "Read list: its read segments",
            "RFC 8166 §4.3.1");
    public static final Layer WRITES = Layer.of("rpcrdma.writes", Layer.Shape.LIST, "Write list: its Write chunks",
            "RFC 8166 §4.3.2");
    public static final Layer WRITE_SEGMENTS = SEGMENT.at("rpcrdma.writes.segments", Layer.Shape.LIST,
            "Segments of a Write chunk", "RFC 8166 §4.3.2");
    public static final Layer REPLY = Layer.of("rpcrdma.reply", Layer.Shape.LAYER, "Reply chunk", "RFC 8166 §4.3.3");
    public static final Layer REPLY_SEGMENTS = SEGMENT.at("rpcrdma.reply.segments", Layer.Shape.LIST,
            "Segments of the Reply chunk", "RFC 8166 §4.3.3");

    public static final Field SOURCE = L.text(RPCRDMA, "source", "Message from",
            "Where the message was found: send, position-zero-read-chunk or reply-chunk (a Long Call or Reply)",
            "RFC 8166 §3.5");
    public static final Field ROLE = L.text(RPCRDMA, "role", "Sent by", "requester or responder",
            "RFC 8166 §2.2.2");
    public static final Field RECOGNITION = L.text(RPCRDMA, "recognition", "Recognised by",
            "How the analyzer knew the stream carries RPC-over-RDMA (by its port, its header, or as told)", "-");
    /** The label of {@link #SEND_LENGTH} for a message rebuilt from a chunk. */
    public static final String REBUILT_LENGTH_LABEL = "Rebuilt message length";
    public static final Field SEND_LENGTH = L.number(RPCRDMA, "sendLength", "Send message length",
            "Octets of the Send message, or of the message rebuilt from a chunk (then labelled \""
                    + REBUILT_LENGTH_LABEL + "\")", "RFC 8166 §3.2");
    public static final Field XID = L.hex32(RPCRDMA, "xid", "XID",
            "rdma_xid: the transaction ID of the RPC message it carries", "RFC 8166 §4.2.1");
    public static final Field VERSION = L.number(RPCRDMA, "version", "Version",
            "rdma_vers: 1 for RFC 8166", "RFC 8166 §4.2.2");
    public static final Field CREDITS = L.number(RPCRDMA, "credits", "Credits (requested or granted)",
            "rdma_credit: credits the requester asks for or the responder grants", "RFC 8166 §4.2.3");
    public static final Field PROC = L.number(RPCRDMA, "proc", "Procedure",
            "rdma_proc: 0 RDMA_MSG, 1 RDMA_NOMSG, 2 RDMA_MSGP, 3 RDMA_DONE, 4 RDMA_ERROR", "RFC 8166 §4.2.4");
    public static final Field PROC_NAME = L.text(RPCRDMA, "procName", "Procedure name",
            "rdma_proc in words, or undefined", "RFC 8166 §4.2.4");
    public static final Field ALIGN = L.number(RPCRDMA, "align", "RDMA align",
            "rdma_align of the deprecated RDMA_MSGP", "RFC 8166 §4.1.2");
    public static final Field THRESHOLD = L.number(RPCRDMA, "threshold", "RDMA threshold",
            "rdma_thresh of the deprecated RDMA_MSGP", "RFC 8166 §4.1.2");
    public static final Field ERROR = L.number(RPCRDMA, "error", "Error code",
            "rdma_err of RDMA_ERROR: 1 ERR_VERS, 2 ERR_CHUNK", ERR);
    public static final Field ERROR_NAME = L.text(RPCRDMA, "errorName", "Error", "rdma_err in words", ERR);
    public static final Field VERS_LOW = L.number(RPCRDMA, "versLow", "Lowest version supported",
            "rdma_vers_low of ERR_VERS", "RFC 8166 §4.5.1");
    public static final Field VERS_HIGH = L.number(RPCRDMA, "versHigh", "Highest version supported",
            "rdma_vers_high of ERR_VERS", "RFC 8166 §4.5.1");
    public static final Field PROBLEM = L.text(RPCRDMA, "problem", "Header problem",
            "Why the transport header is malformed", "RFC 8166 §4.5.2");

    public static final Field POSITION = L.number(READS, "position", "Position",
            "rdma_position: where in the XDR stream the read chunk's data belongs", "RFC 8166 §3.4.5");
    public static final Field HANDLE = L.hex32(SEGMENT, "handle", "Handle (STag)",
            "rdma_handle: the STag of the registered memory", "RFC 8166 §3.4.3");
    public static final Field LENGTH = L.number(SEGMENT, "length", "Length",
            "rdma_length: octets in the segment", "RFC 8166 §3.4.3");
    public static final Field OFFSET = L.uint64(SEGMENT, "offset", "Offset",
            "rdma_offset: the TO of the segment's first octet", "RFC 8166 §3.4.3");

    static final List<Field> ALL = L.all();
}
