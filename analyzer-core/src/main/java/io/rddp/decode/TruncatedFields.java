package io.rddp.decode;

import io.rddp.ddp.DdpHeader;
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
 * guessed for a field the bytes do not hold.
 */
final class TruncatedFields {
    private TruncatedFields() {
    }

    /** A ULPDU too short for its DDP header (RFC 5041 §4.2, §4.3): what it holds of it, and of RDMAP's control. */
    static void ddp(ByteBuffer ulpdu, FieldSink out) {
        ByteBuffer b = ulpdu.duplicate().order(ByteOrder.BIG_ENDIAN);
        int p = b.position(), n = b.remaining();
        if (n == 0) return;
        boolean tagged = ddpHeader(b, p, n, "ddp", "DDP", out);
        if (n < 2) return;
        RdmapControl control = RdmapControl.fromByte(b.get(p + 1) & 0xFF);
        Opcode op = control.kind();
        out.begin("rdmap", "RDMAP control field (RFC 5040 §4.1), in a DDP header cut short");
        control(control, out);
        // the Invalidate STag is the last 32 bits of the untagged RsvdULP (RFC 5040 §4.1)
        if (!tagged && n >= 6 && op != null && op.carriesInvalidateStag()) {
            out.number("invalidateStag", "Invalidate STag", Integer.toUnsignedLong(b.getInt(p + 2)));
        }
        out.bool("truncated", "Cut short", true);
        out.end();
    }

    /** The DDP header fields in {@code n} bytes at {@code p}; returns the T bit. */
    private static boolean ddpHeader(ByteBuffer b, int p, int n, String key, String label, FieldSink out) {
        int control = b.get(p) & 0xFF;
        boolean tagged = (control & DdpHeader.T_BIT) != 0;
        int need = tagged ? DdpHeader.TAGGED_LENGTH : DdpHeader.UNTAGGED_LENGTH;
        String rfc = tagged ? "RFC 5041 §4.2" : "RFC 5041 §4.3";
        out.begin(key, label + (tagged ? " tagged" : " untagged") + " segment" + (n < need ? " header cut short: " + n
                + " of " + need + " octets (" + rfc + ")" : " (" + rfc + ")"));
        out.bool("tagged", "Tagged (T)", tagged);
        out.bool("last", "Last (L)", (control & DdpHeader.L_BIT) != 0);
        out.number("rsvd", "Reserved", (control & DdpHeader.RSVD_MASK) >>> 2);
        out.number("version", "DDP version (DV)", control & DdpHeader.DV_MASK);
        if (tagged) {
            if (n >= 2) out.number("rsvdUlp", "Reserved for ULP", b.get(p + 1) & 0xFF);
            if (n >= 6) out.number("stag", "STag", Integer.toUnsignedLong(b.getInt(p + 2)));
            if (n >= 14) out.unsigned64("to", "Tagged offset", b.getLong(p + 6));
        } else {
            if (n >= 6) {
                out.number("rsvdUlp", "Reserved for ULP", ((long) (b.get(p + 1) & 0xFF) << 32)
                        | Integer.toUnsignedLong(b.getInt(p + 2)));
            }
            if (n >= 10) out.number("qn", "Queue number", Integer.toUnsignedLong(b.getInt(p + 6)));
            if (n >= 14) out.number("msn", "Message sequence number", Integer.toUnsignedLong(b.getInt(p + 10)));
            if (n >= 18) out.number("mo", "Message offset", Integer.toUnsignedLong(b.getInt(p + 14)));
        }
        out.bool("truncated", "Cut short", n < need);
        out.number("headerLength", "Header length its T bit announces", need);
        out.end();
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
        out.begin("rdmap", body ? "RDMAP " + op.rfcName() + " header cut short: " + n + " of at least "
                + op.headerLength() + " octets (" + op.rfc() + ")" : "RDMAP control field only (RFC 5040 §4.1)");
        control(control, out);
        if (body) {
            switch (op) {
                case RDMA_READ_REQUEST -> readRequest(b, p, n, out);
                case TERMINATE -> terminate(b, p, n, out);
                case ATOMIC_REQUEST -> {
                    out.begin("atomicRequest", "Atomic Request (RFC 7306 §4.3.1), cut short");
                    if (n >= 4) {
                        int first = b.getInt(p);
                        out.number("atomicOpcode", "Atomic operation", first & 0xF);
                    }
                    if (n >= 8) out.number("requestId", "Request identifier", Integer.toUnsignedLong(b.getInt(p + 4)));
                    if (n >= 12) out.number("remoteStag", "Remote STag", Integer.toUnsignedLong(b.getInt(p + 8)));
                    if (n >= 20) out.unsigned64("remoteTo", "Remote tagged offset", b.getLong(p + 12));
                    if (n >= 28) out.unsigned64("addOrSwapData", "Add or swap data", b.getLong(p + 20));
                    if (n >= 36) out.unsigned64("addOrSwapMask", "Add or swap mask", b.getLong(p + 28));
                    if (n >= 44) out.unsigned64("compareData", "Compare data", b.getLong(p + 36));
                    out.end();
                }
                case ATOMIC_RESPONSE -> {
                    out.begin("atomicResponse", "Atomic Response (RFC 7306 §4.3.2), cut short");
                    if (n >= 4) {
                        out.number("requestId", "Original request identifier", Integer.toUnsignedLong(b.getInt(p)));
                    }
                    out.end();
                }
                default -> {
                    // Immediate Data: its one field is 8 octets, none of it complete
                }
            }
            out.bool("truncated", "Cut short", true);
            out.number("headerLength", "Header length its opcode announces", minimalLength(op));
        }
        out.end();
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
        out.number("version", "RDMAP version", control.version());
        out.number("opcode", "Opcode", control.opcode());
        out.text("opcodeName", "Opcode name", op == null ? "Reserved" : op.rfcName());
    }

    private static void readRequest(ByteBuffer b, int p, int n, FieldSink out) {
        out.begin("readRequest", "RDMA Read Request header (RFC 5040 §4.4), cut short");
        if (n >= 4) out.number("sinkStag", "Data sink STag", Integer.toUnsignedLong(b.getInt(p)));
        if (n >= 12) out.unsigned64("sinkTo", "Data sink tagged offset", b.getLong(p + 4));
        if (n >= 16) out.number("size", "RDMA Read message size", Integer.toUnsignedLong(b.getInt(p + 12)));
        if (n >= 20) out.number("srcStag", "Data source STag", Integer.toUnsignedLong(b.getInt(p + 16)));
        if (n >= 28) out.unsigned64("srcTo", "Data source tagged offset", b.getLong(p + 20));
        out.end();
    }

    // RFC 5040 §4.8: Terminate Control, then the DDP Segment Length and the terminated DDP header when D is set
    private static void terminate(ByteBuffer b, int p, int n, FieldSink out) {
        out.begin("terminate", "Terminate (RFC 5040 §4.8), cut short");
        if (n >= 4) {
            int word = b.getInt(p);
            int layer = word >>> 28, etype = (word >>> 24) & 0xF, code = (word >>> 16) & 0xFF;
            boolean d = (word & 0x4000) != 0;
            out.number("layer", "Layer", layer);
            out.number("etype", "Error type", etype);
            out.number("code", "Error code", code);
            out.text("name", "Error", TerminateCodes.describe(layer, etype, code));
            out.bool("m", "DDP segment length valid (M)", (word & 0x8000) != 0);
            out.bool("d", "DDP header included (D)", d);
            out.bool("r", "RDMAP header included (R)", (word & 0x2000) != 0);
            if (d && n >= 6) {
                out.number("ddpSegmentLength", "DDP segment length", b.getShort(p + 4) & 0xFFFF);
                if (n > 6) ddpHeader(b, p + 6, n - 6, "ddpHeader", "Terminated DDP", out);
            }
        }
        out.end();
    }
}
