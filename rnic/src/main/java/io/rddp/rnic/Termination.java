package io.rddp.rnic;

import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.decode.Pdu;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.sink.Check;
import io.rddp.sink.ErrorType;
import io.rddp.sink.Layer;
import io.rddp.sink.OwedTerminate;
import io.rddp.sink.Severity;
import io.rddp.sink.Violation;

import java.util.Set;

/**
 * How a queue pair's stream ends in error (RFC 5040 §5.4, §6): the sink model's verdict on an incoming PDU turned
 * into a Terminate with the Layer/EType/Code the model gives and the copied headers RFC 5040 §4.8 asks for, or into a
 * close without one (the MPA layer, RFC 5044 §7.1.2); the refusals bug knobs add; what follows once the Terminate is
 * written; and the peer's Terminate. Guarded by the queue pair's lock.
 */
final class Termination {

    private final QueuePair qp;
    private final RnicConfig config;
    /** knob terminate-multi-segment: a tagged message's segment without L came, so the next is a continuation */
    private boolean taggedInProgress;
    /** knob crc-checked-when-off: reused for every FPDU checked */
    private final java.util.zip.CRC32C crc32c = new java.util.zip.CRC32C();

    Termination(QueuePair qp) {
        this.qp = qp;
        this.config = qp.config;
    }

    /**
     * The model's verdict on the PDU just judged: true when it erred and this side terminated or closed. Where the
     * model books a Terminate, that one is sent; an error for which the RFCs name no Terminate is answered with the
     * catastrophic type of its layer (any code is acceptable there, RFC 5040 Figure 9), or, at the MPA layer, by
     * closing the connection (RFC 5044 §7.1.2).
     */
    boolean react(DdpSegment seg) {
        Verdicts verdicts = qp.verdicts;
        if (verdicts.pduOwed.isEmpty() && verdicts.pduViolations.isEmpty()) return false; // the common case
        if (config.has(Bug.ACCEPT_ALL)) return false;
        Set<Check> ignored = ignoredChecks();
        OwedTerminate owed = null;
        for (OwedTerminate o : verdicts.pduOwed) {
            if (!ignored.contains(o.cause()) && !o.cause().receiverGoesOn()) {
                owed = o;
                break;
            }
        }
        Violation error = null;
        for (Violation v : verdicts.pduViolations) {
            // a receiver ignores PAD and reserved fields (RFC 5044 §4.1, RFC 5041 §4.1, RFC 5040 §4.1: "not checked
            // on receive") and the peer's own Terminate conduct (RFC 5040 §5.4), and goes on where the RFC says so
            // (Check.receiverGoesOn: early FPDUs, holes in an untagged message)
            if (v.severity() == Severity.ERROR && !ignored.contains(v.check()) && v.layer() != Layer.RPCRDMA
                    && !v.check().receiverGoesOn() && !v.id().startsWith("rdmap.terminate.")) {
                error = v;
                break;
            }
        }
        if (owed == null && error == null) return false;
        if (owed != null) {
            ErrorType type = owed.primary();
            if (config.has(Bug.TOO_LONG_WRONG_CODE) && owed.cause() == Check.DDP_TOO_LONG) {
                type = ErrorType.DDP_U_NO_BUFFER;
            }
            if (config.has(Bug.SILENT_CLOSE_ON_INVALID_STAG) && invalidStag(owed.cause(), type)) {
                silentClose("invalid STag (" + owed.cause().id() + "), closed without a Terminate");
                return true;
            }
            terminate(type, owed.header(), owed.segmentLength(), owed.readRequest(), owed.cause().id() + ": "
                    + describe(owed.cause()));
            return true;
        }
        if (error.layer() == Layer.MPA && error.errorType() == null) {
            silentClose(error.id() + ": " + error.message());
            return true;
        }
        ErrorType type = error.errorType() != null ? error.errorType()
                : error.layer() == Layer.DDP ? new ErrorType(Terminate.LAYER_DDP, 0, 0)
                : ErrorType.RDMA_CATASTROPHIC_STREAM;
        if (config.has(Bug.SILENT_CLOSE_ON_INVALID_STAG) && invalidStag(error.check(), type)) {
            silentClose("invalid STag (" + error.id() + "), closed without a Terminate");
            return true;
        }
        terminate(type, seg != null ? seg.header() : null, seg != null ? seg.length() : -1, null,
                error.id() + ": " + error.message());
        return true;
    }

    private static String describe(Check c) {
        return c.title() + " [" + c.rfc() + " " + c.section() + "]";
    }

    private static boolean invalidStag(Check cause, ErrorType type) {
        return type.equals(ErrorType.DDP_T_INVALID_STAG) || type.equals(ErrorType.RDMA_INVALID_STAG)
                || cause == Check.DDP_STAG || cause == Check.RDMAP_REMOTE_STAG
                || cause == Check.SECURITY_STAG_INVALIDATED;
    }

    private Set<Check> ignoredChecks() {
        Set<Check> s = new java.util.HashSet<>();
        for (Bug b : config.bugs()) s.addAll(b.ignoredChecks());
        return s;
    }

    // ------------------------------------------------------------------ refusals a bug knob adds

    /**
     * Knob terminate-multi-segment: a valid segment that continues a message (an untagged one at MO > 0, a tagged one
     * after a segment without L) is refused with the Terminate a broken reassembly would send. True when it was.
     */
    boolean refuseContinuation(DdpSegment seg) {
        if (!config.has(Bug.TERMINATE_MULTI_SEGMENT) || seg == null || qp.state != QueuePair.State.RTS) return false;
        DdpHeader h = seg.header();
        boolean continuation;
        if (h instanceof TaggedHeader) {
            continuation = taggedInProgress;
            taggedInProgress = !h.last();
        } else {
            continuation = ((UntaggedHeader) h).mo() > 0;
        }
        if (!continuation) return false;
        terminate(h instanceof TaggedHeader ? ErrorType.DDP_T_BASE_BOUNDS : ErrorType.DDP_U_INVALID_MO, h,
                seg.length(), null, "a continuation segment refused (knob terminate-multi-segment)");
        return true;
    }

    /**
     * Knobs crc-checked-when-off and reserved-fields-checked: an FPDU refused for a field the RFCs say is not checked
     * on reception, with the Terminate of the layer that owns the field. True when it was.
     */
    boolean refusedByKnob(Pdu pdu) {
        MpaSetup.Params params = qp.params;
        if (config.has(Bug.CRC_CHECKED_WHEN_OFF) && params != null && !params.crc() && pdu.fpdu() != null
                && pdu.fpdu().crc() != 0 && !crcMatches(pdu.fpdu())) {
            terminate(ErrorType.MPA_CRC, null, -1, null, "CRC field 0x" + Long.toHexString(pdu.fpdu().crc())
                    + " is not the FPDU's CRC32c, though CRCs are off (knob crc-checked-when-off)");
            return true;
        }
        if (!config.has(Bug.RESERVED_FIELDS_CHECKED) || pdu.ddp() == null || pdu.rdmap() == null) return false;
        DdpHeader h = pdu.ddp().header();
        RdmapPdu r = pdu.rdmap();
        int ddpRsvd = h instanceof TaggedHeader th ? th.reserved() : ((UntaggedHeader) h).reserved();
        boolean invalidates = r.opcode() != null && r.opcode().carriesInvalidateStag();
        String field = ddpRsvd != 0 ? "DDP Rsvd" : r.control().reserved() != 0 ? "RDMAP reserved bits"
                : !invalidates && r.invalidateStag() > 0 ? "Invalidate STag" : null;
        if (field == null) return false;
        terminate(ddpRsvd != 0 ? new ErrorType(Terminate.LAYER_DDP, 0, 0) : ErrorType.RDMA_CATASTROPHIC_STREAM, h,
                pdu.ddp().length(), null, field + " set (knob reserved-fields-checked)");
        return true;
    }

    /** Whether an FPDU's CRC field is its CRC32c (RFC 5044 §4.4); one with Markers inside is taken as right. */
    private boolean crcMatches(io.rddp.mpa.Fpdu f) {
        if (f.markerCount() > 0 || !f.padZero()) return true;
        crc32c.reset();
        crc32c.update(new byte[] {(byte) (f.ulpduLength() >>> 8), (byte) f.ulpduLength()});
        crc32c.update(f.ulpdu().duplicate());
        crc32c.update(new byte[f.padLength()]);
        return crc32c.getValue() == f.crc();
    }

    /**
     * Knob zero-length-stag-check: a zero-length RDMA Write or RDMA Read Request (an RTR indication too) naming an STag
     * nothing registered is refused with the Terminate of an invalid STag. True when it was.
     */
    boolean zeroLengthStagRefused(DdpSegment seg, RdmapPdu pdu) {
        if (!config.has(Bug.ZERO_LENGTH_STAG_CHECK)) return false;
        DdpHeader h = seg.header();
        if (pdu.opcode() == Opcode.RDMA_WRITE && seg.payloadLength() == 0 && h.last() && h instanceof TaggedHeader t
                && qp.rnic.memory().lookup(t.stag()) == null) {
            terminate(ErrorType.DDP_T_INVALID_STAG, h, seg.length(), null, "zero-length Write to an unknown STag"
                    + " (bug knob zero-length-stag-check)");
            return true;
        }
        if (pdu.opcode() == Opcode.RDMA_READ_REQUEST && pdu.body() instanceof ReadRequest rr && rr.size() == 0
                && qp.rnic.memory().lookup(rr.sourceStag()) == null) {
            terminate(ErrorType.RDMA_INVALID_STAG, h, seg.length(), rr, "zero-length Read Request of an unknown STag"
                    + " (bug knob zero-length-stag-check)");
            return true;
        }
        return false;
    }

    // ------------------------------------------------------------------ the Terminate, both ways

    /** Sends a Terminate for the peer's error, then closes (RFC 5040 §5.4, §7.1). */
    void terminate(ErrorType type, DdpHeader header, int segmentLength, ReadRequest readRequest, String why) {
        if (config.has(Bug.CLOSE_SILENTLY)) {
            silentClose(why + " (knob close-silently)");
            return;
        }
        if (config.has(Bug.TERMINATE_WRONG_TYPE)) type = Bug.wrongType(type);
        boolean noHeaders = type.layer() == Terminate.LAYER_LLP || type.isCatastrophic() || header == null;
        ReadRequest rr = type.layer() == Terminate.LAYER_RDMA ? readRequest : null;
        Terminate t = noHeaders ? Terminate.of(type.layer(), type.etype(), type.code())
                : Terminate.of(type.layer(), type.etype(), type.code(), Math.max(0, segmentLength), header, rr);
        qp.rnic.event(new AsyncEvent(AsyncEvent.Type.TERMINATE_SENT, qp.qpn, type, why));
        AsyncEvent.Type kind = type.etype() == 1 && type.layer() != Terminate.LAYER_LLP ? AsyncEvent.Type.QP_ACCESS_ERR
                : type.etype() == 2 && type.layer() != Terminate.LAYER_LLP ? AsyncEvent.Type.QP_REQ_ERR
                : AsyncEvent.Type.QP_FATAL;
        qp.rnic.event(new AsyncEvent(kind, qp.qpn, type, why));
        if (config.has(Bug.TERMINATE_AND_GO_ON)) {
            qp.tx.terminate(t); // and the stream stays in RTS: what arrives next is carried out and answered
            qp.lock.notifyAll();
            return;
        }
        qp.failure = why;
        qp.state = QueuePair.State.TERMINATE;
        qp.tx.terminate(t);
        qp.flush(why);
        qp.lock.notifyAll();
    }

    /** Closes without a Terminate (MPA-layer errors; RFC 5044 §7.1.2). */
    void silentClose(String why) {
        qp.rnic.event(new AsyncEvent(AsyncEvent.Type.QP_FATAL, qp.qpn, null, why + "; closing without a Terminate"));
        qp.failure = why;
        qp.enterError(why);
        qp.link.finish();
        qp.linger();
    }

    /** The Transmitter wrote the Terminate: the stream is over. */
    void terminateSent() {
        synchronized (qp.lock) {
            if (config.has(Bug.TERMINATE_AND_GO_ON) && qp.state == QueuePair.State.RTS) return;
            if (qp.state == QueuePair.State.TERMINATE) qp.state = QueuePair.State.ERROR;
            qp.link.finish();
            qp.linger();
            qp.lock.notifyAll();
        }
    }

    /** The peer's Terminate came, valid and in order (RFC 5040 §6.2.2, the Remote Peer's side). */
    void received(DdpHeader h, DdpSegment seg, Terminate t) {
        if (config.has(Bug.TERMINATE_ANSWERED)) {
            terminate(ErrorType.RDMA_UNEXPECTED_OPCODE, h, seg.length(), null, "a Terminate answered with"
                    + " a Terminate (knob terminate-answered)");
            return;
        }
        ErrorType type = ErrorType.of(t);
        qp.rnic.event(new AsyncEvent(AsyncEvent.Type.TERMINATE_RECEIVED, qp.qpn, type, "the peer terminated: "
                + type));
        // the stream is over; the oldest request gets the error
        WcStatus status = type.layer() == Terminate.LAYER_LLP ? WcStatus.FATAL_ERR
                : type.etype() == 1 ? WcStatus.REM_ACCESS_ERR : type.etype() == 2 ? WcStatus.REM_OP_ERR
                : WcStatus.REM_ABORT_ERR;
        qp.tx.failOldest(status, "the peer sent Terminate " + type);
        qp.enterError("the peer sent Terminate " + type);
        qp.link.finish();
        qp.linger();
    }
}
