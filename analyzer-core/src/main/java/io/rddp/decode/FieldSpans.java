package io.rddp.decode;

import io.rddp.ddp.DdpHeader;
import io.rddp.mpa.MpaStartFrame;

import java.nio.ByteBuffer;

/**
 * Where the fields of {@link PduFields} lie in the PDU's octets as {@link #bytes} gives them (an MPA Request/Reply
 * as on the wire; an FPDU as ULPDU_Length followed by the ULPDU, Markers removed): what the GUI's hex pane
 * highlights when a field is selected. Fields without a place of their own (derived ones such as
 * {@code rdmap.opcodeName}, the stream offset, RPC-over-RDMA's XDR) have none.
 */
public final class FieldSpans {
    private FieldSpans() {
    }

    /** A run of octets: {@code [offset, offset + length)}. */
    public record Span(int offset, int length) {
    }

    /**
     * The octets of the PDU, at most {@code max} of them: the start frame, or the 2-octet ULPDU_Length then the
     * ULPDU. Call during {@link PduListener#onPdu} (the ULPDU is a view that dies after it).
     */
    public static byte[] bytes(Pdu pdu, int max) {
        if (pdu.startFrame() != null) {
            byte[] all = pdu.startFrame().toBytes();
            return all.length <= max ? all : java.util.Arrays.copyOf(all, max);
        }
        ByteBuffer u = pdu.fpdu().ulpdu().duplicate();
        int n = Math.min(max, 2 + u.remaining());
        byte[] out = new byte[Math.max(n, Math.min(max, 2))];
        int len = pdu.fpdu().ulpduLength();
        out[0] = (byte) (len >>> 8);
        if (out.length > 1) out[1] = (byte) len;
        if (n > 2) u.get(out, 2, n - 2);
        return out;
    }

    /**
     * The span of a field or layer by its filter name ({@code ddp.msn}, {@code rdmap.readRequest}), or null.
     *
     * @param startFrame whether the PDU is an MPA Request/Reply
     * @param tagged     the DDP T bit (FPDUs)
     * @param pdLength   private data length (start frames)
     */
    public static Span of(String name, boolean startFrame, boolean tagged, int pdLength) {
        if (startFrame) return startFrame(name, pdLength);
        final int d = 2; // DDP header after ULPDU_Length
        int hdr = tagged ? DdpHeader.TAGGED_LENGTH : DdpHeader.UNTAGGED_LENGTH;
        int r = d + hdr; // opcode-specific RDMAP header
        return switch (name) {
            case "mpa.ulpduLength" -> new Span(0, 2);
            case "ddp" -> new Span(d, hdr);
            case "ddp.tagged", "ddp.last", "ddp.rsvd", "ddp.version" -> new Span(d, 1);
            case "ddp.rsvdUlp" -> tagged ? new Span(d + 1, 1) : new Span(d + 1, 5);
            case "ddp.stag" -> tagged ? new Span(d + 2, 4) : null;
            case "ddp.to" -> tagged ? new Span(d + 6, 8) : null;
            case "ddp.qn" -> tagged ? null : new Span(d + 6, 4);
            case "ddp.msn" -> tagged ? null : new Span(d + 10, 4);
            case "ddp.mo" -> tagged ? null : new Span(d + 14, 4);
            case "rdmap.version", "rdmap.opcode", "rdmap.opcodeName" -> new Span(d + 1, 1);
            case "rdmap.invalidateStag" -> tagged ? null : new Span(d + 2, 4);
            case "rdmap.readRequest" -> new Span(r, 28);
            case "rdmap.readRequest.sinkStag" -> new Span(r, 4);
            case "rdmap.readRequest.sinkTo" -> new Span(r + 4, 8);
            case "rdmap.readRequest.size" -> new Span(r + 12, 4);
            case "rdmap.readRequest.srcStag" -> new Span(r + 16, 4);
            case "rdmap.readRequest.srcTo" -> new Span(r + 20, 8);
            case "rdmap.terminate" -> new Span(r, 4);
            case "rdmap.terminate.layer", "rdmap.terminate.etype", "rdmap.terminate.name" -> new Span(r, 1);
            case "rdmap.terminate.code" -> new Span(r + 1, 1);
            case "rdmap.terminate.m", "rdmap.terminate.d", "rdmap.terminate.r" -> new Span(r + 2, 1);
            case "rdmap.terminate.ddpSegmentLength" -> new Span(r + 4, 2);
            case "rdmap.immediateData" -> new Span(r, 8);
            case "rdmap.atomicRequest" -> new Span(r, 52);
            case "rdmap.atomicRequest.atomicOpcode", "rdmap.atomicRequest.atomicOpcodeName" -> new Span(r, 4);
            case "rdmap.atomicRequest.requestId" -> new Span(r + 4, 4);
            case "rdmap.atomicRequest.remoteStag" -> new Span(r + 8, 4);
            case "rdmap.atomicRequest.remoteTo" -> new Span(r + 12, 8);
            case "rdmap.atomicRequest.addOrSwapData" -> new Span(r + 20, 8);
            case "rdmap.atomicRequest.addOrSwapMask" -> new Span(r + 28, 8);
            case "rdmap.atomicRequest.compareData" -> new Span(r + 36, 8);
            case "rdmap.atomicRequest.compareMask" -> new Span(r + 44, 8);
            case "rdmap.atomicResponse" -> new Span(r, 12);
            case "rdmap.atomicResponse.requestId" -> new Span(r, 4);
            case "rdmap.atomicResponse.originalValue" -> new Span(r + 4, 8);
            default -> null;
        };
    }

    private static Span startFrame(String name, int pdLength) {
        int k = MpaStartFrame.KEY_LENGTH;
        return switch (name) {
            case "mpa" -> new Span(0, MpaStartFrame.HEADER_LENGTH + pdLength);
            case "mpa.keyValid", "mpa.kind" -> new Span(0, k);
            case "mpa.m", "mpa.c", "mpa.r", "mpa.res" -> new Span(k, 1);
            case "mpa.rev" -> new Span(k + 1, 1);
            case "mpa.pdLength" -> new Span(k + 2, 2);
            case "mpa.privateData" -> new Span(MpaStartFrame.HEADER_LENGTH, pdLength);
            case "mpa.ird", "mpa.peerToPeer", "mpa.rtrSend" -> new Span(MpaStartFrame.HEADER_LENGTH, 2);
            case "mpa.ord", "mpa.rtrWrite", "mpa.rtrRead" -> new Span(MpaStartFrame.HEADER_LENGTH + 2, 2);
            default -> null;
        };
    }
}
