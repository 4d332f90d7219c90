package io.rddp.gui.vm;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.Annotator;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapngWriter;
import io.rddp.decode.FieldSpans;
import io.rddp.filter.DisplayFilter;
import io.rddp.filter.FilterException;
import io.rddp.gui.model.Access;
import io.rddp.gui.model.CaptureSession;
import io.rddp.gui.model.DetailStore;
import io.rddp.gui.model.LadderEvent;
import io.rddp.gui.model.PduIndex;
import io.rddp.gui.model.RowFilter;
import io.rddp.gui.model.StreamStats;
import io.rddp.live.LiveCapture;
import io.rddp.live.LiveCaptureException;
import io.rddp.sink.Severity;
import io.rddp.sink.Violation;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.control.TreeItem;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.prefs.Preferences;

/**
 * Everything the window shows and does, without a single control: state as JavaFX properties and lists the views
 * bind to, actions the views call, and the background work (loading, live capture, filtering, saving) on worker
 * threads, with results handed to the FX thread. JabRef's split: the views only show.
 */
public final class MainViewModel {
    /** Rows a live capture keeps by default (the ring); a file keeps all. */
    public static final long DEFAULT_RING = 1_000_000;
    private static final int MAX_RECENT = 10;

    public final StringProperty title = new SimpleStringProperty("rddp");
    public final StringProperty status = new SimpleStringProperty("Open a capture or start a live capture.");
    /** 0..1 while a file loads, -1 (indeterminate) while capturing, 0 when idle. */
    public final DoubleProperty progress = new SimpleDoubleProperty(0);
    public final BooleanProperty busy = new SimpleBooleanProperty(false);
    public final BooleanProperty capturing = new SimpleBooleanProperty(false);
    public final BooleanProperty filtering = new SimpleBooleanProperty(false);
    public final StringProperty filterError = new SimpleStringProperty(null);
    public final IntegerProperty filterErrorColumn = new SimpleIntegerProperty(0);
    public final StringProperty activeFilter = new SimpleStringProperty("");
    public final VirtualRows rows = new VirtualRows();
    /** List positions the packet table should select (and scroll to the first of). */
    public final ObservableList<Integer> selectionRequest = FXCollections.observableArrayList();
    public final ObjectProperty<TreeItem<FieldNode>> detail = new SimpleObjectProperty<>();
    public final ObjectProperty<byte[]> bytes = new SimpleObjectProperty<>(new byte[0]);
    public final ObjectProperty<FieldSpans.Span> highlight = new SimpleObjectProperty<>();
    public final ObservableList<StreamStats> streams = FXCollections.observableArrayList();
    public final ObservableList<Violation> violations = FXCollections.observableArrayList();
    public final ObservableList<Integer> ladderStreams = FXCollections.observableArrayList();
    public final ObjectProperty<Integer> ladderStream = new SimpleObjectProperty<>();
    public final ObservableList<LadderEvent> ladderEvents = FXCollections.observableArrayList();
    public final ObservableList<Long> stags = FXCollections.observableArrayList();
    public final ObjectProperty<Long> stag = new SimpleObjectProperty<>();
    public final ObservableList<Access> accesses = FXCollections.observableArrayList();
    /** While a file loads, the pictures' data follow it at most this often (each change redraws a picture). */
    private static final long PICTURE_NANOS = 1_000_000_000L;
    private long picturesAt;
    public final ObservableList<String> recentFiles = FXCollections.observableArrayList();
    public final ObservableList<LiveCapture.Device> devices = FXCollections.observableArrayList();
    public final StringProperty captureError = new SimpleStringProperty(null);

    private final ExecutorService worker = Executors.newSingleThreadExecutor(daemon("rddp-load"));
    private final ExecutorService filterWorker = Executors.newSingleThreadExecutor(daemon("rddp-filter"));
    private final Preferences prefs;
    private CaptureSession session;
    private Path source; // the file to save from (the capture, or a live capture's temporary copy)
    private Path liveCopy;
    private LiveCapture live;
    private long published;
    private long filteredUpTo;
    private DisplayFilter filter;
    private RowFilter.Rows filtered;
    private final AtomicInteger generation = new AtomicInteger();
    private TreeBuilder shown;

    public MainViewModel(boolean rememberRecent) {
        prefs = rememberRecent ? Preferences.userRoot().node("io/rddp/gui") : null;
        if (prefs != null) {
            String r = prefs.get("recent", "");
            for (String f : r.split("\n")) if (!f.isBlank()) recentFiles.add(f);
        }
        ladderStream.addListener((o, a, b) -> refreshLadder());
        stag.addListener((o, a, b) -> refreshPlacement());
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    public CaptureSession session() {
        return session;
    }

    // ---- opening and capturing ----

    /**
     * How often a loading file's new rows reach the list: the first soon, then once a second. Each time costs the
     * window a layout and a repaint of the list, the status line and the stream table: at 150 ms those repaints took
     * more CPU than the loading itself (a 2 GB capture: 331 pulses, 10.9 s painting, headless); every 500 ms the
     * window opened it in 2.95-3.25 s, every second in 2.53-2.74 s.
     */
    static final long FILE_FIRST_PUBLISH_MILLIS = 150;
    static final long FILE_PUBLISH_MILLIS = 1000;

    /** Opens a capture file and loads it in the background. */
    public void open(Path file) {
        stopCapture();
        CaptureSession s = newSession(file.getFileName().toString(), Long.MAX_VALUE);
        if (s == null) return;
        source = file;
        remember(file);
        title.set("rddp — " + file);
        busy.set(true);
        progress.set(0);
        int gen = generation.get();
        worker.submit(() -> {
            try (CaptureReader reader = CaptureReaders.open(file)) {
                long size = reader.size();
                Analysis a = s.load(reader, FILE_FIRST_PUBLISH_MILLIS, FILE_PUBLISH_MILLIS, n -> {
                    double p = size > 0 ? (double) reader.bytesRead() / size : -1;
                    Platform.runLater(() -> {
                        if (gen == generation.get()) {
                            progress.set(p);
                            publish(n);
                        }
                    });
                });
                Platform.runLater(() -> finished(gen, a, null));
            } catch (IOException | RuntimeException e) {
                String why = e instanceof CaptureException ? e.getMessage() : String.valueOf(e.getMessage());
                Platform.runLater(() -> finished(gen, null, file + ": " + why));
            } catch (OutOfMemoryError e) {
                // said, not left "loading…" for ever: the rows read so far stay
                Platform.runLater(() -> finished(gen, null, file + ": out of memory (a larger heap: RDDP_JAVA_OPTS=-Xmx1g)"));
            }
        });
    }

    /** Lists the capture interfaces (in the background); {@link #captureError} says why not. */
    public void loadDevices() {
        worker.submit(() -> {
            try {
                List<LiveCapture.Device> d = LiveCapture.devices();
                Platform.runLater(() -> devices.setAll(d));
            } catch (LiveCaptureException e) {
                Platform.runLater(() -> captureError.set(e.getMessage()));
            }
        });
    }

    /** Starts a live capture: frames are decoded and checked as they arrive; the list keeps the last {@code ring} rows. */
    public void startCapture(String device, String bpf, long ring) {
        stopCapture();
        captureError.set(null);
        LiveCapture c;
        Path copy;
        PcapngWriter tee;
        try {
            c = LiveCapture.open(new LiveCapture.Options(device, bpf == null || bpf.isBlank() ? null : bpf, 0, 0));
        } catch (LiveCaptureException e) {
            captureError.set(e.getMessage());
            status.set("Cannot capture: " + e.getMessage());
            return;
        }
        try {
            copy = Files.createTempFile("rddp-live-", ".pcapng");
            copy.toFile().deleteOnExit();
            tee = PcapngWriter.create(copy, LinkType.ETHERNET);
        } catch (IOException e) {
            c.close();
            status.set("Cannot keep the captured frames: " + e.getMessage());
            return;
        }
        CaptureSession s = newSession("live " + device, ring <= 0 ? DEFAULT_RING : ring);
        if (s == null) {
            c.close();
            return;
        }
        c.tee(tee);
        live = c;
        liveCopy = copy;
        source = copy;
        title.set("rddp — capturing on " + device);
        capturing.set(true);
        busy.set(true);
        progress.set(-1);
        int gen = generation.get();
        worker.submit(() -> {
            Analysis a = null;
            String err = null;
            try (tee; c) {
                a = s.load(c, 200, n -> Platform.runLater(() -> {
                    if (gen == generation.get()) publish(n);
                }));
            } catch (IOException | RuntimeException e) {
                err = e.getMessage();
            }
            Analysis fa = a;
            String fe = err;
            Platform.runLater(() -> {
                capturing.set(false);
                finished(gen, fa, fe);
            });
        });
    }

    /** Stops a live capture (the frames already captured are still decoded). */
    public void stopCapture() {
        LiveCapture c = live;
        if (c != null) c.stop();
        live = null;
    }

    private CaptureSession newSession(String name, long maxRows) {
        generation.incrementAndGet();
        CaptureSession old = session;
        if (old != null) {
            worker.submit(() -> {
                try {
                    old.close();
                } catch (IOException e) {
                    // a temporary file left behind: deleted at exit
                }
            });
        }
        try {
            session = new CaptureSession(name, maxRows);
        } catch (IOException e) {
            status.set("Cannot create the temporary field store: " + e.getMessage());
            session = null;
            return null;
        }
        published = 0;
        filteredUpTo = 0;
        filtered = filter == null ? null : new RowFilter.Rows();
        rows.show(session, 0, 0, filtered);
        detail.set(null);
        bytes.set(new byte[0]);
        highlight.set(null);
        streams.clear();
        violations.clear();
        ladderStreams.clear();
        ladderEvents.clear();
        stags.clear();
        accesses.clear();
        return session;
    }

    /** New rows are readable up to {@code n}: show them (through the filter if one is set) and refresh the panes. */
    private void publish(long n) {
        published = n;
        if (filter != null) {
            filterNew();
        } else {
            rows.show(session, session.index().first(), n, null);
        }
        refreshPanes();
        statusLine();
    }

    private void finished(int gen, Analysis a, String error) {
        if (gen != generation.get()) return;
        busy.set(false);
        progress.set(0);
        if (session != null) {
            publish(session.index().size());
            rows.invalidate();
        }
        if (error != null) {
            status.set(error + (session != null && session.pdus() > 0 ? " (what came before is shown)" : ""));
        } else if (a != null && a.error() != null) {
            status.set(a.error() + " — everything before it is shown");
        }
    }

    private void refreshPanes() {
        CaptureSession s = session;
        List<Violation> v = s.violations();
        if (v.size() != violations.size()) {
            violations.setAll(v);
            rows.invalidate();
        }
        streams.setAll(s.streams());
        // while a file loads, the pictures (and their stream and STag lists) follow once a second; at its end (busy
        // is false by then) and in a live capture at every step
        long now = System.nanoTime();
        if (busy.get() && !capturing.get() && now - picturesAt < PICTURE_NANOS) return;
        picturesAt = now;
        List<Integer> ls = s.ladderStreams();
        if (!ls.equals(ladderStreams)) ladderStreams.setAll(ls);
        if (ladderStream.get() == null && !ls.isEmpty()) ladderStream.set(ls.get(0));
        else refreshLadder();
        List<Long> st = s.stags();
        if (!st.equals(stags)) stags.setAll(st);
        if (stag.get() == null && !st.isEmpty()) stag.set(st.get(0));
        else refreshPlacement();
    }

    private void refreshLadder() {
        Integer st = ladderStream.get();
        if (session == null || st == null) {
            ladderEvents.clear();
            return;
        }
        List<LadderEvent> e = session.ladder(st);
        if (!e.equals(ladderEvents)) ladderEvents.setAll(e);
    }

    private void refreshPlacement() {
        Long t = stag.get();
        if (session == null || t == null) {
            accesses.clear();
            return;
        }
        List<Access> a = session.accesses(t);
        if (!a.equals(accesses)) accesses.setAll(a);
    }

    private void statusLine() {
        CaptureSession s = session;
        long errors = violations.stream().filter(x -> x.severity() == Severity.ERROR).count();
        StringBuilder sb = new StringBuilder();
        sb.append(s.name()).append(": ").append(s.pdus()).append(" PDUs");
        if (s.index().first() > 0) sb.append(" (the oldest ").append(s.index().first()).append(" dropped: ring)");
        sb.append(", ").append(violations.size()).append(" violations (").append(errors).append(" errors)");
        if (filter != null) sb.append(" — filter shows ").append(rows.size());
        if (busy.get() && !capturing.get()) sb.append(" — loading…");
        if (capturing.get()) sb.append(" — capturing…");
        status.set(sb.toString());
    }

    // ---- filter ----

    /** Checks a filter as it is typed: sets {@link #filterError} (null when it compiles or is empty). */
    public boolean checkFilter(String text) {
        if (text == null || text.isBlank()) {
            filterError.set(null);
            return true;
        }
        try {
            DisplayFilter.compile(text);
            filterError.set(null);
            return true;
        } catch (FilterException e) {
            filterErrorColumn.set(e.column());
            filterError.set(e.getMessage());
            return false;
        }
    }

    /** Applies a display filter (empty: none) over every row, off the FX thread. */
    public void applyFilter(String text) {
        if (!checkFilter(text)) return;
        if (text == null || text.isBlank()) {
            filter = null;
            filtered = null;
            activeFilter.set("");
            if (session != null) rows.show(session, session.index().first(), published, null);
            if (session != null) statusLine();
            return;
        }
        try {
            filter = DisplayFilter.compile(text);
        } catch (FilterException e) {
            return;
        }
        activeFilter.set(text);
        filtered = new RowFilter.Rows();
        filteredUpTo = session == null ? 0 : session.index().first();
        if (session != null) {
            rows.show(session, session.index().first(), published, filtered);
            filterNew();
        }
    }

    /** Filters the rows published since the last run, in the background, and appends the matches. */
    private void filterNew() {
        CaptureSession s = session;
        DisplayFilter f = filter;
        RowFilter.Rows into = filtered;
        long from = Math.max(filteredUpTo, s.index().first());
        long to = published;
        if (from >= to) return;
        filteredUpTo = to;
        filtering.set(true);
        int gen = generation.get();
        filterWorker.submit(() -> {
            try {
                RowFilter.Rows found = RowFilter.run(s, f, from, to,
                        () -> gen != generation.get() || f != filter);
                Platform.runLater(() -> {
                    filtering.set(false);
                    if (found == null || f != filter || into != filtered || gen != generation.get()) return;
                    into.addAll(found);
                    rows.show(s, s.index().first(), published, into);
                    statusLine();
                });
            } catch (IOException | RuntimeException e) {
                Platform.runLater(() -> {
                    filtering.set(false);
                    status.set("Filter failed: " + e.getMessage());
                });
            }
        });
    }

    // ---- selection ----

    /** The packet table selected list position {@code i}: show its field tree and octets. */
    public void select(int i) {
        if (session == null || i < 0 || i >= rows.size()) {
            detail.set(null);
            bytes.set(new byte[0]);
            return;
        }
        long row = rows.rowAt(i);
        TreeBuilder b = new TreeBuilder();
        try {
            DetailStore.Header h = session.store().replay(session.index().detail(row), b);
            List<Violation> vs = session.violationsAt(session.index().frame(row));
            if (!vs.isEmpty()) {
                TreeItem<FieldNode> v = new TreeItem<>(new FieldNode("Violations at this frame (" + vs.size() + ")",
                        "violation"));
                v.setExpanded(true);
                for (Violation x : vs) {
                    v.getChildren().add(new TreeItem<>(new FieldNode(x.severity().name().toLowerCase() + " "
                            + x.id() + " [" + x.rfc() + " " + x.section()
                            + (x.errorType() != null ? "; Terminate " + x.errorType() : "") + "]: " + x.message(),
                            "violation.check")));
                }
                b.root.getChildren().add(0, v);
            }
            shown = b;
            bytes.set(h.bytes());
            highlight.set(null);
            detail.set(b.root);
        } catch (IOException e) {
            status.set("Cannot read the fields of row " + row + ": " + e.getMessage());
        }
    }

    /** A field of the detail tree was selected: highlight its octets. */
    public void selectField(FieldNode node) {
        if (node == null || node.name() == null || shown == null) {
            highlight.set(null);
            return;
        }
        FieldSpans.Span span = FieldSpans.of(node.name(), shown.startFrame, shown.tagged, shown.pdLength);
        if (span != null && span.offset() >= bytes.get().length) span = null;
        highlight.set(span);
    }

    /** Selects the row of a frame (a violation's key frame); clears a filter that hides it. */
    public void selectFrame(long frame) {
        if (session == null) return;
        long row = session.rowOfFrame(frame);
        if (row < 0) {
            status.set("Frame " + frame + " carries no PDU that is still in the list");
            return;
        }
        int i = rows.indexOfRow(row);
        if (i < 0 && filter != null) {
            applyFilter("");
            i = rows.indexOfRow(row);
        }
        if (i >= 0) selectionRequest.setAll(i);
    }

    /** Selects the rows of one stream whose frames lie in {@code [first, last]} (an arrow of the ladder). */
    public void selectFrames(int stream, long first, long last) {
        if (session == null) return;
        long from = session.rowOfFrame(first);
        long to = session.rowOfFrame(last);
        if (from < 0 || to < 0) {
            selectFrame(last);
            return;
        }
        if (filter != null) applyFilter("");
        List<Integer> pick = new ArrayList<>();
        PduIndex x = session.index();
        for (long r = from; r <= to; r++) {
            if (x.stream(r) == stream && x.frame(r) >= first && x.frame(r) <= last) {
                int i = rows.indexOfRow(r);
                if (i >= 0) pick.add(i);
            }
        }
        if (!pick.isEmpty()) selectionRequest.setAll(pick);
    }

    // ---- saving ----

    /** Writes the capture as pcapng with each violation as a comment on its frame ({@code analyze --annotate}). */
    public void saveAs(Path out) {
        Path from = source;
        if (from == null || session == null) return;
        List<Violation> vs = session.violations();
        status.set("Saving " + out + "…");
        worker.submit(() -> {
            try {
                int n = Annotator.annotate(from, out, vs);
                Platform.runLater(() -> status.set("Saved " + out + " with " + n + " annotated frames"));
            } catch (IOException e) {
                Platform.runLater(() -> status.set("Cannot save " + out + ": " + e.getMessage()));
            }
        });
    }

    // ---- recent files ----

    private void remember(Path file) {
        String f = file.toAbsolutePath().toString();
        recentFiles.remove(f);
        recentFiles.add(0, f);
        while (recentFiles.size() > MAX_RECENT) recentFiles.remove(recentFiles.size() - 1);
        if (prefs != null) {
            prefs.put("recent", String.join("\n", recentFiles));
        }
    }

    /** Stops background work (window closing). */
    public void shutdown() {
        stopCapture();
        generation.incrementAndGet();
        worker.shutdown();
        filterWorker.shutdownNow();
        // an empty list first: a layout after this must not read rows of the closed field store
        if (Platform.isFxApplicationThread()) rows.show(null, 0, 0, null);
        if (session != null) {
            try {
                session.close();
            } catch (IOException e) {
                // deleted at exit
            }
        }
        if (liveCopy != null) {
            try {
                Files.deleteIfExists(liveCopy);
            } catch (IOException e) {
                // deleted at exit
            }
        }
    }
}
