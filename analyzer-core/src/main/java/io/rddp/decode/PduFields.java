package io.rddp.decode;

import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.field.AtomicField;
import io.rddp.field.DdpField;
import io.rddp.field.FrameField;
import io.rddp.field.Layer;
import io.rddp.field.MpaField;
import io.rddp.field.RdmapField;
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
 * Describes a decoded PDU to a {@link FieldSink}: which fields of {@link io.rddp.field.FieldRegistry} it has, in
 * order, with their values (the group labels say which header format it is). Keys never change meaning; new fields
 * may be added.
 */
public final class PduFields {
    private PduFields() {
    }

    public static void describe(Pdu pdu, FieldSink out) {
        describeFrame(pdu, out);
        if (pdu.headers() != null) FrameHeaderFields.describe(pdu.headers(), out);
        describeLayers(pdu, out);
    }

    /** The frame's own fields (number, stream, endpoints, time): what comes before its headers' layers. */
    public static void describeFrame(Pdu pdu, FieldSink out) {
        out.emit(FrameField.FRAME, pdu.frame());
        out.emit(FrameField.STREAM, pdu.stream());
        out.emit(FrameField.SRC, pdu.source().toString());
        out.emit(FrameField.DST, pdu.destination().toString());
        out.emit(FrameField.TIME, pdu.timestampNanos());
    }

    /** MPA and the layers above it: what follows the frame's headers' layers. */
    public static void describeLayers(Pdu pdu, FieldSink out) {
        if (pdu.startFrame() != null) {
            describe(pdu.startFrame(), out);
        } else {
            describe(pdu.fpdu(), out);
            if (pdu.ddp() != null) {
                describe(pdu.ddp().header(), DdpField.DDP, DDP, out);
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
            if (pdu.problem() != null) out.emit(FrameField.PROBLEM, pdu.problem());
        }
    }

    // a ULPDU with fewer octets than the DDP header its T bit announces (RFC 5041 §4.2, §4.3)
    private static boolean cutDdpHeader(java.nio.ByteBuffer ulpdu) {
        if (ulpdu == null || !ulpdu.hasRemaining()) return false;
        boolean tagged = (ulpdu.get(ulpdu.position()) & DdpHeader.T_BIT) != 0;
        return ulpdu.remaining() < (tagged ? DdpHeader.TAGGED_LENGTH : DdpHeader.UNTAGGED_LENGTH);
    }

    static void describe(MpaStartFrame f, FieldSink out) {
        out.open(MpaField.MPA, f.kind() == MpaStartFrame.Kind.REQUEST ? "MPA Request Frame (RFC 5044 §7.1)"
                : "MPA Reply Frame (RFC 5044 §7.1)");
        out.emit(MpaField.KIND, f.kind() == MpaStartFrame.Kind.REQUEST ? "request" : "reply");
        if (!f.keyValid()) out.emit(MpaField.KEY_VALID, false);
        out.emit(MpaField.M, f.markers());
        out.emit(MpaField.C, f.crc());
        out.emit(MpaField.R, f.reject());
        out.emit(MpaField.RES, f.reserved());
        out.emit(MpaField.REV, f.revision());
        out.emit(MpaField.PD_LENGTH, f.pdLength());
        out.emit(MpaField.PRIVATE_DATA, f.privateData());
        MpaStartFrame.Enhanced e = f.enhanced();
        if (e != null) {
            out.emit(MpaField.IRD, e.ird());
            out.emit(MpaField.ORD, e.ord());
            out.emit(MpaField.PEER_TO_PEER, e.peerToPeer());
            out.emit(MpaField.RTR_SEND, e.zeroLengthSendRtr());
            out.emit(MpaField.RTR_WRITE, e.zeroLengthWriteRtr());
            out.emit(MpaField.RTR_READ, e.zeroLengthReadRtr());
        }
        out.close(MpaField.MPA);
    }

    static void describe(Fpdu f, FieldSink out) {
        out.open(MpaField.MPA, "MPA FPDU (RFC 5044 §4.1)");
        out.emit(MpaField.KIND, "fpdu");
        out.emit(MpaField.OFFSET, f.offset());
        out.emit(MpaField.ULPDU_LENGTH, f.ulpduLength());
        out.emit(MpaField.PAD, f.padLength());
        if (f.markerCount() > 0) out.emit(MpaField.MARKERS, f.markerCount());
        // The CRC field is on the wire whether or not CRCs were negotiated (RFC 5044 §4.1); its value is the
        // CRC-32C read least significant octet first, as iSCSI and siw put it (see Fpdu).
        out.emit(MpaField.CRC, f.crcPresent() ? MpaField.CRC.label() : MpaField.CRC_UNCHECKED_LABEL, f.crc());
        out.emitIfKnown(MpaField.CRC_OK, f.crcOk());
        if (f.inferred()) out.emit(MpaField.INFERRED, true);
        out.close(MpaField.MPA);
    }

    static void describe(DdpHeader h, Layer layer, String label, FieldSink out) {
        out.open(layer, DDP.equals(label) ? (h.tagged() ? DDP_TAGGED : DDP_UNTAGGED)
                : label + (h.tagged() ? TAGGED : UNTAGGED));
        out.emit(DdpField.TAGGED, h.tagged());
        out.emit(DdpField.LAST, h.last());
        out.emit(DdpField.RSVD, h.reserved());
        out.emit(DdpField.VERSION, h.version());
        if (h instanceof TaggedHeader t) {
            out.emit(DdpField.RSVD_ULP, t.rsvdUlp());
            out.emit(DdpField.STAG, t.stag());
            out.emit(DdpField.TO, t.to());
        } else if (h instanceof UntaggedHeader u) {
            out.emit(DdpField.RSVD_ULP, u.rsvdUlp());
            out.emit(DdpField.QN, u.qn());
            out.emit(DdpField.MSN, u.msn());
            out.emit(DdpField.MO, u.mo());
        }
        out.close(layer);
    }

    static void describe(RdmapPdu r, FieldSink out) {
        Opcode op = r.opcode();
        out.open(RdmapField.RDMAP, op == null ? RDMAP_RESERVED : RDMAP_LABELS[op.ordinal()]);
        describe(r.control(), out);
        if (op != null && op.carriesInvalidateStag()) out.emit(RdmapField.INVALIDATE_STAG, r.invalidateStag());
        if (r.body() instanceof ReadRequest rr) {
            describe(rr, RdmapField.READ_REQUEST, out);
        } else if (r.body() instanceof Terminate t) {
            out.open(RdmapField.TERMINATE, "Terminate (RFC 5040 §4.8)");
            out.emit(RdmapField.LAYER, t.layer());
            out.emit(RdmapField.ETYPE, t.errorType());
            out.emit(RdmapField.CODE, t.errorCode());
            out.emit(RdmapField.NAME, TerminateCodes.describe(t.layer(), t.errorType(), t.errorCode()));
            out.emit(RdmapField.M, t.segmentLengthValid());
            out.emit(RdmapField.D, t.ddpHeaderIncluded());
            out.emit(RdmapField.R, t.rdmaHeaderIncluded());
            if (t.ddpHeaderIncluded()) {
                out.emit(RdmapField.DDP_SEGMENT_LENGTH, t.ddpSegmentLength());
                describe(t.terminatedDdpHeader(), RdmapField.TERMINATED_DDP, "Terminated DDP", out);
            }
            if (t.terminatedRdmaHeader() != null) {
                describe(t.terminatedRdmaHeader(), RdmapField.TERMINATED_READ_REQUEST, out);
            }
            out.close(RdmapField.TERMINATE);
        } else if (r.body() instanceof ImmediateData i) {
            out.emit(RdmapField.IMMEDIATE_DATA, i.data());
        } else if (r.body() instanceof AtomicRequest a) {
            out.open(AtomicField.ATOMIC_REQUEST, "Atomic Request (RFC 7306 §4.3.1)");
            out.emit(AtomicField.ATOMIC_OPCODE, a.atomicOpcode());
            out.emit(AtomicField.ATOMIC_OPCODE_NAME, a.operationName());
            out.emit(AtomicField.REQUEST_ID, a.requestId());
            out.emit(AtomicField.REMOTE_STAG, a.remoteStag());
            out.emit(AtomicField.REMOTE_TO, a.remoteTo());
            out.emit(AtomicField.ADD_OR_SWAP_DATA, a.addOrSwapData());
            out.emit(AtomicField.ADD_OR_SWAP_MASK, a.addOrSwapMask());
            out.emit(AtomicField.COMPARE_DATA, a.compareData());
            out.emit(AtomicField.COMPARE_MASK, a.compareMask());
            out.close(AtomicField.ATOMIC_REQUEST);
        } else if (r.body() instanceof AtomicResponse a) {
            out.open(AtomicField.ATOMIC_RESPONSE, "Atomic Response (RFC 7306 §4.3.2)");
            out.emit(AtomicField.ORIGINAL_REQUEST_ID, a.originalRequestId());
            out.emit(AtomicField.ORIGINAL_VALUE, a.originalRemoteDataValue());
            out.close(AtomicField.ATOMIC_RESPONSE);
        }
        out.emit(RdmapField.PAYLOAD_LENGTH, r.payload().remaining());
        out.close(RdmapField.RDMAP);
    }

    private static void describe(RdmapControl control, FieldSink out) {
        Opcode op = control.kind();
        out.emit(RdmapField.VERSION, control.version());
        out.emit(RdmapField.OPCODE, control.opcode());
        out.emit(RdmapField.OPCODE_NAME, op == null ? "Reserved" : op.rfcName());
    }

    private static void describe(ReadRequest rr, Layer layer, FieldSink out) {
        out.open(layer, "RDMA Read Request header (RFC 5040 §4.4)");
        out.emit(RdmapField.SINK_STAG, rr.sinkStag());
        out.emit(RdmapField.SINK_TO, rr.sinkTo());
        out.emit(RdmapField.SIZE, rr.size());
        out.emit(RdmapField.SRC_STAG, rr.sourceStag());
        out.emit(RdmapField.SRC_TO, rr.sourceTo());
        out.close(layer);
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
