package io.rddp.count;

import io.rddp.rdmap.Opcode;

/**
 * What one side of a stream sent with one RDMAP opcode.
 *
 * @param code         the 4-bit opcode (RFC 5040 §4.1, RFC 7306 §4.1), or {@link #UNDECODED} for FPDUs that are not
 *                     DDP/RDMAP
 * @param segments     DDP segments
 * @param messages     DDP messages (what ends one is the counter's: see its users)
 * @param payloadBytes ULP payload octets
 * @param wireBytes    octets on the wire, or 0 where not counted
 */
public record OpcodeCounts(int code, long segments, long messages, long payloadBytes, long wireBytes) {

    /** The code of FPDUs whose DDP or RDMAP header did not parse. */
    public static final int UNDECODED = -1;

    /** The opcode, or null for a reserved value or {@link #UNDECODED}. */
    public Opcode opcode() {
        return code < 0 ? null : Opcode.of(code);
    }

    /** The RFC's name ("RDMA Read Request"), "Reserved (12)", or "(not DDP/RDMAP)". */
    public String name() {
        if (code == UNDECODED) return "(not DDP/RDMAP)";
        Opcode op = opcode();
        return op != null ? op.rfcName() : "Reserved (" + code + ")";
    }
}
