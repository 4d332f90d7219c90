package io.rddp.sink;

/**
 * Every rule the reference Data Sink model enforces, with a stable id (used in output, filters and tests), the RFC
 * and section that state it, the usual severity and the Terminate error type a conforming receiver reports for it
 * (null when the RFC defines none or the receiver is not required to detect it).
 */
public enum Check {

    // ---- MPA: RFC 5044, RFC 6581 ----
    MPA_CRC("mpa.crc", Layer.MPA, "RFC 5044", "§4.4", Severity.ERROR, ErrorType.MPA_CRC,
            "FPDU CRC does not match"),
    MPA_PAD("mpa.pad", Layer.MPA, "RFC 5044", "§4.1", Severity.ERROR, null,
            "PAD octets of an FPDU not zero"),
    MPA_FRAMING("mpa.marker", Layer.MPA, "RFC 5044", "§8", Severity.ERROR, ErrorType.MPA_MARKER,
            "Marker and ULPDU Length disagree on the FPDU start"),
    MPA_KEY("mpa.start.key", Layer.MPA, "RFC 5044", "§7.1.1", Severity.ERROR, ErrorType.MPA_INVALID_START_FRAME,
            "MPA Request/Reply key is not the fixed value"),
    MPA_REVISION("mpa.start.rev", Layer.MPA, "RFC 5044", "§7.1.1", Severity.ERROR, null,
            "MPA Rev not allowed"),
    MPA_PD_LENGTH("mpa.start.pd-length", Layer.MPA, "RFC 5044", "§7.1.1", Severity.ERROR,
            ErrorType.MPA_INVALID_START_FRAME, "Private Data longer than 512 octets"),
    MPA_RESERVED("mpa.start.reserved", Layer.MPA, "RFC 5044", "§7.1.1", Severity.WARNING, null,
            "Res bits, or R in a Request, not zero"),
    MPA_SEQUENCE("mpa.start.sequence", Layer.MPA, "RFC 5044", "§7.1.2", Severity.ERROR, null,
            "MPA Request/Reply exchange out of order"),
    MPA_INITIATOR_EARLY("mpa.initiator-early", Layer.MPA, "RFC 5044", "§7.1.2", Severity.ERROR, null,
            "Initiator sent an FPDU before the MPA Reply"),
    MPA_RESPONDER_FIRST("mpa.responder-first", Layer.MPA, "RFC 5044", "§7.1.2", Severity.ERROR, null,
            "Responder sent an FPDU before receiving the Initiator's first FPDU"),
    MPA_AFTER_EXIT("mpa.fpdu-after-exit", Layer.MPA, "RFC 5044", "§7.1.2", Severity.ERROR, null,
            "FPDU after the connection was rejected or a start frame was malformed"),
    MPA_ENHANCED("mpa.enhanced", Layer.MPA, "RFC 6581", "§6", Severity.ERROR, null,
            "Enhanced connection establishment data missing or not answered in kind"),
    MPA_IRD_ORD("mpa.enhanced.ird-ord", Layer.MPA, "RFC 6581", "§9.1", Severity.ERROR, null,
            "IRD/ORD negotiation rule broken"),
    MPA_RTR_FLAGS("mpa.enhanced.rtr-flags", Layer.MPA, "RFC 6581", "§9.2", Severity.ERROR, null,
            "Peer-to-peer / RTR control flags inconsistent"),
    MPA_RTR("mpa.rtr", Layer.MPA, "RFC 6581", "§9.2", Severity.ERROR, null,
            "Initiator's first FPDU is not a negotiated RTR indication"),

    // ---- DDP: RFC 5041 ----
    DDP_HEADER("ddp.header", Layer.DDP, "RFC 5041", "§4.4", Severity.ERROR, null,
            "ULPDU too short for the DDP header its T bit announces"),
    DDP_VERSION("ddp.version", Layer.DDP, "RFC 5041", "§4.1", Severity.ERROR, ErrorType.DDP_U_INVALID_VERSION,
            "DV is not 1"),
    DDP_RESERVED("ddp.reserved", Layer.DDP, "RFC 5041", "§4.1", Severity.WARNING, null,
            "DDP Rsvd bits not zero"),
    DDP_QN("ddp.untagged.qn", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_U_INVALID_QN,
            "Queue Number not valid for RDMAP"),
    DDP_MSN("ddp.untagged.msn", Layer.DDP, "RFC 5041", "§4.3", Severity.ERROR, ErrorType.DDP_U_MSN_RANGE,
            "MSN does not start at 1 or does not increase by one per message"),
    DDP_NO_BUFFER("ddp.untagged.no-buffer", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_U_NO_BUFFER,
            "Untagged segment with no receive buffer posted for its QN and MSN"),
    DDP_TOO_LONG("ddp.untagged.too-long", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_U_TOO_LONG,
            "Untagged message longer than the receive buffer posted for it"),
    DDP_QN_MSN_CHANGED("ddp.untagged.qn-msn-changed", Layer.DDP, "RFC 5041", "§4.3", Severity.ERROR, null,
            "QN or MSN differs between segments of one message"),
    DDP_MO_ORDER("ddp.untagged.mo-order", Layer.DDP, "RFC 5041", "§5.3", Severity.WARNING, null,
            "Segments of an untagged message not in increasing MO order"),
    DDP_MO_COVERAGE("ddp.untagged.mo-coverage", Layer.DDP, "RFC 5041", "§5.2", Severity.ERROR, null,
            "Untagged message segments leave a hole or overlap"),
    DDP_MESSAGE_LENGTH("ddp.untagged.message-length", Layer.DDP, "RFC 5041", "§5.2", Severity.ERROR,
            ErrorType.DDP_U_INVALID_MO, "Untagged message reaches 2^32 octets"),
    DDP_LAST_FLAG("ddp.last-flag", Layer.DDP, "RFC 5041", "§4.1", Severity.ERROR, null,
            "L set on a segment that does not carry the highest MO"),
    DDP_RSVDULP("ddp.rsvdulp-changed", Layer.DDP, "RFC 5041", "§4.3", Severity.ERROR, null,
            "RsvdULP differs between segments of one message"),
    DDP_INTERLEAVED("ddp.message-interleaved", Layer.DDP, "RFC 5041", "§5.3", Severity.WARNING, null,
            "A message of the same buffer model started before the previous one ended"),
    DDP_TO_ORDER("ddp.tagged.to-order", Layer.DDP, "RFC 5041", "§5.3", Severity.WARNING, null,
            "Segments of a tagged message not in increasing TO order"),
    DDP_STAG_CHANGED("ddp.tagged.stag-changed", Layer.DDP, "RFC 5041", "§4.2", Severity.ERROR, null,
            "STag differs between segments of one message"),
    DDP_TO_WRAP("ddp.tagged.to-wrap", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_T_TO_WRAP,
            "64-bit TO + payload length wraps"),
    DDP_STAG("ddp.tagged.stag", Layer.DDP, "RFC 5041", "§7.1", Severity.INFO, ErrorType.DDP_T_INVALID_STAG,
            "STag not known: base, bounds and access unverifiable"),
    DDP_BOUNDS("ddp.tagged.bounds", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_T_BASE_BOUNDS,
            "Placement outside the registered buffer"),
    DDP_OVERLAP("ddp.tagged.overlap", Layer.DDP, "RFC 5040", "§5.5", Severity.INFO, null,
            "Bytes of a tagged buffer placed again before the writer signalled completion"),
    DDP_INCOMPLETE("ddp.message-incomplete", Layer.DDP, "RFC 5041", "§5.4", Severity.INFO, null,
            "Message without its last segment when the stream or capture ended"),

    // ---- RDMAP: RFC 5040, RFC 7306 ----
    RDMAP_VERSION("rdmap.version", Layer.RDMAP, "RFC 5040", "§4.1", Severity.ERROR, ErrorType.RDMA_INVALID_VERSION,
            "RDMAP version not 1"),
    RDMAP_RESERVED("rdmap.reserved", Layer.RDMAP, "RFC 5040", "§4.1", Severity.WARNING, null,
            "Reserved RDMAP field not zero"),
    RDMAP_OPCODE("rdmap.opcode", Layer.RDMAP, "RFC 5040", "§4.1", Severity.ERROR, ErrorType.RDMA_UNEXPECTED_OPCODE,
            "Reserved opcode"),
    RDMAP_OPCODE_PLACEMENT("rdmap.opcode-placement", Layer.RDMAP, "RFC 5040", "§4.1", Severity.ERROR,
            ErrorType.RDMA_UNEXPECTED_OPCODE, "Opcode on the wrong buffer model or queue"),
    RDMAP_HEADER("rdmap.header", Layer.RDMAP, "RFC 5040", "§4.2", Severity.ERROR, null,
            "RDMAP header missing or cut short"),
    RDMAP_PAYLOAD("rdmap.payload-not-allowed", Layer.RDMAP, "RFC 5040", "§4.2", Severity.ERROR, null,
            "ULP payload in a message that allows none"),
    RDMAP_IMMEDIATE_LENGTH("rdmap.immediate-data.length", Layer.RDMAP, "RFC 7306", "§6.3", Severity.ERROR, null,
            "Immediate Data message not exactly 8 octets"),
    RDMAP_READ_RESPONSE_STAG("rdmap.read-response.stag", Layer.RDMAP, "RFC 5040", "§4.4", Severity.ERROR,
            ErrorType.DDP_T_INVALID_STAG, "Read Response STag is not the requested Data Sink STag"),
    RDMAP_READ_RESPONSE_TO("rdmap.read-response.to", Layer.RDMAP, "RFC 5040", "§4.4", Severity.ERROR,
            ErrorType.DDP_T_BASE_BOUNDS, "Read Response does not start at the requested Data Sink TO"),
    RDMAP_READ_RESPONSE_SIZE("rdmap.read-response.size", Layer.RDMAP, "RFC 5040", "§4.4", Severity.ERROR,
            ErrorType.DDP_T_BASE_BOUNDS, "Read Response length differs from the RDMA Read Message Size"),
    RDMAP_READ_RESPONSE_ORDER("rdmap.read-response.order", Layer.RDMAP, "RFC 5040", "§5.5", Severity.ERROR, null,
            "Read Responses not in the order of the Read Requests"),
    RDMAP_READ_UNANSWERED("rdmap.read.unanswered", Layer.RDMAP, "RFC 5040", "§5.2.1", Severity.WARNING, null,
            "Read or Atomic Request never answered though the responder kept sending"),
    RDMAP_OUTSTANDING("rdmap.read.outstanding", Layer.RDMAP, "RFC 5040", "§6.1", Severity.ERROR,
            ErrorType.RDMA_CATASTROPHIC_STREAM, "More outstanding Read/Atomic Requests than the negotiated IRD"),
    RDMAP_REMOTE_STAG("rdmap.remote-access.stag", Layer.RDMAP, "RFC 5040", "§7.2", Severity.INFO,
            ErrorType.RDMA_INVALID_STAG,
            "Data Source STag (Read) or Remote STag (Atomic) not known: bounds and access unverifiable"),
    RDMAP_REMOTE_BOUNDS("rdmap.remote-access.bounds", Layer.RDMAP, "RFC 5040", "§7.2", Severity.ERROR,
            ErrorType.RDMA_BASE_BOUNDS, "Read or Atomic Request outside the registered buffer"),
    RDMAP_READ_TO_WRAP("rdmap.read-request.to-wrap", Layer.RDMAP, "RFC 5040", "§7.2", Severity.ERROR,
            ErrorType.RDMA_TO_WRAP, "Data Source TO + RDMA Read Message Size wraps"),
    RDMAP_ATOMIC_OPCODE("rdmap.atomic.opcode", Layer.RDMAP, "RFC 7306", "§5.2.1", Severity.ERROR, null,
            "Atomic Request with a reserved or unassigned AOpCode"),
    RDMAP_ATOMIC_ALIGNMENT("rdmap.atomic.alignment", Layer.RDMAP, "RFC 7306", "§5.1", Severity.WARNING, null,
            "Atomic Request Remote Tagged Offset not 64-bit aligned"),
    RDMAP_ATOMIC_RESPONSE("rdmap.atomic-response.match", Layer.RDMAP, "RFC 7306", "§5.2.2", Severity.ERROR, null,
            "Atomic Response does not answer the oldest outstanding Atomic Request"),
    RDMAP_INVALIDATE("rdmap.send-invalidate", Layer.RDMAP, "RFC 5040", "§5.3", Severity.ERROR,
            ErrorType.RDMA_PROTECTION_CANNOT_INVALIDATE, "Invalidate STag cannot be invalidated on this stream"),
    RDMAP_TERMINATE_REPEATED("rdmap.terminate.repeated", Layer.RDMAP, "RFC 5040", "§5.4", Severity.ERROR, null,
            "More than one Terminate on a stream direction"),
    RDMAP_TERMINATE_AFTER("rdmap.terminate.after", Layer.RDMAP, "RFC 5040", "§5.4", Severity.ERROR, null,
            "Message sent after this side's Terminate"),
    RDMAP_TERMINATE_SEGMENTS("rdmap.terminate.segments", Layer.RDMAP, "RFC 5040", "§4.8", Severity.WARNING, null,
            "Terminate not a single segment with L set"),
    RDMAP_TERMINATE_CODE("rdmap.terminate.code", Layer.RDMAP, "RFC 5040", "§4.8", Severity.ERROR, null,
            "Terminate Layer/EType/Code not in the RFC tables"),
    RDMAP_TERMINATE_HEADER_CONTROL("rdmap.terminate.header-control", Layer.RDMAP, "RFC 5040", "§4.8",
            Severity.WARNING, null, "Terminate M/D/R bits disagree with Figure 10"),
    RDMAP_TERMINATE_TERMINATED_HEADER("rdmap.terminate.terminated-header", Layer.RDMAP, "RFC 5040", "§4.8",
            Severity.WARNING, null, "Terminated DDP/RDMA header does not match the offending PDU"),
    RDMAP_TERMINATE_MISMATCH("rdmap.terminate.mismatch", Layer.RDMAP, "RFC 5040", "§7.1", Severity.ERROR, null,
            "Terminate error type differs from the error the peer's PDU has"),
    RDMAP_TERMINATE_UNEXPLAINED("rdmap.terminate.unexplained", Layer.RDMAP, "RFC 5040", "§7.1", Severity.INFO,
            null, "Terminate without an offending PDU visible in the capture"),
    RDMAP_TERMINATE_MISSING("rdmap.terminate.missing", Layer.RDMAP, "RFC 5040", "§7.1", Severity.ERROR, null,
            "Peer received a PDU in error and sent no Terminate"),

    // ---- Security: RFC 5042 §6 ----
    // ---- RPC-over-RDMA version 1: RFC 8166 ----
    RPCRDMA_HEADER_SHORT("rpcrdma.header-short", Layer.RPCRDMA, "RFC 8166", "§4.5", Severity.ERROR, null,
            "Send shorter than the minimal RPC-over-RDMA header (28 octets): the receiver discards it"),
    RPCRDMA_HEADER_XDR("rpcrdma.header-xdr", Layer.RPCRDMA, "RFC 8166", "§4.5.2", Severity.ERROR, null,
            "RPC-over-RDMA header is not valid XDR (undefined procedure, bad list, count past the end)"),
    RPCRDMA_XID("rpcrdma.xid", Layer.RPCRDMA, "RFC 8166", "§4.2.1", Severity.ERROR, null,
            "rdma_xid differs from the XID of the RPC message"),
    RPCRDMA_VERSION("rpcrdma.version", Layer.RPCRDMA, "RFC 8166", "§4.5.1", Severity.ERROR, null,
            "Header of another version not answered by RDMA_ERROR ERR_VERS"),
    RPCRDMA_REPLY_READ_LIST("rpcrdma.reply-read-list", Layer.RPCRDMA, "RFC 8166", "§4.3.1", Severity.ERROR, null,
            "Responder sent a non-empty Read list"),
    RPCRDMA_POSITION_ALIGN("rpcrdma.position-alignment", Layer.RPCRDMA, "RFC 8166", "§3.4.5", Severity.ERROR, null,
            "Read segment Position is not a multiple of four"),
    RPCRDMA_POSITION_SPLIT("rpcrdma.position-split", Layer.RPCRDMA, "RFC 8166", "§3.4.5", Severity.ERROR, null,
            "Segments of one Read chunk (one Position) are not together in the Read list"),
    RPCRDMA_POSITION_RANGE("rpcrdma.position-range", Layer.RPCRDMA, "RFC 8166", "§3.4.5", Severity.ERROR, null,
            "Read chunk Position lies beyond the Payload stream it is inserted into"),
    RPCRDMA_READ_CHUNK_LENGTH("rpcrdma.read-chunk-length", Layer.RPCRDMA, "RFC 8166", "§3.4.5.2", Severity.ERROR,
            null, "Read chunk length is neither the data item's length nor that length rounded up"),
    RPCRDMA_NOMSG_EMPTY("rpcrdma.nomsg-no-chunk", Layer.RPCRDMA, "RFC 8166", "§4.2.4", Severity.ERROR, null,
            "RDMA_NOMSG without a Read list, Write list or Reply chunk to carry the Payload stream"),
    RPCRDMA_MSGP("rpcrdma.msgp", Layer.RPCRDMA, "RFC 8166", "§4.6.1", Severity.ERROR, null,
            "RDMA_MSGP sent"),
    RPCRDMA_DONE("rpcrdma.done", Layer.RPCRDMA, "RFC 8166", "§4.6.2", Severity.ERROR, null,
            "RDMA_DONE sent"),
    RPCRDMA_ERROR_FROM_REQUESTER("rpcrdma.error-from-requester", Layer.RPCRDMA, "RFC 8166", "§4.2.4",
            Severity.ERROR, null, "Requester sent RDMA_ERROR"),
    RPCRDMA_ERROR_ECHO("rpcrdma.error-echo", Layer.RPCRDMA, "RFC 8166", "§4.5", Severity.ERROR, null,
            "RDMA_ERROR does not echo the XID and version of a request"),
    RPCRDMA_CREDITS_EXCEEDED("rpcrdma.credits-exceeded", Layer.RPCRDMA, "RFC 8166", "§3.3.1", Severity.ERROR, null,
            "Requester has more requests in flight than the Responder granted (1 before the first reply)"),
    RPCRDMA_CREDITS_ZERO("rpcrdma.credits-zero", Layer.RPCRDMA, "RFC 8166", "§3.3.1", Severity.ERROR, null,
            "Responder granted zero credits"),
    RPCRDMA_INLINE_THRESHOLD("rpcrdma.inline-threshold", Layer.RPCRDMA, "RFC 8166", "§3.3.2", Severity.ERROR, null,
            "Send larger than the inline threshold of its direction"),
    RPCRDMA_REPLY_CHUNK_MISSING("rpcrdma.reply-chunk-missing", Layer.RPCRDMA, "RFC 8166", "§4.3.3", Severity.ERROR,
            null, "Call whose reply may exceed the reply inline threshold provides no Reply chunk"),
    RPCRDMA_WRITE_LIST_RETURNED("rpcrdma.write-list-returned", Layer.RPCRDMA, "RFC 8166", "§3.4.6", Severity.ERROR,
            null, "Reply's Write list is not the Requester's, segment for segment, with lengths not above provided"),
    RPCRDMA_EMPTY_WRITE_CHUNK("rpcrdma.write-chunk-empty", Layer.RPCRDMA, "RFC 8166", "§4.3.2.3", Severity.ERROR,
            null, "An empty Write chunk in the call is not returned empty"),
    RPCRDMA_WRITE_ROUNDUP("rpcrdma.write-chunk-roundup", Layer.RPCRDMA, "RFC 8166", "§3.4.6.2", Severity.ERROR, null,
            "Returned Write chunk length differs from the result data item's length (roundup written?)"),
    RPCRDMA_REPLY_CHUNK_RETURNED("rpcrdma.reply-chunk-returned", Layer.RPCRDMA, "RFC 8166", "§4.3.3",
            Severity.ERROR, null, "Reply's Reply chunk is not the Requester's, or returns more than provided"),
    RPCRDMA_CHUNK_UNMATCHED("rpcrdma.chunk-unmatched", Layer.RPCRDMA, "RFC 8166", "§3.5.2", Severity.WARNING, null,
            "RDMA Read or Write on the connection matches no chunk segment the Requester advertised"),
    RPCRDMA_CHUNK_BOUNDS("rpcrdma.chunk-bounds", Layer.RPCRDMA, "RFC 8166", "§4.5.3", Severity.ERROR, null,
            "RDMA Read or Write runs past the end of the chunk segment"),
    RPCRDMA_CHUNK_AFTER_REPLY("rpcrdma.chunk-after-reply", Layer.RPCRDMA, "RFC 8166", "§4.4.1", Severity.ERROR, null,
            "Responder accessed a chunk after sending the reply"),
    RPCRDMA_READ_CHUNK_NOT_PULLED("rpcrdma.read-chunk-not-pulled", Layer.RPCRDMA, "RFC 8166", "§3.4.5.1",
            Severity.WARNING, null, "Reply sent before the Read chunks of its call were read"),
    RPCRDMA_REPLY_UNMATCHED("rpcrdma.reply-unmatched", Layer.RPCRDMA, "RFC 8166", "§4.2.1", Severity.WARNING, null,
            "Reply whose XID matches no call in flight"),

    SECURITY_STAG_STREAM("security.stag-stream", Layer.SECURITY, "RFC 5042", "§6.1.1", Severity.ERROR,
            ErrorType.DDP_T_STAG_NOT_ASSOCIATED, "STag used on a stream it is not associated with"),
    SECURITY_STAG_INVALIDATED("security.stag-invalidated", Layer.SECURITY, "RFC 5042", "§6.2.2", Severity.ERROR,
            ErrorType.DDP_T_INVALID_STAG, "STag used after it was invalidated"),
    SECURITY_ACCESS("security.access", Layer.SECURITY, "RFC 5042", "§6.3.5", Severity.ERROR,
            ErrorType.RDMA_ACCESS_RIGHTS, "Access the buffer's rights do not allow"),
    SECURITY_UNSOLICITED_READ_RESPONSE("security.read-response-unsolicited", Layer.SECURITY, "RFC 5040", "§5.2.2",
            Severity.ERROR, ErrorType.RDMA_UNEXPECTED_OPCODE, "Read Response with no outstanding Read Request");

    private final String id;
    private final Layer layer;
    private final String rfc;
    private final String section;
    private final Severity severity;
    private final ErrorType errorType;
    private final String title;

    Check(String id, Layer layer, String rfc, String section, Severity severity, ErrorType errorType,
          String title) {
        this.id = id;
        this.layer = layer;
        this.rfc = rfc;
        this.section = section;
        this.severity = severity;
        this.errorType = errorType;
        this.title = title;
    }

    /** Stable short name, e.g. "ddp.untagged.msn". */
    public String id() {
        return id;
    }

    public Layer layer() {
        return layer;
    }

    /** "RFC 5041". */
    public String rfc() {
        return rfc;
    }

    /** "§4.3". */
    public String section() {
        return section;
    }

    /** The usual severity; a violation may carry another (INFO when unverifiable, WARNING when in doubt). */
    public Severity severity() {
        return severity;
    }

    /** The Terminate a conforming receiver reports for this error, or null. */
    public ErrorType errorType() {
        return errorType;
    }

    /** One line saying what the check is about. */
    public String title() {
        return title;
    }

    /** The check with this id, or null. */
    public static Check byId(String id) {
        for (Check c : values()) {
            if (c.id.equals(id)) return c;
        }
        return null;
    }

    @Override
    public String toString() {
        return id;
    }
}
