package io.rddp.rnic;

import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.mpa.FpduEncoder;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The transmit path of a queue pair (Linux siw's siw_qp_tx.c): turns work requests, Read and Atomic Responses and the
 * Terminate into DDP segments of at most MULPDU octets (RFC 5041 §5.2), shows each to the sink model, frames it as an
 * FPDU (RFC 5044 §4: Markers and CRC as negotiated) and writes it. Responses go before new requests and keep the
 * order of the requests they answer (RFC 5040 §5.5); outbound Read and Atomic Requests wait while ORD are
 * outstanding (RFC 5040 §6.1). Large messages go out in pieces so that responses are not held up behind them. State is
 * guarded by the queue pair's lock; socket writes happen outside it.
 */
final class Transmitter {

    /** Octets of an untagged DDP header (RFC 5041 §4.3), in front of a Terminate header. */
    private static final int UNTAGGED_HEADER = 18;
    /** Octets of FPDUs written at once. */
    private static final int CHUNK = 256 * 1024;

    private final QueuePair qp;
    private final RnicConfig config;
    private final ArrayDeque<Job> sq = new ArrayDeque<>();
    private final ArrayDeque<Job> responses = new ArrayDeque<>();
    /** this side's Read and Atomic Requests awaiting their responses, oldest first */
    private final ArrayDeque<Outstanding> outstanding = new ArrayDeque<>();
    private Terminate terminate;
    private FpduEncoder encoder;
    private int mulpdu;
    private final long[] msn = new long[4];
    private long atomicRequestId;
    private boolean stopped;
    private Thread thread;
    /**
     * Reused by the one thread that fills and writes chunks (a chunk is written before the next is filled); made at
     * the first FPDU, so idle queue pairs hold no chunk-sized array.
     */
    private Buffer buffer;

    /** A message being sent, possibly in several pieces. */
    private abstract static class Job {
        long done;
        boolean started;
        long messageMsn;

        abstract long length();

        /** The next piece's segments from {@code done}, at most {@code max} payload octets. */
        abstract List<DdpSegment> piece(Transmitter t, int max);

        boolean finished() {
            return started && done >= length();
        }
    }

    /** A send-queue work request. */
    private final class WrJob extends Job {
        final WorkRequest wr;
        Slot slot;

        WrJob(WorkRequest wr) {
            this.wr = wr;
        }

        @Override
        long length() {
            return switch (wr.op()) {
                case SEND, SEND_INV, WRITE -> wr.length();
                default -> 0;
            };
        }

        @Override
        List<DdpSegment> piece(Transmitter t, int max) {
            int n = (int) Math.min(max, length() - done);
            boolean last = done + n >= length();
            ByteBuffer data = payload(wr, (int) done, n);
            RdmapEncoder.Builder b = switch (wr.op()) {
                case SEND -> (wr.solicited() ? RdmapEncoder.sendWithSe(messageMsn, data, mulpdu)
                        : RdmapEncoder.send(messageMsn, data, mulpdu)).mo(done);
                case SEND_INV -> (wr.solicited()
                        ? RdmapEncoder.sendWithSeAndInvalidate(messageMsn, data, mulpdu, wr.invalidateStag())
                        : RdmapEncoder.sendWithInvalidate(messageMsn, data, mulpdu, wr.invalidateStag())).mo(done);
                case WRITE -> RdmapEncoder.write(stag(wr.remoteStag()), wr.remoteTo() + done, data, mulpdu);
                case READ -> RdmapEncoder.readRequest(messageMsn, new ReadRequest(stag(wr.local().stag()),
                        wr.local().baseTo() + wr.localOffset(), wr.length(), stag(wr.remoteStag()), wr.remoteTo()));
                case FETCH_ADD -> RdmapEncoder.atomicRequest(messageMsn, AtomicRequest.fetchAdd(messageMsn,
                        wr.remoteStag(), wr.remoteTo(), wr.swapOrAdd(), 0));
                case CMP_SWAP -> RdmapEncoder.atomicRequest(messageMsn, AtomicRequest.cmpSwap(messageMsn,
                        wr.remoteStag(), wr.remoteTo(), wr.swapOrAdd(), -1L, wr.compare(), -1L));
                case IMMEDIATE -> wr.solicited() ? RdmapEncoder.immediateDataWithSe(messageMsn, wr.immediate())
                        : RdmapEncoder.immediateData(messageMsn, wr.immediate());
                case LOCAL_INV -> throw new IllegalStateException("local invalidation sends nothing");
            };
            done += n;
            return b.lastFlag(last).segments();
        }
    }

    /** An RDMA Read Response (RFC 5040 §4.4): the Data Source's bytes to the requested Data Sink. */
    private final class ReadResponseJob extends Job {
        final ReadRequest rr;
        final MemoryRegion source;

        ReadResponseJob(ReadRequest rr, MemoryRegion source) {
            this.rr = rr;
            this.source = source;
        }

        @Override
        long length() {
            return rr.size();
        }

        @Override
        List<DdpSegment> piece(Transmitter t, int max) {
            int n = (int) Math.min(max, length() - done);
            boolean last = done + n >= length();
            ByteBuffer data = ByteBuffer.wrap(source == null ? new byte[n] : source.read(rr.sourceTo() + done, n));
            long to = rr.sinkTo() + done + (config.has(Bug.READ_RESPONSE_WRONG_TO) ? 8 : 0);
            done += n;
            return RdmapEncoder.readResponse(stag(rr.sinkStag()), to, data, mulpdu).lastFlag(last).segments();
        }
    }

    /** An Atomic Response (RFC 7306 §5.2.2) on QN 3. */
    private final class AtomicResponseJob extends Job {
        final long requestId;
        final long original;

        AtomicResponseJob(long requestId, long original) {
            this.requestId = requestId;
            this.original = original;
        }

        @Override
        long length() {
            return 0;
        }

        @Override
        List<DdpSegment> piece(Transmitter t, int max) {
            return RdmapEncoder.atomicResponse(messageMsn, new AtomicResponse(requestId, original)).segments();
        }
    }

    /** RFC 6581 §9.2 RTR indication of a peer-to-peer Initiator: a zero-length message of the negotiated kind. */
    private final class RtrJob extends Job {
        final RnicConfig.Rtr type;

        RtrJob(RnicConfig.Rtr type) {
            this.type = type;
        }

        @Override
        long length() {
            return 0;
        }

        @Override
        List<DdpSegment> piece(Transmitter t, int max) {
            ByteBuffer none = ByteBuffer.allocate(0);
            return switch (type) {
                case WRITE -> RdmapEncoder.write(0, 0, none, mulpdu).segments();
                case SEND -> RdmapEncoder.send(messageMsn, none, mulpdu).segments();
                case READ -> RdmapEncoder.readRequest(messageMsn, new ReadRequest(0, 0, 0, 0, 0)).segments();
            };
        }
    }

    /** A request of this side awaiting its response. */
    private record Outstanding(WorkRequest wr, boolean rtr, long requestId, long[] placed) {
    }

    /** A work request taken from the send queue whose completion may not be reported yet. */
    private static final class Slot {
        final WorkRequest wr;
        WorkCompletion wc;
        /**
         * Its last FPDUs are in the chunk being written: only the writer knows whether they reached TCP, so a flush
         * meanwhile leaves it to the writer (a Send the peer received and answered by closing is not wr_flush_err).
         */
        boolean writing;

        Slot(WorkRequest wr) {
            this.wr = wr;
        }
    }

    /** Send-queue work requests in posting order: completions are reported in that order, as verbs requires. */
    private final ArrayDeque<Slot> inOrder = new ArrayDeque<>();

    Transmitter(QueuePair qp) {
        this.qp = qp;
        this.config = qp.config;
        java.util.Arrays.fill(msn, config.has(Bug.MSN_STARTS_AT_ZERO) ? 0 : 1); // RFC 5041 §4.3: MSNs start at 1
    }

    void start() {
        thread = new Thread(this::run, "rnic-qp" + qp.qpn + "-tx");
        thread.setDaemon(true);
        thread.start();
    }

    // ---- called under qp.lock ----

    void established(MpaSetup.Params p, long firstFpduOffset) {
        encoder = new FpduEncoder(p.markersTx(), p.crc(), firstFpduOffset);
        // RFC 5044 §4.1/§8: MULPDU from the MSS, leaving room for ULPDU_Length, CRC and the Markers one segment holds
        int room = config.mss() - 2 - 4 - (p.markersTx() ? 4 * ((config.mss() + 511) / 512) : 0);
        mulpdu = Math.max(64, Math.min(room & ~3, RdmapEncoder.MAX_ULPDU & ~3));
        if (qp.initiator && p.rtr() != null) responses.addFirst(new RtrJob(p.rtr()));
    }

    void post(WorkRequest wr) {
        synchronized (qp.lock) {
            validate(wr);
            QueuePair.State s = qp.state;
            if (s == QueuePair.State.ERROR || s == QueuePair.State.CLOSED || s == QueuePair.State.TERMINATE
                    || s == QueuePair.State.CLOSING) {
                qp.complete(WorkCompletion.of(wr.wrId(), qp.qpn, wr.op().completion, WcStatus.WR_FLUSH_ERR, 0,
                        "queue pair is in the " + s.wireName() + " state"));
                return;
            }
            if (sq.size() >= config.limits().maxSendWr()) throw RnicException.limit("send queue",
                    config.limits().maxSendWr());
            sq.add(new WrJob(wr));
            qp.lock.notifyAll();
        }
    }

    private void validate(WorkRequest wr) {
        if (wr.length() < 0 || wr.length() > config.limits().maxMessage()) {
            throw new RnicException(RnicException.Kind.RESOURCE_LIMIT, "message of " + wr.length()
                    + " octets exceeds the " + config.limits().maxMessage() + "-octet cap");
        }
        boolean needsLocal = switch (wr.op()) {
            case SEND, SEND_INV, WRITE -> wr.inline() == null;
            case READ, FETCH_ADD, CMP_SWAP -> true;
            default -> false;
        };
        if (!needsLocal) return;
        MemoryRegion r = wr.local();
        if (r == null || r.state() != MemoryRegion.State.VALID) {
            throw new RnicException(RnicException.Kind.BAD_REQUEST, "the local buffer is missing or not valid");
        }
        if (!r.pd().equals(qp.pd)) {
            throw new RnicException(RnicException.Kind.BAD_REQUEST, r + " belongs to another protection domain");
        }
        if (wr.localOffset() < 0 || (long) wr.localOffset() + wr.length() > r.length()) {
            throw new RnicException(RnicException.Kind.BAD_REQUEST, "local range [" + wr.localOffset() + ", +"
                    + wr.length() + ") is outside " + r);
        }
        if (wr.op().outstanding() && !r.access().contains(Access.LOCAL_WRITE)) {
            throw new RnicException(RnicException.Kind.BAD_REQUEST, r + " lacks local write access for the result");
        }
    }

    /** Read and Atomic Responses not written completely yet. */
    int queuedResponses() {
        return responses.size();
    }

    void respondRead(ReadRequest rr, MemoryRegion source) {
        responses.add(new ReadResponseJob(rr, source));
        qp.lock.notifyAll();
    }

    void respondAtomic(long requestId, long original) {
        responses.add(new AtomicResponseJob(requestId, original));
        qp.lock.notifyAll();
    }

    void terminate(Terminate t) {
        terminate = t;
        qp.lock.notifyAll();
    }

    /**
     * An RDMA Read Response segment the model accepted: placed into the oldest outstanding Read's Data Sink. False when
     * no Read is outstanding to take it.
     */
    boolean onReadResponse(TaggedHeader h, ByteBuffer payload) {
        Outstanding o = outstanding.peek();
        if (o == null || (!o.rtr && o.wr.op() != WorkRequest.Op.READ)) return false;
        if (!o.rtr && payload.hasRemaining()) {
            o.placed[0] += o.wr.local().place(h.to(), payload);
        }
        if (!h.last()) return true;
        outstanding.poll();
        if (!o.rtr) done(o.wr, WorkCompletion.of(o.wr.wrId(), qp.qpn, WcOpcode.READ, WcStatus.SUCCESS,
                o.wr.length(), null));
        qp.lock.notifyAll();
        return true;
    }

    /** An Atomic Response the model accepted (RFC 7306 §5.2.2): the original value into the result buffer. */
    void onAtomicResponse(AtomicResponse resp) {
        Outstanding o = outstanding.peek();
        if (o == null || o.rtr || !(o.wr.op() == WorkRequest.Op.FETCH_ADD || o.wr.op() == WorkRequest.Op.CMP_SWAP)) {
            return;
        }
        outstanding.poll();
        byte[] v = ByteBuffer.allocate(8).putLong(resp.originalRemoteDataValue()).array();
        o.wr.local().write(o.wr.localOffset(), v);
        done(o.wr, WorkCompletion.of(o.wr.wrId(), qp.qpn, o.wr.op().completion, WcStatus.SUCCESS, 8, null));
        qp.lock.notifyAll();
    }

    /** Records how {@code wr} ended and reports every completion whose predecessors all ended. */
    private void done(WorkRequest wr, WorkCompletion wc) {
        for (Slot slot : inOrder) {
            if (slot.wr == wr) {
                slot.wc = wc;
                break;
            }
        }
        while (!inOrder.isEmpty() && inOrder.peek().wc != null) {
            Slot slot = inOrder.poll();
            qp.rnic.memory().discharge(slot.wr.wrId()); // its inline data no longer counts against the memory cap
            if (slot.wc.status() != WcStatus.SUCCESS || slot.wr.signaled()) qp.complete(slot.wc);
        }
    }

    /** The peer's Terminate ended the stream: the oldest outstanding request gets {@code status}. */
    void failOldest(WcStatus status, String why) {
        Outstanding o = outstanding.poll();
        if (o != null && !o.rtr) done(o.wr, WorkCompletion.of(o.wr.wrId(), qp.qpn, o.wr.op().completion, status, 0,
                why));
    }

    /** Every work request not completed yet completes with wr_flush_err. */
    void flush(String why) {
        outstanding.clear();
        for (Job j : sq) {
            if (!j.started) inOrder.add(new Slot(((WrJob) j).wr));
        }
        sq.clear();
        for (Slot slot : inOrder) {
            if (slot.wc == null && !slot.writing) slot.wc = WorkCompletion.of(slot.wr.wrId(), qp.qpn,
                    slot.wr.op().completion, WcStatus.WR_FLUSH_ERR, 0, why);
        }
        done(null, null);
        responses.clear();
        qp.lock.notifyAll();
    }

    void stop() {
        stopped = true;
        qp.lock.notifyAll();
    }

    // ---- the thread ----

    /** FPDUs to write and what to do once they are written. */
    private record Chunk(byte[] bytes, int length, List<Runnable> after, boolean terminate) {
    }

    private void run() {
        try {
            while (true) {
                Chunk c;
                synchronized (qp.lock) {
                    c = next();
                    if (c == null) return;
                }
                try {
                    qp.link.write(c.bytes, 0, c.length);
                    qp.lastActivityNs = System.nanoTime();
                } catch (IOException e) {
                    synchronized (qp.lock) {
                        for (Slot slot : inOrder) slot.writing = false;
                        if (c.terminate) qp.terminateSent();
                        else if (qp.state == QueuePair.State.RTS) qp.failure = "sending failed: " + e.getMessage();
                        flush(qp.failure != null ? qp.failure : "sending failed: " + e.getMessage());
                    }
                    continue;
                }
                synchronized (qp.lock) {
                    for (Slot slot : inOrder) slot.writing = false;
                    for (Runnable r : c.after) r.run();
                    if (c.terminate) qp.terminateSent();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            qp.rnic.internalError(qp, e);
            qp.abort();
        }
    }

    /** The next FPDUs to write, waiting for work; null when the queue pair is closed. */
    private Chunk next() throws InterruptedException {
        while (true) {
            if (stopped || qp.state == QueuePair.State.CLOSED) return null;
            if (terminate != null && encoder != null) {
                Terminate t = terminate;
                terminate = null;
                return terminateChunk(t);
            }
            if (qp.state == QueuePair.State.RTS && encoder != null && !qp.stalled) {
                Chunk c = fill(qp.txAllowed);
                if (c != null) return c;
            }
            qp.lock.wait(500);
        }
    }

    private Chunk terminateChunk(Terminate t) {
        List<DdpSegment> segs = RdmapEncoder.terminate(msn[2], t).segments();
        msn[2]++;
        Buffer b = buffer();
        for (DdpSegment s : segs) {
            qp.judgeOutbound(s);
            ByteBuffer u = b.ulpdu(s);
            if (config.has(Bug.TERMINATE_BIT_LAYOUT)) sillyBitfield(u, t);
            if (config.has(Bug.TERMINATE_HEADERS_MISSING) && (t.ddpHeaderIncluded() || t.rdmaHeaderIncluded())) {
                // knob terminate-headers-missing: the Terminate Control with its M/D/R bits, and nothing after it
                u.limit(u.position() + UNTAGGED_HEADER + Terminate.CONTROL_LENGTH);
            }
            b.fpdu(u);
        }
        return new Chunk(b.bytes, b.length, List.of(), true);
    }

    /**
     * The Terminate control word as a little-endian C bitfield puts it on the wire (Linux siw 6.1): the first octet
     * holds EType in its high nibble and Layer in its low one, and M, D and R land in the low bits of the third
     * octet, which RFC 5040 §4.8 Figure 7 reserves.
     */
    private static void sillyBitfield(ByteBuffer ulpdu, Terminate t) {
        int at = ulpdu.position() + UNTAGGED_HEADER;
        ulpdu.put(at, (byte) ((t.errorType() << 4) | t.layer()));
        ulpdu.put(at + 1, (byte) t.errorCode());
        ulpdu.put(at + 2, (byte) ((t.segmentLengthValid() ? 1 : 0) | (t.ddpHeaderIncluded() ? 2 : 0)
                | (t.rdmaHeaderIncluded() ? 4 : 0)));
        ulpdu.put(at + 3, (byte) 0);
    }

    /**
     * Fills a chunk from the responses, then the send queue; null when nothing can go now. Before {@code wire} is
     * allowed (a Responder that has not received an FPDU yet) only local invalidations at the head are carried out.
     */
    private Chunk fill(boolean wire) {
        Buffer b = buffer();
        List<Runnable> after = new ArrayList<>();
        while (b.length < CHUNK) {
            Job j = wire ? responses.peek() : null;
            boolean response = j != null;
            if (!response) {
                j = sq.peek();
                if (j == null) break;
                WorkRequest wr = ((WrJob) j).wr;
                if (wr.op() == WorkRequest.Op.LOCAL_INV) {
                    sq.poll();
                    Slot slot = new Slot(wr);
                    inOrder.add(slot);
                    localInvalidate(wr, slot, after);
                    continue;
                }
                if (!wire) break;
                if (wr.op().outstanding() && !j.started && outstanding.size() >= qp.params.ord()) break;
            } else if (j instanceof RtrJob r && r.type == RnicConfig.Rtr.READ && !j.started
                    && outstanding.size() >= Math.max(1, qp.params.ord())) {
                break;
            }
            if (!j.started) start(j);
            List<DdpSegment> segs = j.piece(this, Math.max(1, CHUNK - b.length));
            for (DdpSegment s : segs) {
                qp.judgeOutbound(s);
                b.fpdu(b.ulpdu(s));
            }
            if (j.finished()) {
                (response ? responses : sq).poll();
                if (j instanceof WrJob w) finished(w, after);
            }
        }
        return b.length == 0 && after.isEmpty() ? null : new Chunk(b.bytes, b.length, after, false);
    }

    private void start(Job j) {
        j.started = true;
        if (j instanceof WrJob w) {
            WorkRequest wr = w.wr;
            w.slot = new Slot(wr);
            inOrder.add(w.slot);
            switch (wr.op()) {
                case SEND, SEND_INV, IMMEDIATE -> j.messageMsn = nextMsn(0);
                case READ -> {
                    j.messageMsn = nextMsn(1);
                    outstanding.add(new Outstanding(wr, false, 0, new long[1]));
                }
                case FETCH_ADD, CMP_SWAP -> {
                    j.messageMsn = nextMsn(1);
                    outstanding.add(new Outstanding(wr, false, ++atomicRequestId, new long[1]));
                }
                default -> {
                }
            }
        } else if (j instanceof AtomicResponseJob) {
            j.messageMsn = nextMsn(3);
        } else if (j instanceof RtrJob r) {
            if (r.type == RnicConfig.Rtr.SEND) j.messageMsn = nextMsn(0);
            if (r.type == RnicConfig.Rtr.READ) {
                j.messageMsn = nextMsn(1);
                outstanding.add(new Outstanding(null, true, 0, new long[1]));
            }
        }
    }

    /** An STag as this side puts it on the wire: knob stag-key-dropped zeroes its 8-bit key. */
    private long stag(long s) {
        return config.has(Bug.STAG_KEY_DROPPED) ? s & ~0xFFL : s;
    }

    private long nextMsn(int queue) {
        long m = msn[queue];
        msn[queue] = (m + 1) & 0xFFFF_FFFFL;
        return m;
    }

    private void finished(WrJob job, List<Runnable> after) {
        WorkRequest wr = job.wr;
        if (wr.op().outstanding()) return; // completes when its response arrives
        job.slot.writing = true;
        after.add(() -> done(wr, WorkCompletion.of(wr.wrId(), qp.qpn, wr.op().completion, WcStatus.SUCCESS,
                wr.length(), null)));
    }

    private void localInvalidate(WorkRequest wr, Slot slot, List<Runnable> after) {
        MemoryRegion r = qp.rnic.memory().lookup(wr.invalidateStag());
        WcStatus status;
        String why = null;
        if (r == null || r.state() == MemoryRegion.State.DEREGISTERED || !r.pd().equals(qp.pd)) {
            status = WcStatus.LOC_PROT_ERR;
            why = "STag 0x" + Long.toHexString(wr.invalidateStag()) + " is not registered in this protection domain";
        } else {
            r.state(MemoryRegion.State.INVALID);
            status = WcStatus.SUCCESS;
        }
        String w = why;
        slot.writing = true;
        after.add(() -> done(wr, WorkCompletion.of(wr.wrId(), qp.qpn, WcOpcode.LOCAL_INV, status, 0, w)));
    }

    private static ByteBuffer payload(WorkRequest wr, int off, int n) {
        if (wr.inline() != null) return ByteBuffer.wrap(wr.inline(), off, n).slice();
        if (wr.local() == null) return ByteBuffer.allocate(0);
        return wr.local().view(wr.localOffset() + off, n);
    }

    /** FPDUs of one chunk, faults of the bug knobs included. */
    private final class Buffer {
        byte[] bytes = new byte[CHUNK + 2 * RdmapEncoder.MAX_ULPDU];
        int length;
        /** One ULPDU at a time, so the segment's payload view is copied once, into the FPDU. */
        private final ByteBuffer ulpdu = ByteBuffer.allocate(RdmapEncoder.MAX_ULPDU);
        private final FpduEncoder.Faults faults = faults(config);

        Buffer reset() {
            length = 0;
            return this;
        }

        ByteBuffer ulpdu(DdpSegment s) {
            ulpdu.clear();
            s.writeTo(ulpdu);
            ulpdu.flip();
            int p = ulpdu.position(), c = ulpdu.get(p) & 0xFF;
            if (config.has(Bug.QN_OFF_BY_ONE) && (c & 0x80) == 0) {
                ulpdu.putInt(p + 6, ulpdu.getInt(p + 6) + 1); // knob qn-off-by-one: the untagged header's QN
            }
            if (config.has(Bug.DDP_TL_SWAPPED)) {
                // knob ddp-tl-swapped: T (0x80) and L (0x40) of the DDP control octet exchanged
                ulpdu.put(p, (byte) ((c & 0x3F) | (c & 0x80) >>> 1 | (c & 0x40) << 1));
            }
            return ulpdu;
        }

        void fpdu(ByteBuffer ulpdu) {
            int need = encoder.wireLength(ulpdu.remaining(), faults);
            if (length + need > bytes.length) bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2,
                    length + need));
            ByteBuffer out = ByteBuffer.wrap(bytes, length, need);
            encoder.encode(ulpdu, out, faults);
            length += need;
        }
    }

    private Buffer buffer() {
        if (buffer == null) buffer = new Buffer();
        return buffer.reset();
    }

    private static FpduEncoder.Faults faults(RnicConfig config) {
        FpduEncoder.Faults f = FpduEncoder.Faults.NONE;
        if (config.has(Bug.CRC_BYTE_ORDER)) f = f.withCrc(FpduEncoder.Crc.OTHER_BYTE_ORDER);
        if (config.has(Bug.NONZERO_PAD)) f = f.withPadByte(0x5A);
        if (config.has(Bug.MARKER_POINTER_OFF_BY_4)) f = f.withMarkerPointerDelta(4);
        return f;
    }
}
