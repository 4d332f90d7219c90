package io.rddp.rnic;

import io.rddp.rnic.link.Link;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A listening endpoint (the passive side of RFC 5044 §7.1: the Responder). With automatic accept every connection
 * gets its receives posted and its MPA Reply as soon as the Request arrives; with manual accept it waits, MPA
 * Request received and no Reply sent, until {@link #accept} takes it. Either way {@link #accept} hands connections
 * out in arrival order. Bounded: its {@link Admission} caps the connections in the MPA start-up and the established
 * ones, overall and per remote address, and resets established connections that go idle; connections beyond the
 * RNIC's queue pair cap are refused, and at most {@code maxPending} wait to be handed out.
 */
public final class RnicListener implements Closeable {

    private final Rnic rnic;
    private final int id;
    private final ServerSocket server;
    private volatile boolean manual;
    private volatile ConnectionSettings settings;
    private volatile java.util.function.Function<InetSocketAddress, ConnectionSettings> chooser;
    private final AdmissionControl admission;
    private final BlockingQueue<QueuePair> ready;
    private final Thread thread;
    private volatile boolean closed;

    /** Connections the kernel completes before the accept loop takes them (a flood of them must not drop a SYN). */
    private static final int BACKLOG = 512;

    RnicListener(Rnic rnic, int id, InetSocketAddress bind, boolean manual, ConnectionSettings settings,
                 Admission admission) throws IOException {
        this.rnic = rnic;
        this.id = id;
        this.manual = manual;
        this.settings = settings;
        this.ready = new ArrayBlockingQueue<>(rnic.config().limits().maxPending());
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        try {
            server.bind(bind, BACKLOG);
        } catch (IOException e) {
            server.close();
            throw e;
        }
        this.admission = new AdmissionControl(rnic, "listener " + port(), admission);
        this.thread = new Thread(this::acceptLoop, "rnic-listen-" + port());
        thread.setDaemon(true);
        thread.start();
    }

    public int id() {
        return id;
    }

    public int port() {
        return server.getLocalPort();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    public boolean manual() {
        return manual;
    }

    /** Manual or automatic accept for connections arriving from now on. */
    public void manual(boolean m) {
        manual = m;
    }

    /** Settings for connections arriving from now on. */
    public void settings(ConnectionSettings s) {
        settings = s;
    }

    public ConnectionSettings settings() {
        return settings;
    }

    /**
     * Settings chosen per arriving connection by its remote address (an application that tells its connections apart
     * by who opens them, as perftest's server does); null: {@link #settings()} for all.
     */
    public void settingsBy(java.util.function.Function<InetSocketAddress, ConnectionSettings> f) {
        chooser = f;
    }

    public Admission admission() {
        return admission.admission();
    }

    /** Admission for connections arriving from now on (caps count the connections already there). */
    public void admission(Admission a) {
        admission.admission(java.util.Objects.requireNonNull(a, "admission"));
    }

    /**
     * The next connection, waiting up to {@code timeoutMs}; null when none arrived. Manual listeners accept it with
     * {@code s} (or the listener's settings when null): receives posted, then the Reply.
     */
    public QueuePair accept(long timeoutMs, ConnectionSettings s) throws InterruptedException {
        return acceptChoosing(timeoutMs, qp -> s);
    }

    /**
     * {@link #accept(long, ConnectionSettings)} with the settings chosen per connection from what its MPA Request
     * said ({@link QueuePair#peerStartFrame}): a ULP answers the Request's private data in its Reply (RFC 8797 §5).
     * Automatic listeners have sent their Reply already and ignore {@code choose}.
     */
    public QueuePair acceptChoosing(long timeoutMs, java.util.function.Function<QueuePair, ConnectionSettings> choose)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            QueuePair qp = ready.poll(Math.max(0, left), TimeUnit.MILLISECONDS);
            if (qp == null) return null;
            if (!rnic.holds(qp)) continue; // destroyed (a reset, or reaped by the admission) while it waited
            if (!manual) {
                qp.handedOut = true; // from now on the admission leaves it to the caller to destroy
                return qp;
            }
            ConnectionSettings chosen = choose.apply(qp);
            ConnectionSettings use = chosen != null ? chosen : settings;
            try {
                rnic.postOwnRecv(qp, use.recvLength(), use.recvCount());
                qp.accept(use.accept());
                qp.handedOut = true;
                // at an established cap it may be reset right away: the caller sees why in its failure
                if (qp.state() == QueuePair.State.RTS) admitEstablished(qp);
                return qp;
            } catch (RnicException e) {
                if (e.kind() == RnicException.Kind.RESOURCE_LIMIT) rnic.destroy(qp); // refused, not left waiting
                if (e.kind() != RnicException.Kind.STATE) throw e;
                // that connection failed while it waited (the peer went away): take the next one
            }
        }
    }

    /**
     * Forgets the connections waiting to be handed out (a reset of the DUT control protocol destroys them): the next
     * {@link #accept} returns a connection that arrives after this call.
     */
    void forgetPending() {
        ready.clear();
    }

    /** A queue pair of this listener completed its MPA exchange: true when the established caps let it stay. */
    boolean admitEstablished(QueuePair qp) {
        return admission.established(qp);
    }

    /** Called by a queue pair when it is ready to be handed out. */
    void ready(QueuePair qp) {
        // a reset may have destroyed it between its arrival and now (VerbsTest saw one handed out after a reset)
        if (!rnic.holds(qp)) return;
        if (ready.offer(qp)) return;
        if (manual) {
            qp.abort(); // nobody accepts: refuse rather than hold resources without bound
            rnic.event(new AsyncEvent(AsyncEvent.Type.RESOURCE_LIMIT, qp.qpn, null, "listener " + port() + ": more than "
                    + rnic.config().limits().maxPending() + " connections wait for an accept; refused"));
        } else {
            ready.poll(); // the oldest one stays connected, it is just no longer handed out
            ready.offer(qp);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) rnic.event(new AsyncEvent(AsyncEvent.Type.CONNECT_ERROR, -1, null, "listener " + port()
                        + ": " + e.getMessage()));
                return;
            }
            try {
                InetSocketAddress remote = (InetSocketAddress) s.getRemoteSocketAddress();
                admission.arriving(remote.getAddress());
                java.util.function.Function<InetSocketAddress, ConnectionSettings> f = chooser;
                ConnectionSettings chosen = f != null ? f.apply(remote) : null;
                ConnectionSettings use = chosen != null ? chosen : settings;
                Admission a = admission.admission();
                Link link = new Link(s, false, rnic.recorder());
                if (!a.idleTimeout().isZero()) {
                    // a peer that reads nothing while this side writes is as idle as one that sends nothing
                    link.writeTimeout((int) Math.min(Integer.MAX_VALUE, a.idleTimeout().toMillis()));
                }
                QueuePair qp = rnic.newQp(use.pd(), link, this, use.effective(rnic.config()));
                if (qp == null) continue; // refused at the queue pair cap (newQp said why)
                qp.idleTimeout(a.idleTimeout());
                admission.add(qp, remote.getAddress());
                if (!manual) {
                    try {
                        rnic.postOwnRecv(qp, use.recvLength(), use.recvCount());
                    } catch (RnicException e) {
                        rnic.destroy(qp); // refused: its receives would exceed the memory cap
                        throw e;
                    }
                }
                qp.startResponder(manual ? null : use.accept());
            } catch (IOException | RnicException e) {
                rnic.event(new AsyncEvent(AsyncEvent.Type.CONNECT_ERROR, -1, null, "listener " + port() + ": "
                        + e.getMessage()));
                try {
                    s.close();
                } catch (IOException ignored) {
                    // already gone
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // nothing to do
        }
        QueuePair qp;
        while ((qp = ready.poll()) != null) {
            if (qp.state() != QueuePair.State.RTS) qp.abort();
        }
    }
}
