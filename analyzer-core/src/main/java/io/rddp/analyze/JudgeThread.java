package io.rddp.analyze;

import io.rddp.Notice;
import io.rddp.ddp.DdpMessage;
import io.rddp.decode.Pdu;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs the judge (the sink model and the report) on a thread of its own, fed by the decoding thread through a
 * bounded queue of event batches, so decoding (capture → TCP → MPA → DDP → RDMAP → RPC-over-RDMA) and judging use
 * two cores.
 *
 * <p>Why a pipeline and not connections spread over workers: the model's STag rules span streams (an STag of one
 * owner seen on two streams, RFC 5042 §6.1.1; one invalidated on another stream, §6.2.2), so its verdicts depend on
 * the order of frames across connections. One judge fed in capture order gives exactly the single-threaded report,
 * event for event.
 *
 * <p>The judge reads no payload octets (the PDU records carry everything it needs, and ULP advertisements are read
 * on the decoding thread, see {@link UlpProfile#advertisement}); views in the PDUs it receives may already have been
 * reused by the reader.
 */
final class JudgeThread implements RpcRdmaListener {
    /** Events per batch: large enough that the queue's locking is a small cost per PDU. */
    static final int BATCH = 1024;
    /** Batches in flight at most: the decoder waits when the judge is this far behind (memory stays bounded). */
    static final int QUEUE_BATCHES = 32;
    private static final Object[] END = new Object[0];

    /** What the judge thread runs each event against. */
    interface Judge extends RpcRdmaListener {
        void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move, UlpProfile.Advertisement advertisement);
    }

    private final Judge judge;
    private final UlpProfile profile;
    private final BlockingQueue<Object[]> queue = new ArrayBlockingQueue<>(QUEUE_BATCHES);
    private final Thread thread;
    private Object[] batch = new Object[BATCH];
    private int size;
    private volatile Throwable failure;

    JudgeThread(Judge judge, UlpProfile profile) {
        this.judge = judge;
        this.profile = profile;
        this.thread = new Thread(this::loop, "rddp-judge");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (true) {
                Object[] b = queue.take();
                if (b == END) return;
                for (Object e : b) {
                    if (e == null) break;
                    ((Event) e).replay(judge);
                }
            }
        } catch (Throwable t) {
            failure = t;
            queue.clear(); // unblock a decoder waiting for room
        }
    }

    /** Hands over what is batched, waits for the judge to finish everything, and rethrows what it failed with. */
    void finish() {
        flush();
        put(END);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the judge finished", e);
        }
        rethrow();
    }

    private void add(Event e) {
        batch[size++] = e;
        if (size == BATCH) flush();
    }

    private void flush() {
        if (size == 0) return;
        Object[] b = batch;
        batch = new Object[BATCH];
        size = 0;
        put(b);
    }

    private void put(Object[] b) {
        try {
            // bounded wait: a judge that died must not leave the decoder blocked for ever
            while (!queue.offer(b, 100, TimeUnit.MILLISECONDS)) {
                rethrow();
                if (!thread.isAlive()) throw new IllegalStateException("the judge thread ended early");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing PDUs to the judge", e);
        }
        rethrow();
    }

    private void rethrow() {
        Throwable t = failure;
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        if (t != null) throw new IllegalStateException(t);
    }

    // ---------------------------------------------------------------- events, in the order they happened

    private interface Event {
        void replay(Judge j);
    }

    private record PduEvent(Pdu pdu, RpcRdmaMessage message, ChunkMove move, UlpProfile.Advertisement ad)
            implements Event {
        public void replay(Judge j) {
            j.onPdu(pdu, message, move, ad);
        }
    }

    private record MessageEvent(TcpConnection c, Direction d, DdpMessage m) implements Event {
        public void replay(Judge j) {
            j.onMessage(c, d, m);
        }
    }

    private record NoticeEvent(Notice n) implements Event {
        public void replay(Judge j) {
            j.onNotice(n);
        }
    }

    private record ConnectionEvent(TcpConnection c) implements Event {
        public void replay(Judge j) {
            j.onConnection(c);
        }
    }

    private record GapEvent(TcpConnection c, Direction d, long offset, long length, long frame) implements Event {
        public void replay(Judge j) {
            j.onGap(c, d, offset, length, frame);
        }
    }

    private record FramingErrorEvent(TcpConnection c, Direction d, long frame, String detail) implements Event {
        public void replay(Judge j) {
            j.onFramingError(c, d, frame, detail);
        }
    }

    private record ConnectionEndEvent(TcpConnection c, long frame, boolean captureEnded) implements Event {
        public void replay(Judge j) {
            j.onConnectionEnd(c, frame, captureEnded);
        }
    }

    private record CloseEvent(TcpConnection c, Direction d, boolean reset, long frame) implements Event {
        public void replay(Judge j) {
            j.onClose(c, d, reset, frame);
        }
    }

    @Override
    public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
        add(new PduEvent(pdu, message, move, profile.advertisement(pdu)));
    }

    @Override
    public void onMessage(TcpConnection connection, Direction direction, DdpMessage message) {
        add(new MessageEvent(connection, direction, message));
    }

    @Override
    public void onNotice(Notice notice) {
        add(new NoticeEvent(notice));
    }

    @Override
    public void onConnection(TcpConnection connection) {
        add(new ConnectionEvent(connection));
    }

    @Override
    public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
        add(new GapEvent(connection, direction, offset, length, frame));
    }

    @Override
    public void onFramingError(TcpConnection connection, Direction direction, long frame, String detail) {
        add(new FramingErrorEvent(connection, direction, frame, detail));
    }

    @Override
    public void onConnectionEnd(TcpConnection connection, long frame, boolean captureEnded) {
        add(new ConnectionEndEvent(connection, frame, captureEnded));
    }

    @Override
    public void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
        add(new CloseEvent(connection, direction, reset, frame));
    }
}
