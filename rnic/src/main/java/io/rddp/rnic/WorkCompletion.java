package io.rddp.rnic;

/**
 * One completed work request, like libibverbs' {@code ibv_wc}.
 *
 * @param wrId            the work request's id
 * @param qp              queue pair number
 * @param opcode          what completed
 * @param status          how it ended
 * @param byteLength      octets received (receives), or transferred
 * @param immediate       Immediate Data of a received RFC 7306 Immediate Data message, else null
 * @param invalidatedStag STag a received Send with Invalidate invalidated (RFC 5040 §5.3), or -1
 * @param solicited       a received message asked for a Solicited Event
 * @param data            first octets of a receive into a buffer of the RNIC's own, else null
 * @param detail          why it failed, in words, or null
 */
public record WorkCompletion(long wrId, int qp, WcOpcode opcode, WcStatus status, long byteLength, Long immediate,
                             long invalidatedStag, boolean solicited, byte[] data, String detail) {

    static WorkCompletion of(long wrId, int qp, WcOpcode opcode, WcStatus status, long byteLength, String detail) {
        return new WorkCompletion(wrId, qp, opcode, status, byteLength, null, -1, false, null, detail);
    }

    @Override
    public String toString() {
        return "wc{wr " + wrId + " qp " + qp + " " + opcode.wireName() + " " + status.wireName() + " len " + byteLength
                + (immediate != null ? " imm 0x" + Long.toHexString(immediate) : "")
                + (invalidatedStag >= 0 ? " invalidated 0x" + Long.toHexString(invalidatedStag) : "")
                + (detail != null ? " (" + detail + ")" : "") + "}";
    }
}
