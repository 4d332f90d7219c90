package io.rddp.sink;

import io.rddp.ddp.DdpHeader;
import io.rddp.rdmap.ReadRequest;
import io.rddp.tcp.Direction;

import java.util.List;

/**
 * The Terminate a receiver owes because its peer sent it a PDU in error (RFC 5040 §7.1), as the model books it: what
 * an emulated RNIC sends, and what a tester holds a device under test to.
 *
 * @param stream        TCP stream index
 * @param offender      direction of the offending PDU (the receiver sends the Terminate the other way)
 * @param frame         frame of the offending PDU
 * @param cause         the check it broke
 * @param level         how strongly the RFCs ask for the Terminate
 * @param accepted      acceptable error types, first the one to send; see {@link #anyCode}
 * @param anyCode       per entry of {@code accepted}: whether every Error Code of its Layer/EType is acceptable
 * @param header        DDP header of the offending segment (to copy into the Terminate), or null
 * @param segmentLength ULPDU length of the offending segment (RFC 5040 §4.8 DDP Segment Length), or -1
 * @param readRequest   the offending RDMA Read Request header (RFC 5040 §4.8 Terminated RDMA Header), or null
 */
public record OwedTerminate(int stream, Direction offender, long frame, Check cause, Level level,
                            List<ErrorType> accepted, List<Boolean> anyCode, DdpHeader header, int segmentLength,
                            ReadRequest readRequest) {

    public enum Level {
        /** RFC 5040 §7.1 "MUST send a Terminate Message": DDP and RDMAP errors a receiver must detect */
        MUST,
        /** RFC 5040 §6.2.1 "SHOULD be invoked" for errors surfaced by the LLP */
        SHOULD,
        /** the receiver may check (e.g. RFC 5040 §5.2.2 "MAY validate"): explains a Terminate, owes none */
        MAY
    }

    public OwedTerminate {
        accepted = List.copyOf(accepted);
        anyCode = List.copyOf(anyCode);
        if (accepted.isEmpty() || accepted.size() != anyCode.size()) {
            throw new IllegalArgumentException("accepted types and their any-code flags must pair up");
        }
    }

    /** The type to send: the first accepted one. */
    public ErrorType primary() {
        return accepted.get(0);
    }

    /** Whether a Terminate of type {@code t} answers this error (a Local Catastrophic type matches any code). */
    public boolean accepts(ErrorType t) {
        for (int i = 0; i < accepted.size(); i++) {
            ErrorType a = accepted.get(i);
            if (a.layer() != t.layer() || a.etype() != t.etype()) continue;
            if (anyCode.get(i) || a.code() == t.code() || t.isCatastrophic()) return true;
        }
        return false;
    }

    /** "1/2/3 (DDP ...) or 1/2/2 (...)". */
    public String acceptedText() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < accepted.size(); i++) {
            if (sb.length() > 0) sb.append(" or ");
            ErrorType a = accepted.get(i);
            sb.append(anyCode.get(i) ? a.layer() + "/" + a.etype() + "/*" : a.toString());
        }
        return sb.toString();
    }
}
