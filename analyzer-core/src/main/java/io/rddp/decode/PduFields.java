package io.rddp.decode;

import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.mpa.Fpdu;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.ImmediateData;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rdmap.TerminateCodes;

import java.time.Instant;

/**
 * The one field registry of a decoded PDU: stable keys (the JSON contract and future filter names), labels for the
 * field tree, and values. Keys never change meaning; new keys may be added.
 */
public final class PduFields {
    private PduFields() {
    }

    public static void describe(Pdu pdu, FieldSink out) {
        out.number("frame", "Frame", pdu.frame());
        out.number("stream", "TCP stream", pdu.stream());
        out.text("src", "Source", pdu.source().toString());
        out.text("dst", "Destination", pdu.destination().toString());
        out.time("time", "Capture time (epoch seconds)", pdu.timestampNanos());
        if (pdu.startFrame() != null) {
            describe(pdu.startFrame(), out);
        } else {
            describe(pdu.fpdu(), out);
            if (pdu.ddp() != null) {
                describe(pdu.ddp().header(), "ddp", DDP, out);
            } else if (cutDdpHeader(pdu.fpdu().ulpdu())) {
                // the ULPDU_Length cut the DDP header short: what it holds of it is still shown, flagged
                TruncatedFields.ddp(pdu.fpdu().ulpdu(), out);
            }
            if (pdu.rdmap() != null) {
                describe(pdu.rdmap(), out);
            } else if (pdu.ddp() != null) {
                // The opcode-specific header did not parse (cut short), but the RDMAP control field in RsvdULP did
                // arrive, and so did the header fields the payload holds.
                DdpHeader h = pdu.ddp().header();
                RdmapControl control = RdmapControl.of(h);
                TruncatedFields.rdmap(control, control.kind(), !h.tagged() && h.offset() == 0, pdu.ddp().payload(),
                        out);
            }
            if (pdu.problem() != null) out.text("problem", "Could not decode", pdu.problem());
        }
    }

    // a ULPDU with fewer octets than the DDP header its T bit announces (RFC 5041 §4.2, §4.3)
    private static boolean cutDdpHeader(java.nio.ByteBuffer ulpdu) {
        if (ulpdu == null || !ulpdu.hasRemaining()) return false;
        boolean tagged = (ulpdu.get(ulpdu.position()) & DdpHeader.T_BIT) != 0;
        return ulpdu.remaining() < (tagged ? DdpHeader.TAGGED_LENGTH : DdpHeader.UNTAGGED_LENGTH);
    }

    static void describe(MpaStartFrame f, FieldSink out) {
        out.begin("mpa", f.kind() == MpaStartFrame.Kind.REQUEST ? "MPA Request Frame (RFC 5044 §7.1)"
                : "MPA Reply Frame (RFC 5044 §7.1)");
        out.text("kind", "Kind", f.kind() == MpaStartFrame.Kind.REQUEST ? "request" : "reply");
        if (!f.keyValid()) out.bool("keyValid", "Key valid", false);
        out.bool("m", "Markers required (M)", f.markers());
        out.bool("c", "CRC (C)", f.crc());
        out.bool("r", "Reject (R)", f.reject());
        out.number("res", "Reserved bits (Res)", f.reserved());
        out.number("rev", "Revision", f.revision());
        out.number("pdLength", "Private data length", f.pdLength());
        out.hex("privateData", "Private data", f.privateData());
        MpaStartFrame.Enhanced e = f.enhanced();
        if (e != null) {
            out.number("ird", "IRD (RFC 6581)", e.ird());
            out.number("ord", "ORD (RFC 6581)", e.ord());
            out.bool("peerToPeer", "Peer-to-peer (RFC 6581)", e.peerToPeer());
            out.bool("rtrSend", "Zero-length Send RTR", e.zeroLengthSendRtr());
            out.bool("rtrWrite", "Zero-length Write RTR", e.zeroLengthWriteRtr());
            out.bool("rtrRead", "Zero-length Read RTR", e.zeroLengthReadRtr());
        }
        out.end();
    }

    static void describe(Fpdu f, FieldSink out) {
        out.begin("mpa", "MPA FPDU (RFC 5044 §4.1)");
        out.text("kind", "Kind", "fpdu");
        out.number("offset", "TCP stream offset", f.offset());
        out.number("ulpduLength", "ULPDU length", f.ulpduLength());
        out.number("pad", "Pad length", f.padLength());
        if (f.markerCount() > 0) out.number("markers", "Markers", f.markerCount());
        // The CRC field is on the wire whether or not CRCs were negotiated (RFC 5044 §4.1); its value is the
        // CRC-32C read least significant octet first, as iSCSI and siw put it (see Fpdu).
        out.id32("crc", f.crcPresent() ? "CRC32c" : "CRC field (not negotiated, not checked)", f.crc());
        out.boolOrNull("crcOk", "CRC good", f.crcOk());
        if (f.inferred()) out.bool("inferred", "Parameters inferred (no handshake seen)", true);
        out.end();
    }

    static void describe(DdpHeader h, String key, String label, FieldSink out) {
        out.begin(key, DDP.equals(label) ? (h.tagged() ? DDP_TAGGED : DDP_UNTAGGED)
                : label + (h.tagged() ? TAGGED : UNTAGGED));
        out.bool("tagged", "Tagged (T)", h.tagged());
        out.bool("last", "Last (L)", h.last());
        out.number("rsvd", "Reserved", h.reserved());
        out.number("version", "DDP version (DV)", h.version());
        if (h instanceof TaggedHeader t) {
            out.number("rsvdUlp", "Reserved for ULP", t.rsvdUlp());
            out.id32("stag", "STag", t.stag());
            out.unsigned64("to", "Tagged offset", t.to());
        } else if (h instanceof UntaggedHeader u) {
            out.number("rsvdUlp", "Reserved for ULP", u.rsvdUlp());
            out.number("qn", "Queue number", u.qn());
            out.number("msn", "Message sequence number", u.msn());
            out.number("mo", "Message offset", u.mo());
        }
        out.end();
    }

    static void describe(RdmapPdu r, FieldSink out) {
        Opcode op = r.opcode();
        out.begin("rdmap", op == null ? RDMAP_RESERVED : RDMAP_LABELS[op.ordinal()]);
        describe(r.control(), out);
        if (op != null && op.carriesInvalidateStag()) out.id32("invalidateStag", "Invalidate STag", r.invalidateStag());
        if (r.body() instanceof ReadRequest rr) {
            describe(rr, out);
        } else if (r.body() instanceof Terminate t) {
            out.begin("terminate", "Terminate (RFC 5040 §4.8)");
            out.number("layer", "Layer", t.layer());
            out.number("etype", "Error type", t.errorType());
            out.number("code", "Error code", t.errorCode());
            out.text("name", "Error", TerminateCodes.describe(t.layer(), t.errorType(), t.errorCode()));
            out.bool("m", "DDP segment length valid (M)", t.segmentLengthValid());
            out.bool("d", "DDP header included (D)", t.ddpHeaderIncluded());
            out.bool("r", "RDMAP header included (R)", t.rdmaHeaderIncluded());
            if (t.ddpHeaderIncluded()) {
                out.number("ddpSegmentLength", "DDP segment length", t.ddpSegmentLength());
                describe(t.terminatedDdpHeader(), "ddpHeader", "Terminated DDP", out);
            }
            if (t.terminatedRdmaHeader() != null) describe(t.terminatedRdmaHeader(), out);
            out.end();
        } else if (r.body() instanceof ImmediateData i) {
            out.unsigned64("immediateData", "Immediate data", i.data());
        } else if (r.body() instanceof AtomicRequest a) {
            out.begin("atomicRequest", "Atomic Request (RFC 7306 §4.3.1)");
            out.number("atomicOpcode", "Atomic operation", a.atomicOpcode());
            out.text("atomicOpcodeName", "Atomic operation name", a.operationName());
            out.number("requestId", "Request identifier", a.requestId());
            out.id32("remoteStag", "Remote STag", a.remoteStag());
            out.unsigned64("remoteTo", "Remote tagged offset", a.remoteTo());
            out.unsigned64("addOrSwapData", "Add or swap data", a.addOrSwapData());
            out.unsigned64("addOrSwapMask", "Add or swap mask", a.addOrSwapMask());
            out.unsigned64("compareData", "Compare data", a.compareData());
            out.unsigned64("compareMask", "Compare mask", a.compareMask());
            out.end();
        } else if (r.body() instanceof AtomicResponse a) {
            out.begin("atomicResponse", "Atomic Response (RFC 7306 §4.3.2)");
            out.number("requestId", "Original request identifier", a.originalRequestId());
            out.unsigned64("originalValue", "Original remote data value", a.originalRemoteDataValue());
            out.end();
        }
        out.number("payloadLength", "ULP payload length", r.payload().remaining());
        out.end();
    }

    private static void describe(RdmapControl control, FieldSink out) {
        Opcode op = control.kind();
        out.number("version", "RDMAP version", control.version());
        out.number("opcode", "Opcode", control.opcode());
        out.text("opcodeName", "Opcode name", op == null ? "Reserved" : op.rfcName());
    }

    private static void describe(ReadRequest rr, FieldSink out) {
        out.begin("readRequest", "RDMA Read Request header (RFC 5040 §4.4)");
        out.id32("sinkStag", "Data sink STag", rr.sinkStag());
        out.unsigned64("sinkTo", "Data sink tagged offset", rr.sinkTo());
        out.number("size", "RDMA Read message size", rr.size());
        out.id32("srcStag", "Data source STag", rr.sourceStag());
        out.unsigned64("srcTo", "Data source tagged offset", rr.sourceTo());
        out.end();
    }

    // Labels built once: a sink that shows no labels (JSON) would otherwise pay for the concatenation per PDU.
    private static final String DDP = "DDP";
    private static final String TAGGED = " tagged segment (RFC 5041 §4.2)";
    private static final String UNTAGGED = " untagged segment (RFC 5041 §4.3)";
    private static final String DDP_TAGGED = DDP + TAGGED;
    private static final String DDP_UNTAGGED = DDP + UNTAGGED;
    private static final String RDMAP_RESERVED = "RDMAP reserved opcode (RFC 5040 §4.1)";
    private static final String[] RDMAP_LABELS = new String[Opcode.values().length];

    static {
        for (Opcode op : Opcode.values()) RDMAP_LABELS[op.ordinal()] = "RDMAP " + op.rfcName() + " (" + op.rfc() + ")";
    }

    /** Epoch nanoseconds as "seconds.nanoseconds" (9 digits), the JSON's {@code time}. */
    public static String epochSeconds(long nanos) {
        Instant t = Instant.ofEpochSecond(0, nanos);
        String frac = Long.toString(t.getNano() + 1_000_000_000L).substring(1);
        return t.getEpochSecond() + "." + frac;
    }
}
