package io.rddp.rnic;

import io.rddp.rnic.link.Link;
import io.rddp.rnic.link.Recorder;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An emulated iWARP RNIC with a small verbs-like API (the shape of libibverbs with Java names): protection domains,
 * memory registration, listening and connecting queue pairs, one completion queue and an event queue. Its receive
 * path is the analyzer's decoder and sink model ({@link QueuePair}); what it sends is built by the analyzer's
 * encoder ({@link Transmitter}). Thread-safe.
 */
public final class Rnic implements Closeable {

    private final RnicConfig config;
    private final Recorder recorder;
    private final MemoryTable memory;
    private final CompletionQueue completions;
    private final EventQueue events = new EventQueue(4096);
    private final ProtectionDomain defaultPd = new ProtectionDomain(0);
    private final AtomicInteger nextPd = new AtomicInteger(1);
    private final AtomicInteger nextQp = new AtomicInteger(1);
    private final AtomicInteger nextListener = new AtomicInteger(1);
    private final AtomicLong nextWrId = new AtomicLong(1);
    private final Map<Integer, QueuePair> qps = new LinkedHashMap<>();
    private final Map<Integer, RnicListener> listeners = new LinkedHashMap<>();
    /** what each control session served at once owns (RnicControl) */
    final ControlLedger controlLedger = new ControlLedger();

    /** @param recorder where every connection is recorded, or null */
    public Rnic(RnicConfig config, Recorder recorder) {
        this.config = config;
        this.recorder = recorder;
        this.memory = new MemoryTable(config.limits(), config.zeroBasedTo(), config.has(Bug.SEQUENTIAL_STAGS));
        // a completion that leaves the queue frees what its work request counted against the memory cap
        this.completions = new CompletionQueue(config.limits().maxQp()
                * (config.limits().maxSendWr() + config.limits().maxRecvWr()), memory::discharge);
    }

    public RnicConfig config() {
        return config;
    }

    public MemoryTable memory() {
        return memory;
    }

    public CompletionQueue completions() {
        return completions;
    }

    public EventQueue events() {
        return events;
    }

    Recorder recorder() {
        return recorder;
    }

    public ProtectionDomain defaultPd() {
        return defaultPd;
    }

    public ProtectionDomain allocPd() {
        return new ProtectionDomain(nextPd.getAndIncrement());
    }

    /** A fresh work request id (the DUT control protocol's ids). */
    public long nextWrId() {
        return nextWrId.getAndIncrement();
    }

    public MemoryRegion register(ProtectionDomain pd, int length, Set<Access> access) {
        return memory.register(pd, length, access);
    }

    public void deregister(MemoryRegion r) {
        memory.deregister(r);
    }

    /**
     * Posts {@code count} receives of {@code length} octets into buffers of the RNIC's own (completions carry their
     * first octets). Each buffer counts against the total memory cap from before it is allocated until its completion
     * leaves the completion queue, so a request for more than the cap allows is refused, not an OutOfMemoryError.
     *
     * @throws RnicException RESOURCE_LIMIT when the buffers would exceed a cap (none is posted then, when the whole
     *                       batch is over the cap at once)
     */
    public List<Long> postOwnRecv(QueuePair qp, int length, int count) {
        if (length < 0 || count < 0) {
            throw new RnicException(RnicException.Kind.BAD_REQUEST, "receives of " + count + " x " + length
                    + " octets");
        }
        if (length > config.limits().maxMrSize()) {
            throw new RnicException(RnicException.Kind.RESOURCE_LIMIT, "a receive buffer of " + length
                    + " octets exceeds the " + config.limits().maxMrSize() + "-octet cap of one buffer");
        }
        long total = (long) length * count;
        if (memory.used() + total > config.limits().maxMemory()) {
            throw new RnicException(RnicException.Kind.RESOURCE_LIMIT, count + " receive buffers of " + length
                    + " octets would take the RNIC's memory (" + memory.used() + " octets now) past its "
                    + config.limits().maxMemory() + "-octet cap");
        }
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long id = nextWrId();
            memory.charge(id, qp.qpn(), length);
            try {
                MemoryRegion buf = new MemoryRegion(-1, 0, 0, length, Set.of(Access.LOCAL_WRITE), qp.pd());
                qp.postRecv(new RecvRequest(id, buf, 0, length, true));
            } catch (RuntimeException e) {
                memory.discharge(id);
                throw e;
            }
            ids.add(id);
        }
        return ids;
    }

    /** Listens for connections on {@code bind} (port 0: any), with the {@link Admission#defaults default admission}. */
    public RnicListener listen(InetSocketAddress bind, boolean manual, ConnectionSettings settings)
            throws IOException {
        return listen(bind, manual, settings, Admission.defaults(config));
    }

    /** Listens for connections on {@code bind} (port 0: any), admitting them by {@code admission}. */
    public RnicListener listen(InetSocketAddress bind, boolean manual, ConnectionSettings settings,
                               Admission admission) throws IOException {
        int id = nextListener.getAndIncrement();
        RnicListener l = new RnicListener(this, id, bind, manual, settings, admission);
        synchronized (listeners) {
            listeners.put(id, l);
        }
        return l;
    }

    public RnicListener listener(int id) {
        synchronized (listeners) {
            RnicListener l = listeners.get(id);
            if (l == null) throw new RnicException(RnicException.Kind.NOT_FOUND, "no listener " + id);
            return l;
        }
    }

    public List<RnicListener> listeners() {
        synchronized (listeners) {
            return new ArrayList<>(listeners.values());
        }
    }

    public void closeListener(RnicListener l) {
        synchronized (listeners) {
            listeners.remove(l.id());
        }
        l.close();
    }

    /**
     * Connects to {@code target} as the MPA Initiator and waits until the connection is operational.
     *
     * @throws RnicException FAILED (refused, rejected, MPA error) or TIMEOUT
     */
    public QueuePair connect(InetSocketAddress target, ConnectionSettings s, long timeoutMs)
            throws InterruptedException {
        long start = System.nanoTime();
        Link link;
        try {
            link = Link.connect(target, (int) Math.max(1, timeoutMs), recorder);
        } catch (java.net.SocketTimeoutException e) {
            throw new RnicException(RnicException.Kind.TIMEOUT, "connecting to " + target + " timed out");
        } catch (IOException e) {
            throw new RnicException(RnicException.Kind.FAILED, "cannot connect to " + target + ": " + e.getMessage());
        }
        QueuePair qp = newQp(s.pd(), link, null, s.effective(config));
        if (qp == null) {
            link.abort();
            throw RnicException.limit("queue pairs", config.limits().maxQp());
        }
        try {
            postOwnRecv(qp, s.recvLength(), s.recvCount());
            qp.startInitiator(s.ird(), s.ord(), s.privateData());
        } catch (IOException e) {
            destroy(qp);
            throw new RnicException(RnicException.Kind.FAILED, "sending the MPA Request failed: " + e.getMessage());
        } catch (RnicException e) {
            destroy(qp);
            throw e;
        }
        long left = Math.max(1, timeoutMs - (System.nanoTime() - start) / 1_000_000L);
        if (!qp.awaitEstablished(left)) {
            String why = qp.failure();
            if (qp.state() == QueuePair.State.CONNECTING) {
                // knob mpa-terminate-without-reply: a Terminate instead of the reset
                if (qp.config.has(Bug.MPA_TERMINATE_WITHOUT_REPLY)) {
                    qp.terminateWithoutReply("no valid MPA Reply within " + timeoutMs + " ms");
                } else {
                    qp.abort();
                }
                throw new RnicException(RnicException.Kind.TIMEOUT, "no MPA Reply from " + target + " within "
                        + timeoutMs + " ms");
            }
            throw new RnicException(RnicException.Kind.FAILED, "connection to " + target + " failed: "
                    + (why != null ? why : qp.state().wireName()));
        }
        return qp;
    }

    public QueuePair qp(int qpn) {
        synchronized (qps) {
            QueuePair qp = qps.get(qpn);
            if (qp == null) throw new RnicException(RnicException.Kind.NOT_FOUND, "no queue pair " + qpn);
            return qp;
        }
    }

    /** Whether {@code qp} is still one of this RNIC's (not destroyed, e.g. by a reset). */
    boolean holds(QueuePair qp) {
        synchronized (qps) {
            return qps.get(qp.qpn()) == qp;
        }
    }

    public List<QueuePair> qps() {
        synchronized (qps) {
            return new ArrayList<>(qps.values());
        }
    }

    /** A new queue pair on {@code link}, or null (and the link closed) at the queue pair cap. */
    QueuePair newQp(ProtectionDomain pd, Link link, RnicListener listener, RnicConfig effective) {
        // at the cap, a queue pair whose connection is gone makes room (its completions stay with the CQ); state()
        // takes the queue pair's lock, so it is read outside this map's (closed() takes them the other way round)
        java.util.List<QueuePair> all;
        synchronized (qps) {
            all = qps.size() >= config.limits().maxQp() ? new java.util.ArrayList<>(qps.values()) : java.util.List.of();
        }
        QueuePair gone = null;
        for (QueuePair q : all) {
            if (q.state() == QueuePair.State.CLOSED && (gone == null || q.qpn() < gone.qpn())) gone = q;
        }
        synchronized (qps) {
            if (gone != null && qps.size() >= config.limits().maxQp()) qps.remove(gone.qpn(), gone);
            if (qps.size() >= config.limits().maxQp()) {
                event(new AsyncEvent(AsyncEvent.Type.RESOURCE_LIMIT, -1, null, "connection from " + link.remote()
                        + " refused: queue pair cap of " + config.limits().maxQp() + " reached"));
                link.abort();
                return null;
            }
            QueuePair qp = new QueuePair(this, nextQp.getAndIncrement(), pd, link, listener, effective);
            qps.put(qp.qpn(), qp);
            return qp;
        }
    }

    /** A queue pair's connection is gone; its number stays known until {@link #destroy}. */
    void closed(QueuePair qp) {
        // kept for its completions and state; destroyed by the user (or when the cap needs room)
        synchronized (qps) {
            if (qps.size() >= config.limits().maxQp()) {
                qps.remove(qp.qpn());
            }
        }
    }

    /**
     * Closes a queue pair, waits up to {@code waitMs} for the close to complete (not on an interrupted thread: a
     * server told to stop goes at once, its interrupt kept) and {@linkplain #destroy destroys} it: how a server lets
     * go of a client's connection.
     */
    public void closeAndDestroy(QueuePair qp, long waitMs) {
        qp.close();
        try {
            if (!Thread.currentThread().isInterrupted()) qp.awaitClosed(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        destroy(qp);
    }

    /** Forgets a queue pair (closing it first when needed) and the completions of it nobody took. */
    public void destroy(QueuePair qp) {
        if (qp.state() != QueuePair.State.CLOSED) qp.abort();
        synchronized (qps) {
            qps.remove(qp.qpn());
        }
        memory.dischargeQp(qp.qpn());
        completions.drop(qp.qpn());
    }

    void event(AsyncEvent e) {
        events.add(e);
    }

    private final java.util.List<RuntimeException> internalErrors = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** A failure inside the RNIC itself (never the peer's doing): reported as an event and kept. */
    void internalError(QueuePair qp, RuntimeException e) {
        if (internalErrors.size() < 16) internalErrors.add(e);
        event(new AsyncEvent(AsyncEvent.Type.QP_FATAL, qp.qpn, null, "internal error of the emulated RNIC: " + e));
    }

    /** Failures inside the RNIC so far (a bug each: tests and the fuzz target assert there are none). */
    public java.util.List<RuntimeException> internalErrors() {
        return java.util.List.copyOf(internalErrors);
    }

    /** Destroys every queue pair, registration and listener (the control protocol's reset). */
    public void reset(Set<Integer> keepListeners) {
        for (RnicListener l : listeners()) {
            if (!keepListeners.contains(l.id())) closeListener(l);
            else l.forgetPending(); // its queued connections are destroyed below: none may be handed out later
        }
        for (QueuePair qp : qps()) destroy(qp);
        for (MemoryRegion r : memory.regions()) memory.deregister(r);
        try {
            completions.poll(-1, Integer.MAX_VALUE, 0, 0);
            events.poll(Integer.MAX_VALUE, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        for (RnicListener l : listeners()) closeListener(l);
        for (QueuePair qp : qps()) destroy(qp);
    }
}
