package io.rddp.rnic;

import io.rddp.Notice;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.decode.StreamDecoder;
import io.rddp.rnic.link.Link;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.ImmediateData;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.sink.Check;
import io.rddp.sink.ErrorType;
import io.rddp.sink.Layer;
import io.rddp.sink.OwedTerminate;
import io.rddp.sink.ReceiveBuffers;
import io.rddp.sink.Severity;
import io.rddp.sink.Side;
import io.rddp.sink.SinkListener;
import io.rddp.sink.SinkModel;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.Endpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One RDMAP stream over one TCP connection: a queue pair with the states of RFC 5040 §6, its send and receive
 * queues, and the receive path (Linux siw's siw_qp_rx.c). Every incoming PDU is decoded by the analyzer's decoder and
 * judged by the sink model, which sees both directions; the model's verdict decides between carrying the PDU out
 * (placing bytes into registered memory, completing receives, answering Read and Atomic Requests) and a Terminate with
 * the Layer/EType/Code the model gives, with the copied headers RFC 5040 §4.8 asks for. After a Terminate nothing
 * more is placed (RFC 5041 §7.1: "DDP MUST silently drop any subsequent incoming DDP Segments") and the connection is
 * closed.
 * <p>
 * Threads: one reads the socket ({@link #receiveLoop}), one writes it ({@link Transmitter}); everything else is
 * guarded by {@link #lock}.
 */
public final class QueuePair {

    /** RFC 5040 §6 states with the names of verbs, plus the MPA exchange before them. */
    public enum State {
        /** TCP is up, the MPA exchange is not over */
        CONNECTING,
        /** the peer's MPA Request arrived; a manual accept decides */
        PENDING_ACCEPT,
        /** operational */
        RTS,
        /** an orderly close is under way */
        CLOSING,
        /** a Terminate is being sent */
        TERMINATE,
        /** after an error or the peer's Terminate or close: nothing more is carried out */
        ERROR,
        /** the connection is gone */
        CLOSED;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT).replace("pending_accept", "connecting");
        }
    }

    /** How long the socket is read before state changes are looked at again. */
    private static final int READ_SLICE_MS = 200;
    /** After this side's Terminate or close, how long the peer has to close its side. */
    private static final long LINGER_MS = 3000;
    /**
     * Read and Atomic Responses queued at most, whatever a knob lets through (no-ird-check): the peer's requests never
     * grow this side's memory without bound. Without a knob the IRD (RFC 5040 §6.1) holds the queue far below it.
     */
    static final int MAX_QUEUED_RESPONSES = 1024;
    private static final int VIOLATION_LOG = 256;

    final Rnic rnic;
    final int qpn;
    final ProtectionDomain pd;
    final RnicConfig config;
    final Link link;
    final boolean initiator;
    final Direction in, out;
    final Side self;
    final Object lock = new Object();

    // ---- guarded by lock (state is volatile so that a listener's admission reads it without the lock) ----
    volatile State state = State.CONNECTING;
    String failure;
    MpaStartFrame ourStart, peerStart;
    MpaSetup.Params params;
    MpaSetup.AcceptSettings acceptSettings;
    RnicListener listener;
    private MpaSetup.AcceptSettings replyPending;
    /** the peer's first 20 octets, judged before the decoder has the whole start frame */
    private final byte[] startHeader = new byte[MpaStartFrame.HEADER_LENGTH];
    private int startHeaderLength;
    private boolean keyChecked;
    /** knob mpa-frame-per-read: the peer's octets while its start frame's header is incomplete */
    private final java.io.ByteArrayOutputStream startOctets = new java.io.ByteArrayOutputStream();
    /** knob mpa-frame-per-read: the start frame the current read made, not yet handed on */
    private MpaStartFrame frameOfRead;
    /** knob mpa-frame-per-read: the peer's start frame was taken from a read; the decoder's is passed over */
    private boolean frameOfReadTaken;
    /** knob mpa-frame-per-read: the PDUs the decoder finds in the current read were taken as Private Data */
    private boolean swallowRead;
    private final long mpaDeadline;
    /** when an octet last came in or went out (System.nanoTime): what the idle timeout measures */
    volatile long lastActivityNs = System.nanoTime();
    /** octets the peer sent so far (a listener's admission tells a silent start-up from a busy one) */
    volatile long inboundOctets;
    /** no octet either way for this long closes an established connection; 0: never */
    private volatile long idleTimeoutNs;
    /** a listener's {@code accept} handed it out: someone other than the listener knows it */
    volatile boolean handedOut;
    /** the listener still has to admit it as established (see {@link RnicListener#admitEstablished}) */
    private boolean admissionDue;
    /** the IRD this side set up the connection with (RFC 5040 §6.1), for the model when MPA negotiated none */
    private int ownIrd = -1;
    final StreamDecoder decoder;
    final SinkModel model;
    long frame;
    private final List<Violation> pduViolations = new ArrayList<>();
    private final List<OwedTerminate> pduOwed = new ArrayList<>();
    private final ArrayDeque<Violation> violationLog = new ArrayDeque<>();
    private int ownErrors, peerErrors;
    // receive side
    final ArrayDeque<RecvRequest> rq = new ArrayDeque<>();
    /** MSN (the peer's QN 0) of the message the head of {@link #rq} takes */
    long nextRecvMsn = 1;
    private final Map<Long, Inbound> inbound = new HashMap<>();
    boolean firstFpduReceived;
    boolean txAllowed;
    /** knob stall-after-mpa: the connection is established and nothing more is carried out or sent */
    boolean stalled;
    /** knob terminate-multi-segment: a tagged message's segment without L came, so the next is a continuation */
    private boolean taggedInProgress;
    // transmit side (the Transmitter runs the queues)
    final Transmitter tx;
    private long lingerDeadline = -1;

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

    QueuePair(Rnic rnic, int qpn, ProtectionDomain pd, Link link, RnicListener listener, RnicConfig config) {
        this.rnic = rnic;
        this.qpn = qpn;
        this.pd = pd;
        this.config = config;
        this.link = link;
        this.initiator = link.weConnected();
        this.listener = listener;
        this.out = link.outbound();
        this.in = link.inbound();
        this.self = Side.senderOf(out);
        this.mpaDeadline = System.nanoTime() + config.mpaTimeout().toNanos();
        this.model = new SinkModel(SinkModel.Options.defaults().withStrict(true),
                rnic.memory().directory(pd, self, config.bugs()), new Judge());
        model.receiveBuffers(this::bufferFor);
        Endpoint local = endpoint(link.local()), remote = endpoint(link.remote());
        TcpConnection conn = new LiveConnection(initiator ? local : remote, initiator ? remote : local);
        this.decoder = new StreamDecoder(conn, new Events());
        this.tx = new Transmitter(this);
    }

    // ------------------------------------------------------------------ verbs

    public int qpn() {
        return qpn;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public State state() {
        synchronized (lock) {
            return state;
        }
    }

    /** Why the connection failed or ended in error, or null. */
    public String failure() {
        synchronized (lock) {
            return failure;
        }
    }

    /**
     * Closes the connection (with a reset) once no octet went either way for {@code timeout} while it is established;
     * zero or null: never. A listener sets its admission's idle timeout on every connection it accepts; an application
     * may lift it for a connection that is quiet on purpose (perftest's control channel while its test runs).
     */
    public void idleTimeout(java.time.Duration timeout) {
        idleTimeoutNs = timeout == null || timeout.isNegative() ? 0 : timeout.toNanos();
    }

    /** The idle timeout in force, {@link java.time.Duration#ZERO} for none. */
    public java.time.Duration idleTimeout() {
        return java.time.Duration.ofNanos(idleTimeoutNs);
    }

    /** Nanoseconds since an octet last went either way. */
    long idleNs(long nowNs) {
        return nowNs - lastActivityNs;
    }

    /** The negotiated parameters, or null before the MPA exchange ended. */
    public MpaSetup.Params params() {
        synchronized (lock) {
            return params;
        }
    }

    public MpaStartFrame peerStartFrame() {
        synchronized (lock) {
            return peerStart;
        }
    }

    public Link link() {
        return link;
    }

    /** Violations the sink model found on this connection, both directions, the most recent {@value #VIOLATION_LOG}. */
    public List<Violation> violations() {
        synchronized (lock) {
            return new ArrayList<>(violationLog);
        }
    }

    /** Errors the model found in what this side sent: none unless a bug knob is on. */
    public int ownErrors() {
        synchronized (lock) {
            return ownErrors;
        }
    }

    /** Posts a receive for the next Send (RFC 5040 §5.3). */
    public void postRecv(RecvRequest rr) {
        synchronized (lock) {
            if (state == State.ERROR || state == State.CLOSED || state == State.TERMINATE) {
                complete(new WorkCompletion(rr.wrId(), qpn, WcOpcode.RECV, WcStatus.WR_FLUSH_ERR, 0, null, -1, false,
                        null, "queue pair is in the " + state.wireName() + " state"));
                return;
            }
            if (rr.region().state() != MemoryRegion.State.VALID || !rr.region().access().contains(Access.LOCAL_WRITE)) {
                throw new RnicException(RnicException.Kind.BAD_REQUEST, "receive buffer " + rr.region()
                        + " is not valid with local write access");
            }
            if (rr.offset() < 0 || (long) rr.offset() + rr.length() > rr.region().length() || rr.length() < 0) {
                throw new RnicException(RnicException.Kind.BAD_REQUEST, "receive buffer [" + rr.offset() + ", +"
                        + rr.length() + ") is outside " + rr.region());
            }
            if (rq.size() >= config.limits().maxRecvWr()) throw RnicException.limit("posted receives",
                    config.limits().maxRecvWr());
            rq.add(rr);
        }
    }

    /** Posts receives of {@code length} octets into buffers of the RNIC's own. */
    public List<Long> postOwnRecv(int length, int count, java.util.function.LongSupplier wrIds) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long id = wrIds.getAsLong();
            MemoryRegion buf = new MemoryRegion(-1, 0, 0, length, Set.of(Access.LOCAL_WRITE), pd);
            postRecv(new RecvRequest(id, buf, 0, length, true));
            ids.add(id);
        }
        return ids;
    }

    /** Posts a send-queue work request. */
    public void postSend(WorkRequest wr) {
        tx.post(wr);
    }

    /** An orderly close (FIN); outstanding work requests complete with wr_flush_err. */
    public void close() {
        synchronized (lock) {
            // a Terminate on its way out closes the connection itself once it is written
            if (state == State.CLOSED || state == State.TERMINATE) return;
            if (state != State.ERROR) enterError("closed by the local user");
            link.finish();
            linger();
        }
    }

    /** Resets the connection for {@code why} (a listener's admission making room); nothing more is carried out. */
    void drop(String why) {
        synchronized (lock) {
            if (state == State.CLOSED) return;
            if (failure == null) failure = why;
            if (state != State.ERROR) enterError(why);
            link.abort();
            state = State.CLOSED;
            lock.notifyAll();
        }
    }

    /** An abortive close (RST). */
    public void abort() {
        synchronized (lock) {
            if (state != State.CLOSED && state != State.ERROR) enterError("aborted by the local user");
            link.abort();
            state = State.CLOSED;
            lock.notifyAll();
        }
    }

    /**
     * Waits until the queue pair leaves CONNECTING/PENDING_ACCEPT; true when it is operational. A start-up that ends
     * in a Terminate (RFC 6581 §9.1, §9.2) is reported once the Terminate is written, so that a caller that gives up
     * on the failure (and exits) cannot cut it off.
     */
    public boolean awaitEstablished(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        synchronized (lock) {
            while (state == State.CONNECTING || state == State.PENDING_ACCEPT || state == State.TERMINATE) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) return false;
                lock.wait(left);
            }
            return state == State.RTS;
        }
    }

    /** Waits until the connection is gone. */
    public boolean awaitClosed(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        synchronized (lock) {
            while (state != State.CLOSED) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) return false;
                lock.wait(left);
            }
            return true;
        }
    }

    // ------------------------------------------------------------------ connection setup (siw_cm.c)

    /** Initiator: sends the MPA Request and starts the threads. */
    void startInitiator(int ird, int ord, byte[] privateData) throws IOException {
        synchronized (lock) {
            ownIrd = ird;
            ourStart = MpaSetup.request(config, ird, ord, privateData);
            sendStartFrame(ourStart);
        }
        start();
    }

    /** Responder: waits for the peer's MPA Request with these settings for an automatic accept (null: manual). */
    void startResponder(MpaSetup.AcceptSettings auto) {
        synchronized (lock) {
            acceptSettings = auto;
        }
        start();
    }

    private void start() {
        Thread rx = new Thread(this::receiveLoop, "rnic-qp" + qpn + "-rx");
        rx.setDaemon(true);
        rx.start();
        tx.start();
    }

    /** Manual accept: posts receives, sends the Reply (rejecting when asked). */
    void accept(MpaSetup.AcceptSettings settings) {
        synchronized (lock) {
            if (state != State.PENDING_ACCEPT) {
                throw new RnicException(RnicException.Kind.STATE, "connection is " + state.wireName()
                        + ", not waiting for an accept" + (failure != null ? ": " + failure : ""));
            }
            reply(settings);
        }
    }

    private void sendStartFrame(MpaStartFrame f) throws IOException {
        byte[] bytes = f.toBytes();
        link.write(bytes);
        lastActivityNs = System.nanoTime();
        decoder.data(out, ByteBuffer.wrap(bytes), ++frame, now());
    }

    private void onPeerStartFrame(MpaStartFrame f, boolean malformed) {
        if (state != State.CONNECTING && state != State.PENDING_ACCEPT) return; // already failed by the early check
        if (peerStart != null) {
            fail("a second MPA start frame arrived (RFC 5044 §7.1.2)", AsyncEvent.Type.CONNECT_ERROR);
            return;
        }
        f = MpaSetup.asRead(config, f);
        peerStart = f;
        if (!initiator) {
            MpaSetup.Answer probe = MpaSetup.answer(config, f, malformed,
                    new MpaSetup.AcceptSettings(config.ird(), config.ord(), null, false));
            if (probe.reply() == null) {
                fail(probe.closeReason(), AsyncEvent.Type.CONNECT_ERROR);
                return;
            }
            if (acceptSettings != null) {
                replyPending = acceptSettings; // sent once the decoder call that delivered the Request returns
            } else {
                state = State.PENDING_ACCEPT;
                if (listener != null) listener.ready(this);
                lock.notifyAll();
            }
            return;
        }
        MpaSetup.ReplyOutcome o = MpaSetup.onReply(config, ourStart, f, malformed);
        if (o.params() == null) {
            fail(o.why(), f.reject() ? AsyncEvent.Type.REJECTED : AsyncEvent.Type.CONNECT_ERROR);
            return;
        }
        if (o.terminate() != null) {
            // RFC 6581 §9.1, §9.2: the Initiator answers a Reply it cannot live with by a TERM message, the first
            // and only FPDU it sends, then the connection closes
            params = o.params();
            tx.established(o.params(), decoder.offset(out));
            txAllowed = true;
            rnic.event(new AsyncEvent(AsyncEvent.Type.CONNECT_ERROR, qpn, o.terminate(), o.why()));
            terminate(o.terminate(), null, -1, null, o.why());
            return;
        }
        establish(o.params());
    }

    /**
     * The MPA start frame's fixed part, judged as soon as it is in (RFC 5044 §7.1.1): a key other than the one this
     * side expects ("Responder mode receivers MUST check this field for the same value, and close the connection"),
     * or a PD_Length over 512 ("the receiver MUST close the connection"), closes at once, without waiting for Private
     * Data that may never come. Null when the octets so far are fine.
     */
    private String earlyStartCheck(byte[] data, int n) {
        if (peerStart != null || (state != State.CONNECTING && state != State.PENDING_ACCEPT)) return null;
        if (config.has(Bug.ACCEPT_ALL)) return null;
        int take = Math.min(n, MpaStartFrame.HEADER_LENGTH - startHeaderLength);
        if (take <= 0) return null;
        System.arraycopy(data, 0, startHeader, startHeaderLength, take);
        startHeaderLength += take;
        if (startHeaderLength >= MpaStartFrame.KEY_LENGTH && !keyChecked && !config.has(Bug.MPA_LAX_KEY)) {
            keyChecked = true;
            String want = initiator ? "MPA ID Rep Frame" : "MPA ID Req Frame";
            String got = new String(startHeader, 0, MpaStartFrame.KEY_LENGTH, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (!got.equals(want)) {
                return "the MPA " + (initiator ? "Reply" : "Request") + " key is \"" + got.replaceAll("[^ -~]", ".")
                        + "\", not \"" + want + "\" (RFC 5044 §7.1.1)";
            }
        }
        if (startHeaderLength >= MpaStartFrame.HEADER_LENGTH && !config.has(Bug.MPA_PD_BUFFER_256)) {
            int pdLength = ((startHeader[18] & 0xFF) << 8) | (startHeader[19] & 0xFF);
            if (pdLength > MpaStartFrame.MAX_PRIVATE_DATA) {
                return "PD_Length " + pdLength + " exceeds " + MpaStartFrame.MAX_PRIVATE_DATA + " (RFC 5044 §7.1.1)";
            }
        }
        return null;
    }

    /**
     * Knob mpa-frame-per-read: the start frame as a receiver that takes TCP for datagrams reads it, once the read
     * that completes its 20-octet header is in: its Private Data is whatever that read brought after the header,
     * shorter or longer than PD_Length. Null when there is no such frame to take from this read.
     */
    private MpaStartFrame takeFrameOfRead(byte[] data, int n) {
        if (!config.has(Bug.MPA_FRAME_PER_READ) || frameOfReadTaken || peerStart != null
                || (state != State.CONNECTING && state != State.PENDING_ACCEPT)) {
            return null;
        }
        startOctets.write(data, 0, n);
        if (startOctets.size() < MpaStartFrame.HEADER_LENGTH) return null;
        byte[] all = startOctets.toByteArray();
        startOctets.reset();
        frameOfReadTaken = true; // one frame is taken, whatever it is
        MpaStartFrame f;
        try {
            f = MpaStartFrame.parse(ByteBuffer.wrap(all));
        } catch (io.rddp.MalformedException e) {
            return null; // no key at all: the decoder's verdict (and the early check) stand
        }
        byte[] pd = java.util.Arrays.copyOfRange(all, MpaStartFrame.HEADER_LENGTH, all.length);
        MpaStartFrame.Enhanced e = null;
        if (f.enhancedFlag() && pd.length >= MpaStartFrame.Enhanced.LENGTH) {
            try {
                e = MpaStartFrame.Enhanced.parse(ByteBuffer.wrap(pd));
            } catch (io.rddp.MalformedException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        return new MpaStartFrame(f.kind(), f.keyValid(), f.markers(), f.crc(), f.reject(), f.reserved(),
                f.revision(), f.pdLength(), pd, e);
    }

    /**
     * Knob mpa-terminate-without-reply: the Initiator gives up its start-up (no valid Reply in time) with a
     * Terminate 2/0/4, framed as its Request asked, then closes.
     */
    void terminateWithoutReply(String why) {
        synchronized (lock) {
            if (state != State.CONNECTING || !initiator || ourStart == null) return;
            MpaSetup.Params p = new MpaSetup.Params(ourStart.revision(), ourStart.crc(), false, ourStart.markers(),
                    config.ird(), config.ord(), null, Set.of());
            params = p;
            tx.established(p, decoder.offset(out));
            txAllowed = true;
            rnic.event(new AsyncEvent(AsyncEvent.Type.CONNECT_ERROR, qpn, ErrorType.MPA_INVALID_START_FRAME, why));
            terminate(ErrorType.MPA_INVALID_START_FRAME, null, -1, null, why + " (knob mpa-terminate-without-reply)");
        }
    }

    private void reply(MpaSetup.AcceptSettings settings) {
        MpaSetup.Answer a = MpaSetup.answer(config, peerStart, false, settings);
        if (a.reply() == null) {
            fail(a.closeReason(), AsyncEvent.Type.CONNECT_ERROR);
            return;
        }
        ourStart = a.reply();
        byte[] bytes = a.reply().toBytes();
        try {
            link.write(bytes);
        } catch (IOException e) {
            fail("the MPA Reply could not be sent: " + e.getMessage(), AsyncEvent.Type.CONNECT_ERROR);
            return;
        }
        if (!a.accepted()) {
            decoder.data(out, ByteBuffer.wrap(bytes), ++frame, now());
            // RFC 5044 §7.1.2 rule 2: after a Reply with R set the connection is closed
            fail(a.closeReason(), AsyncEvent.Type.REJECTED);
            return;
        }
        // established before the decoder sees the Reply, which releases what the Initiator sent behind its Request:
        // "the Responder SHOULD prepare to interpret any data received as FPDUs" (RFC 5044 §7.1.2 rule 2)
        establish(a.params(), decoder.offset(out) + bytes.length);
        decoder.data(out, ByteBuffer.wrap(bytes), ++frame, now());
    }

    private void establish(MpaSetup.Params p) {
        establish(p, decoder.offset(out));
    }

    private void establish(MpaSetup.Params p, long firstFpduOffset) {
        params = p;
        state = State.RTS;
        // RFC 5040 §6.1: inbound Read/Atomic Requests MUST NOT exceed this side's IRD; MPA Rev 1 negotiates no IRD
        // (RFC 5044), nor does 0x3FFF (RFC 6581 §9.1): then the model holds the peer to the IRD this side set up the
        // connection with (a limit the negotiation gave stays)
        model.knownInboundLimit(0, in, initiator && ownIrd >= 0 && p.revision() < 2 ? ownIrd : p.ird());
        // RFC 5044 §7.1.2 rule 4: the Responder sends no FPDU before it received one; the Initiator of a
        // peer-to-peer connection starts with its RTR (RFC 6581 §9.2)
        txAllowed = initiator || config.has(Bug.EARLY_FPDU);
        stalled = config.has(Bug.STALL_AFTER_MPA);
        tx.established(p, firstFpduOffset);
        rnic.event(new AsyncEvent(AsyncEvent.Type.ESTABLISHED, qpn, null, "MPA rev " + p.revision() + ", CRC "
                + (p.crc() ? "on" : "off") + ", Markers " + (p.markersTx() ? "sent" : "not sent") + "/"
                + (p.markersRx() ? "received" : "not received") + ", IRD " + p.ird() + ", ORD " + p.ord()
                + (p.rtr() != null ? ", RTR " + p.rtr().wireName() : "")));
        // an automatic accept is handed out once the listener admitted it as established (receive loop, no lock)
        if (listener != null && acceptSettings != null) admissionDue = true;
        lock.notifyAll();
    }

    private void fail(String why, AsyncEvent.Type type) {
        failure = why;
        rnic.event(new AsyncEvent(type, qpn, null, why));
        enterError(why);
        link.finish();
        linger();
    }

    // ------------------------------------------------------------------ receive path (siw_qp_rx.c)

    private void receiveLoop() {
        byte[] buf = new byte[64 * 1024];
        try {
            while (true) {
                int n = link.read(buf, READ_SLICE_MS);
                boolean admit;
                synchronized (lock) {
                    if (state == State.CLOSED) return;
                    if (n > 0) {
                        inboundOctets += n;
                        lastActivityNs = System.nanoTime();
                        String early = earlyStartCheck(buf, n);
                        if (early != null) fail(early, AsyncEvent.Type.CONNECT_ERROR);
                        frameOfRead = takeFrameOfRead(buf, n);
                        swallowRead = frameOfRead != null;
                        try {
                            decoder.data(in, ByteBuffer.wrap(buf, 0, n), ++frame, now());
                        } finally {
                            swallowRead = false;
                        }
                        if (frameOfRead != null) {
                            // the decoder waits for the rest of the frame; this side does not
                            MpaStartFrame f = frameOfRead;
                            frameOfRead = null;
                            onPeerStartFrame(f, f.enhancedFlag() && f.revision() >= 2 && f.enhanced() == null);
                        }
                        if (replyPending != null) {
                            MpaSetup.AcceptSettings s = replyPending;
                            replyPending = null;
                            reply(s);
                        }
                    } else if (n < 0) {
                        peerClosed();
                        return;
                    }
                    long nowNs = System.nanoTime();
                    if ((state == State.CONNECTING || state == State.PENDING_ACCEPT) && nowNs > mpaDeadline) {
                        String why = "the MPA exchange did not finish within " + seconds(config.mpaTimeout());
                        if (initiator && config.has(Bug.MPA_TERMINATE_WITHOUT_REPLY)) terminateWithoutReply(why);
                        else fail(why, AsyncEvent.Type.CONNECT_ERROR);
                    }
                    long idle = idleTimeoutNs;
                    if (idle > 0 && (state == State.RTS || state == State.CLOSING) && nowNs - lastActivityNs > idle) {
                        // an established connection nobody uses holds a slot other clients need: reset it
                        String why = "no traffic either way for " + seconds(java.time.Duration.ofNanos(idle))
                                + " (idle timeout): the connection was reset";
                        failure = why;
                        rnic.event(new AsyncEvent(AsyncEvent.Type.DISCONNECTED, qpn, null, why));
                        enterError(why);
                        link.abort();
                        closed();
                        return;
                    }
                    if (lingerDeadline > 0 && nowNs > lingerDeadline) {
                        // the peer did not close its side in time: drop the connection
                        link.abort();
                        closed();
                        return;
                    }
                    admit = admissionDue;
                    admissionDue = false;
                }
                // outside the lock: the listener's admission may reset other connections (each under its own lock)
                if (admit && listener != null && listener.admitEstablished(this)) listener.ready(this);
            }
        } catch (IOException | RuntimeException e) {
            // hostile input must never get here: a RuntimeException is a bug of the receive path, counted so tests
            // and the fuzz target see it; the connection is dropped, the RNIC goes on
            if (e instanceof RuntimeException re) rnic.internalError(this, re);
            synchronized (lock) {
                if (state != State.CLOSED) {
                    enterError("receive path failed: " + e);
                    link.abort();
                    closed();
                }
            }
        }
    }

    /** "3 s", "2.5 s", "500 ms". */
    static String seconds(java.time.Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) return ms + " ms";
        return (ms % 1000 == 0 ? String.valueOf(ms / 1000) : String.valueOf(ms / 1000.0)) + " s";
    }

    private void peerClosed() {
        decoder.close(in, link.peerClose() == Link.PeerClose.RST, ++frame, now());
        boolean reset = link.peerClose() == Link.PeerClose.RST;
        if (state == State.CONNECTING || state == State.PENDING_ACCEPT) {
            failure = "the peer " + (reset ? "reset" : "closed") + " the connection during the MPA exchange";
            rnic.event(new AsyncEvent(AsyncEvent.Type.CONNECT_ERROR, qpn, null, failure));
        } else if (state != State.ERROR && state != State.CLOSED) {
            rnic.event(new AsyncEvent(reset ? AsyncEvent.Type.RESET : AsyncEvent.Type.DISCONNECTED, qpn, null,
                    "the peer " + (reset ? "reset" : "closed") + " the connection"));
        }
        if (config.has(Bug.DELIVER_PARTIAL_ON_CLOSE)) {
            for (Inbound m : inbound.values()) {
                complete(new WorkCompletion(m.rr.wrId(), qpn, WcOpcode.RECV, WcStatus.SUCCESS, m.length, null, -1,
                        false, null, null));
            }
            inbound.clear();
        }
        if (state != State.ERROR && state != State.CLOSED) enterError("the peer closed the connection");
        link.finish();
        link.close();
        closed();
    }

    private void closed() {
        if (state == State.CLOSED) return;
        decoder.end(++frame, now());
        state = State.CLOSED;
        tx.stop();
        rnic.closed(this);
        lock.notifyAll();
    }

    /** Everything the decoder delivers, both directions, under {@link #lock}. */
    private final class Events implements PduListener {
        @Override
        public void onPdu(Pdu pdu) {
            pduViolations.clear();
            pduOwed.clear();
            if (pdu.startFrame() != null) {
                model.onStartFrame(0, pdu.direction(), pdu.startFrame(), pdu.frame());
                if (pdu.direction() == in) {
                    // improperly formatted (RFC 5044 §7.1.2): the key, PD_Length, an S flag without IRD/ORD (RFC 6581
                    // §6), the frame's place in the exchange. Not Rev (MpaSetup decides what it can interoperate
                    // with), Res bits ("not checked on reception", §7.1.1), RTR flags with A = 0 ("MUST be ignored",
                    // RFC 6581 §9.2) or IRD/ORD values (§9.1 says what to do with them)
                    // Knob mpa-lax-key: the other frame's key passes, so the first start frame is never out of
                    // sequence (the model calls a Request key from the Responder an Initiator/Initiator start-up);
                    // knob mpa-pd-buffer-256 does not validate PD_Length
                    boolean laxSequence = MpaSetup.laxKey(config) && peerStart == null;
                    boolean malformed = !config.has(Bug.ACCEPT_ALL) && pduViolations.stream()
                            .anyMatch(v -> v.severity() == Severity.ERROR
                            && (v.check() == Check.MPA_KEY && !config.has(Bug.MPA_LAX_KEY)
                            || v.check() == Check.MPA_PD_LENGTH && !config.has(Bug.MPA_PD_BUFFER_256)
                            || v.check() == Check.MPA_SEQUENCE && !laxSequence
                            || v.check() == Check.MPA_ENHANCED && pdu.startFrame().enhancedFlag()
                            && pdu.startFrame().revision() >= 2 && pdu.startFrame().enhanced() == null));
                    if (frameOfRead != null) {
                        // knob mpa-frame-per-read: the frame is what the read brought, not what the decoder framed
                        MpaStartFrame f = frameOfRead;
                        frameOfRead = null;
                        onPeerStartFrame(f, malformed);
                    } else if (!frameOfReadTaken) {
                        onPeerStartFrame(pdu.startFrame(), malformed);
                    }
                }
                return;
            }
            if (pdu.direction() != in) return; // this side's FPDUs reach the model from the Transmitter
            if (stalled) return;
            if (swallowRead) return; // knob mpa-frame-per-read: these octets were taken as Private Data
            if (state != State.RTS && state != State.CLOSING && !(state == State.CONNECTING && !initiator)) {
                return; // RFC 5041 §7.1: after an error, incoming segments are silently dropped
            }
            if (refusedByKnob(pdu)) return;
            if (pdu.ddp() == null) {
                model.onMalformed(0, in, pdu.frame(), pdu.fpdu().crcOk(), pdu.fpdu().ulpduLength(), pdu.problem());
            } else {
                model.onFpdu(0, in, pdu.fpdu(), pdu.ddp(), pdu.rdmap());
            }
            if (!react(pdu.ddp()) && !refuseContinuation(pdu.ddp()) && pdu.ddp() != null && pdu.rdmap() != null) {
                carryOut(pdu.ddp(), pdu.rdmap());
            }
        }

        @Override
        public void onFramingError(TcpConnection c, Direction d, long f, String detail) {
            if (d != in || state != State.RTS || stalled) return;
            pduViolations.clear();
            pduOwed.clear();
            model.onFramingError(0, d, f, detail);
            react(null);
        }

        @Override
        public void onNotice(Notice notice) {
            // decode facts of a live stream (e.g. a lost FPDU boundary) are judged by the model through the PDUs
        }
    }

    /** Receives what the model finds; keeps what the PDU being judged brought. */
    private final class Judge implements SinkListener {
        @Override
        public void onViolation(Violation v) {
            if (violationLog.size() >= VIOLATION_LOG) violationLog.poll();
            violationLog.add(v);
            if (v.severity() == Severity.ERROR) {
                if (v.direction() == out) ownErrors++;
                else peerErrors++;
            }
            if (v.direction() == in) pduViolations.add(v);
        }

        @Override
        public void onTerminateOwed(OwedTerminate owed) {
            if (owed.offender() == in) pduOwed.add(owed);
        }
    }

    /**
     * The model's verdict on the PDU just judged: true when it erred and this side terminated or closed. Where the
     * model books a Terminate, that one is sent; an error for which the RFCs name no Terminate is answered with the
     * catastrophic type of its layer (any code is acceptable there, RFC 5040 Figure 9), or, at the MPA layer, by
     * closing the connection (RFC 5044 §7.1.2).
     */
    private boolean react(DdpSegment seg) {
        if (pduOwed.isEmpty() && pduViolations.isEmpty()) return false; // the common case: nothing to react to
        if (config.has(Bug.ACCEPT_ALL)) return false;
        Set<Check> ignored = ignoredChecks();
        OwedTerminate owed = null;
        for (OwedTerminate o : pduOwed) {
            if (!ignored.contains(o.cause()) && !o.cause().receiverGoesOn()) {
                owed = o;
                break;
            }
        }
        Violation error = null;
        for (Violation v : pduViolations) {
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

    /** RFC 5041 §7.1 untagged checks 2-4: the buffer the peer's Send {@code msn} lands in. */
    private long bufferFor(int stream, Side receiver, long qn, long msn) {
        if (receiver != self || qn != 0) return ReceiveBuffers.UNKNOWN;
        Inbound started = inbound.get(msn);
        if (started != null) return started.rr.length();
        long index = (msn - nextRecvMsn) & 0xFFFF_FFFFL;
        if (index >= Integer.MAX_VALUE) return ReceiveBuffers.UNKNOWN; // an old MSN: the MSN check reports it
        if (params != null && params.rtrAccepted().contains(RnicConfig.Rtr.SEND) && !initiator && !firstFpduReceived) {
            return ReceiveBuffers.UNKNOWN; // the zero-length Send RTR takes no buffer (RFC 6581 §9.2)
        }
        if (index >= rq.size()) return ReceiveBuffers.NONE;
        int i = 0;
        for (RecvRequest rr : rq) {
            if (i++ == index) return rr.length();
        }
        return ReceiveBuffers.NONE;
    }

    /**
     * Knob terminate-multi-segment: a valid segment that continues a message (an untagged one at MO > 0, a tagged one
     * after a segment without L) is refused with the Terminate a broken reassembly would send. True when it was.
     */
    private boolean refuseContinuation(DdpSegment seg) {
        if (!config.has(Bug.TERMINATE_MULTI_SEGMENT) || seg == null || state != State.RTS) return false;
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
    private boolean refusedByKnob(Pdu pdu) {
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

    private final java.util.zip.CRC32C crc32c = new java.util.zip.CRC32C();

    /** Whether an FPDU's CRC field is its CRC32c (RFC 5044 §4.4); one with Markers inside is taken as right. */
    private boolean crcMatches(io.rddp.mpa.Fpdu f) {
        if (f.markerCount() > 0 || !f.padZero()) return true;
        crc32c.reset();
        crc32c.update(new byte[] {(byte) (f.ulpduLength() >>> 8), (byte) f.ulpduLength()});
        crc32c.update(f.ulpdu().duplicate());
        crc32c.update(new byte[f.padLength()]);
        return crc32c.getValue() == f.crc();
    }

    /** A PDU the model found in order: carried out. */
    private void carryOut(DdpSegment seg, RdmapPdu pdu) {
        DdpHeader h = seg.header();
        Opcode op = pdu.opcode();
        if (op == null) return;
        if (!firstFpduReceived) {
            firstFpduReceived = true;
            if (!initiator) {
                txAllowed = true;
                lock.notifyAll();
                if (params.rtr() != null) {
                    if (zeroLengthStagRefused(seg, pdu)) return;
                    // RFC 6581 §9.2: the RTR indication is not delivered; a zero-length Read is answered
                    if (op == Opcode.RDMA_READ_REQUEST && pdu.body() instanceof ReadRequest rr) {
                        tx.respondRead(rr, null);
                    }
                    if (op == Opcode.SEND) nextRecvMsn = (((UntaggedHeader) h).msn() + 1) & 0xFFFF_FFFFL;
                    return;
                }
            }
        }
        // knob every-message-takes-a-receive: a Write's last segment and a Read or Atomic Request complete a receive
        if (config.has(Bug.EVERY_MESSAGE_TAKES_A_RECEIVE) && (op == Opcode.RDMA_WRITE ? h.last()
                : (op == Opcode.RDMA_READ_REQUEST || op == Opcode.ATOMIC_REQUEST) && h.offset() == 0)) {
            RecvRequest rr = rq.poll();
            if (rr != null) {
                complete(new WorkCompletion(rr.wrId(), qpn, WcOpcode.RECV, WcStatus.SUCCESS, 0, null, -1, false,
                        null, null));
            }
        }
        switch (op) {
            case RDMA_WRITE -> {
                if (seg.payloadLength() == 0) {
                    zeroLengthStagRefused(seg, pdu);
                    return;
                }
                TaggedHeader t = (TaggedHeader) h;
                MemoryRegion r = rnic.memory().lookup(t.stag());
                if (r != null) r.place(t.to(), seg.payload());
            }
            case RDMA_READ_RESPONSE -> {
                if (!tx.onReadResponse((TaggedHeader) h, seg.payload()) && config.has(Bug.PLACE_UNSOLICITED_READ_RESPONSE)) {
                    MemoryRegion r = rnic.memory().lookup(((TaggedHeader) h).stag());
                    if (r != null) r.place(((TaggedHeader) h).to(), seg.payload());
                }
            }
            case SEND, SEND_WITH_SE, SEND_WITH_INVALIDATE, SEND_WITH_SE_AND_INVALIDATE, IMMEDIATE_DATA,
                    IMMEDIATE_DATA_WITH_SE -> receive((UntaggedHeader) h, seg, pdu, op);
            case RDMA_READ_REQUEST -> {
                // knob accept-all answers a Read Request at any MO
                if (h.offset() != 0 && !config.has(Bug.ACCEPT_ALL) || !(pdu.body() instanceof ReadRequest rr)) return;
                if (zeroLengthStagRefused(seg, pdu)) return;
                if (responsesFull(h, seg, rr)) return;
                MemoryRegion source = rr.size() == 0 ? null : rnic.memory().lookup(rr.sourceStag());
                tx.respondRead(rr, source);
            }
            case ATOMIC_REQUEST -> {
                if (h.offset() != 0 || !(pdu.body() instanceof AtomicRequest ar)) return;
                if (responsesFull(h, seg, null)) return;
                MemoryRegion target = rnic.memory().lookup(ar.remoteStag());
                if (target != null && ((ar.remoteTo() - target.baseTo()) & 7) != 0
                        && !config.has(Bug.NO_ATOMIC_ALIGNMENT_CHECK)) {
                    // RFC 7306 §8.2: the RDMAP layer MUST validate that the Tagged Offset references a 64-bit aligned
                    // address (the region's first octet is: its base TO is a page address, or 0 when zero-based),
                    // and else Terminate Remote Operation Error, Catastrophic error localized to the RDMAP Stream;
                    // §5.1.1/§5.1.2: the operation is not performed and memory is not modified
                    terminate(ErrorType.RDMA_CATASTROPHIC_STREAM, h, seg.length(), null, "Atomic Request at TO 0x"
                            + Long.toHexString(ar.remoteTo()) + ", not a 64-bit aligned address (RFC 7306 §8.2)");
                    return;
                }
                long original = target == null ? 0 : target.atomic(ar.remoteTo(),
                        ar.atomicOpcode() == AtomicRequest.CMP_SWAP, ar.addOrSwapData(), ar.addOrSwapMask(),
                        ar.compareData(), ar.compareMask());
                tx.respondAtomic(ar.requestId(), original);
            }
            case ATOMIC_RESPONSE -> {
                if (h.offset() == 0 && pdu.body() instanceof AtomicResponse resp) tx.onAtomicResponse(resp);
            }
            case TERMINATE -> {
                if (h.offset() != 0 || !(pdu.body() instanceof Terminate t)) return;
                if (config.has(Bug.TERMINATE_ANSWERED)) {
                    terminate(ErrorType.RDMA_UNEXPECTED_OPCODE, h, seg.length(), null, "a Terminate answered with"
                            + " a Terminate (knob terminate-answered)");
                    return;
                }
                onPeerTerminate(t);
            }
        }
    }

    /**
     * The responses queued reached {@link #MAX_QUEUED_RESPONSES} (only a knob that lets requests beyond the IRD through
     * gets there): the request is refused with the Terminate for too many outstanding requests (RFC 5040 §6.1, the
     * type the model books for rdmap.read.outstanding). True when it was.
     */
    private boolean responsesFull(DdpHeader h, DdpSegment seg, ReadRequest rr) {
        if (tx.queuedResponses() < MAX_QUEUED_RESPONSES) return false;
        terminate(ErrorType.DDP_U_MSN_RANGE, h, seg.length(), rr, "more than " + MAX_QUEUED_RESPONSES
                + " Read/Atomic Responses queued: the peer exceeds any IRD (RFC 5040 §6.1)");
        return true;
    }

    /**
     * Knob zero-length-stag-check: a zero-length RDMA Write or RDMA Read Request (an RTR indication too) naming an STag
     * nothing registered is refused with the Terminate of an invalid STag. True when it was.
     */
    private boolean zeroLengthStagRefused(DdpSegment seg, RdmapPdu pdu) {
        if (!config.has(Bug.ZERO_LENGTH_STAG_CHECK)) return false;
        DdpHeader h = seg.header();
        if (pdu.opcode() == Opcode.RDMA_WRITE && seg.payloadLength() == 0 && h.last() && h instanceof TaggedHeader t
                && rnic.memory().lookup(t.stag()) == null) {
            terminate(ErrorType.DDP_T_INVALID_STAG, h, seg.length(), null, "zero-length Write to an unknown STag"
                    + " (bug knob zero-length-stag-check)");
            return true;
        }
        if (pdu.opcode() == Opcode.RDMA_READ_REQUEST && pdu.body() instanceof ReadRequest rr && rr.size() == 0
                && rnic.memory().lookup(rr.sourceStag()) == null) {
            terminate(ErrorType.RDMA_INVALID_STAG, h, seg.length(), rr, "zero-length Read Request of an unknown STag"
                    + " (bug knob zero-length-stag-check)");
            return true;
        }
        return false;
    }

    /** A Send-type or Immediate Data segment into the posted receive its MSN takes (RFC 5040 §5.3, RFC 7306 §6). */
    private void receive(UntaggedHeader h, DdpSegment seg, RdmapPdu pdu, Opcode op) {
        long msn = h.msn();
        Inbound m = inbound.get(msn);
        if (m == null) {
            RecvRequest rr = msn == nextRecvMsn ? rq.poll() : null;
            nextRecvMsn = (msn + 1) & 0xFFFF_FFFFL;
            if (rr == null) {
                // only a zero-length message gets here (longer ones are checked by the model): nowhere to deliver it
                rnic.event(new AsyncEvent(AsyncEvent.Type.RESOURCE_LIMIT, qpn, null, op.rfcName() + " MSN " + msn
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
            MemoryRegion r = rnic.memory().lookup(invalidated);
            if (r != null && r.state() == MemoryRegion.State.VALID) r.state(MemoryRegion.State.INVALID);
        }
        if (config.has(Bug.INVALIDATE_NOT_REPORTED)) invalidated = -1; // invalidated, but the completion does not say
        Long imm = immediate && pdu.body() instanceof ImmediateData d ? d.data() : null;
        byte[] data = m.rr.own() ? m.rr.region().copy(m.rr.offset(), (int) Math.min(m.length, Math.min(4096,
                m.rr.length()))) : null;
        // knob recv-length-last-segment: the length of the segment that completed the message
        long length = config.has(Bug.RECV_LENGTH_LAST_SEGMENT) ? m.lastSegment : m.length;
        complete(new WorkCompletion(m.rr.wrId(), qpn, immediate ? WcOpcode.RECV_IMMEDIATE : WcOpcode.RECV,
                WcStatus.SUCCESS, immediate ? 0 : length, imm, invalidated, op.solicitedEvent(), data, null));
    }

    private void onPeerTerminate(Terminate t) {
        ErrorType type = ErrorType.of(t);
        rnic.event(new AsyncEvent(AsyncEvent.Type.TERMINATE_RECEIVED, qpn, type, "the peer terminated: "
                + type));
        // RFC 5040 §6.2.2 (the Remote Peer's side): the stream is over; the oldest request gets the error
        WcStatus status = type.layer() == Terminate.LAYER_LLP ? WcStatus.FATAL_ERR
                : type.etype() == 1 ? WcStatus.REM_ACCESS_ERR : type.etype() == 2 ? WcStatus.REM_OP_ERR
                : WcStatus.REM_ABORT_ERR;
        tx.failOldest(status, "the peer sent Terminate " + type);
        enterError("the peer sent Terminate " + type);
        link.finish();
        linger();
    }

    // ------------------------------------------------------------------ errors and teardown

    /** Sends a Terminate for the peer's error, then closes (RFC 5040 §5.4, §7.1). */
    private void terminate(ErrorType type, DdpHeader header, int segmentLength, ReadRequest readRequest,
                           String why) {
        if (config.has(Bug.CLOSE_SILENTLY)) {
            silentClose(why + " (knob close-silently)");
            return;
        }
        if (config.has(Bug.TERMINATE_WRONG_TYPE)) type = Bug.wrongType(type);
        boolean noHeaders = type.layer() == Terminate.LAYER_LLP || type.isCatastrophic() || header == null;
        ReadRequest rr = type.layer() == Terminate.LAYER_RDMA ? readRequest : null;
        Terminate t = noHeaders ? Terminate.of(type.layer(), type.etype(), type.code())
                : Terminate.of(type.layer(), type.etype(), type.code(), Math.max(0, segmentLength), header, rr);
        rnic.event(new AsyncEvent(AsyncEvent.Type.TERMINATE_SENT, qpn, type, why));
        AsyncEvent.Type kind = type.etype() == 1 && type.layer() != Terminate.LAYER_LLP ? AsyncEvent.Type.QP_ACCESS_ERR
                : type.etype() == 2 && type.layer() != Terminate.LAYER_LLP ? AsyncEvent.Type.QP_REQ_ERR
                : AsyncEvent.Type.QP_FATAL;
        rnic.event(new AsyncEvent(kind, qpn, type, why));
        if (config.has(Bug.TERMINATE_AND_GO_ON)) {
            tx.terminate(t); // and the stream stays in RTS: what arrives next is carried out and answered
            lock.notifyAll();
            return;
        }
        failure = why;
        state = State.TERMINATE;
        tx.terminate(t);
        flush(why);
        lock.notifyAll();
    }

    /** Closes without a Terminate (MPA-layer errors; RFC 5044 §7.1.2). */
    private void silentClose(String why) {
        rnic.event(new AsyncEvent(AsyncEvent.Type.QP_FATAL, qpn, null, why + "; closing without a Terminate"));
        failure = why;
        enterError(why);
        link.finish();
        linger();
    }

    /** The Transmitter wrote the Terminate: the stream is over. */
    void terminateSent() {
        synchronized (lock) {
            if (config.has(Bug.TERMINATE_AND_GO_ON) && state == State.RTS) return;
            if (state == State.TERMINATE) state = State.ERROR;
            link.finish();
            linger();
            lock.notifyAll();
        }
    }

    private void enterError(String why) {
        if (state == State.CLOSED) return;
        state = State.ERROR;
        flush(why);
        lock.notifyAll();
    }

    private void flush(String why) {
        for (RecvRequest rr : rq) {
            complete(new WorkCompletion(rr.wrId(), qpn, WcOpcode.RECV, WcStatus.WR_FLUSH_ERR, 0, null, -1, false,
                    null, why));
        }
        rq.clear();
        for (Inbound m : inbound.values()) {
            complete(new WorkCompletion(m.rr.wrId(), qpn, WcOpcode.RECV, WcStatus.WR_FLUSH_ERR, 0, null, -1, false,
                    null, why));
        }
        inbound.clear();
        tx.flush(why);
    }

    private void linger() {
        if (lingerDeadline < 0) lingerDeadline = System.nanoTime() + LINGER_MS * 1_000_000L;
    }

    void complete(WorkCompletion wc) {
        if (!rnic.completions().add(wc)) {
            rnic.event(new AsyncEvent(AsyncEvent.Type.RESOURCE_LIMIT, qpn, null, "completion queue full: "
                    + wc + " lost"));
            if (state == State.RTS) {
                failure = "completion queue overrun";
                state = State.ERROR;
                link.finish();
                linger();
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /** The model sees what this side sends, before it goes out (so a fast answer never precedes its request). */
    void judgeOutbound(DdpSegment segment) {
        model.onSegment(0, out, ++frame, null, segment, null);
    }

    static long now() {
        java.time.Instant t = java.time.Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static Endpoint endpoint(java.net.InetSocketAddress a) {
        return new Endpoint(a.getAddress().getAddress(), a.getPort());
    }

    private record LiveConnection(Endpoint client, Endpoint server) implements TcpConnection {
        @Override
        public int index() {
            return 0;
        }

        @Override
        public boolean synSeen(Direction d) {
            return true;
        }

        @Override
        public long initialSequence(Direction d) {
            return 0; // a socket shows stream offsets; Markers only need offsets modulo 512
        }
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "qp " + qpn + " " + state.wireName() + " " + link.local() + " -> " + link.remote();
        }
    }
}
