package io.rddp.gui.model;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.AnalysisLimits;
import io.rddp.analyze.Analyzer;
import io.rddp.analyze.UlpProfile;
import io.rddp.capture.CaptureReader;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduSummary;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rdmap.TerminateCodes;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.sink.Delivery;
import io.rddp.sink.Severity;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.StreamSummary;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * One capture in the window, file or live: a single pass of the {@link Analyzer} (the CLI's decode and sink model)
 * fills the packet index, the field store, the violations, the stream rows and the data of the two pictures. The GUI
 * holds no protocol logic: every field, verdict and count comes from those events.
 * <p>
 * {@link #load} runs on a background thread; the other methods may be called from any thread and return copies.
 * Everything is bounded: the index by {@code maxRows} (a ring for live captures), the pictures by per-stream and
 * per-STag caps, violations by the analyzer's report cap; the field trees live in a temporary file.
 */
public final class CaptureSession implements Closeable {
    /** PDU octets kept for the hex pane: the headers of every opcode and the start of the payload. */
    public static final int BYTES_KEPT = 96;
    static final int MAX_EVENTS_PER_STREAM = 20_000;
    static final int MAX_ACCESSES_PER_STAG = 20_000;
    static final int MAX_PICTURE_KEYS = 2_000;
    static final int MAX_STREAM_ROWS = 10_000;
    /** The smallest heap the two-thread pass is used in (the launchers give the window 256 MiB). */
    static final long TWO_THREAD_HEAP = 192L << 20;

    private final String name;
    private final PduIndex index;
    private final DetailStore store;
    private final List<Violation> violations = new ArrayList<>();
    private final Map<Long, List<Violation>> violationsByFrame = new HashMap<>();
    /** Frames of warnings and errors (info findings, e.g. an STag nothing registered, do not paint pictures red). */
    private final TreeSet<Long> violationFrames = new TreeSet<>();
    private final Map<Integer, StreamStats> streams = new TreeMap<>();
    /** The ladder's arrows per stream, as numbers: labels are made for the stream on show only. */
    private final Map<Integer, LadderColumns> ladder = new TreeMap<>();
    /** Terminate arrow labels whose PDU came before the delivery that makes the arrow (stream@frame). */
    private final Map<String, String> terminateLabels = new HashMap<>();
    private final Map<Integer, Deque<Integer>> pendingRequests = new HashMap<>(); // stream*2+dir -> event indexes
    private final Map<Long, List<Access>> placements = new TreeMap<>(Long::compareUnsigned);
    private long droppedEvents;
    private volatile long pdus;
    private volatile Analysis result;
    private volatile String error;

    public CaptureSession(String name, long maxRows) throws IOException {
        this.name = name;
        this.index = new PduIndex(maxRows);
        this.store = new DetailStore();
    }

    public String name() {
        return name;
    }

    public PduIndex index() {
        return index;
    }

    public DetailStore store() {
        return store;
    }

    /**
     * Runs the analysis over {@code reader} to its end (or until a live capture stops), calling {@code published}
     * with the number of rows readable so far at most every {@code publishMillis} ms and at the end.
     */
    public Analysis load(CaptureReader reader, long publishMillis, LongConsumer published) throws IOException {
        return load(reader, publishMillis, publishMillis, published);
    }

    /** As {@link #load(CaptureReader, long, LongConsumer)}, the first rows published after {@code firstMillis}. */
    public Analysis load(CaptureReader reader, long firstMillis, long publishMillis, LongConsumer published)
            throws IOException {
        Loader loader = new Loader();
        Analysis a;
        // published on a clock, not per frame: a live capture that went quiet still shows its last rows
        java.util.concurrent.ScheduledExecutorService clock = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "rddp-publish");
                    t.setDaemon(true);
                    return t;
                });
        clock.scheduleWithFixedDelay(() -> publish(published), firstMillis, publishMillis,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        try {
            // two threads, as `rddp analyze` runs: TCP, MPA framing and CRCs on one, the layers above, the sink
            // model and this observer on the other (a live or compressed capture stays on one: DecodePipeline).
            // The batches between them hold read windows in flight (tens of MiB): a small heap loads on one.
            int threads = Runtime.getRuntime().maxMemory() >= TWO_THREAD_HEAP ? 2 : 1;
            a = new Analyzer(AnalysisLimits.defaults(), StagRegistry.empty(), UlpProfile.NONE).frameHeaders(true)
                    .observe(loader)
                    .threads(threads).run(reader, () -> { });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            clock.shutdownNow();
            try {
                clock.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        result = a;
        error = a.error();
        publish(published);
        return a;
    }

    private long lastPublished = -1;

    private synchronized void publish(LongConsumer published) {
        long n = index.size(); // every row below n has its record appended: flush makes it readable
        try {
            store.flush();
        } catch (IOException e) {
            return; // the store was closed under a live capture: nothing more to show
        }
        if (n == lastPublished && result == null) return;
        lastPublished = n;
        published.accept(n);
    }

    /** The analysis' result once {@link #load} returned, else null. */
    public Analysis result() {
        return result;
    }

    /** Where reading stopped early (a damaged file), or null. */
    public String error() {
        return error;
    }

    public long pdus() {
        return pdus;
    }

    // ---- queries (any thread) ----

    public synchronized List<Violation> violations() {
        return new ArrayList<>(violations);
    }

    public synchronized List<Violation> violationsAt(long frame) {
        List<Violation> v = violationsByFrame.get(frame);
        return v == null ? List.of() : new ArrayList<>(v);
    }

    public synchronized List<StreamStats> streams() {
        List<StreamStats> out = new ArrayList<>();
        for (StreamStats s : streams.values()) out.add(s.copy());
        return out;
    }

    /** Streams that have ladder events. */
    public synchronized List<Integer> ladderStreams() {
        return new ArrayList<>(ladder.keySet());
    }

    /** The arrows of one stream, in order, with their violation marks as known now. */
    public synchronized List<LadderEvent> ladder(int stream) {
        LadderColumns events = ladder.get(stream);
        if (events == null) return List.of();
        List<LadderEvent> out = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            out.add(events.get(i, hasViolation(events.firstFrame(i), events.lastFrame(i))));
        }
        return out;
    }

    public synchronized List<Long> stags() {
        return new ArrayList<>(placements.keySet());
    }

    public synchronized List<Access> accesses(long stag) {
        List<Access> list = placements.get(stag);
        if (list == null) return List.of();
        List<Access> out = new ArrayList<>(list.size());
        for (Access a : list) {
            boolean v = hasViolation(a.firstFrame(), a.lastFrame());
            out.add(v == a.violation() ? a : new Access(a.stag(), a.to(), a.length(), a.kind(), a.stream(),
                    a.firstFrame(), a.lastFrame(), v));
        }
        return out;
    }

    /** Events and accesses not kept for the pictures (over their caps). */
    public synchronized long droppedPictureItems() {
        return droppedEvents;
    }

    private boolean hasViolation(long first, long last) {
        NavigableSet<Long> s = violationFrames.subSet(first, true, last, true);
        return !s.isEmpty();
    }

    /** The row that shows {@code frame} (the first PDU completed in it), or -1 when it is not (or no longer) kept. */
    public long rowOfFrame(long frame) {
        long lo = index.first(), hi = index.size() - 1;
        // rows are in capture order; an FPDU whose parameters were inferred may carry a slightly earlier frame
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (index.frame(mid) < frame) lo = mid + 1;
            else hi = mid;
        }
        for (long r = Math.max(index.first(), lo - 64); r < Math.min(index.size(), lo + 64); r++) {
            if (index.frame(r) == frame) return r;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        store.close();
    }

    // ---- the pass ----

    private final class Loader implements Analyzer.Observer {
        @Override
        public void onConnection(TcpConnection c) {
            synchronized (CaptureSession.this) {
                if (streams.size() < MAX_STREAM_ROWS) {
                    streams.put(c.index(), new StreamStats(c.index(), c.client().toString(), c.server().toString()));
                }
            }
        }

        @Override
        public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
            try {
                String protocol = RpcRdmaFields.protocol(message);
                if (protocol == null) protocol = PduSummary.protocol(pdu);
                // most PDUs are kept as their octets and described when shown; the rest as their fields
                long detail = message == null && move == null ? store.appendPdu(pdu) : -1;
                if (detail < 0) detail = store.appendDescribed(pdu, message, move);
                int opcode = pdu.rdmap() != null ? pdu.rdmap().control().opcode() : -1;
                int flags = PduIndex.flags(pdu.direction() == Direction.SERVER_TO_CLIENT, protocol, opcode);
                int length = pdu.startFrame() != null ? pdu.startFrame().length() : pdu.fpdu().wireLength();
                synchronized (CaptureSession.this) {
                    List<Violation> vs = violationsByFrame.isEmpty() ? null : violationsByFrame.get(pdu.frame());
                    if (vs != null) flags |= violationFlags(vs);
                    index.add(pdu.frame(), pdu.relativeNanos(), pdu.stream(), flags, length, detail);
                    pdus++;
                    picture(pdu);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** MPA handshake arrows and the accesses only a PDU tells (a Read Request's source, an Atomic's target). */
        private void picture(Pdu pdu) {
            int stream = pdu.stream();
            boolean s2c = pdu.direction() == Direction.SERVER_TO_CLIENT;
            MpaStartFrame start = pdu.startFrame();
            if (start != null) {
                StreamStats st = streams.get(stream);
                if (st != null) {
                    if (start.kind() == MpaStartFrame.Kind.REQUEST) st.request = start;
                    else st.reply = start;
                }
                LadderColumns events = events(stream);
                if (events != null) {
                    events.addStartFrame(s2c, start.kind() == MpaStartFrame.Kind.REQUEST, start.revision(),
                            start.reject(), pdu.frame());
                }
                return;
            }
            if (pdu.rdmap() == null) return;
            if (pdu.rdmap().body() instanceof Terminate t) {
                terminate(stream, pdu.frame(), "Terminate " + TerminateCodes.describe(t.layer(), t.errorType(),
                        t.errorCode()));
            } else if (pdu.rdmap().body() instanceof ReadRequest rr) {
                access(new Access(rr.sourceStag(), rr.sourceTo(), rr.size(), "Read (source)", stream,
                        pdu.firstFrame(), pdu.frame(), false));
            } else if (pdu.rdmap().body() instanceof AtomicRequest ar) {
                access(new Access(ar.remoteStag(), ar.remoteTo(), 8, "Atomic", stream, pdu.firstFrame(), pdu.frame(),
                        false));
            }
        }

        @Override
        public void onDelivery(Delivery d) {
            synchronized (CaptureSession.this) {
                StreamStats st = streams.get(d.stream());
                if (st != null) st.add(d);
                Opcode op = d.kind();
                boolean s2c = d.direction() == Direction.SERVER_TO_CLIENT;
                long answers = -1;
                int key = d.stream() * 2 + (s2c ? 1 : 0);
                if (op == Opcode.RDMA_READ_RESPONSE || op == Opcode.ATOMIC_RESPONSE) {
                    // responses come back in the order of their requests (RFC 5040 §5.2.1, RFC 7306 §5.2.2)
                    Deque<Integer> q = pendingRequests.get(d.stream() * 2 + (s2c ? 0 : 1));
                    LadderColumns events = ladder.get(d.stream());
                    if (q != null && !q.isEmpty() && events != null) {
                        int i = q.poll();
                        if (i < events.size()) answers = events.firstFrame(i);
                    }
                }
                LadderColumns events = events(d.stream());
                int at = events == null ? -1 : events.addMessage(s2c, d.opcode(), d.tagged(),
                        d.tagged() ? d.stag() : d.msn(), d.length(), d.firstFrame(), d.lastFrame(), answers);
                if (op == Opcode.TERMINATE) {
                    String why = terminateLabels.remove(terminateKey(d.stream(), d.lastFrame()));
                    if (why != null && at >= 0) events.label(at, why);
                }
                if ((op == Opcode.RDMA_READ_REQUEST || op == Opcode.ATOMIC_REQUEST) && at >= 0) {
                    pendingRequests.computeIfAbsent(key, k -> new ArrayDeque<>()).add(at);
                }
                if (d.tagged() && (op == Opcode.RDMA_WRITE || op == Opcode.RDMA_READ_RESPONSE)) {
                    access(new Access(d.stag(), d.offset(), d.length(), op == Opcode.RDMA_WRITE ? "Write"
                            : "Read Response", d.stream(), d.firstFrame(), d.lastFrame(), false));
                }
            }
        }

        @Override
        public void onViolation(Violation v) {
            synchronized (CaptureSession.this) {
                violations.add(v);
                if (v.severity() != Severity.INFO) violationFrames.addAll(v.frames());
                if (v.frame() > 0) {
                    violationsByFrame.computeIfAbsent(v.frame(), k -> new ArrayList<>(1)).add(v);
                    long row = rowOfFrame(v.frame());
                    if (row >= 0) index.mark(row, violationFlags(List.of(v)));
                }
                StreamStats st = streams.get(v.stream());
                if (st != null) {
                    st.violations++;
                    if (v.severity() == Severity.ERROR) st.errors++;
                }
            }
        }

        @Override
        public void onStreamFinished(StreamSummary s) {
            synchronized (CaptureSession.this) {
                StreamStats st = streams.get(s.stream());
                if (st != null && st.state.equals("open")) st.state = "open at the end";
            }
        }

        @Override
        public void onClose(TcpConnection c, Direction d, boolean reset, long frame) {
            synchronized (CaptureSession.this) {
                StreamStats st = streams.get(c.index());
                if (st == null) return;
                String what = (reset ? "RST " : "FIN ") + (d == Direction.CLIENT_TO_SERVER ? "c>s" : "s>c") + " #" + frame;
                st.state = st.state.equals("open") ? what : st.state + ", " + what;
            }
        }

        @Override
        public void onConnectionEnd(TcpConnection c, long frame, boolean captureEnded) {
            synchronized (CaptureSession.this) {
                StreamStats st = streams.get(c.index());
                if (st != null && captureEnded && st.state.equals("open")) st.state = "open at the end";
                else if (st != null && !captureEnded && st.state.equals("open")) st.state = "ended #" + frame;
                pendingRequests.remove(c.index() * 2);
                pendingRequests.remove(c.index() * 2 + 1);
            }
        }

        /**
         * A Terminate's arrow says its layer, error type and code (RFC 5040 §4.8), from the PDU's header; the arrow
         * comes from the delivery, which may be recorded before or after the PDU.
         */
        private void terminate(int stream, long frame, String label) {
            LadderColumns list = ladder.get(stream);
            if (list != null) {
                for (int i = list.size() - 1; i >= 0 && i >= list.size() - 8; i--) {
                    if (list.lastFrame(i) == frame && list.kind(i).equals(Opcode.TERMINATE.shortName())) {
                        list.label(i, label);
                        return;
                    }
                }
            }
            if (terminateLabels.size() < MAX_PICTURE_KEYS) terminateLabels.put(terminateKey(stream, frame), label);
        }

        private static String terminateKey(int stream, long frame) {
            return stream + "@" + frame;
        }

        /** The stream's arrows if one more fits, else null (and the arrow is counted as dropped). */
        private LadderColumns events(int stream) {
            LadderColumns list = ladder.get(stream);
            if (list == null) {
                if (ladder.size() >= MAX_PICTURE_KEYS) {
                    droppedEvents++;
                    return null;
                }
                list = new LadderColumns();
                ladder.put(stream, list);
            }
            if (list.size() >= MAX_EVENTS_PER_STREAM) {
                droppedEvents++;
                return null;
            }
            return list;
        }

        private void access(Access a) {
            List<Access> list = placements.get(a.stag());
            if (list == null) {
                if (placements.size() >= MAX_PICTURE_KEYS) {
                    droppedEvents++;
                    return;
                }
                list = new ArrayList<>();
                placements.put(a.stag(), list);
            }
            if (list.size() >= MAX_ACCESSES_PER_STAG) {
                droppedEvents++;
                return;
            }
            list.add(a);
        }
    }

    static int violationFlags(List<Violation> vs) {
        int f = PduIndex.FLAG_VIOLATION;
        for (Violation v : vs) {
            if (v.severity() == Severity.ERROR) f |= PduIndex.FLAG_ERROR;
        }
        return f;
    }

    /** Check ids and severities at a frame, for the filter's violation names. */
    public synchronized List<String>[] violationNames(long frame) {
        List<Violation> vs = violationsByFrame.get(frame);
        @SuppressWarnings("unchecked")
        List<String>[] out = new List[]{new ArrayList<String>(), new ArrayList<String>()};
        if (vs != null) {
            for (Violation v : vs) {
                out[0].add(v.id());
                out[1].add(v.severity().name().toLowerCase());
            }
        }
        return out;
    }

    /** Every check id of the capture with its count, for the status line. */
    public synchronized Map<String, Integer> checkCounts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (Violation v : violations) m.merge(v.id(), 1, Integer::sum);
        return m;
    }
}
