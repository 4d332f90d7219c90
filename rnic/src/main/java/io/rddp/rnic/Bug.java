package io.rddp.rnic;

import io.rddp.sink.Check;
import io.rddp.sink.ErrorType;

import java.util.Locale;
import java.util.Set;

/**
 * Faults the emulated RNIC can be told to have (`rddp peer --bug NAME`), each modelled on a failure real iWARP stacks
 * have shown, so that the conformance suite can prove it catches every one. Receive-side knobs make the RNIC disregard
 * the sink model's verdict for the named checks (it places or answers instead of terminating); transmit-side knobs
 * change what it puts on the wire.
 */
public enum Bug {
    // ---- generic wrong behaviours: every scenario is failed by at least one of these or a rule-specific knob ----
    ACCEPT_ALL("Accepts everything: places and delivers whatever arrives and never Terminates or closes for a"
            + " protocol error (every receive-side check disregarded; RFC 5041 §7.1, RFC 5040 §7.1, RFC 5044 §7.1.2)"),
    CLOSE_SILENTLY("Closes the connection without a Terminate wherever one is owed (RFC 5040 §7.1: the Local Peer"
            + " MUST send a Terminate Message)"),
    TERMINATE_WRONG_TYPE("Terminates with a plausible but wrong error type: the other buffer model's or protection"
            + " class's EType, or the next MPA error code (RFC 5040 §4.8, §7.2, RFC 5041 §7.2, RFC 5044 §8)"),
    TERMINATE_AND_GO_ON("Sends its Terminate, then goes on carrying out and answering what arrives on the stream"
            + " (RFC 5040 §5.4: after a Terminate the Local Peer MUST NOT send any more Messages)"),
    TERMINATE_MULTI_SEGMENT("Answers a valid message that spans more than one DDP segment with a Terminate at its"
            + " second segment, as a receiver whose reassembly is broken does (RFC 5041 §5.3, §5.4)"),
    STALL_AFTER_MPA("After the MPA exchange neither carries out nor answers anything: no placement, no completion,"
            + " no response, no Terminate, the connection left open (a hung RNIC)"),
    // ---- rule-specific wrong behaviours, each modelled on a failure real stacks have shown ----
    SILENT_CLOSE_ON_INVALID_STAG("An invalid STag closes the connection without a Terminate (RFC 5040 §7.1: a"
            + " Terminate MUST be sent)"),
    TERMINATE_BIT_LAYOUT("Terminate control word with the Layer and EType nibbles swapped and M/D/R in reserved bits,"
            + " as a C bitfield in the wrong order puts it (Linux siw 6.1; RFC 5040 §4.8 Figure 7)"),
    MSN_STARTS_AT_ZERO("Untagged MSNs start at 0 (RFC 5041 §4.3: the initial MSN MUST be one)"),
    CRC_BYTE_ORDER("CRC32c written most significant octet first (RFC 5044 §4.4 takes iSCSI's order, RFC 3720 §B.4)"),
    NO_BOUNDS_CHECK("Tagged placement and Read Requests outside the registered buffer are carried out as far as the"
            + " buffer goes (RFC 5041 §7.1 tagged checks 3-4, RFC 5040 §7.2)"),
    NO_ACCESS_CHECK("Remote access rights are not checked (RFC 5042 §6.3.5, RFC 5040 §7.2)"),
    STAG_AFTER_INVALIDATE("An STag invalidated by a Send with Invalidate stays usable (RFC 5040 §2.4, RFC 5042"
            + " §6.2.2)"),
    NO_IRD_CHECK("More outstanding RDMA Read Requests than the negotiated IRD are accepted (RFC 5040 §6.1, RFC 6581"
            + " §9.1)"),
    READ_RESPONSE_WRONG_TO("RDMA Read Responses go to the Data Sink TO plus 8 (RFC 5040 §4.4: the requested Data Sink"
            + " TO)"),
    MARKER_POINTER_OFF_BY_4("Marker FPDUPTR 4 octets too large (RFC 5044 §4.2)"),
    NONZERO_PAD("PAD octets of FPDUs are not zero (RFC 5044 §4.1: the sender MUST zero them)"),
    EARLY_FPDU("FPDUs sent before the MPA exchange allows: the Responder does not wait for the Initiator's first FPDU"
            + " (RFC 5044 §7.1.2 rule 4)"),
    TOO_LONG_WRONG_CODE("A message too long for its receive buffer is reported as 'no buffer available' 1/2/2 instead"
            + " of 1/2/5 (RFC 5041 §7.2)"),
    MPA_LAX_KEY("An MPA Request or Reply whose key is a few octets off is taken as the frame expected, the other"
            + " frame's key (one octet off) included (RFC 5044 §7.1.1: receivers MUST check the key and close on any"
            + " other value; §7.1.2 rule 8: the difference between Request and Reply MUST be used to check for"
            + " Initiator/Initiator start-ups)"),
    MPA_ORD_OVER_PEER_IRD("Its ORD is its own, never lowered to the peer's IRD: as Responder the Reply carries it, as"
            + " Initiator it keeps that many RDMA Reads outstanding (RFC 6581 §9.1: the responder MUST set its ORD at"
            + " most to the initiator IRD, the initiator its ORD at most to the responder IRD; RFC 5040 §6.1)"),
    MPA_RES_CHECKED("Bits that are not checked on reception are checked: a start frame with a Res bit set (the S"
            + " flag of Rev 2 aside) or a Request with R set is closed as improperly formatted (RFC 5044 §7.1.1: Res"
            + " and a Request's R are set to zero when sending and not checked on reception)"),
    MPA_ENHANCED_BY_REV("Rev 2 taken to mean enhanced whatever the S flag says: the first four octets of an"
            + " unenhanced Rev 2 start frame's Private Data are read as IRD/ORD, and as Responder its Reply is enhanced"
            + " (RFC 6581 §10: an unenhanced request, S = 0, MUST get an unenhanced reply; §6: only with S does the"
            + " Private Data begin with IRD/ORD)"),
    MPA_IRD_ORD_SWAPPED("As Initiator, its enhanced Request carries its ORD in the IRD field and its IRD in the ORD"
            + " field, the rdma_cm's responder_resources and initiator_depth taken for each other (RFC 6581 §9 and"
            + " its figure: the sender's IRD in the first 14-bit field, its ORD in the second)"),
    MPA_3FFF_AS_NUMBER("An IRD or ORD of 0x3FFF from the peer is taken as the number 16383, not as the value that"
            + " leaves the local one unchanged and is echoed as 0x3FFF (RFC 6581 §9.1)"),
    MPA_ANY_REV("The MPA Rev field is not checked: a start frame of a revision this side does not speak (0, 3, 255,"
            + " 2 to a Rev 1 only side) is taken as one of its own highest revision (RFC 5044 §7.1.1: receivers MUST"
            + " check Rev and close when they cannot interoperate with it; RFC 6581 §10)"),
    MPA_PD_BUFFER_256("Private Data is received into a 256-octet buffer without validating PD_Length: octets past 256"
            + " are dropped without an error and a PD_Length over 512 is not refused (RFC 5044 §7.1.2 rule 9: PD_Length"
            + " MUST be validated and the buffer MUST be large enough; §7.1.1: over 512 the receiver MUST close)"),
    MPA_FRAME_PER_READ("The peer's MPA start frame is taken as what the read that completed its 20-octet header"
            + " brought, TCP read as datagrams: Private Data cut short is answered as it is, and octets behind the"
            + " frame in the same read are taken as Private Data (RFC 5044 §7.1.1: PD_Length octets follow; §7.1.2"
            + " rules 2, 3, 9: the whole frame received and validated, no more Private Data than PD_Length)"),
    MPA_REJECT_IGNORED("As Initiator, the R bit of the Reply is not looked at: a rejected connection (R = 1) is taken"
            + " as accepted and enters Full Operation (RFC 5044 §7.1.2 rule 3: on R = 1 the Initiator MUST exit MPA)"),
    MPA_TERMINATE_WITHOUT_REPLY("As Initiator, a start-up given up without a valid Reply (none before its connect"
            + " timed out, or one cut short) ends with a Terminate 2/0/4, an FPDU sent before any Reply (RFC 5044"
            + " §7.1.2 rule 3: the Initiator MUST receive and validate an MPA Reply Frame before Full Operation; an"
            + " improperly formatted one MUST make it close the TCP connection and exit MPA)"),
    MPA_NO_STARTUP_TERMINATE("As Initiator, a Reply asking for more IRD than this side has or naming no usable RTR type"
            + " closes the connection without the Terminate 2/0/6 or 2/0/7 (RFC 6581 §9.1, §9.2: it MUST send a TERM)"),
    NO_ATOMIC_ALIGNMENT_CHECK("Atomic Requests at addresses that are not 64-bit aligned are carried out (RFC 7306 §8.2:"
            + " refused with 0/2/7, memory not modified; this RNIC did so until RFC 7306 scenarios came)"),
    ZERO_LENGTH_STAG_CHECK("Zero-length RDMA Writes and RDMA Read Requests, RTR indications included, have their STag"
            + " checked and an unknown one refused (RFC 5041 §5.2: the STag and TO of a zero-length tagged message MUST"
            + " NOT be checked; RFC 5040 §5.2.1: nor the Data Source STag and TO of a zero-length Read Request)"),
    INVALIDATE_UNKNOWN_SILENTLY("A Send with Invalidate of an STag that cannot be invalidated completes without a"
            + " Terminate (RFC 5040 §5.3; Linux siw 6.1 reports it only in the receive completion)"),
    TERMINATE_ANSWERED("A Terminate received is answered with a Terminate of its own, Unexpected OpCode 0/2/6, before"
            + " the close (RFC 5040 §5.4: a Terminate MUST be Delivered to the RDMAP layer, and is the last message of"
            + " its sender's stream)"),
    DELIVER_PARTIAL_ON_CLOSE("A message still missing its last segment when the peer closes or resets the"
            + " connection is completed as it stands (RFC 5041 §5.4: Delivered only once its last segment came and"
            + " every segment was Placed)"),
    ULP_REJECT_IGNORED("A connection its ULP rejects is accepted all the same: the MPA Reply has R = 0 (RFC 5044"
            + " §7.1.2 rule 2: the Reply SHOULD have R = 1, and MPA MUST exit)"),
    INITIATOR_ALWAYS_ENHANCED("As Initiator its MPA Request is Rev 2 and enhanced whatever its ULP asked for (RFC 6581"
            + " §10: an Initiator that needs no enhanced features sends an unenhanced Request)"),
    LARGE_ULPDU_TRUNCATED("An untagged ULPDU longer than the TCP MSS is delivered cut to the MSS, as a receive path"
            + " whose buffers are sized to the MULPDU does (RFC 5044 §3: MPA MUST pass each validated ULPDU with its"
            + " length to DDP)"),
    SEQUENTIAL_STAGS("STags are handed out from a counter with a constant key (RFC 5040 §8.1.1: STags MUST be"
            + " difficult to predict)"),
    DELIVER_WITH_HOLES("An untagged message whose segments leave a hole is delivered anyway (RFC 5041 §5.4: only when"
            + " all its segments were placed)"),
    PLACE_UNSOLICITED_READ_RESPONSE("An RDMA Read Response with no Read outstanding is placed into the STag it names,"
            + " whatever its rights (RFC 5041 §7.1 tagged check 1, RFC 5042 §6.2.1)"),
    DDP_TL_SWAPPED("The DDP control octet's T and L masks swapped, as a header file with the two flag values"
            + " exchanged puts them: an untagged message's last segment goes out tagged and not last, a tagged"
            + " message's other segments untagged and last (RFC 5041 §4.1: T selects the buffer model and header"
            + " format, L is set on the last segment of every message and on no other; RFC 5040 §4.1 Figure 4)"),
    RECV_LENGTH_LAST_SEGMENT("A receive completion reports the payload length of the segment that completed the"
            + " message, not the message's length: a message of several segments is reported short (RFC 5041 §5.4:"
            + " DDP MUST provide the ULP Message Length)"),
    MARKERS_BY_OWN_M("Markers go on what this side sends when its own M bit is set, not when the peer's is: a peer"
            + " that asks for Markers gets none, one that does not gets them (RFC 5044 §7.1.1: M declares the"
            + " sender's REQUIRED Marker usage on what it receives; §4.3: Markers MUST be added when the peer asks)"),
    CRC_CHECKED_WHEN_OFF("With CRCs off both ways, a CRC field that is neither zero (what siw sends) nor the FPDU's"
            + " CRC32c is refused with Terminate 2/0/2 (RFC 5044 §4.1, §7.1.1: with C = 0 the field MUST NOT be"
            + " checked and is valid whatever it holds)"),
    MPA_P2P_UNSUPPORTED("As Responder, a peer-to-peer Request (A = 1) is answered client-server: A = 0 and no RTR"
            + " type, as a stack that takes RFC 6581's IRD/ORD but not its RTR negotiation does (RFC 6581 §9.2: the"
            + " responder MUST set A when the request did, and at least one RTR type)"),
    MPA_RTR_FLAGS_WITHOUT_A("As Responder, the Reply copies the RTR flags B, C and D of the Request even when A = 0,"
            + " as a Reply built by echoing the Request's flags word does (RFC 6581 §9.2: with A = 0, B, C and D MUST"
            + " be 0, and on reception MUST be ignored)"),
    MPA_REPLY_UNENHANCED("As Responder, an enhanced Request (S = 1) is answered by an unenhanced Reply: Rev 2, S = 0,"
            + " no IRD/ORD (RFC 6581 §10: a responder receiving an enhanced MPA message MUST respond with an enhanced"
            + " one)"),
    EVERY_MESSAGE_TAKES_A_RECEIVE("Every message that arrives takes a posted receive and completes it, an RDMA Write"
            + " (at its last segment) and Read and Atomic Requests included, as a receive path that counts every"
            + " inbound message against the receive queue does (RFC 5040 §5.1, §5.2.1, RFC 7306 §5.2.1: they MUST NOT"
            + " be Delivered to the ULP)"),
    TERMINATE_HEADERS_MISSING("A Terminate whose D or R bit is set leaves out the DDP Segment Length and the copied"
            + " DDP and RDMA headers (RFC 5040 §4.8: present when D, respectively R, is set)"),
    RESERVED_FIELDS_CHECKED("Fields that are not checked on reception are checked: a segment with a DDP Rsvd bit, an"
            + " RDMAP reserved bit or, on a message that invalidates nothing, an Invalidate STag set is refused with"
            + " a Terminate (RFC 5041 §4.1: Rsvd not checked on receive; RFC 5040 §4.1: reserved bits and the"
            + " Invalidate STag ignored by the receiver)"),
    QN_OFF_BY_ONE("Untagged messages carry a Queue Number one above the one the RFCs assign, as a C enum of the"
            + " queues that starts at 1 does: Sends on QN 1, Read and Atomic Requests on 2, Terminates on 3, Atomic"
            + " Responses on 4 (RFC 5040 §5.3, §5.2.1, §5.4: QN 0, 1 and 2; RFC 7306 §5.2: Atomic Responses on 3)"),
    STAG_KEY_DROPPED("The 8-bit key of the STags it sends is zeroed (RDMA Writes, its Read Requests' Data Sink and"
            + " Source STags, Read Responses), as a work request format that keeps only the STag index does (RFC 5041"
            + " §4.2: DDP MUST set the STag to the value the ULP specified; RFC 5040 §4.4: the Data Sink STag is"
            + " copied into the Read Response without interpretation)"),
    INVALIDATE_NOT_REPORTED("A Send with Invalidate invalidates the STag, but the receive completion does not name it"
            + " (RFC 5041 §5.4: DDP MUST provide the RsvdULP field, here the Invalidate STag, to the ULP when the"
            + " message is Delivered)"),

    // ---- the RPC-over-RDMA responder of `rddp peer --app rpcrdma` (io.rddp.rnic.app.rpcrdma) ----
    RPCRDMA_CREDITS_ZERO("RPC-over-RDMA replies grant 0 credits, as a credit count computed from an exhausted receive"
            + " pool does (RFC 8166 §3.3.1: the granted value MUST NOT be zero, since such a value would result in"
            + " deadlock)"),
    RPCRDMA_CREDITS_OVER_RECEIVES("RPC-over-RDMA replies grant four times the receives the responder keeps posted,"
            + " as a grant taken from a configured maximum rather than the receive queue does; a Requester that uses"
            + " them overruns the receive queue (RFC 8166 §3.3.1: a Requester MUST NOT exceed the granted credits,"
            + " and beyond them the RDMA layer may terminate the connection; RFC 5040 §5.3)"),
    RPCRDMA_REPLY_CHUNK_IGNORED("An RPC reply too large for the reply inline threshold is sent inline in an RDMA_MSG"
            + " although the call provided a Reply chunk (RFC 8166 §3.5.3: the Responder MUST use the"
            + " Requester-provided Reply chunk; §3.3.2, §4.2.4: a Send stays within the inline threshold)"),
    RPCRDMA_WRITE_LENGTHS_NOT_UPDATED("A Write chunk is returned in the reply as the call provided it, segment"
            + " lengths unchanged, whatever was written into it (RFC 8166 §3.4.6: the Responder updates each segment"
            + " length to the data returned in it; §3.4.6.2: the returned length MUST be the data item's)"),
    RPCRDMA_ERR_VERS_RANGE("ERR_VERS gives the rejected request's own version as the range supported, as a reply"
            + " built by echoing the request's rdma_vers into rdma_vers_low and rdma_vers_high does (RFC 8166 §4.5.1:"
            + " the low and high inclusive version numbers it does, in fact, support)"),
    RPCRDMA_INLINE_THRESHOLD_IGNORED("Replies up to 4096 octets are sent inline whatever the Requester's receive"
            + " inline threshold (1024 without RFC 8797 private data), as a responder that assumes its own default"
            + " inline size does; the Reply chunk is used only beyond that (RFC 8166 §3.3.2, §3.3.3: senders MUST"
            + " assume 1024 octets without a discovery mechanism; §3.5.3)"),
    RPCRDMA_DISCARDS_ANSWERED("RDMA_DONE, RDMA_ERROR and Sends shorter than 28 octets are answered with RDMA_ERROR"
            + " ERR_CHUNK, as a responder whose one decode-error path answers every message it cannot serve does"
            + " (RFC 8166 §4.6.2, §4.2.4, §4.5: receivers MUST silently discard them)"),
    RPCRDMA_XDR_ERRORS_DROPPED("A call whose transport header or chunk lists do not parse (an undefined rdma_proc, a"
            + " bad list, a misplaced Position, an rdma_xid unlike the RPC XID) is dropped without a word, as a"
            + " responder that frees the receive and reposts it on a decode error does (RFC 8166 §4.5, §4.5.2: the"
            + " Responder MUST reply with RDMA_ERROR ERR_CHUNK)"),
    RPCRDMA_CHUNK_OVERRUN("A Write chunk or Reply chunk too small for the result is written past its end, the last"
            + " segment taking the rest, as a responder that sizes its RDMA Writes by the data and not by the chunk"
            + " does (RFC 8166 §4.5.3: detected before writing past the end; §3.4.6: filled up to the segment"
            + " lengths)"),
    RPCRDMA_UNKNOWN_CALLS_DROPPED("Calls of an unknown program, program version, procedure or RPC version are dropped"
            + " without a reply, as a dispatcher that returns \"drop\" for what it cannot dispatch does (RFC 5531 §9:"
            + " PROG_UNAVAIL, PROG_MISMATCH, PROC_UNAVAIL, RPC_MISMATCH; RFC 8166 §4.2.1)"),
    RPCRDMA_UNUSED_WRITE_CHUNK_DROPPED("A Write chunk the reply does not use is left out of the reply's Write list,"
            + " as a reply encoder that lists only the chunks it wrote does (RFC 8166 §4.3.2.2: the Responder MUST"
            + " return it as an unused Write chunk; §4.3.2.3: an empty one comes back empty)"),
    RPCRDMA_READ_LIST_ECHOED("Replies carry the call's Read list, as a reply header built by copying the call's does"
            + " (RFC 8166 §4.3.1: Responders MUST leave the Read list empty in all replies)");

    private final String description;

    Bug(String description) {
        this.description = description;
    }

    /** "no-bounds-check": the name `--bug` takes. */
    public String knob() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public String description() {
        return description;
    }

    public static Bug byKnob(String knob) {
        for (Bug b : values()) if (b.knob().equals(knob)) return b;
        return null;
    }

    /**
     * Knob terminate-wrong-type: a type a real stack could plausibly send instead, never one of the same Layer and
     * EType (so that no "any code of this type" reaction accepts it): a tagged buffer error reported as an untagged
     * one and the reverse, an RDMAP protection error as an operation error and the reverse, a catastrophic error as
     * a stream error, an MPA error with the next MPA code.
     */
    static ErrorType wrongType(ErrorType t) {
        return switch (t.layer()) {
            case 1 -> t.etype() == 2 ? ErrorType.DDP_T_INVALID_STAG : ErrorType.DDP_U_NO_BUFFER;
            case 0 -> t.etype() == 2 ? ErrorType.RDMA_INVALID_STAG : ErrorType.RDMA_CATASTROPHIC_STREAM;
            default -> switch (t.code()) {
                case 0x02 -> ErrorType.MPA_MARKER;
                case 0x06 -> ErrorType.MPA_NO_MATCHING_RTR;
                case 0x07 -> ErrorType.MPA_INSUFFICIENT_IRD;
                default -> ErrorType.MPA_CRC;
            };
        };
    }

    /** The checks whose verdict a receive-side knob disregards. */
    Set<Check> ignoredChecks() {
        return switch (this) {
            case NO_BOUNDS_CHECK -> Set.of(Check.DDP_BOUNDS, Check.RDMAP_REMOTE_BOUNDS);
            case NO_ACCESS_CHECK -> Set.of(Check.SECURITY_ACCESS);
            case STAG_AFTER_INVALIDATE -> Set.of(Check.SECURITY_STAG_INVALIDATED);
            case NO_IRD_CHECK -> Set.of(Check.RDMAP_OUTSTANDING);
            case INVALIDATE_UNKNOWN_SILENTLY -> Set.of(Check.RDMAP_INVALIDATE);
            case DELIVER_WITH_HOLES -> Set.of(Check.DDP_MO_COVERAGE);
            case PLACE_UNSOLICITED_READ_RESPONSE -> Set.of(Check.SECURITY_UNSOLICITED_READ_RESPONSE);
            default -> Set.of();
        };
    }
}
