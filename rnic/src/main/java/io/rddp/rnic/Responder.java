package io.rddp.rnic;

import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.sink.ErrorType;

/**
 * A queue pair's answers to the peer's requests: RDMA Read Requests (RFC 5040 §5.2, read from the Data Source STag)
 * and Atomic Requests (RFC 7306 §5.1, carried out on the target's memory), both queued on the Transmitter, which sends
 * the responses in request order (RFC 5040 §5.5). The model holds the peer to this side's IRD (RFC 5040 §6.1); the
 * queue of responses is capped whatever a knob lets through. Guarded by the queue pair's lock.
 */
final class Responder {

    /**
     * Read and Atomic Responses queued at most, whatever a knob lets through (no-ird-check): the peer's requests never
     * grow this side's memory without bound. Without a knob the IRD (RFC 5040 §6.1) holds the queue far below it.
     */
    static final int MAX_QUEUED_RESPONSES = 1024;

    private final QueuePair qp;
    private final RnicConfig config;

    Responder(QueuePair qp) {
        this.qp = qp;
        this.config = qp.config;
    }

    /** An RDMA Read Request found in order: its Read Response is queued. */
    void readRequest(DdpHeader h, DdpSegment seg, RdmapPdu pdu) {
        // knob accept-all answers a Read Request at any MO
        if (h.offset() != 0 && !config.has(Bug.ACCEPT_ALL) || !(pdu.body() instanceof ReadRequest rr)) return;
        if (qp.termination.zeroLengthStagRefused(seg, pdu)) return;
        if (responsesFull(h, seg, rr)) return;
        MemoryRegion source = rr.size() == 0 ? null : qp.rnic.memory().lookup(rr.sourceStag());
        qp.tx.respondRead(rr, source);
    }

    /** An Atomic Request found in order: carried out on the target, its Atomic Response queued (RFC 7306 §5.1). */
    void atomicRequest(DdpHeader h, DdpSegment seg, RdmapPdu pdu) {
        if (h.offset() != 0 || !(pdu.body() instanceof AtomicRequest ar)) return;
        if (responsesFull(h, seg, null)) return;
        MemoryRegion target = qp.rnic.memory().lookup(ar.remoteStag());
        if (target != null && ((ar.remoteTo() - target.baseTo()) & 7) != 0
                && !config.has(Bug.NO_ATOMIC_ALIGNMENT_CHECK)) {
            // RFC 7306 §8.2: the RDMAP layer MUST validate that the Tagged Offset references a 64-bit aligned
            // address (the region's first octet is: its base TO is a page address, or 0 when zero-based),
            // and else Terminate Remote Operation Error, Catastrophic error localized to the RDMAP Stream;
            // §5.1.1/§5.1.2: the operation is not performed and memory is not modified
            qp.termination.terminate(ErrorType.RDMA_CATASTROPHIC_STREAM, h, seg.length(), null, "Atomic Request at TO 0x"
                    + Long.toHexString(ar.remoteTo()) + ", not a 64-bit aligned address (RFC 7306 §8.2)");
            return;
        }
        long original = target == null ? 0 : target.atomic(ar.remoteTo(),
                ar.atomicOpcode() == AtomicRequest.CMP_SWAP, ar.addOrSwapData(), ar.addOrSwapMask(),
                ar.compareData(), ar.compareMask());
        qp.tx.respondAtomic(ar.requestId(), original);
    }

    /**
     * The responses queued reached {@link #MAX_QUEUED_RESPONSES} (only a knob that lets requests beyond the IRD through
     * gets there): the request is refused with the Terminate for too many outstanding requests (RFC 5040 §6.1, the
     * type the model books for rdmap.read.outstanding). True when it was.
     */
    private boolean responsesFull(DdpHeader h, DdpSegment seg, ReadRequest rr) {
        if (qp.tx.queuedResponses() < MAX_QUEUED_RESPONSES) return false;
        qp.termination.terminate(ErrorType.DDP_U_MSN_RANGE, h, seg.length(), rr, "more than " + MAX_QUEUED_RESPONSES
                + " Read/Atomic Responses queued: the peer exceeds any IRD (RFC 5040 §6.1)");
        return true;
    }
}
