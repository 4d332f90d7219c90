package io.rddp.decode;

import io.rddp.Notice;
import io.rddp.capture.CaptureReader;
import io.rddp.mpa.Fpdu;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.tcp.Direction;
import io.rddp.tcp.FrameHeaders;
import io.rddp.tcp.TcpConnection;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs everything above MPA framing (DDP and RDMAP decoding, DDP message assembly, and the pipeline's listener: for
 * {@code rddp analyze} the RPC-over-RDMA layer and the sink model) on a thread of its own, fed by the thread that
 * reads the capture, decodes packets, reassembles TCP and frames FPDUs (checking their CRCs). The reading half is
 * the busier one on busy captures, so two threads make a warm pass only 10-20 % faster than one.
 *
 * <p>Why split the layers and not the connections: the sink model's STag rules span streams (an STag of one owner
 * seen on two streams, RFC 5042 §6.1.1; one invalidated on another stream, §6.2.2), so its verdicts depend on the
 * order of frames across connections. The upper half receives every event in capture order, so the listener sees
 * exactly what a single-threaded pass gives it, event for event.
 *
 * <p>Events travel in batches through a bounded queue (the reader waits when the upper half is that far behind, so
 * memory stays bounded). The FPDUs they carry are views of the capture's read windows, or of arrays the MPA decoder
 * no longer writes ({@link io.rddp.mpa.MpaDecoder#detachViews}). A read window stays valid until the reader is told
 * that no batch in flight refers to it any more ({@link #oldestWindowInUse}; {@link CaptureReader#recycleWindows}).
 */
final class AboveMpaThread implements Downstream {
    /** Events per batch: large enough that the queue's locking is a small cost per FPDU. */
    static final int BATCH = 1024;
    /**
     * Batches in flight at most. Few: the queue only evens out the two halves' pace, and every batch in it keeps
     * its read windows and some 1024 parsed FPDUs alive. With 32, a 256 MiB heap held some 80 MiB of them and spent
     * a third of a GUI load in the collector (a 2 GB capture: 7-9 s with 32, 3 s with 4, `rddp analyze` no slower).
     */
    static final int QUEUE_BATCHES = 4;
    private static final Object[] END = new Object[0];

    private final PduEmitter above;
    private final ReplayClock clock;
    private final PduEmitter.Clock readerClock;
    private final BlockingQueue<Object[]> queue = new ArrayBlockingQueue<>(QUEUE_BATCHES);
    private final Thread thread;
    private Object[] batch = new Object[BATCH];
    private int size;
    private volatile Throwable failure;

    // Read windows the batches refer to. An FPDU event refers at most to the window of the frame being read when it
    // was added (FPDUs framed across segments are the MPA decoder's own arrays), so a batch refers to no window
    // before the one current when its first event was added. The reading thread keeps those numbers for the batches
    // in flight; the upper half counts the batches it has finished.
    private static final int IN_FLIGHT = 64; // more than the queue holds plus the batch being replayed
    private final CaptureReader windows;
    private final long[] firstWindow = new long[IN_FLIGHT];
    private long batchWindow;
    private long handed;
    private volatile long finished;

    /**
     * @param above       the upper half, run on the new thread; its clock must be {@code clock}
     * @param clock       the upper half's clock, set to each event's frame before it is replayed
     * @param readerClock the reading thread's clock, read when an event is handed over
     * @param windows     the reader whose window numbers events are tagged with
     */
    AboveMpaThread(PduEmitter above, ReplayClock clock, PduEmitter.Clock readerClock, CaptureReader windows) {
        this.windows = windows;
        this.above = above;
        this.clock = clock;
        this.readerClock = readerClock;
        this.thread = new Thread(this::loop, "rddp-above-mpa");
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
                    ((Event) e).replay(this);
                }
                finished++; // only this thread writes it
            }
        } catch (Throwable t) {
            failure = t;
            queue.clear(); // unblock a reader waiting for room
        }
    }

    /** Hands over what is batched, waits until the upper half has seen everything, and rethrows its failure. */
    void finish() {
        flush();
        put(END);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the layers above MPA finished", e);
        }
        rethrow();
    }

    /** After a failure of the reading thread: the upper half stops without being waited for. */
    void abandon() {
        thread.interrupt();
    }

    /**
     * The oldest read window a batch not yet finished may refer to ({@code current}, the window of the frame being
     * read, when none). Called by the reading thread.
     */
    long oldestWindowInUse(long current) {
        long f = finished;
        if (f < handed) return firstWindow[(int) (f % IN_FLIGHT)];
        return size > 0 ? batchWindow : current;
    }

    private void add(Event e) {
        if (size == 0) batchWindow = windows.window();
        batch[size++] = e;
        if (size == BATCH) flush();
    }

    private void flush() {
        if (size == 0) return;
        Object[] b = batch;
        batch = new Object[BATCH];
        size = 0;
        firstWindow[(int) (handed % IN_FLIGHT)] = batchWindow;
        handed++;
        put(b);
    }

    private void put(Object[] b) {
        try {
            // bounded waits: an upper half that died must not leave the reader blocked for ever
            while (!queue.offer(b, 100, TimeUnit.MILLISECONDS)) {
                rethrow();
                if (!thread.isAlive()) throw new IllegalStateException("the decoding thread above MPA ended early");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing FPDUs over", e);
        }
        rethrow();
    }

    private void rethrow() {
        Throwable t = failure;
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        if (t != null) throw new IllegalStateException(t);
    }

    /** The clock of the upper half: the frame and times of the event being replayed. */
    static final class ReplayClock implements PduEmitter.Clock {
        long frame, timestamp, firstTimestamp;
        /** an earlier frame whose time the reader resolved for this event (-1: none) */
        long earlierFrame = -1, earlierTimestamp;
        /** the headers of {@link #frame} the reader resolved for this event, or null */
        FrameHeaders headers;

        @Override
        public FrameHeaders headers(TcpConnection c, Direction d, long f) {
            return f == frame ? headers : null;
        }

        @Override
        public long frame() {
            return frame;
        }

        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public long firstTimestamp() {
            return firstTimestamp;
        }

        @Override
        public boolean remembers(long f) {
            return f == earlierFrame;
        }

        @Override
        public long timestampOf(long f) {
            return earlierTimestamp;
        }
    }

    // ---------------------------------------------------------------- events, in the order they happened

    private abstract static class Event {
        abstract void replay(AboveMpaThread t);
    }

    /** The reading thread's clock when the event happened, for the events whose PDUs carry times. */
    private record Time(long frame, long timestamp, long firstTimestamp, long earlierFrame, long earlierTimestamp,
                        FrameHeaders headers) {
        void apply(ReplayClock c) {
            c.headers = headers;
            c.frame = frame;
            c.timestamp = timestamp;
            c.firstTimestamp = firstTimestamp;
            c.earlierFrame = earlierFrame;
            c.earlierTimestamp = earlierTimestamp;
        }
    }

    private Time now(long earlier, TcpConnection c, Direction d) {
        PduEmitter.Clock r = readerClock;
        boolean known = earlier >= 0 && r.remembers(earlier);
        return new Time(r.frame(), r.timestamp(), r.firstTimestamp(), known ? earlier : -1,
                known ? r.timestampOf(earlier) : 0, r.headers(c, d, r.frame()));
    }

    private static final class FpduEvent extends Event {
        final TcpConnection c;
        final Direction d;
        final Fpdu fpdu;
        final PduEmitter.Parsed parsed;
        final Time time;

        FpduEvent(TcpConnection c, Direction d, Fpdu fpdu, PduEmitter.Parsed parsed, Time time) {
            this.c = c;
            this.d = d;
            this.fpdu = fpdu;
            this.parsed = parsed;
            this.time = time;
        }

        void replay(AboveMpaThread t) {
            time.apply(t.clock);
            t.above.onFpdu(c, d, fpdu, parsed);
        }
    }

    private static final class StartFrameEvent extends Event {
        final TcpConnection c;
        final Direction d;
        final MpaStartFrame start;
        final long offset, firstFrame, frameNo;
        final Time time;

        StartFrameEvent(TcpConnection c, Direction d, MpaStartFrame start, long offset, long firstFrame, long frameNo,
                        Time time) {
            this.c = c;
            this.d = d;
            this.start = start;
            this.offset = offset;
            this.firstFrame = firstFrame;
            this.frameNo = frameNo;
            this.time = time;
        }

        void replay(AboveMpaThread t) {
            time.apply(t.clock);
            t.above.onStartFrame(c, d, start, offset, firstFrame, frameNo);
        }
    }

    /** The events without times: connection facts, notices and framing errors. */
    private static final class Call extends Event {
        final java.util.function.Consumer<Downstream> call;

        Call(java.util.function.Consumer<Downstream> call) {
            this.call = call;
        }

        void replay(AboveMpaThread t) {
            call.accept(t.above);
        }
    }

    @Override
    public void onFpdu(TcpConnection c, Direction d, Fpdu fpdu) {
        // headers parsed here, while this thread's cache holds the octets it just framed and checked
        add(new FpduEvent(c, d, fpdu, PduEmitter.Parsed.of(fpdu), now(fpdu.inferred() ? fpdu.frame() : -1, c, d)));
    }

    @Override
    public void onStartFrame(TcpConnection c, Direction d, MpaStartFrame start, long offset, long firstFrame,
                             long frameNo) {
        add(new StartFrameEvent(c, d, start, offset, firstFrame, frameNo, now(-1, c, d)));
    }

    @Override
    public void onMarkerError(TcpConnection c, Direction d, long offset, long frame, String detail) {
        add(new Call(a -> a.onMarkerError(c, d, offset, frame, detail)));
    }

    @Override
    public void onNotice(Notice notice) {
        add(new Call(a -> a.onNotice(notice)));
    }

    @Override
    public void onConnection(TcpConnection c) {
        add(new Call(a -> a.onConnection(c)));
    }

    @Override
    public void onGap(TcpConnection c, Direction d, long offset, long length, long frame) {
        add(new Call(a -> a.onGap(c, d, offset, length, frame)));
    }

    @Override
    public void onClose(TcpConnection c, Direction d, boolean reset, long frame) {
        add(new Call(a -> a.onClose(c, d, reset, frame)));
    }

    @Override
    public void onConnectionEnd(TcpConnection c, long frame, boolean captureEnded) {
        add(new Call(a -> a.onConnectionEnd(c, frame, captureEnded)));
    }

    @Override
    public void endAll() {
        add(new Call(Downstream::endAll));
    }
}
