package io.rddp.sink;

import io.rddp.ddp.DdpHeader;
import io.rddp.rdmap.ReadRequest;
import io.rddp.tcp.Direction;

import java.util.List;

/**
 * A Terminate one side owes because the other side sent it a PDU in error (RFC 5040 §7.1), with the error types a
 * conforming receiver may report for it. Which ones are accepted is deliberately a list: where the RFCs leave the
 * choice open (an overflowing RDMA Read Request Queue, a Read Response that does not match) implementations differ.
 *
 * @param frame         frame of the offending PDU
 * @param cause         the check it broke
 * @param accepted      acceptable Layer/EType/Code; a code of -1 accepts any code of that type
 * @param level         how strongly the RFCs ask for the Terminate
 * @param header        DDP header of the offending segment, or null
 * @param segmentLength ULPDU length of the offending segment, or -1
 * @param readRequest   the offending RDMA Read Request header, or null
 */
record Expectation(long frame, Check cause, List<int[]> accepted, Level level, DdpHeader header,
                   int segmentLength, ReadRequest readRequest) {

    enum Level {
        /** RFC 5040 §7.1 "MUST send a Terminate Message": DDP and RDMAP errors a receiver must detect */
        MUST,
        /** RFC 5040 §6.2.1 "SHOULD be invoked" for errors surfaced by the LLP */
        SHOULD,
        /** the receiver may check (e.g. RFC 5040 §5.2.2 "MAY validate"): explains a Terminate, owes none */
        MAY
    }

    boolean accepts(ErrorType t) {
        for (int[] a : accepted) {
            if (a[0] != t.layer() || a[1] != t.etype()) continue;
            if (a[2] < 0 || a[2] == t.code() || t.isCatastrophic()) return true;
        }
        return false;
    }

    /** The first accepted type, as the one to name in messages. */
    ErrorType primary() {
        int[] a = accepted.get(0);
        return new ErrorType(a[0], a[1], Math.max(a[2], 0));
    }

    /** The public view of this expectation. */
    OwedTerminate view(int stream, Direction offender) {
        java.util.List<ErrorType> types = new java.util.ArrayList<>(accepted.size());
        java.util.List<Boolean> any = new java.util.ArrayList<>(accepted.size());
        for (int[] a : accepted) {
            types.add(new ErrorType(a[0], a[1], Math.max(a[2], 0)));
            any.add(a[2] < 0);
        }
        return new OwedTerminate(stream, offender, frame, cause, OwedTerminate.Level.valueOf(level.name()), types,
                any, header, segmentLength, readRequest);
    }

    String acceptedText() {
        StringBuilder sb = new StringBuilder();
        for (int[] a : accepted) {
            if (sb.length() > 0) sb.append(" or ");
            sb.append(a[2] < 0 ? a[0] + "/" + a[1] + "/*" : new ErrorType(a[0], a[1], a[2]).toString());
        }
        return sb.toString();
    }
}
