package io.rddp.decode;

import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.mpa.Fpdu;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rdmap.TerminateCodes;

/** Protocol and info columns of the one-line view (CLI default output, GUI packet list). */
public final class PduSummary {
    private PduSummary() {
    }

    public static String protocol(Pdu pdu) {
        if (pdu.startFrame() != null || pdu.ddp() == null) return "MPA";
        return pdu.rdmap() != null ? "RDMAP" : "DDP";
    }

    public static StringBuilder info(Pdu pdu, StringBuilder sb) {
        MpaStartFrame s = pdu.startFrame();
        if (s != null) {
            sb.append(s.kind() == MpaStartFrame.Kind.REQUEST ? "Request Frame" : "Reply Frame");
            if (!s.keyValid()) sb.append(" (bad key)");
            sb.append(" rev ").append(s.revision());
            if (s.reject()) sb.append(" REJECT");
            sb.append(" M=").append(s.markers() ? 1 : 0).append(" C=").append(s.crc() ? 1 : 0);
            if (s.enhanced() != null) {
                MpaStartFrame.Enhanced e = s.enhanced();
                sb.append(" IRD=").append(e.ird()).append(" ORD=").append(e.ord());
                if (e.peerToPeer()) sb.append(" P2P");
            }
            return sb.append(" PD ").append(s.pdLength());
        }
        Fpdu f = pdu.fpdu();
        if (pdu.ddp() == null) {
            return sb.append("FPDU len ").append(f.ulpduLength()).append(" [undecodable: ").append(pdu.problem()).append(']');
        }
        RdmapPdu r = pdu.rdmap();
        DdpHeader h = pdu.ddp().header();
        if (r != null) {
            Opcode op = r.opcode();
            sb.append(op == null ? "Reserved opcode " + r.control().opcode() : op.rfcName());
        } else {
            sb.append("DDP");
        }
        sb.append(' ');
        if (h instanceof TaggedHeader t) {
            sb.append("STag 0x").append(Long.toHexString(t.stag())).append(" TO 0x").append(Long.toHexString(t.to()));
        } else if (h instanceof UntaggedHeader u) {
            sb.append("QN ").append(u.qn()).append(" MSN ").append(u.msn()).append(" MO ").append(u.mo());
        }
        if (h.last()) sb.append(" L");
        if (r != null && r.body() instanceof ReadRequest rr) {
            sb.append(" sink 0x").append(Long.toHexString(rr.sinkStag())).append("@0x").append(Long.toHexString(rr.sinkTo()))
                    .append(" src 0x").append(Long.toHexString(rr.sourceStag())).append("@0x")
                    .append(Long.toHexString(rr.sourceTo())).append(" size ").append(rr.size());
        } else if (r != null && r.body() instanceof Terminate t) {
            sb.append(' ').append(t.layer()).append('/').append(t.errorType()).append('/').append(t.errorCode()).append(' ')
                    .append(TerminateCodes.describe(t.layer(), t.errorType(), t.errorCode()));
        }
        if (r != null && r.opcode() != null && r.opcode().carriesInvalidateStag()) {
            sb.append(" inv 0x").append(Long.toHexString(r.invalidateStag()));
        }
        sb.append(" len ").append(r != null ? r.payload().remaining() : pdu.ddp().payload().remaining());
        if (f.crcOk() != null && !f.crcOk()) sb.append(" [BAD CRC]");
        return sb;
    }
}
