package io.rddp.rdmap;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpHeader;

import io.rddp.ddp.NetworkOrder;

import java.nio.ByteBuffer;

/**
 * Terminate Header, RFC 5040 §4.8 Figure 7:
 * <pre>
 * | Layer (4) | EType (4) | Error Code (8) |M|D|R| Reserved (13) |   Terminate Control (19 bits) + Reserved
 * | DDP Segment Length (16, if any)                              |
 * | Terminated DDP Header (14 or 18 octets, if any)              |
 * | Terminated RDMA Header (28 octets, if any)                   |
 * </pre>
 * Header control bits (RFC 5040 §4.8): M (bit 16) "DDP Segment Length valid", D (bit 17) "DDP Header Included",
 * R (bit 18) "RDMAP Header Included". The DDP Segment Length "MUST be present when the D bit is set" and the DDP
 * header "MUST be present if the D bit is set", so both are read exactly when D is set (tshark does the same); M only
 * says whether the length is valid. The terminated DDP header is tagged or untagged by its own T bit (RFC 5040 §4.8:
 * 112 bits tagged, 144 untagged) — tshark picks the format from EType instead, which misreads a Remote Operation
 * Error about a tagged segment. The Terminated RDMA Header is the RDMA Read Request header (224 bits) and follows
 * when R is set.
 *
 * @param layer                layer that found the error, 4 bits (0 RDMA, 1 DDP, 2 LLP)
 * @param errorType            EType, 4 bits
 * @param errorCode            Error Code, 8 bits
 * @param segmentLengthValid   M
 * @param ddpHeaderIncluded    D
 * @param rdmaHeaderIncluded   R
 * @param reserved             the 13 reserved bits (RFC 5040 §4.8: zero on transmit, ignored on receive)
 * @param ddpSegmentLength     the DDP Segment Length field, 16 bits, or -1 when D is clear
 * @param terminatedDdpHeader  the DDP header of the segment in error, null when D is clear
 * @param terminatedRdmaHeader the RDMA Read Request header in error, null when R is clear
 */
public record Terminate(int layer, int errorType, int errorCode, boolean segmentLengthValid,
                        boolean ddpHeaderIncluded, boolean rdmaHeaderIncluded, int reserved, int ddpSegmentLength,
                        DdpHeader terminatedDdpHeader, ReadRequest terminatedRdmaHeader) implements RdmapHeader {

    /** Terminate Control plus Reserved: the part of the header that is always there. */
    public static final int CONTROL_LENGTH = 4;
    public static final int LAYER_RDMA = 0, LAYER_DDP = 1, LAYER_LLP = 2;

    private static final int M_BIT = 0x8000, D_BIT = 0x4000, R_BIT = 0x2000, RESERVED_MASK = 0x1FFF;

    public Terminate {
        if (layer < 0 || layer > 15) throw new IllegalArgumentException("Layer is 4 bits: " + layer);
        if (errorType < 0 || errorType > 15) throw new IllegalArgumentException("EType is 4 bits: " + errorType);
        if (errorCode < 0 || errorCode > 255) throw new IllegalArgumentException("Error Code is 8 bits: " + errorCode);
        if (reserved < 0 || reserved > RESERVED_MASK) {
            throw new IllegalArgumentException("Terminate reserved field is 13 bits: " + reserved);
        }
        if (ddpHeaderIncluded != (terminatedDdpHeader != null)
                || ddpHeaderIncluded != (ddpSegmentLength >= 0) || ddpSegmentLength > 0xFFFF) {
            throw new IllegalArgumentException("D bit, DDP Segment Length and terminated DDP header must agree: D "
                    + ddpHeaderIncluded + ", length " + ddpSegmentLength + ", header " + terminatedDdpHeader);
        }
        if (rdmaHeaderIncluded != (terminatedRdmaHeader != null)) {
            throw new IllegalArgumentException("R bit and terminated RDMA header must agree");
        }
    }

    /** A Terminate with no headers of the message in error (e.g. Local Catastrophic Error, LLP errors). */
    public static Terminate of(int layer, int errorType, int errorCode) {
        return new Terminate(layer, errorType, errorCode, false, false, false, 0, -1, null, null);
    }

    /** A Terminate reporting a DDP segment: M and D set, with the segment's length and header. */
    public static Terminate of(int layer, int errorType, int errorCode, int ddpSegmentLength, DdpHeader header,
                               ReadRequest readRequest) {
        return new Terminate(layer, errorType, errorCode, true, true, readRequest != null, 0, ddpSegmentLength,
                header, readRequest);
    }

    /**
     * Reads a Terminate header at buf's position without moving it.
     *
     * @throws MalformedException when the bytes stop before the parts the D and R bits announce
     */
    public static Terminate parse(ByteBuffer buf) throws MalformedException {
        buf = NetworkOrder.reading(buf);
        if (buf.remaining() < CONTROL_LENGTH) {
            throw new MalformedException("Terminate header needs at least " + CONTROL_LENGTH
                    + " bytes of Terminate Control (RFC 5040 §4.8), " + buf.remaining() + " remain", buf.remaining());
        }
        int p = buf.position();
        int word = buf.getInt(p);
        boolean m = (word & M_BIT) != 0, d = (word & D_BIT) != 0, r = (word & R_BIT) != 0;
        int at = CONTROL_LENGTH;
        int segmentLength = -1;
        DdpHeader ddp = null;
        ReadRequest rdma = null;
        if (d) {
            if (buf.remaining() < at + 2) {
                throw new MalformedException("Terminate D bit set but no room for the DDP Segment Length"
                        + " (RFC 5040 §4.8): " + buf.remaining() + " bytes", buf.remaining());
            }
            segmentLength = buf.getShort(p + at) & 0xFFFF;
            at += 2;
            ByteBuffer inner = buf.duplicate();
            inner.position(p + at);
            try {
                ddp = DdpHeader.parse(inner);
            } catch (MalformedException e) {
                throw new MalformedException("Terminate D bit set but the terminated DDP header is cut short: "
                        + e.getMessage(), at);
            }
            at += ddp.headerLength();
        }
        if (r) {
            ByteBuffer inner = buf.duplicate();
            inner.position(p + at);
            try {
                rdma = ReadRequest.parse(inner);
            } catch (MalformedException e) {
                throw new MalformedException("Terminate R bit set but the terminated RDMA header is cut short: "
                        + e.getMessage(), at);
            }
        }
        return new Terminate(word >>> 28, (word >>> 24) & 0xF, (word >>> 16) & 0xFF, m, d, r, word & RESERVED_MASK,
                segmentLength, ddp, rdma);
    }

    @Override
    public int length() {
        return CONTROL_LENGTH + (ddpHeaderIncluded ? 2 + terminatedDdpHeader.headerLength() : 0)
                + (rdmaHeaderIncluded ? ReadRequest.LENGTH : 0);
    }

    @Override
    public void writeTo(ByteBuffer out) {
        NetworkOrder.writing(out, o -> {
            o.putInt((layer << 28) | (errorType << 24) | (errorCode << 16) | (segmentLengthValid ? M_BIT : 0)
                    | (ddpHeaderIncluded ? D_BIT : 0) | (rdmaHeaderIncluded ? R_BIT : 0) | reserved);
            if (ddpHeaderIncluded) {
                o.putShort((short) ddpSegmentLength);
                terminatedDdpHeader.writeTo(o);
            }
            if (rdmaHeaderIncluded) terminatedRdmaHeader.writeTo(o);
        });
    }

    /** "RDMA", "DDP", "LLP" (RFC 5040 §4.8 Figure 9), or "Layer n". */
    public String layerName() {
        return TerminateCodes.layerName(layer);
    }

    /** The Error Type's name (e.g. "Untagged Buffer Error"), or null when the tables have none. */
    public String errorTypeName() {
        return TerminateCodes.errorTypeName(layer, errorType);
    }

    /** The Error Code's name (e.g. "Invalid MSN - MSN range is not valid"), or null when the tables have none. */
    public String errorCodeName() {
        return TerminateCodes.errorCodeName(layer, errorType, errorCode);
    }

    /** E.g. "DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid". */
    public String describe() {
        return TerminateCodes.describe(layer, errorType, errorCode);
    }

    @Override
    public String toString() {
        return "Terminate " + layer + "/" + errorType + "/0x" + Integer.toHexString(errorCode) + " (" + describe()
                + ")" + (segmentLengthValid ? " M" : "") + (ddpHeaderIncluded ? " D" : "")
                + (rdmaHeaderIncluded ? " R" : "");
    }
}
