package io.rddp.rdmap;

import io.rddp.ddp.DdpHeader;

import java.nio.ByteBuffer;

/**
 * One DDP segment read as RDMAP. Decoding is per segment: an opcode-specific header is looked for only at the start
 * of an untagged message (MO 0); any other segment carries just the control field and ULP payload.
 *
 * @param ddp            the DDP header
 * @param control        the RDMAP control field from RsvdULP[0:7] (RFC 5040 §4.1)
 * @param invalidateStag RsvdULP[8:39] of an untagged segment, 32 bits unsigned: the Invalidate STag for Send with
 *                       Invalidate and Send with SE and Invalidate, a field that must be zero for the others
 *                       (RFC 5040 §4.1); -1 for tagged segments, which have no such bits
 * @param body           the opcode-specific header, or null (none for this opcode, not the message's first segment,
 *                       a tagged segment, or a reserved opcode)
 * @param payload        ULP payload after the body (a view), position 0 to limit
 */
public record RdmapPdu(DdpHeader ddp, RdmapControl control, long invalidateStag, RdmapHeader body,
                       ByteBuffer payload) {

    /** The opcode, or null for a reserved value (see {@link RdmapControl#opcode()} for the raw bits). */
    public Opcode opcode() {
        return control.kind();
    }

    @Override
    public String toString() {
        return control + " | " + ddp + (body != null ? " | " + body : "") + " | payload " + payload.remaining();
    }
}
