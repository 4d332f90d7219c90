package io.rddp.decode;

import io.rddp.ddp.DdpHeader;
import io.rddp.field.AtomicField;
import io.rddp.field.DdpField;
import io.rddp.field.Layer;
import io.rddp.field.RdmapField;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rdmap.TerminateCodes;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The fields of a DDP or RDMAP header that the ULPDU_Length cut short (a ULPDU shorter than the header its T bit or
 * opcode announces): every field that lies wholly inside the bytes is shown, under the keys of the whole header, with
 * {@code truncated: true} and the {@code headerLength} the header needs (tshark shows these fields too). Nothing is
 * guessed for a field the bytes do not hold. Identifiers (STag, Invalidate STag) are shown in decimal here, as they
 * always were ({@link FieldSink#decimal}), though the whole header shows them in hex.
 */
final class TruncatedFields {
    private TruncatedFields() {
    }

    /** A ULPDU too short for its DDP header (RFC 5041 §4.2, §4.3): what it holds of it, and of RDMAP's control. */
    static void ddp(ByteBuffer ulpdu, FieldSink out) {
        ByteBuffer b = ulpdu.duplicate().order(ByteOrder.BIG_ENDIAN);
        int p = b.position(), n = b.remaining();
        if (n == 0) return;
        boolean tagged = ddpHeader(b, p, n, DdpField.DDP, "DDP", out);
        if (n < 2) return;
        RdmapControl control = RdmapControl.fromByte(b.get(p + 1) & 0xFF);
        Opcode op = control.kind();
        out.open(RdmapField.RDMAP, "RDMAP control field (RFC 5040 §4.1), in a DDP header cut short");
        control(control, out);
        // the Invalidate STag is the last 32 bits of the untagged RsvdULP (RFC 5040 §4.1)
        if (!tagged && n >= 6 && op != null && op.carriesInvalidateStag()) {
            out.decimal(RdmapField.INVALIDATE_STAG, Integer.toUnsignedLong(b.getInt(p + 2)));
        }
        out.emit(RdmapField.TRUNCATED, true);
        out.close(RdmapField.RDMAP);
    }

    /** The DDP header fields in {@code n} bytes at {@code p}; returns the T bit. */
    private static boolean ddpHeader(ByteBuffer b, int p, int n, Layer layer, String label, FieldSink out) {
        int control = b.get(p) & 0xFF;
        boolean tagged = (control & DdpHeader.T_BIT) != 0;
        int need = tagged ? DdpHeader.TAGGED_LENGTH : DdpHeader.UNTAGGED_LENGTH;
        String rfc = tagged ? "RFC 5041 §4.2" : "RFC 5041 §4.3";
        out.open(layer, label + (tagged ? " tagged" : " untagged") + " segment" + (n < need ? " header cut short: " + n
                + " of " + need + " octets (" + rfc + ")" : " (" + rfc + ")"));
        out.emit(DdpField.TAGGED, tagged);
        out.emit(DdpField.LAST, (control & DdpHeader.L_BIT) != 0);
        out.emit(DdpField.RSVD, (control & DdpHeader.RSVD_MASK) >>> 2);
        out.emit(DdpField.VERSION, control & DdpHeader.DV_MASK);
        if (tagged) {
            if (n >= 2) out.emit(DdpField.RSVD_ULP, b.get(p + 1) & 0xFF);
            if (n >= 6) out.decimal(DdpField.STAG, Integer.toUnsignedLong(b.getInt(p + 2)));
            if (n >= 14) out.emit(DdpField.TO, b.getLong(p + 6));
        } else {
            if (n >= 6) {
                out.emit(DdpField.RSVD_ULP, ((long) (b.get(p + 1) & 0xFF) << 32)
                        | Integer.toUnsignedLong(b.getInt(p + 2)));
            }
            if (n >= 10) out.emit(DdpField.QN, Integer.toUnsignedLong(b.getInt(p + 6)));
            if (n >= 14) out.emit(DdpField.MSN, Integer.toUnsignedLong(b.getInt(p + 10)));
            if (n >= 18) out.emit(DdpField.MO, Integer.toUnsignedLong(b.getInt(p + 14)));
        }
        out.emit(DdpField.TRUNCATED, n < need);
        out.emit(DdpField.HEADER_LENGTH, need);
        out.close(layer);
        return tagged;
    }

    /**
     * The segment at MO 0 of {@code op}'s message whose opcode-specific header (RFC 5040 §4.4, §4.8; RFC 7306 §5.2,
     * §6.2) the DDP payload cuts short: the control field and the fields the payload holds.
     */
    static void rdmap(RdmapControl control, Opcode op, boolean untaggedFirst, ByteBuffer payload, FieldSink out) {
        ByteBuffer b = payload.duplicate().order(ByteOrder.BIG_ENDIAN);
        int p = b.position(), n = b.remaining();
        boolean body = op != null && untaggedFirst && op.headerLength() > 0;
        out.open(RdmapField.RDMAP, body ? "RDMAP " + op.rfcName() + " header cut short: " + n + " of at least "
                + op.headerLength() + " octets (" + op.rfc() + ")" : "RDMAP control field only (RFC 5040 §4.1)");
        control(control, out);
        if (body) {
            switch (op) {
                case RDMA_READ_REQUEST -> readRequest(b, p, n, out);
                case TERMINATE -> terminate(b, p, n, out);
                case ATOMIC_REQUEST -> {
                    out.open(AtomicField.ATOMIC_REQUEST, "Atomic Request (RFC 7306 §4.3.1), cut short");
                    if (n >= 4) {
                        int first = b.getInt(p);
                        out.emit(AtomicField.ATOMIC_OPCODE, first & 0xF);
                    }
                    if (n >= 8) out.emit(AtomicField.REQUEST_ID, Integer.toUnsignedLong(b.getInt(p + 4)));
                    if (n >= 12) out.decimal(AtomicField.REMOTE_STAG, Integer.toUnsignedLong(b.getInt(p + 8)));
                    if (n >= 20) out.emit(AtomicField.REMOTE_TO, b.getLong(p + 12));
                    if (n >= 28) out.emit(AtomicField.ADD_OR_SWAP_DATA, b.getLong(p + 20));
                    if (n >= 36) out.emit(AtomicField.ADD_OR_SWAP_MASK, b.getLong(p + 28));
                    if (n >= 44) out.emit(AtomicField.COMPARE_DATA, b.getLong(p + 36));
                    out.close(AtomicField.ATOMIC_REQUEST);
                }
                case ATOMIC_RESPONSE -> {
                    out.open(AtomicField.ATOMIC_RESPONSE, "Atomic Response (RFC 7306 §4.3.2), cut short");
                    if (n >= 4) out.emit(AtomicField.ORIGINAL_REQUEST_ID, Integer.toUnsignedLong(b.getInt(p)));
                    out.close(AtomicField.ATOMIC_RESPONSE);
                }
                default -> {
                    // Immediate Data: its one field is 8 octets, none of it complete
                }
            }
            out.emit(RdmapField.TRUNCATED, true);
            out.emit(RdmapField.HEADER_LENGTH, minimalLength(op));
        }
        out.close(RdmapField.RDMAP);
    }

    private static int minimalLength(Opcode op) {
        return switch (op) {
            case RDMA_READ_REQUEST -> ReadRequest.LENGTH;
            case TERMINATE -> Terminate.CONTROL_LENGTH;
            case ATOMIC_REQUEST -> AtomicRequest.LENGTH;
            case ATOMIC_RESPONSE -> AtomicResponse.LENGTH;
            default -> op.headerLength();
        };
    }

    private static void control(RdmapControl control, FieldSink out) {
        Opcode op = control.kind();
        out.emit(RdmapField.VERSION, control.version());
        out.emit(RdmapField.OPCODE, control.opcode());
        out.emit(RdmapField.OPCODE_NAME, op == null ? "Reserved" : op.rfcName());
    }

    private static void readRequest(ByteBuffer b, int p, int n, FieldSink out) {
        out.open(RdmapField.READ_REQUEST, "RDMA Read Request header (RFC 5040 §4.4), cut short");
        if (n >= 4) out.decimal(RdmapField.SINK_STAG, Integer.toUnsignedLong(b.getInt(p)));
        if (n >= 12) out.emit(RdmapField.SINK_TO, b.getLong(p + 4));
        if (n >= 16) out.emit(RdmapField.SIZE, Integer.toUnsignedLong(b.getInt(p + 12)));
        if (n >= 20) out.decimal(RdmapField.SRC_STAG, Integer.toUnsignedLong(b.getInt(p + 16)));
        if (n >= 28) out.emit(RdmapField.SRC_TO, b.getLong(p + 20));
        out.close(RdmapField.READ_REQUEST);
    }

    // RFC 5040 §4.8: Terminate Control, then the DDP Segment Length and the terminated DDP header when D is set
    private static void terminate(ByteBuffer b, int p, int n, FieldSink out) {
        out.open(RdmapField.TERMINATE, "Terminate (RFC 5040 §4.8), cut short");
        if (n >= 4) {
            int word = b.getInt(p);
            int layer = word >>> 28, etype = (word >>> 24) & 0xF, code = (word >>> 16) & 0xFF;
            boolean d = (word & 0x4000) != 0;
            out.emit(RdmapField.LAYER, layer);
            out.emit(RdmapField.ETYPE, etype);
            out.emit(RdmapField.CODE, code);
            out.emit(RdmapField.NAME, TerminateCodes.describe(layer, etype, code));
            out.emit(RdmapField.M, (word & 0x8000) != 0);
            out.emit(RdmapField.D, d);
            out.emit(RdmapField.R, (word & 0x2000) != 0);
            if (d && n >= 6) {
                out.emit(RdmapField.DDP_SEGMENT_LENGTH, b.getShort(p + 4) & 0xFFFF);
                if (n > 6) ddpHeader(b, p + 6, n - 6, RdmapField.TERMINATED_DDP, "Terminated DDP", out);
            }
        }
        out.close(RdmapField.TERMINATE);
    }
}
