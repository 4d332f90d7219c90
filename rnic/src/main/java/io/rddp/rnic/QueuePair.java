package io.rddp.rnic;

import io.rddp.rnic.link.SocketConnection;
import io.rddp.ddp.DdpSegment;
import io.rddp.decode.StreamDecoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rnic.link.Link;
import io.rddp.sink.Side;
import io.rddp.sink.SinkModel;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One RDMAP stream over one TCP connection: a queue pair with the states of RFC 5040 §6 and its verbs (Linux siw's
 * siw_verbs.c and siw_qp.c). Every incoming PDU is decoded by the analyzer's decoder and judged by the sink model,
 * which sees both directions; the model's verdict decides between carrying the PDU out (placing bytes into registered
 * memory, completing receives, answering Read and Atomic Requests) and a Terminate with the Layer/EType/Code the model
 * gives, with the copied headers RFC 5040 §4.8 asks for. After a Terminate nothing more is placed (RFC 5041 §7.1:
 * "DDP MUST silently drop any subsequent incoming DDP Segments") and the connection is closed.
 * <p>
 * The work is split by concern, siw-style: {@link ConnectionSetup} (the MPA start-up, siw_cm.c), {@link Receiver}
 * (the receive path, siw_qp_rx.c), {@link Transmitter} (the transmit path, siw_qp_tx.c), {@link Responder} (Read and
 * Atomic Requests answered), {@link Termination} (the Terminate, both ways) and {@link Verdicts} (what the model
 * found). This class holds the state they share and the state changes of teardown.
 * <p>
 * Threads: one reads the socket ({@link Receiver#receiveLoop}), one writes it ({@link Transmitter}); everything else
 * is guarded by {@link #lock}, the one monitor of the queue pair and all its parts.
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

    /** After this side's Terminate or close, how long the peer has to close its side. */
    private static final long LINGER_MS = 3000;
    static final int VIOLATION_LOG = 256;

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
    RnicListener listener;
    /** when an octet last came in or went out (System.nanoTime): what the idle timeout measures */
    volatile long lastActivityNs = System.nanoTime();
    /** octets the peer sent so far (a listener's admission tells a silent start-up from a busy one) */
    volatile long inboundOctets;
    /** no octet either way for this long closes an established connection; 0: never */
    volatile long idleTimeoutNs;
    /** a listener's {@code accept} handed it out: someone other than the listener knows it */
    volatile boolean handedOut;
    final StreamDecoder decoder;
    final SinkModel model;
    /** the frame number of what the decoder and the model see next, both directions */
    long frame;
    /** posted receives, in the order Sends take them (RFC 5040 §5.3) */
    final ArrayDeque<RecvRequest> rq = new ArrayDeque<>();
    boolean txAllowed;
    /** knob stall-after-mpa: the connection is established and nothing more is carried out or sent */
    boolean stalled;
    /** when the peer's time to close its side runs out (System.nanoTime); -1: not lingering */
    long lingerDeadline = -1;
    // the parts, each guarded by lock too
    final ConnectionSetup setup;
    final Verdicts verdicts;
    final Receiver receiver;
    final Responder responder;
    final Termination termination;
    final Transmitter tx;

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
        // the parts first: the model and the decoder call into them
        this.setup = new ConnectionSetup(this);
        this.verdicts = new Verdicts(in, out);
        this.receiver = new Receiver(this);
        this.responder = new Responder(this);
        this.termination = new Termination(this);
        this.model = new SinkModel(SinkModel.Options.defaults().withStrict(true),
                rnic.memory().directory(pd, self, config.bugs()), verdicts);
        model.receiveBuffers(receiver::bufferFor);
        TcpConnection conn = initiator ? SocketConnection.of(link.local(), link.remote())
                : SocketConnection.of(link.remote(), link.local());
        this.decoder = new StreamDecoder(conn, receiver.events());
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
            return verdicts.recent();
        }
    }

    /** Errors the model found in what this side sent: none unless a bug knob is on. */
    public int ownErrors() {
        synchronized (lock) {
            return verdicts.ownErrors();
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

    // ------------------------------------------------------------------ start-up (the work is ConnectionSetup's)

    /** Initiator: sends the MPA Request and starts the threads. */
    void startInitiator(int ird, int ord, byte[] privateData) throws IOException {
        setup.startInitiator(ird, ord, privateData);
        start();
    }

    /** Responder: waits for the peer's MPA Request with these settings for an automatic accept (null: manual). */
    void startResponder(MpaSetup.AcceptSettings auto) {
        setup.startResponder(auto);
        start();
    }

    private void start() {
        Thread rx = new Thread(receiver::receiveLoop, "rnic-qp" + qpn + "-rx");
        rx.setDaemon(true);
        rx.start();
        tx.start();
    }

    /** Manual accept: posts receives, sends the Reply (rejecting when asked). */
    void accept(MpaSetup.AcceptSettings settings) {
        setup.accept(settings);
    }

    /** Knob mpa-terminate-without-reply: see {@link ConnectionSetup#terminateWithoutReply}. */
    void terminateWithoutReply(String why) {
        setup.terminateWithoutReply(why);
    }

    // ------------------------------------------------------------------ errors and teardown (under lock)

    /** The Transmitter wrote the Terminate: see {@link Termination#terminateSent}. */
    void terminateSent() {
        termination.terminateSent();
    }

    void enterError(String why) {
        if (state == State.CLOSED) return;
        state = State.ERROR;
        flush(why);
        lock.notifyAll();
    }

    /** Every outstanding work request ends with wr_flush_err: posted receives, messages half in, the send queue. */
    void flush(String why) {
        for (RecvRequest rr : rq) {
            complete(new WorkCompletion(rr.wrId(), qpn, WcOpcode.RECV, WcStatus.WR_FLUSH_ERR, 0, null, -1, false,
                    null, why));
        }
        rq.clear();
        receiver.flushInbound(why);
        tx.flush(why);
    }

    /** The peer gets {@value #LINGER_MS} ms to close its side; the receive loop drops the connection after. */
    void linger() {
        if (lingerDeadline < 0) lingerDeadline = System.nanoTime() + LINGER_MS * 1_000_000L;
    }

    /** The connection is gone (the receive thread ends it). */
    void closed() {
        if (state == State.CLOSED) return;
        decoder.end(++frame, now());
        state = State.CLOSED;
        tx.stop();
        rnic.closed(this);
        lock.notifyAll();
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

    /** "3 s", "2.5 s", "500 ms". */
    static String seconds(java.time.Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) return ms + " ms";
        return (ms % 1000 == 0 ? String.valueOf(ms / 1000) : String.valueOf(ms / 1000.0)) + " s";
    }

    static long now() {
        return SocketConnection.now();
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "qp " + qpn + " " + state.wireName() + " " + link.local() + " -> " + link.remote();
        }
    }
}
