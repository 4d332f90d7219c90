package io.rddp.sink;

import io.rddp.rdmap.Terminate;
import io.rddp.rdmap.TerminateCodes;

/**
 * A Terminate error type: the Layer / EType / Error Code triple of RFC 5040 §4.8 (Figure 9), with the DDP values of
 * RFC 5041 §7.2 and the MPA values of RFC 5044 §8 and RFC 6581 §8. Names come from {@link TerminateCodes}.
 *
 * @param layer 0 RDMA, 1 DDP, 2 LLP
 * @param etype Error Type, 4 bits
 * @param code  Error Code, 8 bits
 */
public record ErrorType(int layer, int etype, int code) {

    // RFC 5040 §4.8 Figure 9, RDMA layer
    public static final ErrorType RDMA_INVALID_STAG = new ErrorType(0, 1, 0x00);
    public static final ErrorType RDMA_BASE_BOUNDS = new ErrorType(0, 1, 0x01);
    public static final ErrorType RDMA_ACCESS_RIGHTS = new ErrorType(0, 1, 0x02);
    public static final ErrorType RDMA_STAG_NOT_ASSOCIATED = new ErrorType(0, 1, 0x03);
    public static final ErrorType RDMA_TO_WRAP = new ErrorType(0, 1, 0x04);
    public static final ErrorType RDMA_PROTECTION_CANNOT_INVALIDATE = new ErrorType(0, 1, 0x09);
    public static final ErrorType RDMA_INVALID_VERSION = new ErrorType(0, 2, 0x05);
    public static final ErrorType RDMA_UNEXPECTED_OPCODE = new ErrorType(0, 2, 0x06);
    public static final ErrorType RDMA_CATASTROPHIC_STREAM = new ErrorType(0, 2, 0x07);
    public static final ErrorType RDMA_OPERATION_CANNOT_INVALIDATE = new ErrorType(0, 2, 0x09);
    // RFC 5041 §7.2, DDP layer
    public static final ErrorType DDP_T_INVALID_STAG = new ErrorType(1, 1, 0x00);
    public static final ErrorType DDP_T_BASE_BOUNDS = new ErrorType(1, 1, 0x01);
    public static final ErrorType DDP_T_STAG_NOT_ASSOCIATED = new ErrorType(1, 1, 0x02);
    public static final ErrorType DDP_T_TO_WRAP = new ErrorType(1, 1, 0x03);
    public static final ErrorType DDP_T_INVALID_VERSION = new ErrorType(1, 1, 0x04);
    public static final ErrorType DDP_U_INVALID_QN = new ErrorType(1, 2, 0x01);
    public static final ErrorType DDP_U_NO_BUFFER = new ErrorType(1, 2, 0x02);
    public static final ErrorType DDP_U_MSN_RANGE = new ErrorType(1, 2, 0x03);
    public static final ErrorType DDP_U_INVALID_MO = new ErrorType(1, 2, 0x04);
    public static final ErrorType DDP_U_TOO_LONG = new ErrorType(1, 2, 0x05);
    public static final ErrorType DDP_U_INVALID_VERSION = new ErrorType(1, 2, 0x06);
    // RFC 5044 §8 and RFC 6581 §8, LLP (MPA) layer
    public static final ErrorType MPA_CRC = new ErrorType(2, 0, 0x02);
    public static final ErrorType MPA_MARKER = new ErrorType(2, 0, 0x03);
    public static final ErrorType MPA_INVALID_START_FRAME = new ErrorType(2, 0, 0x04);
    public static final ErrorType MPA_INSUFFICIENT_IRD = new ErrorType(2, 0, 0x06);
    public static final ErrorType MPA_NO_MATCHING_RTR = new ErrorType(2, 0, 0x07);

    public ErrorType {
        if (layer < 0 || layer > 15 || etype < 0 || etype > 15 || code < 0 || code > 255) {
            throw new IllegalArgumentException("Terminate Layer/EType/Code out of range: " + layer + "/" + etype
                    + "/" + code);
        }
    }

    public static ErrorType of(Terminate t) {
        return new ErrorType(t.layer(), t.errorType(), t.errorCode());
    }

    /** Layer and EType equal; a Local Catastrophic Error matches whatever its code ("any value is acceptable"). */
    public boolean matches(ErrorType actual) {
        if (actual.layer != layer || actual.etype != etype) return false;
        return isCatastrophic() || actual.code == code;
    }

    /** The Local Catastrophic types of RDMA and DDP, whose Error Code carries no meaning (RFC 5040 Figure 9). */
    public boolean isCatastrophic() {
        return etype == 0 && (layer == Terminate.LAYER_RDMA || layer == Terminate.LAYER_DDP);
    }

    /** Whether the RFC tables define this triple. */
    public boolean isDefined() {
        if (TerminateCodes.errorTypeName(layer, etype) == null) return false;
        if (isCatastrophic()) return true;
        if (layer == Terminate.LAYER_DDP && etype == 3) return true; // "Reserved for the use by the LLP"
        return TerminateCodes.errorCodeName(layer, etype, code) != null;
    }

    /** The RFC's name, e.g. "DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid". */
    public String name() {
        return TerminateCodes.describe(layer, etype, code);
    }

    /** "1/2/3" as the issue and the RFC tables write it (code in decimal). */
    public String triple() {
        return layer + "/" + etype + "/" + code;
    }

    @Override
    public String toString() {
        return triple() + " (" + name() + ")";
    }
}
