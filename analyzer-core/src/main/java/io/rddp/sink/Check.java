package io.rddp.sink;

/**
 * Every rule the reference Data Sink model enforces, with a stable id (used in output, filters and tests), the RFC
 * and section that state it, the usual severity, the Terminate error type a conforming receiver reports for it
 * (null when the RFC defines none or the receiver is not required to detect it) and the RFC's words, short.
 * <p>
 * Severity follows the RFC's key word for the sender: a MUST or MUST NOT broken is {@link Severity#ERROR}; SHOULD is
 * a {@link Severity#WARNING}; {@link Severity#INFO} where the capture cannot decide (an STag nothing registered, a
 * message cut by the end of the capture). A violation may carry a lower severity than its check where the capture
 * leaves doubt (after a TCP gap, an RDMAC peer): the rules say why where they do it. docs/checks.md lists them all
 * ({@link CheckCatalogue}).
 */
public enum Check {

    // ---- MPA: RFC 5044, RFC 6581 ----
    MPA_CRC("mpa.crc", Layer.MPA, "RFC 5044", "§4.4", Severity.ERROR, ErrorType.MPA_CRC,
            "FPDU CRC does not match",
            "The receiver checks the CRC of every FPDU when CRCs are in use; a mismatch is error code 2 (§8), "
            + "reported to the peer as an LLP error (RFC 5040 §6.2.1 SHOULD)"),
    MPA_PAD("mpa.pad", Layer.MPA, "RFC 5044", "§4.1", Severity.ERROR, null,
            "PAD octets of an FPDU not zero",
            "\"The pad data MUST be set to zero by the sender and ignored by the receiver (except for CRC "
            + "checking)\""),
    MPA_FRAMING("mpa.marker", Layer.MPA, "RFC 5044", "§8", Severity.ERROR, ErrorType.MPA_MARKER,
            "Marker and ULPDU Length disagree on the FPDU start",
            "Each Marker's FPDUPTR points back to the FPDU start; a mismatch is error code 3 (Marker and ULPDU "
            + "Length field mismatch)"),
    MPA_KEY("mpa.start.key", Layer.MPA, "RFC 5044", "§7.1.1", Severity.ERROR, ErrorType.MPA_INVALID_START_FRAME,
            "MPA Request/Reply key is not the fixed value",
            "Request key \"MPA ID Req Frame\", Reply key \"MPA ID Rep Frame\"; an improperly formatted frame MUST "
            + "close the connection (§7.1.2)"),
    MPA_REVISION("mpa.start.rev", Layer.MPA, "RFC 5044", "§7.1.1", Severity.ERROR, null,
            "MPA Rev not allowed",
            "\"For this version of the specification, senders MUST set this field to one\" (RFC 6581 §6: two for "
            + "enhanced establishment)"),
    MPA_PD_LENGTH("mpa.start.pd-length", Layer.MPA, "RFC 5044", "§7.1.1", Severity.ERROR,
            ErrorType.MPA_INVALID_START_FRAME, "Private Data longer than 512 octets",
            "Private Data is at most 512 octets; a longer PD_Length makes the frame improperly formatted, which closes "
            + "the connection"),
    MPA_RESERVED("mpa.start.reserved", Layer.MPA, "RFC 5044", "§7.1.1", Severity.ERROR, null,
            "Res bits, or R in a Request, not zero",
            "Res \"MUST be set to zero when sending, and not checked on reception\"; R MUST be zero in a Request"),
    MPA_SEQUENCE("mpa.start.sequence", Layer.MPA, "RFC 5044", "§7.1.2", Severity.ERROR, null,
            "MPA Request/Reply exchange out of order",
            "One MPA Request from the Initiator, one MPA Reply from the Responder (§7.1.2 rules)"),
    MPA_INITIATOR_EARLY("mpa.initiator-early", Layer.MPA, "RFC 5044", "§7.1.2", Severity.ERROR, null,
            "Initiator sent an FPDU before the MPA Reply",
            "The Initiator MUST NOT send an FPDU before it received a valid MPA Reply (rule 3)"),
    MPA_RESPONDER_FIRST("mpa.responder-first", Layer.MPA, "RFC 5044", "§7.1.2", Severity.ERROR, null,
            "Responder sent an FPDU before receiving the Initiator's first FPDU",
            "The Responder \"MUST receive and validate at least one FPDU before sending any FPDUs\" (rule 4)"),
    MPA_AFTER_EXIT("mpa.fpdu-after-exit", Layer.MPA, "RFC 5044", "§7.1.2", Severity.ERROR, null,
            "FPDU after the connection was rejected or a start frame was malformed",
            "After a rejected or improperly formatted Request/Reply the implementation MUST exit MPA: no FPDUs "
            + "follow (rules 2, 3)"),
    MPA_ENHANCED("mpa.enhanced", Layer.MPA, "RFC 6581", "§6", Severity.ERROR, null,
            "Enhanced connection establishment data missing or not answered in kind",
            "With the S flag \"Private Data MUST begin with\" IRD/ORD; an enhanced Request is answered by an "
            + "enhanced Reply (§10)"),
    MPA_IRD_ORD("mpa.enhanced.ird-ord", Layer.MPA, "RFC 6581", "§9.1", Severity.ERROR, null,
            "IRD/ORD negotiation rule broken",
            "\"The responder MUST set its ORD at most to the initiator IRD\"; 0x3FFF answered with 0x3FFF"),
    MPA_RTR_FLAGS("mpa.enhanced.rtr-flags", Layer.MPA, "RFC 6581", "§9.2", Severity.ERROR, null,
            "Peer-to-peer / RTR control flags inconsistent",
            "\"If Control Flag A is set to 0, then Control Flags B, C, and D MUST also be set to 0\"; a "
            + "peer-to-peer Reply names an RTR type"),
    MPA_RTR("mpa.rtr", Layer.MPA, "RFC 6581", "§9.2", Severity.ERROR, null,
            "Initiator's first FPDU is not a negotiated RTR indication",
            "In peer-to-peer mode \"the initiator MUST generate one of the negotiated RTR indications\" as its "
            + "first FPDU"),

    // ---- DDP: RFC 5041 ----
    DDP_HEADER("ddp.header", Layer.DDP, "RFC 5041", "§4.4", Severity.ERROR, null,
            "ULPDU too short for the DDP header its T bit announces",
            "\"Each DDP Segment MUST contain a DDP Header\""),
    DDP_VERSION("ddp.version", Layer.DDP, "RFC 5041", "§4.1", Severity.ERROR, ErrorType.DDP_U_INVALID_VERSION,
            "DV is not 1",
            "DV \"MUST be set to one ... The value of DV MUST be the same for all the DDP Segments\""),
    DDP_RESERVED("ddp.reserved", Layer.DDP, "RFC 5041", "§4.1", Severity.ERROR, null,
            "DDP Rsvd bits not zero",
            "Rsvd \"MUST be set to zero on transmit, and not checked on receive\""),
    DDP_QN("ddp.untagged.qn", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_U_INVALID_QN,
            "Queue Number not valid for RDMAP",
            "§7.1 untagged check 1: \"The QN is valid for this stream\" (RDMAP queues 0-2, RFC 7306: 3)"),
    DDP_MSN("ddp.untagged.msn", Layer.DDP, "RFC 5041", "§4.3", Severity.ERROR, ErrorType.DDP_U_MSN_RANGE,
            "MSN does not start at 1 or does not increase by one per message",
            "\"The initial value for MSN MUST be one\", increased by one per message; §7.1 untagged check 5 (MSN "
            + "range)"),
    DDP_NO_BUFFER("ddp.untagged.no-buffer", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_U_NO_BUFFER,
            "Untagged segment with no receive buffer posted for its QN and MSN",
            "§7.1 untagged check 2: \"The QN and MSN have an associated buffer that allows Placement of the payload\""),
    DDP_TOO_LONG("ddp.untagged.too-long", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_U_TOO_LONG,
            "Untagged message longer than the receive buffer posted for it",
            "§7.1 untagged checks 3-4: MO and MO + payload length \"in the range of legal offsets\" of the buffer"),
    DDP_QN_MSN_CHANGED("ddp.untagged.qn-msn-changed", Layer.DDP, "RFC 5041", "§4.3", Severity.ERROR,
            ErrorType.DDP_U_MSN_RANGE,
            "QN or MSN differs between segments of one message",
            "\"Each DDP segment within a specific DDP message MUST contain the same value for this field\" (QN, MSN)"),
    DDP_MO_ORDER("ddp.untagged.mo-order", Layer.DDP, "RFC 5041", "§5.3", Severity.WARNING, null,
            "Segments of an untagged message not in increasing MO order",
            "The Data Source \"SHOULD transmit DDP Segments within a DDP Message in increasing MO order\""),
    DDP_MO_COVERAGE("ddp.untagged.mo-coverage", Layer.DDP, "RFC 5041", "§5.2", Severity.ERROR,
            ErrorType.DDP_U_INVALID_MO,
            "Untagged message segments leave a hole or overlap",
            "\"the DDP layer MUST send all the data contained in the ULP message\"; MO is the offset of the "
            + "segment's first octet"),
    DDP_MESSAGE_LENGTH("ddp.untagged.message-length", Layer.DDP, "RFC 5041", "§5.2", Severity.ERROR,
            ErrorType.DDP_U_INVALID_MO, "Untagged message reaches 2^32 octets",
            "\"The ULP Message Length MUST be less than 2^32\""),
    DDP_LAST_FLAG("ddp.last-flag", Layer.DDP, "RFC 5041", "§4.1", Severity.ERROR, null,
            "L set on a segment that does not carry the highest MO",
            "\"the DDP Segment with the L bit set to 1 MUST carry the highest MO\""),
    DDP_RSVDULP("ddp.rsvdulp-changed", Layer.DDP, "RFC 5041", "§4.3", Severity.ERROR, null,
            "RsvdULP differs between segments of one message",
            "\"Each DDP Segment within a specific DDP Message MUST contain the same value for the RsvdULP field\""),
    DDP_INTERLEAVED("ddp.message-interleaved", Layer.DDP, "RFC 5041", "§5.3", Severity.WARNING, null,
            "A message of the same buffer model started before the previous one ended",
            "DDP \"MUST transmit DDP Messages in the order they were submitted\"; segments of two messages "
            + "interleaved"),
    DDP_TO_ORDER("ddp.tagged.to-order", Layer.DDP, "RFC 5041", "§5.3", Severity.WARNING, null,
            "Segments of a tagged message not in increasing TO order",
            "The Data Source \"SHOULD transmit DDP Segments within a DDP Message in increasing ... TO order\""),
    DDP_STAG_CHANGED("ddp.tagged.stag-changed", Layer.DDP, "RFC 5041", "§4.2", Severity.ERROR, null,
            "STag differs between segments of one message",
            "STag: \"Each DDP Segment within a specific DDP Message MUST contain the same value for this field\""),
    DDP_TO_WRAP("ddp.tagged.to-wrap", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_T_TO_WRAP,
            "64-bit TO + payload length wraps",
            "§7.1 tagged check 5: \"A 64-bit unsigned sum of the DDP Segment payload length and the TO does not "
            + "wrap\""),
    DDP_STAG("ddp.tagged.stag", Layer.DDP, "RFC 5041", "§7.1", Severity.INFO, ErrorType.DDP_T_INVALID_STAG,
            "STag not known: base, bounds and access unverifiable",
            "§7.1 tagged check 1: \"The STag is valid for this stream\""),
    DDP_BOUNDS("ddp.tagged.bounds", Layer.DDP, "RFC 5041", "§7.1", Severity.ERROR, ErrorType.DDP_T_BASE_BOUNDS,
            "Placement outside the registered buffer",
            "§7.1 tagged checks 3-4: TO and TO + payload length \"in the range of legal offsets registered for the "
            + "STag\""),
    DDP_OVERLAP("ddp.tagged.overlap", Layer.DDP, "RFC 5040", "§5.5", Severity.INFO, null,
            "Bytes of a tagged buffer placed again before the writer signalled completion",
            "Bytes written twice before completion is signalled leave the buffer's content indeterminate (§5.5 rule "
            + "3)"),
    DDP_INCOMPLETE("ddp.message-incomplete", Layer.DDP, "RFC 5041", "§5.4", Severity.INFO, null,
            "Message without its last segment when the stream or capture ended",
            "\"DDP MUST Deliver a DDP Message if and only if\" its last segment arrived and all its segments were "
            + "Placed"),

    // ---- RDMAP: RFC 5040, RFC 7306 ----
    RDMAP_VERSION("rdmap.version", Layer.RDMAP, "RFC 5040", "§4.1", Severity.ERROR, ErrorType.RDMA_INVALID_VERSION,
            "RDMAP version not 1",
            "RV MUST be one for this specification; §7.2 item 3 \"the RDMA Version MUST be valid\""),
    RDMAP_RESERVED("rdmap.reserved", Layer.RDMAP, "RFC 5040", "§4.1", Severity.ERROR, null,
            "Reserved RDMAP field not zero",
            "Rsv, and the Invalidate STag of messages without one, \"MUST be set to zero on transmit\" and are not "
            + "checked on receive"),
    RDMAP_OPCODE("rdmap.opcode", Layer.RDMAP, "RFC 5040", "§4.1", Severity.ERROR, ErrorType.RDMA_UNEXPECTED_OPCODE,
            "Reserved opcode",
            "§7.2 item 2: \"the RDMA OpCode MUST be valid\""),
    RDMAP_OPCODE_PLACEMENT("rdmap.opcode-placement", Layer.RDMAP, "RFC 5040", "§4.1", Severity.ERROR,
            ErrorType.RDMA_UNEXPECTED_OPCODE, "Opcode on the wrong buffer model or queue",
            "Figure 4 fixes each opcode's buffer model (T bit) and queue (QN)"),
    RDMAP_HEADER("rdmap.header", Layer.RDMAP, "RFC 5040", "§4.2", Severity.ERROR, null,
            "RDMAP header missing or cut short",
            "The opcode-specific header (Read Request, Terminate, Atomic, Immediate Data) follows the DDP header of "
            + "the message's first segment"),
    RDMAP_PAYLOAD("rdmap.payload-not-allowed", Layer.RDMAP, "RFC 5040", "§4.2", Severity.ERROR, null,
            "ULP payload in a message that allows none",
            "Figure 5: RDMA Read Request, Terminate and Atomic messages carry no ULP payload"),
    RDMAP_IMMEDIATE_LENGTH("rdmap.immediate-data.length", Layer.RDMAP, "RFC 7306", "§6.3", Severity.ERROR, null,
            "Immediate Data message not exactly 8 octets",
            "Immediate Data carries exactly 8 octets of data"),
    RDMAP_READ_RESPONSE_STAG("rdmap.read-response.stag", Layer.RDMAP, "RFC 5040", "§4.4", Severity.ERROR,
            ErrorType.DDP_T_INVALID_STAG, "Read Response STag is not the requested Data Sink STag",
            "The Read Response uses the Data Sink STag of the Read Request (§4.4; the Data Sink MAY validate, §5.2.2)"),
    RDMAP_READ_RESPONSE_TO("rdmap.read-response.to", Layer.RDMAP, "RFC 5040", "§4.4", Severity.ERROR,
            ErrorType.DDP_T_BASE_BOUNDS, "Read Response does not start at the requested Data Sink TO",
            "The Read Response starts at the Data Sink Tagged Offset of the Read Request"),
    RDMAP_READ_RESPONSE_SIZE("rdmap.read-response.size", Layer.RDMAP, "RFC 5040", "§4.4", Severity.ERROR,
            ErrorType.DDP_T_BASE_BOUNDS, "Read Response length differs from the RDMA Read Message Size",
            "RDMA Read Message Size is the amount of data read from the Data Source"),
    RDMAP_READ_RESPONSE_ORDER("rdmap.read-response.order", Layer.RDMAP, "RFC 5040", "§5.5", Severity.ERROR, null,
            "Read Responses not in the order of the Read Requests",
            "Read Responses are sent in the order the Read Requests were delivered (§5.5 rule 20)"),
    RDMAP_READ_UNANSWERED("rdmap.read.unanswered", Layer.RDMAP, "RFC 5040", "§5.2.1", Severity.WARNING, null,
            "Read or Atomic Request never answered though the responder kept sending",
            "The Data Source \"MUST respond\" to a valid RDMA Read Request (RFC 7306 §5.2.1 likewise for atomics)"),
    RDMAP_OUTSTANDING("rdmap.read.outstanding", Layer.RDMAP, "RFC 5040", "§6.1", Severity.ERROR,
            ErrorType.DDP_U_MSN_RANGE, "More outstanding Read/Atomic Requests than the negotiated IRD",
            "\"the RDMAP layer MUST NOT exceed the maximum number of outstanding ... RDMA Read Requests\" (IRD/ORD: "
            + "RFC 6581 §9.1)"),
    RDMAP_REMOTE_STAG("rdmap.remote-access.stag", Layer.RDMAP, "RFC 5040", "§7.2", Severity.INFO,
            ErrorType.RDMA_INVALID_STAG,
            "Data Source STag (Read) or Remote STag (Atomic) not known: bounds and access unverifiable",
            "§7.2 item 4a: the Data Source STag (Read) or Remote STag (Atomic) MUST be valid"),
    RDMAP_REMOTE_BOUNDS("rdmap.remote-access.bounds", Layer.RDMAP, "RFC 5040", "§7.2", Severity.ERROR,
            ErrorType.RDMA_BASE_BOUNDS, "Read or Atomic Request outside the registered buffer",
            "§7.2 items 4c-d: the requested range lies within the registered buffer"),
    RDMAP_READ_TO_WRAP("rdmap.read-request.to-wrap", Layer.RDMAP, "RFC 5040", "§7.2", Severity.ERROR,
            ErrorType.RDMA_TO_WRAP, "Data Source TO + RDMA Read Message Size wraps",
            "§7.2 item 4e: Data Source TO + RDMA Read Message Size does not wrap"),
    RDMAP_ATOMIC_OPCODE("rdmap.atomic.opcode", Layer.RDMAP, "RFC 7306", "§5.2.1", Severity.ERROR, null,
            "Atomic Request with a reserved or unassigned AOpCode",
            "AOpCode is FetchAdd (0) or CmpSwap (2) (§10.1 registry)"),
    RDMAP_ATOMIC_ALIGNMENT("rdmap.atomic.alignment", Layer.RDMAP, "RFC 7306", "§5.1", Severity.WARNING, null,
            "Atomic Request Remote Tagged Offset not 64-bit aligned",
            "Atomic operations target 64-bit aligned ULP Buffer addresses"),
    RDMAP_ATOMIC_RESPONSE("rdmap.atomic-response.match", Layer.RDMAP, "RFC 7306", "§5.2.2", Severity.ERROR, null,
            "Atomic Response does not answer the oldest outstanding Atomic Request",
            "The Atomic Response carries the Request Identifier of the oldest outstanding Atomic Request"),
    RDMAP_INVALIDATE("rdmap.send-invalidate", Layer.RDMAP, "RFC 5040", "§5.3", Severity.ERROR,
            ErrorType.RDMA_PROTECTION_CANNOT_INVALIDATE, "Invalidate STag cannot be invalidated on this stream",
            "§7.2 item 4: \"The Invalidate STag MUST be valid\"; else \"STag Cannot be Invalidated\""),
    RDMAP_TERMINATE_REPEATED("rdmap.terminate.repeated", Layer.RDMAP, "RFC 5040", "§5.4", Severity.ERROR, null,
            "More than one Terminate on a stream direction",
            "After a Terminate the sender \"MUST NOT send any more Messages\""),
    RDMAP_TERMINATE_AFTER("rdmap.terminate.after", Layer.RDMAP, "RFC 5040", "§5.4", Severity.ERROR, null,
            "Message sent after this side's Terminate",
            "\"After sending a Terminate Message ... MUST NOT send any more Messages\""),
    RDMAP_TERMINATE_SEGMENTS("rdmap.terminate.segments", Layer.RDMAP, "RFC 5040", "§4.8", Severity.WARNING, null,
            "Terminate not a single segment with L set",
            "The Terminate header travels in one DDP segment with L set (Appendix A.6 layout)"),
    RDMAP_TERMINATE_CODE("rdmap.terminate.code", Layer.RDMAP, "RFC 5040", "§4.8", Severity.ERROR, null,
            "Terminate Layer/EType/Code not in the RFC tables",
            "Layer/EType/Code from RFC 5040 Figure 9, RFC 5041 §7.2, RFC 5044 §8, RFC 6581 §8"),
    RDMAP_TERMINATE_HEADER_CONTROL("rdmap.terminate.header-control", Layer.RDMAP, "RFC 5040", "§4.8",
            Severity.WARNING, null, "Terminate M/D/R bits disagree with Figure 10",
            "Figure 10: which headers (M/D/R) a Terminate of each type SHOULD include"),
    RDMAP_TERMINATE_TERMINATED_HEADER("rdmap.terminate.terminated-header", Layer.RDMAP, "RFC 5040", "§4.8",
            Severity.WARNING, null, "Terminated DDP/RDMA header does not match the offending PDU",
            "The Terminated DDP/RDMA Header is the header of the PDU that caused the error"),
    RDMAP_TERMINATE_MISMATCH("rdmap.terminate.mismatch", Layer.RDMAP, "RFC 5040", "§7.1", Severity.ERROR, null,
            "Terminate error type differs from the error the peer's PDU has",
            "The Terminate reports the error of \"the first RDMA Message ... that experienced an error\" (rule 4)"),
    RDMAP_TERMINATE_UNEXPLAINED("rdmap.terminate.unexplained", Layer.RDMAP, "RFC 5040", "§7.1", Severity.INFO,
            null, "Terminate without an offending PDU visible in the capture",
            "A Terminate reports an error; none is visible in the capture"),
    RDMAP_TERMINATE_MISSING("rdmap.terminate.missing", Layer.RDMAP, "RFC 5040", "§7.1", Severity.ERROR, null,
            "Peer received a PDU in error and sent no Terminate",
            "On a DDP or RDMAP error the receiver \"MUST send a Terminate Message\" (LLP errors: SHOULD, §6.2.1)"),

    // ---- Security: RFC 5042 §6 ----
    // ---- RPC-over-RDMA version 1: RFC 8166 ----
    RPCRDMA_HEADER_SHORT("rpcrdma.header-short", Layer.RPCRDMA, "RFC 8166", "§4.5", Severity.ERROR, null,
            "Send shorter than the minimal RPC-over-RDMA header (28 octets): the receiver discards it",
            "The minimal RPC-over-RDMA header is 28 octets; a shorter Send cannot be decoded and is discarded"),
    RPCRDMA_HEADER_XDR("rpcrdma.header-xdr", Layer.RPCRDMA, "RFC 8166", "§4.5.2", Severity.ERROR, null,
            "RPC-over-RDMA header is not valid XDR (undefined procedure, bad list, count past the end)",
            "The Transport header is valid XDR; a parsing error is answered with ERR_CHUNK"),
    RPCRDMA_XID("rpcrdma.xid", Layer.RPCRDMA, "RFC 8166", "§4.2.1", Severity.ERROR, null,
            "rdma_xid differs from the XID of the RPC message",
            "rdma_xid carries the XID of the accompanying RPC message"),
    RPCRDMA_VERSION("rpcrdma.version", Layer.RPCRDMA, "RFC 8166", "§4.5.1", Severity.ERROR, null,
            "Header of another version not answered by RDMA_ERROR ERR_VERS",
            "\"For RPC-over-RDMA version 1, this field MUST contain the value one (1)\"; another version is "
            + "answered with ERR_VERS, whose range holds the versions the Responder supports, not the one rejected"),
    RPCRDMA_REPLY_READ_LIST("rpcrdma.reply-read-list", Layer.RPCRDMA, "RFC 8166", "§4.3.1", Severity.ERROR, null,
            "Responder sent a non-empty Read list",
            "\"Responders MUST leave the Read list empty in all replies\""),
    RPCRDMA_POSITION_ALIGN("rpcrdma.position-alignment", Layer.RPCRDMA, "RFC 8166", "§3.4.5", Severity.ERROR, null,
            "Read segment Position is not a multiple of four",
            "Position \"MUST be a multiple of four\""),
    RPCRDMA_POSITION_SPLIT("rpcrdma.position-split", Layer.RPCRDMA, "RFC 8166", "§3.4.5", Severity.ERROR, null,
            "Segments of one Read chunk (one Position) are not together in the Read list",
            "\"All segments in the same Read chunk share the same Position value\""),
    RPCRDMA_POSITION_RANGE("rpcrdma.position-range", Layer.RPCRDMA, "RFC 8166", "§3.4.5", Severity.ERROR, null,
            "Read chunk Position lies beyond the Payload stream it is inserted into",
            "Position is a byte offset in the unreduced Payload stream"),
    RPCRDMA_READ_CHUNK_LENGTH("rpcrdma.read-chunk-length", Layer.RPCRDMA, "RFC 8166", "§3.4.5.2", Severity.ERROR,
            null, "Read chunk length is neither the data item's length nor that length rounded up",
            "\"the chunk's total length MUST be\" the data item's encoded length, with or without its roundup"),
    RPCRDMA_NOMSG_EMPTY("rpcrdma.nomsg-no-chunk", Layer.RPCRDMA, "RFC 8166", "§4.2.4", Severity.ERROR, null,
            "RDMA_NOMSG without a Read list, Write list or Reply chunk to carry the Payload stream",
            "An RDMA_NOMSG whose Read list, Write list and Reply chunk are not present is an XDR parsing error"),
    RPCRDMA_MSGP("rpcrdma.msgp", Layer.RPCRDMA, "RFC 8166", "§4.6.1", Severity.ERROR, null,
            "RDMA_MSGP sent",
            "\"senders MUST NOT send RDMA_MSGP procedures\""),
    RPCRDMA_DONE("rpcrdma.done", Layer.RPCRDMA, "RFC 8166", "§4.6.2", Severity.ERROR, null,
            "RDMA_DONE sent",
            "\"senders MUST NOT send RDMA_DONE messages\""),
    RPCRDMA_ERROR_FROM_REQUESTER("rpcrdma.error-from-requester", Layer.RPCRDMA, "RFC 8166", "§4.2.4",
            Severity.ERROR, null, "Requester sent RDMA_ERROR",
            "\"A Requester MUST NOT send an RPC-over-RDMA header with the RDMA_ERROR procedure\""),
    RPCRDMA_ERROR_ECHO("rpcrdma.error-echo", Layer.RPCRDMA, "RFC 8166", "§4.5", Severity.ERROR, null,
            "RDMA_ERROR does not echo the XID and version of a request",
            "RDMA_ERROR: \"The rdma_xid field MUST contain the same XID ... rdma_vers ... the same version\""),
    RPCRDMA_CREDITS_EXCEEDED("rpcrdma.credits-exceeded", Layer.RPCRDMA, "RFC 8166", "§3.3.1", Severity.ERROR, null,
            "Requester has more requests in flight than the Responder granted (1 before the first reply)",
            "\"A Requester MUST NOT send unacknowledged requests in excess of the Responder's granted credit limit\""),
    RPCRDMA_CREDITS_ZERO("rpcrdma.credits-zero", Layer.RPCRDMA, "RFC 8166", "§3.3.1", Severity.ERROR, null,
            "Responder granted zero credits",
            "\"The granted value MUST NOT be zero, since such a value would result in deadlock\""),
    RPCRDMA_INLINE_THRESHOLD("rpcrdma.inline-threshold", Layer.RPCRDMA, "RFC 8166", "§3.3.2", Severity.ERROR, null,
            "Send larger than the inline threshold of its direction",
            "A Send stays within the receiver's inline threshold (1024 octets unless more is known)"),
    RPCRDMA_REPLY_CHUNK_MISSING("rpcrdma.reply-chunk-missing", Layer.RPCRDMA, "RFC 8166", "§4.3.3", Severity.ERROR,
            null, "Call whose reply may exceed the reply inline threshold provides no Reply chunk",
            "\"A Requester MUST provide a Reply chunk whenever the maximum possible size of the RPC Reply message's "
            + "Transport and Payload streams is larger than the inline threshold\""),
    RPCRDMA_WRITE_LIST_RETURNED("rpcrdma.write-list-returned", Layer.RPCRDMA, "RFC 8166", "§3.4.6", Severity.ERROR,
            null, "Reply's Write list is not the Requester's, segment for segment, with lengths not above provided",
            "The Responder returns the Write list it was given, each chunk with the lengths it actually wrote"),
    RPCRDMA_EMPTY_WRITE_CHUNK("rpcrdma.write-chunk-empty", Layer.RPCRDMA, "RFC 8166", "§4.3.2.3", Severity.ERROR,
            null, "An empty Write chunk in the call is not returned empty",
            "\"the Responder MUST return this Write chunk as an unused Write chunk\""),
    RPCRDMA_WRITE_ROUNDUP("rpcrdma.write-chunk-roundup", Layer.RPCRDMA, "RFC 8166", "§3.4.6.2", Severity.ERROR, null,
            "Returned Write chunk length differs from the result data item's length (roundup written?)",
            "A Write chunk carries the data item without XDR roundup"),
    RPCRDMA_REPLY_CHUNK_RETURNED("rpcrdma.reply-chunk-returned", Layer.RPCRDMA, "RFC 8166", "§4.3.3",
            Severity.ERROR, null, "Reply's Reply chunk is not the Requester's, or returns more than provided",
            "\"the Responder MUST copy that chunk into the Transport header of the RPC Reply\", lengths not above "
            + "provided"),
    RPCRDMA_CHUNK_UNMATCHED("rpcrdma.chunk-unmatched", Layer.RPCRDMA, "RFC 8166", "§3.5.2", Severity.WARNING, null,
            "RDMA Read or Write on the connection matches no chunk segment the Requester advertised",
            "Responders access only the chunk segments the Requester advertised"),
    RPCRDMA_CHUNK_BOUNDS("rpcrdma.chunk-bounds", Layer.RPCRDMA, "RFC 8166", "§4.5.3", Severity.ERROR, null,
            "RDMA Read or Write runs past the end of the chunk segment",
            "An RDMA Read or Write stays within its chunk segment"),
    RPCRDMA_CHUNK_AFTER_REPLY("rpcrdma.chunk-after-reply", Layer.RPCRDMA, "RFC 8166", "§4.4.1", Severity.ERROR, null,
            "Responder accessed a chunk after sending the reply",
            "The Responder finishes its RDMA operations before it sends the reply"),
    RPCRDMA_READ_CHUNK_NOT_PULLED("rpcrdma.read-chunk-not-pulled", Layer.RPCRDMA, "RFC 8166", "§3.4.5.1",
            Severity.WARNING, null, "Reply sent before the Read chunks of its call were read",
            "The Responder pulls the Read chunks of a call before it replies"),
    RPCRDMA_REPLY_UNMATCHED("rpcrdma.reply-unmatched", Layer.RPCRDMA, "RFC 8166", "§4.2.1", Severity.WARNING, null,
            "Reply whose XID matches no call in flight",
            "A reply carries the XID of a call in flight"),

    SECURITY_STAG_STREAM("security.stag-stream", Layer.SECURITY, "RFC 5042", "§6.1.1", Severity.ERROR,
            ErrorType.DDP_T_STAG_NOT_ASSOCIATED, "STag used on a stream it is not associated with",
            "\"An RNIC MUST ensure that, if an STag is limited in scope to a single Stream, no other Stream can use "
            + "the STag\""),
    SECURITY_STAG_INVALIDATED("security.stag-invalidated", Layer.SECURITY, "RFC 5042", "§6.2.2", Severity.ERROR,
            ErrorType.DDP_T_INVALID_STAG, "STag used after it was invalidated",
            "An invalidated STag \"cannot be accessed remotely until it is explicitly Advertised again\" (RFC 5040 "
            + "§2.4)"),
    SECURITY_ACCESS("security.access", Layer.SECURITY, "RFC 5042", "§6.3.5", Severity.ERROR,
            ErrorType.RDMA_ACCESS_RIGHTS, "Access the buffer's rights do not allow",
            "\"If a peer only intends a buffer to be exposed for remote write access, it must set the access "
            + "rights\" to remote write only"),
    SECURITY_UNSOLICITED_READ_RESPONSE("security.read-response-unsolicited", Layer.SECURITY, "RFC 5040", "§5.2.2",
            Severity.ERROR, ErrorType.RDMA_UNEXPECTED_OPCODE, "Read Response with no outstanding Read Request",
            "A Read Response answers an outstanding RDMA Read Request");

    private final String id;
    private final Layer layer;
    private final String rfc;
    private final String section;
    private final Severity severity;
    private final ErrorType errorType;
    private final String title;
    private final String rfcText;

    Check(String id, Layer layer, String rfc, String section, Severity severity, ErrorType errorType,
          String title, String rfcText) {
        this.id = id;
        this.layer = layer;
        this.rfc = rfc;
        this.section = section;
        this.severity = severity;
        this.errorType = errorType;
        this.title = title;
        this.rfcText = rfcText;
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

    /** What the RFC says, short; in quotation marks where quoted word for word, else paraphrased. */
    public String rfcText() {
        return rfcText;
    }

    /**
     * Whether the RFC tells the receiver not to look at what this check is about ("not checked on receive",
     * "ignored by the receiver"): PAD and reserved fields. The sender still broke a MUST, but a receiver that acts on
     * it does not conform, so no Terminate is owed and an emulated RNIC goes on as usual.
     */
    public boolean receiverIgnores() {
        return this == MPA_PAD || this == MPA_RESERVED || this == DDP_RESERVED || this == RDMAP_RESERVED;
    }

    /**
     * Whether the RFC's own answer of a receiver to a PDU that breaks this check is to go on: no Terminate, no close.
     * Besides what it ignores ({@link #receiverIgnores}): an FPDU that comes before the MPA exchange is over (RFC 5044
     * §7.1.2 rule 2: the Responder "SHOULD prepare to interpret any data received as FPDUs and pass any received
     * ULPDUs to DDP"; rule 3: the Initiator "SHOULD enter Full MPA/DDP Operation Phase; interpreting any received
     * data as FPDUs"), and a hole in an untagged message (RFC 5041 §5.4: DDP "MUST Deliver a DDP Message if and only
     * if ... all of the DDP Segments of the DDP Message have been Placed", and §7.1 names no check for a hole): the
     * message is not Delivered, nothing is reported. A Terminate the model books for such a check (MAY) only explains
     * one a receiver may send; an emulated RNIC sends none.
     */
    public boolean receiverGoesOn() {
        return receiverIgnores() || this == MPA_INITIATOR_EARLY || this == MPA_RESPONDER_FIRST
                || this == DDP_MO_COVERAGE;
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
