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
        if (op != null && !h.tagged() && h.offset() == 0) {
            ByteBuffer at = payload.duplicate();
            try {
                body = switch (op) {
                    case RDMA_READ_REQUEST -> ReadRequest.parse(at);
                    case TERMINATE -> Terminate.parse(at);
                    case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> ImmediateData.parse(at);
                    case ATOMIC_REQUEST -> AtomicRequest.parse(at);
                    case ATOMIC_RESPONSE -> AtomicResponse.parse(at);
                    default -> null;
                };
            } catch (MalformedException e) {
                throw new MalformedException(op.rfcName() + ": " + e.getMessage(),
                        e.offset() < 0 ? -1 : h.headerLength() + e.offset());
            }
        }
        if (body != null) {
            ByteBuffer rest = payload.duplicate();
            rest.position(rest.position() + body.length());
            payload = rest.slice();
        }
        return new RdmapPdu(h, control, invalidateStag, body, payload);
    }

    /** Parses the ULPDU and decodes it: {@code decode(DdpSegment.parse(ulpdu))}. */
    public static RdmapPdu decode(ByteBuffer ulpdu) throws MalformedException {
        return decode(DdpSegment.parse(ulpdu));
    }
}
