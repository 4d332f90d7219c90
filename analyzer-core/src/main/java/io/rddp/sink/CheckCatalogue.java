package io.rddp.sink;

import java.util.EnumMap;
import java.util.Map;

/**
 * The audit of every {@link Check} against its RFC, as docs/checks.md shows it: id, RFC and section, the RFC's words,
 * severity, the Terminate a conforming receiver sends, and why a check is not an error where it is not. Generated
 * from the enum, so the document cannot drift from the code (CheckCatalogueTest holds it).
 */
public final class CheckCatalogue {
    private CheckCatalogue() {
    }

    /**
     * Why a check is weaker than ERROR, or when one of its violations is; or how the Terminate is judged. Every check
     * whose default severity is not ERROR has an entry (CheckCatalogueTest).
     */
    static final Map<Check, String> NOTES = new EnumMap<>(Check.class);

    static {
        n(Check.MPA_CRC, "The Terminate is SHOULD (LLP error, RFC 5040 §6.2.1): a missing one is a warning.");
        n(Check.MPA_PAD, "One violation per stream direction, when the stream ends: the count and the first 8 frames."
                + " The receiver ignores PAD: no Terminate.");
        n(Check.MPA_FRAMING, "The Terminate is SHOULD (LLP error, RFC 5040 §6.2.1). Only in an FPDU whose CRC is valid"
                + " or not in use (§8 code 3: \"In the event that the CRC is valid\"); a CRC that fails is code 2.");
        n(Check.MPA_KEY, "Before Full Operation no FPDU, hence no Terminate, can be sent: the receiver closes"
                + " (§7.1.2); the type is what it reports locally.");
        n(Check.MPA_REVISION, "Warning only for Rev 0 in a Reply answering a Rev 0 Request: RDMAC interoperation"
                + " (Appendix C). The receiver closes or rejects: no Terminate.");
        n(Check.MPA_PD_LENGTH, "As mpa.start.key: the receiver closes the connection.");
        n(Check.MPA_RESERVED, "Not checked on reception: no Terminate.");
        n(Check.DDP_RESERVED, "Not checked on receive: no Terminate.");
        n(Check.DDP_VERSION, "1/1/4 on a tagged segment, 1/2/6 on an untagged one.");
        n(Check.DDP_MSN, "1/2/2 (no buffer) is accepted as well: a receiver cannot tell a skipped MSN from a missing"
                + " buffer.");
        n(Check.DDP_NO_BUFFER, "Needs the receiver's posted buffers, which a capture does not show: made by the"
                + " emulated RNIC and the conformance tester.");
        n(Check.DDP_TOO_LONG, "As ddp.untagged.no-buffer. 1/2/4 when the MO itself lies outside the buffer.");
        n(Check.DDP_QN_MSN_CHANGED, "§7.1 makes no check of it: the Terminate is MAY (1/2/3, 1/2/1 or 1/2/4).");
        n(Check.DDP_MO_ORDER, "SHOULD.");
        n(Check.DDP_MO_COVERAGE, "§7.1 names no check for a hole or an overlap: the Terminate is MAY; the RFC's own"
                + " answer is to withhold Delivery (§5.4), 1/2/4 from a receiver that tracks what it placed.");
        n(Check.DDP_LAST_FLAG, "No receiver check in §7.1: no Terminate.");
        n(Check.DDP_RSVDULP, "The Data Sink is not required to verify it: no Terminate.");
        n(Check.DDP_INTERLEAVED, "Warning: the RFC orders messages, not segments; receivers tell interleaved messages"
                + " apart by QN/MSN or STag (siw accepts them), so the capture cannot show a broken MUST.");
        n(Check.DDP_TO_ORDER, "SHOULD.");
        n(Check.DDP_STAG, "Info when nothing registered the STag (unverifiable from the wire); error with the"
                + " Terminate when --stags or --strict says it is invalid.");
        n(Check.DDP_BOUNDS, "Needs the registration (--stags, --profile).");
        n(Check.DDP_OVERLAP, "Info: placing bytes again is allowed; only their content is indeterminate.");
        n(Check.DDP_INCOMPLETE, "Info: the capture or stream ended before the last segment.");
        n(Check.RDMAP_VERSION, "Warning only for RV 0 on a connection opened with MPA Rev 0 (the RDMAC protocols).");
        n(Check.RDMAP_RESERVED, "Not checked on receive: no Terminate. Also the Reserved bits of the Atomic Request"
                + " (RFC 7306 §5.2.1) and of the Terminate (RFC 5040 §4.8).");
        n(Check.RDMAP_OPCODE_PLACEMENT, "On the wrong buffer model the receiver's DDP may fail first: 1/1/* or 1/2/*"
                + " accepted too.");
        n(Check.RDMAP_READ_RESPONSE_STAG, "The Data Sink MAY validate (§5.2.2): the Terminate is MAY. Info after a"
                + " TCP gap (matching uncertain).");
        n(Check.RDMAP_READ_RESPONSE_TO, "As rdmap.read-response.stag.");
        n(Check.RDMAP_READ_RESPONSE_SIZE, "As rdmap.read-response.stag.");
        n(Check.RDMAP_READ_RESPONSE_ORDER, "Info after a TCP gap.");
        n(Check.RDMAP_READ_UNANSWERED, "Warning: a response may still come after the capture ends (§5.5 lets it"
                + " follow later messages); info when the responder sent nothing after the request.");
        n(Check.RDMAP_OUTSTANDING, "The request past the QN 1 buffers the IRD sizes (RFC 5040 §5.2.2) fails RFC 5041"
                + " §7.1 checks 5 and 2: 1/2/3 or 1/2/2; 0/2/7 accepted too (no RFC names a code), MAY. Info when no"
                + " enhanced MPA exchange gave IRD/ORD.");
        n(Check.RDMAP_REMOTE_STAG, "As ddp.tagged.stag.");
        n(Check.RDMAP_ATOMIC_ALIGNMENT, "Warning: with a zero-based TO the alignment depends on the buffer's base"
                + " address, which the wire does not show.");
        n(Check.RDMAP_ATOMIC_RESPONSE, "Info after a TCP gap.");
        n(Check.RDMAP_INVALIDATE, "0/2/9 and 0/1/0 accepted too. Warning when the owner sent a Send since, which may"
                + " have advertised the STag again.");
        n(Check.RDMAP_TERMINATE_SEGMENTS, "Warning: RFC 5040 shows the layout (Appendix A.6) but states no MUST for"
                + " it.");
        n(Check.RDMAP_TERMINATE_HEADER_CONTROL, "Figure 10 says SHOULD.");
        n(Check.RDMAP_TERMINATE_TERMINATED_HEADER, "Warning: the headers are included as Figure 10 SHOULD have them;"
                + " which PDU a receiver blames the capture cannot always tell.");
        n(Check.RDMAP_TERMINATE_MISMATCH, "Error when the error owed a MUST Terminate, warning for SHOULD/MAY ones or"
                + " when a later error was reported instead of the first. Carries the expected type.");
        n(Check.RDMAP_TERMINATE_UNEXPLAINED, "Info: the peer may know what the capture does not (registrations,"
                + " buffers); warning when it blames a PDU the model found conforming.");
        n(Check.RDMAP_TERMINATE_MISSING, "Error for MUST Terminates when the receiver went on sending or closed;"
                + " warning for SHOULD ones or when the capture ends first. Carries the expected type.");
        n(Check.RPCRDMA_CHUNK_UNMATCHED, "Warning: the chunk may have been advertised in a message the capture does"
                + " not hold.");
        n(Check.RPCRDMA_READ_CHUNK_NOT_PULLED, "Warning: the Responder may have read the chunk on another connection"
                + " or before the capture started.");
        n(Check.RPCRDMA_REPLY_UNMATCHED, "Warning: the call may precede the capture.");
        n(Check.SECURITY_STAG_STREAM, "Warning when the STag was only seen on another stream of the same owner:"
                + " sharing within a Protection Domain may be intended.");
        n(Check.SECURITY_STAG_INVALIDATED, "Warning when the owner sent a Send since (it may have advertised the STag"
                + " again); the Terminate is owed only otherwise.");
        n(Check.SECURITY_ACCESS, "0/1/2 for an RDMA Read or Atomic Request; 1/1/0 for an RDMA Write, which fails RFC"
                + " 5041 §7.1 tagged check 2 (RFC 5040 Figure 10 has no RDMAP protection error for a Write).");
        n(Check.SECURITY_UNSOLICITED_READ_RESPONSE, "The receiver MAY validate: 0/2/6, 1/1/0 or 1/0/* accepted, MAY."
                + " Info after a TCP gap.");
        n(Check.RPCRDMA_HEADER_SHORT, "RPC-over-RDMA errors are answered with RDMA_ERROR or a discard, not a"
                + " Terminate (all rpcrdma.* checks).");
    }

    private static void n(Check c, String note) {
        NOTES.put(c, note);
    }

    /** docs/checks.md. */
    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Checks: every rule `rddp analyze` judges, against its RFC\n\n");
        sb.append("Generated from `io.rddp.sink.Check` and `CheckCatalogue` (`mvn -pl analyzer-core test"
                + " -Dtest=CheckCatalogueTest -Drddp.updateDocs=true` rewrites it; the test fails when it is stale).\n"
                + "Severity follows the RFC's key word for the sender: MUST/MUST NOT broken is `error`, SHOULD"
                + " `warning`, `info` what the capture cannot decide. *Terminate* is the Layer/EType/Code a conforming"
                + " receiver sends (RFC 5040 §4.8 Figure 9, RFC 5041 §7.2, RFC 5044 §8, RFC 6581 §8); where it is"
                + " given and the receiver must detect the error, the peer's Terminate is held against it"
                + " (`rdmap.terminate.mismatch`, `rdmap.terminate.missing`). RFC text in quotation marks is quoted,"
                + " the rest paraphrased. Every check is provoked by a capture in `pcaps/violations/`"
                + " (`ViolationCorpusTest`), but for the two named there.\n\n");
        sb.append("| check | RFC | RFC text | severity | Terminate | notes |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (Check c : Check.values()) {
            ErrorType t = c.errorType();
            sb.append("| `").append(c.id()).append("` | ").append(c.rfc()).append(' ').append(c.section())
                    .append(" | ").append(cell(c.rfcText())).append(" | ").append(c.severity().name().toLowerCase())
                    .append(" | ").append(t == null ? "-" : t.triple() + " " + cell(t.name())).append(" | ")
                    .append(cell(NOTES.getOrDefault(c, ""))).append(" |\n");
        }
        return sb.toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|");
    }
}
