package io.rddp.rnic.link;

import io.rddp.tcp.Direction;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;

/**
 * One TCP connection of a live iWARP endpoint: reads with a timeout, writes, FIN and RST, everything recorded when a
 * {@link Recorder} is given. Directions are named as in captures: the side that connected is the client. A reset is
 * reported after the bytes that came before it, which are never lost (a peer that sends a Terminate and then resets
 * has still sent its Terminate).
 */
public final class Link implements Closeable {

    /** How the peer's side of the connection ended. */
    public enum PeerClose { OPEN, FIN, RST }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final boolean weConnected;
    private final Recorder.Connection recording;
    private final Object writeLock = new Object();
    private volatile PeerClose peerClose = PeerClose.OPEN;
    private volatile boolean outputShut;
    private volatile boolean closed;
    /** how long one write may block on a peer that reads nothing, in ms (0: for ever) */
    private volatile int writeTimeoutMs;
    private volatile boolean writeStuck;

    /** Resets connections whose write is stuck: a socket write has no timeout of its own. */
    private static final java.util.concurrent.ScheduledThreadPoolExecutor WATCHDOG = watchdog();

    private static java.util.concurrent.ScheduledThreadPoolExecutor watchdog() {
        var w = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "link-write-watchdog");
            t.setDaemon(true);
            return t;
        });
        w.setRemoveOnCancelPolicy(true); // one task per write: cancelled ones must not pile up
        return w;
    }

    public Link(Socket socket, boolean weConnected, Recorder recorder) throws IOException {
        this.socket = socket;
        this.weConnected = weConnected;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        InetSocketAddress local = (InetSocketAddress) socket.getLocalSocketAddress();
        InetSocketAddress remote = (InetSocketAddress) socket.getRemoteSocketAddress();
        this.recording = recorder == null ? null
                : weConnected ? recorder.open(local, remote, inbound()) : recorder.open(remote, local, inbound());
    }

    /** Connects to {@code target} within {@code timeoutMs}. */
    public static Link connect(InetSocketAddress target, int timeoutMs, Recorder recorder) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(target, timeoutMs);
            return new Link(s, true, recorder);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** The direction of what this side sends. */
    public Direction outbound() {
        return weConnected ? Direction.CLIENT_TO_SERVER : Direction.SERVER_TO_CLIENT;
    }

    /** The direction of what the peer sends. */
    public Direction inbound() {
        return outbound().reverse();
    }

    public boolean weConnected() {
        return weConnected;
    }

    public InetSocketAddress local() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    public InetSocketAddress remote() {
        return (InetSocketAddress) socket.getRemoteSocketAddress();
    }

    public PeerClose peerClose() {
        return peerClose;
    }

    /**
     * A write that blocks longer than {@code ms} (the peer reads nothing and the socket buffers are full) resets the
     * connection and fails, instead of blocking for ever; 0: no limit.
     */
    public Link writeTimeout(int ms) {
        this.writeTimeoutMs = Math.max(0, ms);
        return this;
    }

    /**
     * Reads what the peer sent into {@code buf}, waiting at most {@code timeoutMs}.
     *
     * @return octets read, 0 when the time passed with nothing to read, -1 once the peer closed (FIN or RST, see
     *         {@link #peerClose()})
     */
    public int read(byte[] buf, int timeoutMs) throws IOException {
        if (peerClose != PeerClose.OPEN || closed) return -1;
        try {
            socket.setSoTimeout(Math.max(1, timeoutMs));
            int n = in.read(buf);
            if (n < 0) {
                peerClose = PeerClose.FIN;
                if (recording != null) recording.fin(inbound());
                return -1;
            }
            if (recording != null) recording.data(inbound(), buf, 0, n);
            return n;
        } catch (SocketTimeoutException e) {
            return 0;
        } catch (SocketException e) {
            if (closed) return -1;
            // "Connection reset": everything queued before the RST was read by earlier calls
            peerClose = PeerClose.RST;
            if (recording != null) recording.reset(inbound());
            return -1;
        }
    }

    /**
     * Sends {@code len} octets. They are recorded before they go out: a peer's answer, recorded by the reading
     * thread, must never come before what it answers in the capture.
     */
    public void write(byte[] bytes, int off, int len) throws IOException {
        synchronized (writeLock) {
            if (outputShut || closed) throw new IOException("connection already closed for sending");
            if (recording != null) recording.data(outbound(), bytes, off, len);
            int limit = writeTimeoutMs;
            java.util.concurrent.ScheduledFuture<?> dog = limit > 0
                    ? WATCHDOG.schedule(this::writeStuck, limit, java.util.concurrent.TimeUnit.MILLISECONDS) : null;
            try {
                out.write(bytes, off, len);
                out.flush();
            } catch (IOException e) {
                if (writeStuck) {
                    throw new IOException("the peer read nothing for " + limit + " ms while " + len
                            + " octets waited to be sent: the connection was reset", e);
                }
                throw e;
            } finally {
                if (dog != null) dog.cancel(false);
            }
        }
    }

    /** The watchdog's end of a stuck write: RST without the write lock, which the blocked writer holds. */
    private void writeStuck() {
        writeStuck = true;
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // closing below still ends it
        }
        if (recording != null) recording.reset(outbound());
        closeQuietly();
    }

    public void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    /** FIN: this side sends nothing more; reading goes on. */
    public void finish() {
        synchronized (writeLock) {
            if (outputShut || closed) return;
            outputShut = true;
            try {
                socket.shutdownOutput();
                if (recording != null) recording.fin(outbound());
            } catch (IOException e) {
                // the peer already went away: nothing to finish
            }
        }
    }

    /** RST: the connection is dropped at once. */
    public void abort() {
        synchronized (writeLock) {
            if (closed) return;
            try {
                socket.setSoLinger(true, 0);
            } catch (IOException e) {
                // closing below still ends it
            }
            if (recording != null) recording.reset(outbound());
            closeQuietly();
        }
    }

    /** Octets received and not read yet (0 when unknown or closed): never blocks. */
    public int available() {
        if (closed) return 0;
        try {
            return in.available();
        } catch (IOException e) {
            return 0;
        }
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        synchronized (writeLock) {
            if (closed) return;
            if (!outputShut && recording != null && peerClose == PeerClose.OPEN) recording.fin(outbound());
            closeQuietly();
        }
    }

    private void closeQuietly() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do with it
        }
    }
}
