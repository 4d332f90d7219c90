package io.rddp.rdmap;

/**
 * Names of the Terminate Layer / Error Type / Error Code triples: RDMA layer from RFC 5040 §4.8 Figure 9, DDP layer
 * from RFC 5041 §7.2, LLP (MPA) layer from RFC 5044 §8 codes 1-4 and RFC 6581 codes 5-7 (short names as tshark
 * prints them).
 */
public final class TerminateCodes {

    private TerminateCodes() {
    }

    public static String layerName(int layer) {
        return switch (layer) {
            case Terminate.LAYER_RDMA -> "RDMA";
            case Terminate.LAYER_DDP -> "DDP";
            case Terminate.LAYER_LLP -> "LLP";
            default -> "Layer " + layer;
        };
    }

    /** The Error Type's name, or null when the layer's table has no such type. */
    public static String errorTypeName(int layer, int type) {
        return switch (layer) {
            case Terminate.LAYER_RDMA -> switch (type) {
                case 0x0 -> "Local Catastrophic Error";
                case 0x1 -> "Remote Protection Error";
                case 0x2 -> "Remote Operation Error";
                default -> null;
            };
            case Terminate.LAYER_DDP -> switch (type) {
                case 0x0 -> "Local Catastrophic";
                case 0x1 -> "Tagged Buffer Error";
                case 0x2 -> "Untagged Buffer Error";
                case 0x3 -> "Reserved for the use by the LLP";
                default -> null;
            };
            case Terminate.LAYER_LLP -> type == 0x0 ? "MPA Error" : null;
            default -> null;
        };
    }

    /** The Error Code's name, or null when the table has none (including types that have no codes). */
    public static String errorCodeName(int layer, int type, int code) {
        if (layer == Terminate.LAYER_RDMA && type == 0x1) {
            return switch (code) {
                case 0x00 -> "Invalid STag";
                case 0x01 -> "Base or bounds violation";
                case 0x02 -> "Access rights violation";
                case 0x03 -> "STag not associated with RDMAP Stream";
                case 0x04 -> "TO wrap";
                case 0x09 -> "STag cannot be Invalidated";
                case 0xFF -> "Unspecified Error";
                default -> null;
            };
        }
        if (layer == Terminate.LAYER_RDMA && type == 0x2) {
            return switch (code) {
                case 0x05 -> "Invalid RDMAP version";
                case 0x06 -> "Unexpected OpCode";
                case 0x07 -> "Catastrophic error, localized to RDMAP Stream";
                case 0x08 -> "Catastrophic error, global";
                case 0x09 -> "STag cannot be Invalidated";
                case 0xFF -> "Unspecified Error";
                default -> null;
            };
        }
        if (layer == Terminate.LAYER_DDP && type == 0x1) {
            return switch (code) {
                case 0x00 -> "Invalid STag";
                case 0x01 -> "Base or bounds violation";
                case 0x02 -> "STag not associated with DDP Stream";
                case 0x03 -> "TO wrap";
                case 0x04 -> "Invalid DDP version";
                default -> null;
            };
        }
        if (layer == Terminate.LAYER_DDP && type == 0x2) {
            return switch (code) {
                case 0x01 -> "Invalid QN";
                case 0x02 -> "Invalid MSN - no buffer available";
                case 0x03 -> "Invalid MSN - MSN range is not valid";
                case 0x04 -> "Invalid MO";
                case 0x05 -> "DDP Message too long for available buffer";
                case 0x06 -> "Invalid DDP version";
                default -> null;
            };
        }
        if (layer == Terminate.LAYER_LLP && type == 0x0) {
            return switch (code) {
                case 0x01 -> "TCP connection closed, terminated or lost";
                case 0x02 -> "MPA CRC Error";
                case 0x03 -> "MPA Marker and ULPDU Length field mismatch";
                case 0x04 -> "Invalid MPA Request Frame or MPA Response Frame";
                case 0x05 -> "Local Catastrophic Error";
                case 0x06 -> "Insufficient IRD Resources";
                case 0x07 -> "No Matching RTR Option";
                default -> null;
            };
        }
        return null;
    }

    /**
     * "Layer EType: Code", e.g. "DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid". Types without
     * codes (Local Catastrophic, RFC 5040 Figure 9: "any value in this field is acceptable") print no code; unknown
     * parts print as numbers.
     */
    public static String describe(int layer, int type, int code) {
        String typeName = errorTypeName(layer, type);
        String head = layerName(layer) + " " + (typeName != null ? typeName : "EType " + type);
        if (type == 0 && (layer == Terminate.LAYER_RDMA || layer == Terminate.LAYER_DDP)) {
            return head;
        }
        String codeName = errorCodeName(layer, type, code);
        return head + ": " + (codeName != null ? codeName : String.format("Error Code 0x%02x", code));
    }
}
