package io.rddp.rdmap;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.UntaggedHeader;

import java.nio.ByteBuffer;

/** Reads the RDMAP fields of a DDP segment (RFC 5040 §4, RFC 7306 §4-§6). */
public final class RdmapDecoder {

    private RdmapDecoder() {
    }

    /**
     * Decodes one segment. The opcode-specific header (Read Request, Terminate, Immediate Data, Atomic Request or
     * Response) "immediately follows the DDP header" of the message (RFC 5040 §4.4, §4.8; RFC 7306 §5.2, §6.2), so
     * it is read from untagged segments with MO 0 only. The opcode is taken as the control field says, whatever the
     * buffer model or QN: a Read Request in a tagged segment decodes with no body.
     *
     * @throws MalformedException when a first segment is too short for its opcode's header
     */
    public static RdmapPdu decode(DdpSegment segment) throws MalformedException {
        DdpHeader h = segment.header();
        RdmapControl control = RdmapControl.of(h);
        ByteBuffer payload = segment.payload();
        long invalidateStag = h instanceof UntaggedHeader u ? u.rsvdUlpLow32() : -1;
        RdmapHeader body = null;
        Opcode op = control.kind();
        if (op != null && !h.tagged() && h.offset() == 0 && op.headerLength() > 0) {
            ByteBuffer at = payload.duplicate();
            try {
                // if, not an enum switch: the switch's lookup table (a synthetic class) showed up as a fifth of the
                // decoding thread's time in profiles of busy captures
                if (op == Opcode.RDMA_READ_REQUEST) body = ReadRequest.parse(at);
                else if (op == Opcode.TERMINATE) body = Terminate.parse(at);
                else if (op == Opcode.IMMEDIATE_DATA || op == Opcode.IMMEDIATE_DATA_WITH_SE) body = ImmediateData.parse(at);
                else if (op == Opcode.ATOMIC_REQUEST) body = AtomicRequest.parse(at);
                else if (op == Opcode.ATOMIC_RESPONSE) body = AtomicResponse.parse(at);
            } catch (MalformedException e) {
                throw new MalformedException(op.rfcName() + ": " + e.getMessage(),
                        e.offset() < 0 ? -1 : h.headerLength() + e.offset());
            }
        }
        if (body != null) {
            payload = payload.slice(payload.position() + body.length(), payload.remaining() - body.length());
        }
        return new RdmapPdu(h, control, invalidateStag, body, payload);
    }

    /** Parses the ULPDU and decodes it: {@code decode(DdpSegment.parse(ulpdu))}. */
    public static RdmapPdu decode(ByteBuffer ulpdu) throws MalformedException {
        return decode(DdpSegment.parse(ulpdu));
    }
}
