package io.rddp.rnic;

import io.rddp.Notice;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.ImmediateData;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rnic.link.Link;
import io.rddp.sink.ReceiveBuffers;
import io.rddp.sink.Side;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * The receive path of a queue pair (Linux siw's siw_qp_rx.c): the thread that reads the socket and hands every read
 * to the analyzer's decoder, and what the decoder delivers, both directions. An incoming FPDU the sink model found in
 * order is carried out: tagged payload Placed at its STag and TO, untagged payload Placed into the posted receive its
 * MSN takes at its MO and Delivered once the message is whole (RFC 5041 §5), requests handed to the {@link Responder},
 * the peer's Terminate to the {@link Termination}. After a Terminate nothing more is placed (RFC 5041 §7.1: "DDP MUST
 * silently drop any subsequent incoming DDP Segments"). Everything but the socket read happens under the queue pair's
 * lock.
 */
final class Receiver {

    /** How long the socket is read before state changes are looked at again. */
    private static final int READ_SLICE_MS = 200;

    private final QueuePair qp;
    private final RnicConfig config;
    private final Direction in;
    /** Send-type messages being received, by MSN (the peer's QN 0) */
    private final Map<Long, Inbound> inbound = new HashMap<>();
    /** MSN (the peer's QN 0) of the message the head of the posted receives takes */
    long nextRecvMsn = 1;
    boolean firstFpduReceived;
    private final Events events = new Events();

    /** A Send-type message being received into a posted buffer. */
    private static final class Inbound {
        final RecvRequest rr;
        long length;
        /** the octets [0, covered) arrived; segments past it wait in {@code ahead} (start to end) */
        long covered;
        /** payload octets of the segment with L (knob recv-length-last-segment) */
        long lastSegment;
        final java.util.TreeMap<Long, Long> ahead = new java.util.TreeMap<>();
        boolean last;

        Inbound(RecvRequest rr) {
            this.rr = rr;
        }

        void placed(long mo, long end) {
            if (mo > covered) {
                ahead.merge(mo, end, Math::max);
                return;
            }
            covered = Math.max(covered, end);
            for (var e = ahead.firstEntry(); e != null && e.getKey() <= covered; e = ahead.firstEntry()) {
                covered = Math.max(covered, e.getValue());
                ahead.pollFirstEntry();
            }
        }
    }

    Receiver(QueuePair qp) {
        this.qp = qp;
        this.config = qp.config;
        this.in = qp.in;
    }

    /** What the decoder delivers goes here. */
    PduListener events() {
        return events;
    }

    // ------------------------------------------------------------------ the reading thread

    void receiveLoop() {
        byte[] buf = new byte[64 * 1024];
        try {
            while (true) {
                int n = qp.link.read(buf, READ_SLICE_MS);
                boolean admit;
                synchronized (qp.lock) {
                    if (qp.state == QueuePair.State.CLOSED) return;
                    if (n > 0) {
                        qp.inboundOctets += n;
                        qp.lastActivityNs = System.nanoTime();
                        qp.setup.beforeDecoding(buf, n);
                        try {
                            qp.decoder.data(in, ByteBuffer.wrap(buf, 0, n), ++qp.frame, QueuePair.now());
                        } finally {
                            qp.setup.swallowRead = false;
                        }
                        qp.setup.afterDecoding();
                    } else if (n < 0) {
                        peerClosed();
                        return;
                    }
                    long nowNs = System.nanoTime();
                    qp.setup.checkDeadline(nowNs);
                    long idle = qp.idleTimeoutNs;
                    if (idle > 0 && (qp.state == QueuePair.State.RTS || qp.state == QueuePair.State.CLOSING)
                            && nowNs - qp.lastActivityNs > idle) {
                        // an established connection nobody uses holds a slot other clients need: reset it
                        String why = "no traffic either way for " + QueuePair.seconds(java.time.Duration.ofNanos(idle))
                                + " (idle timeout): the connection was reset";
                        qp.failure = why;
                        qp.rnic.event(new AsyncEvent(AsyncEvent.Type.DISCONNECTED, qp.qpn, null, why));
                        qp.enterError(why);
                        qp.link.abort();
                        qp.closed();
                        return;
                    }
                    if (qp.lingerDeadline > 0 && nowNs > qp.lingerDeadline) {
                        // the peer did not close its side in time: drop the connection
                        qp.link.abort();
                        qp.closed();
                        return;
                    }
                    admit = qp.setup.takeAdmission();
                }
                // outside the lock: the listener's admission may reset other connections (each under its own lock)
                if (admit && qp.listener != null && qp.listener.admitEstablished(qp)) qp.listener.ready(qp);
            }
        } catch (IOException | RuntimeException e) {
            // hostile input must never get here: a RuntimeException is a bug of the receive path, counted so tests
            // and the fuzz target see it; the connection is dropped, the RNIC goes on
            if (e instanceof RuntimeException re) qp.rnic.internalError(qp, re);
            synchronized (qp.lock) {
                if (qp.state != QueuePair.State.CLOSED) {
                    qp.enterError("receive path failed: " + e);
                    qp.link.abort();
                    qp.closed();
                }
            }
        }
    }

    private void peerClosed() {
        qp.decoder.close(in, qp.link.peerClose() == Link.PeerClose.RST, ++qp.frame, QueuePair.now());
        boolean reset = qp.link.peerClose() == Link.PeerClose.RST;
        QueuePair.State state = qp.state;
        if (state == QueuePair.State.CONNECTING || state == QueuePair.State.PENDING_ACCEPT) {
            qp.failure = "the peer " + (reset ? "reset" : "closed") + " the connection during the MPA exchange";
            qp.rnic.event(new AsyncEvent(AsyncEvent.Type.CONNECT_ERROR, qp.qpn, null, qp.failure));
        } else if (state != QueuePair.State.ERROR && state != QueuePair.State.CLOSED) {
            qp.rnic.event(new AsyncEvent(reset ? AsyncEvent.Type.RESET : AsyncEvent.Type.DISCONNECTED, qp.qpn, null,
                    "the peer " + (reset ? "reset" : "closed") + " the connection"));
        }
        if (config.has(Bug.DELIVER_PARTIAL_ON_CLOSE)) {
            for (Inbound m : inbound.values()) {
                qp.complete(new WorkCompletion(m.rr.wrId(), qp.qpn, WcOpcode.RECV, WcStatus.SUCCESS, m.length, null,
                        -1, false, null, null));
            }
            inbound.clear();
        }
        if (qp.state != QueuePair.State.ERROR && qp.state != QueuePair.State.CLOSED) {
            qp.enterError("the peer closed the connection");
        }
        qp.link.finish();
        qp.link.close();
        qp.closed();
    }

    // ------------------------------------------------------------------ what the decoder delivers

    /** Everything the decoder delivers, both directions, under the queue pair's lock. */
    private final class Events implements PduListener {
        @Override
        public void onPdu(Pdu pdu) {
            qp.verdicts.clearPdu();
            if (pdu.startFrame() != null) {
                qp.model.onStartFrame(0, pdu.direction(), pdu.startFrame(), pdu.frame());
                if (pdu.direction() == in) qp.setup.peerStartFrameDecoded(pdu);
                return;
            }
            if (pdu.direction() != in) return; // this side's FPDUs reach the model from the Transmitter
            if (qp.stalled) return;
            if (qp.setup.swallowRead) return; // knob mpa-frame-per-read: these octets were taken as Private Data
            QueuePair.State state = qp.state;
            if (state != QueuePair.State.RTS && state != QueuePair.State.CLOSING
                    && !(state == QueuePair.State.CONNECTING && !qp.initiator)) {
                return; // RFC 5041 §7.1: after an error, incoming segments are silently dropped
            }
            Termination termination = qp.termination;
            if (termination.refusedByKnob(pdu)) return;
            if (pdu.ddp() == null) {
                qp.model.onMalformed(0, in, pdu.frame(), pdu.fpdu().crcOk(), pdu.fpdu().ulpduLength(), pdu.problem());
            } else {
                qp.model.onFpdu(0, in, pdu.fpdu(), pdu.ddp(), pdu.rdmap());
            }
            if (!termination.react(pdu.ddp()) && !termination.refuseContinuation(pdu.ddp()) && pdu.ddp() != null
                    && pdu.rdmap() != null) {
                carryOut(pdu.ddp(), pdu.rdmap());
            }
        }

        @Override
        public void onFramingError(TcpConnection c, Direction d, long f, String detail) {
            if (d != in || qp.state != QueuePair.State.RTS || qp.stalled) return;
            qp.verdicts.clearPdu();
            qp.model.onFramingError(0, d, f, detail);
            qp.termination.react(null);
        }

        @Override
        public void onNotice(Notice notice) {
            // decode facts of a live stream (e.g. a lost FPDU boundary) are judged by the model through the PDUs
        }
    }

    /** RFC 5041 §7.1 untagged checks 2-4: the buffer the peer's Send {@code msn} lands in. */
    long bufferFor(int stream, Side receiver, long qn, long msn) {
        if (receiver != qp.self || qn != 0) return ReceiveBuffers.UNKNOWN;
        Inbound started = inbound.get(msn);
        if (started != null) return started.rr.length();
        long index = (msn - nextRecvMsn) & 0xFFFF_FFFFL;
        if (index >= Integer.MAX_VALUE) return ReceiveBuffers.UNKNOWN; // an old MSN: the MSN check reports it
        MpaSetup.Params params = qp.params;
        if (params != null && params.rtrAccepted().contains(RnicConfig.Rtr.SEND) && !qp.initiator
                && !firstFpduReceived) {
            return ReceiveBuffers.UNKNOWN; // the zero-length Send RTR takes no buffer (RFC 6581 §9.2)
        }
        if (index >= qp.rq.size()) return ReceiveBuffers.NONE;
        int i = 0;
        for (RecvRequest rr : qp.rq) {
            if (i++ == index) return rr.length();
        }
        return ReceiveBuffers.NONE;
    }

    // ------------------------------------------------------------------ carrying out

    /** A PDU the model found in order: carried out. */
    private void carryOut(DdpSegment seg, RdmapPdu pdu) {
        DdpHeader h = seg.header();
        Opcode op = pdu.opcode();
        if (op == null) return;
        if (!firstFpduReceived) {
            firstFpduReceived = true;
            if (!qp.initiator) {
                qp.txAllowed = true;
                qp.lock.notifyAll();
                if (qp.params.rtr() != null) {
                    if (qp.termination.zeroLengthStagRefused(seg, pdu)) return;
                    // RFC 6581 §9.2: the RTR indication is not delivered; a zero-length Read is answered
                    if (op == Opcode.RDMA_READ_REQUEST && pdu.body() instanceof ReadRequest rr) {
                        qp.tx.respondRead(rr, null);
                    }
                    if (op == Opcode.SEND) nextRecvMsn = (((UntaggedHeader) h).msn() + 1) & 0xFFFF_FFFFL;
                    return;
                }
            }
        }
        // knob every-message-takes-a-receive: a Write's last segment and a Read or Atomic Request complete a receive
        if (config.has(Bug.EVERY_MESSAGE_TAKES_A_RECEIVE) && (op == Opcode.RDMA_WRITE ? h.last()
                : (op == Opcode.RDMA_READ_REQUEST || op == Opcode.ATOMIC_REQUEST) && h.offset() == 0)) {
            RecvRequest rr = qp.rq.poll();
            if (rr != null) {
                qp.complete(new WorkCompletion(rr.wrId(), qp.qpn, WcOpcode.RECV, WcStatus.SUCCESS, 0, null, -1, false,
                        null, null));
            }
        }
        switch (op) {
            case RDMA_WRITE -> {
                if (seg.payloadLength() == 0) {
                    qp.termination.zeroLengthStagRefused(seg, pdu);
                    return;
                }
                // the Tagged Buffer Model (RFC 5041 §5.1.1): Placed at its STag and TO, no receive taken
                TaggedHeader t = (TaggedHeader) h;
                MemoryRegion r = qp.rnic.memory().lookup(t.stag());
                if (r != null) r.place(t.to(), seg.payload());
            }
            case RDMA_READ_RESPONSE -> {
                if (!qp.tx.onReadResponse((TaggedHeader) h, seg.payload())
                        && config.has(Bug.PLACE_UNSOLICITED_READ_RESPONSE)) {
                    MemoryRegion r = qp.rnic.memory().lookup(((TaggedHeader) h).stag());
                    if (r != null) r.place(((TaggedHeader) h).to(), seg.payload());
                }
            }
            case SEND, SEND_WITH_SE, SEND_WITH_INVALIDATE, SEND_WITH_SE_AND_INVALIDATE, IMMEDIATE_DATA,
                    IMMEDIATE_DATA_WITH_SE -> receive((UntaggedHeader) h, seg, pdu, op);
            case RDMA_READ_REQUEST -> qp.responder.readRequest(h, seg, pdu);
            case ATOMIC_REQUEST -> qp.responder.atomicRequest(h, seg, pdu);
            case ATOMIC_RESPONSE -> {
                if (h.offset() == 0 && pdu.body() instanceof AtomicResponse resp) qp.tx.onAtomicResponse(resp);
            }
            case TERMINATE -> {
                if (h.offset() != 0 || !(pdu.body() instanceof Terminate t)) return;
                qp.termination.received(h, seg, t);
            }
        }
    }

    /** A Send-type or Immediate Data segment into the posted receive its MSN takes (RFC 5040 §5.3, RFC 7306 §6). */
    private void receive(UntaggedHeader h, DdpSegment seg, RdmapPdu pdu, Opcode op) {
        long msn = h.msn();
        Inbound m = inbound.get(msn);
        if (m == null) {
            RecvRequest rr = msn == nextRecvMsn ? qp.rq.poll() : null;
            nextRecvMsn = (msn + 1) & 0xFFFF_FFFFL;
            if (rr == null) {
                // only a zero-length message gets here (longer ones are checked by the model): nowhere to deliver it
                qp.rnic.event(new AsyncEvent(AsyncEvent.Type.RESOURCE_LIMIT, qp.qpn, null, op.rfcName() + " MSN " + msn
                        + " arrived with no receive posted and was dropped"));
                return;
            }
            m = new Inbound(rr);
            inbound.put(msn, m);
        }
        boolean immediate = op == Opcode.IMMEDIATE_DATA || op == Opcode.IMMEDIATE_DATA_WITH_SE;
        int payload = config.has(Bug.LARGE_ULPDU_TRUNCATED) ? Math.min(seg.payloadLength(), config.mss())
                : seg.payloadLength();
        if (!immediate && payload > 0 && h.mo() < m.rr.length()) {
            ByteBuffer p = seg.payload();
            int room = (int) Math.min(payload, m.rr.length() - h.mo());
            m.rr.region().placeAt(m.rr.offset() + (int) h.mo(), p.duplicate().limit(p.position() + room));
        }
        m.length = Math.max(m.length, h.mo() + payload);
        m.placed(h.mo(), h.mo() + payload);
        m.last |= h.last();
        if (h.last()) m.lastSegment = payload;
        // RFC 5041 §5.4: Delivered once the last segment came and all of them were Placed; a hole may still be
        // filled by a segment that comes later (§5.3: Placement out of order)
        if (!m.last || m.covered < m.length && !config.has(Bug.DELIVER_WITH_HOLES)) return;
        inbound.remove(msn);
        long invalidated = -1;
        if (op.carriesInvalidateStag()) {
            invalidated = pdu.invalidateStag();
            MemoryRegion r = qp.rnic.memory().lookup(invalidated);
            if (r != null && r.state() == MemoryRegion.State.VALID) r.state(MemoryRegion.State.INVALID);
        }
        if (config.has(Bug.INVALIDATE_NOT_REPORTED)) invalidated = -1; // invalidated, but the completion does not say
        Long imm = immediate && pdu.body() instanceof ImmediateData d ? d.data() : null;
        byte[] data = m.rr.own() ? m.rr.region().copy(m.rr.offset(), (int) Math.min(m.length, Math.min(4096,
                m.rr.length()))) : null;
        // knob recv-length-last-segment: the length of the segment that completed the message
        long length = config.has(Bug.RECV_LENGTH_LAST_SEGMENT) ? m.lastSegment : m.length;
        qp.complete(new WorkCompletion(m.rr.wrId(), qp.qpn, immediate ? WcOpcode.RECV_IMMEDIATE : WcOpcode.RECV,
                WcStatus.SUCCESS, immediate ? 0 : length, imm, invalidated, op.solicitedEvent(), data, null));
    }

    /** The messages being received end in error (after the posted receives, before the send queue). */
    void flushInbound(String why) {
        for (Inbound m : inbound.values()) {
            qp.complete(new WorkCompletion(m.rr.wrId(), qp.qpn, WcOpcode.RECV, WcStatus.WR_FLUSH_ERR, 0, null, -1,
                    false, null, why));
        }
        inbound.clear();
    }
}
