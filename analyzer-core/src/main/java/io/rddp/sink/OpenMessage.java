package io.rddp.sink;

import io.rddp.ddp.DdpHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapHeader;

/** A DDP message of one direction whose last segment has not arrived yet. Mutable, owned by one DirectionState. */
final class OpenMessage {
    final boolean tagged;
    final long qn, msn;
    /** STag of the first segment (tagged), -1 for untagged */
    final long stag;
    final long firstFrame;
    final DdpHeader firstHeader;
    /** RsvdULP of the first segment (8 bits tagged, 40 bits untagged; RFC 5041 §4.2, §4.3) */
    final long rsvdUlp;
    final RdmapControl control;
    final long invalidateStag;
    /** TO (tagged) or MO (untagged) of the first segment seen */
    final long baseOffset;
    long lastFrame;
    /** where the next segment should start if sent in order (RFC 5041 §5.3) */
    long nextOffset;
    /** highest offset + length seen (untagged: the message length so far, RFC 5041 §5.4) */
    long maxEnd;
    long bytes;
    int segments;
    /** untagged segments sent out of MO order: what was covered (null while in order from MO 0) */
    RangeSet coverage;
    boolean rsvdUlpReported, orderReported, lengthReported, sizeReported, coverageReported, boundsReported;
    /** last segment seen, or dropped from the open list */
    boolean done;
    /** opcode, buffer model and queue agree (RFC 5040 §4.1 Figure 4), so its RDMAP semantics are judged */
    boolean placementOk = true;
    boolean firstSegmentDone;
    /** what the STag registry grants this tagged message (null: nothing registered applies) */
    StagRegistration registration;
    /** opcode-specific header from the segment at MO 0, if decoded */
    RdmapHeader body;
    /** Read Request this Read Response answers */
    Outstanding answers;
    boolean zeroLength;
    /** length of the receive buffer for this untagged message, or a {@link ReceiveBuffers} constant */
    long bufferLength = ReceiveBuffers.UNKNOWN;
    boolean bufferReported;

    OpenMessage(boolean tagged, long qn, long msn, long stag, long frame, DdpHeader first, long rsvdUlp,
                RdmapControl control, long invalidateStag) {
        this.tagged = tagged;
        this.qn = qn;
        this.msn = msn;
        this.stag = stag;
        this.firstFrame = frame;
        this.lastFrame = frame;
        this.firstHeader = first;
        this.rsvdUlp = rsvdUlp;
        this.control = control;
        this.invalidateStag = invalidateStag;
        this.baseOffset = first.offset();
        this.nextOffset = first.offset();
        this.maxEnd = first.offset();
    }

    Opcode opcode() {
        return control.kind();
    }

    String describe() {
        Opcode op = opcode();
        String name = op != null ? op.rfcName() : "opcode " + control.opcode();
        return tagged ? name + " to STag 0x" + Long.toHexString(stag) + " (frame " + firstFrame + ")"
                : name + " QN " + qn + " MSN " + msn + " (frame " + firstFrame + ")";
    }
}
