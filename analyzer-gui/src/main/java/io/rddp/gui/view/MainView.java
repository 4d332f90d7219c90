package io.rddp.gui.view;

import io.rddp.filter.FilterFields;
import io.rddp.gui.model.Access;
import io.rddp.gui.model.LadderEvent;
import io.rddp.gui.model.PduIndex;
import io.rddp.gui.model.StreamStats;
import io.rddp.gui.vm.FieldNode;
import io.rddp.gui.vm.MainViewModel;
import io.rddp.gui.vm.PacketRow;
import io.rddp.live.LiveCapture;
import io.rddp.sink.Violation;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Side;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.Separator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The main window, Wireshark's shape: toolbar, filter bar, packet list, detail tree and hex pane, then the
 * Violations and Streams panes, and the two pictures in their own tabs. Only layout and bindings to the
 * {@link MainViewModel}; every decision is the view model's.
 */
public final class MainView extends BorderPane {
    private final MainViewModel vm;
    final TableView<PacketRow> packets = new TableView<>();
    final TreeView<FieldNode> tree = new TreeView<>();
    final HexView hex;
    final TextField filter = new TextField();
    final Label filterMessage = new Label();
    final TableView<Violation> violationTable = new TableView<>();
    final TableView<StreamStats> streamTable = new TableView<>();
    final LadderView ladder;
    final PlacementView placement;
    final TabPane tabs = new TabPane();
    final ComboBox<LiveCapture.Device> device = new ComboBox<>();
    final TextField bpf = new TextField();
    final TextField ring = new TextField(Long.toString(MainViewModel.DEFAULT_RING));
    private final ContextMenu completion = new ContextMenu();
    private boolean browsingCompletion;

    public MainView(MainViewModel vm) {
        this.vm = vm;
        getStyleClass().add("rddp");
        hex = new HexView(vm.bytes, vm.highlight);
        ladder = new LadderView(vm.ladderEvents, this::ladderStream, this::pickArrow);
        placement = new PlacementView(vm.accesses, this::pickAccess);
        setTop(new VBox(toolbar(), filterBar()));
        tabs.getTabs().addAll(new Tab("Packets", packetsPane()), new Tab("Ladder", ladderPane()),
                new Tab("Placement map", placementPane()));
        tabs.getTabs().forEach(t -> t.setClosable(false));
        tabs.getTabs().get(0).setId("packets-tab");
        tabs.getTabs().get(1).setId("ladder-tab");
        tabs.getTabs().get(2).setId("placement-tab");
        ladder.shown.bind(tabs.getTabs().get(1).selectedProperty());
        placement.shown.bind(tabs.getTabs().get(2).selectedProperty());
        setCenter(tabs);
        Label status = new Label();
        status.setId("status");
        status.textProperty().bind(vm.status);
        status.setPadding(new Insets(3, 8, 3, 8));
        setBottom(status);
    }

    // ---- toolbar ----

    private Node toolbar() {
        Button open = new Button("Open…");
        open.setId("open");
        open.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setTitle("Open a capture");
            fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Captures", "*.pcap", "*.pcapng",
                    "*.cap", "*.gz"), new FileChooser.ExtensionFilter("All files", "*"));
            File f = fc.showOpenDialog(window());
            if (f != null) vm.open(f.toPath());
        });
        MenuButton recent = new MenuButton("Recent");
        recent.setId("recent");
        Runnable fillRecent = () -> {
            recent.getItems().clear();
            for (String f : vm.recentFiles) {
                MenuItem item = new MenuItem(f);
                item.setOnAction(e -> vm.open(Path.of(f)));
                recent.getItems().add(item);
            }
            recent.setDisable(vm.recentFiles.isEmpty());
        };
        vm.recentFiles.addListener((ListChangeListener<String>) c -> fillRecent.run());
        fillRecent.run();

        device.setId("device");
        device.setPromptText("interface");
        // the chosen interface shows by name only (the list shows addresses too): a long description in the
        // button pushed Start and Stop into the toolbar's overflow menu
        device.setPrefWidth(160);
        device.setMaxWidth(160);
        device.setButtonCell(new ListCell<>() {
            @Override
            protected void updateItem(LiveCapture.Device d, boolean empty) {
                super.updateItem(d, empty);
                setText(empty || d == null ? null : d.name());
            }
        });
        device.setItems(vm.devices);
        device.setOnShowing(e -> {
            if (vm.devices.isEmpty()) vm.loadDevices();
        });
        vm.devices.addListener((ListChangeListener<LiveCapture.Device>) c -> {
            if (device.getValue() == null) {
                vm.devices.stream().filter(LiveCapture.Device::loopback).findFirst().ifPresent(device::setValue);
            }
        });
        bpf.setId("bpf");
        bpf.setPromptText("capture filter (BPF), e.g. tcp");
        bpf.setPrefColumnCount(14);
        ring.setId("ring");
        ring.setPrefColumnCount(7);
        ring.setTooltip(new Tooltip("Rows a live capture keeps: the oldest are dropped beyond it"));
        Button start = new Button("Start capture");
        start.setId("start");
        start.disableProperty().bind(vm.capturing);
        start.setOnAction(e -> {
            LiveCapture.Device d = device.getValue();
            String name = d != null ? d.name() : device.getEditor() != null ? "lo" : "lo";
            long r;
            try {
                r = Long.parseLong(ring.getText().strip());
            } catch (NumberFormatException x) {
                r = MainViewModel.DEFAULT_RING;
            }
            vm.startCapture(name, bpf.getText(), r);
        });
        Button stop = new Button("Stop");
        stop.setId("stop");
        stop.disableProperty().bind(vm.capturing.not());
        stop.setOnAction(e -> vm.stopCapture());
        Button save = new Button("Save as pcapng…");
        save.setId("save");
        save.setTooltip(new Tooltip("Every frame, with each violation as a packet comment (Wireshark shows it)"));
        save.disableProperty().bind(vm.busy);
        save.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setTitle("Save as pcapng with violations as comments");
            fc.setInitialFileName("annotated.pcapng");
            File f = fc.showSaveDialog(window());
            if (f != null) vm.saveAs(f.toPath());
        });
        ProgressBar progress = new ProgressBar();
        progress.setId("progress");
        progress.progressProperty().bind(vm.progress);
        progress.visibleProperty().bind(vm.busy);
        progress.setPrefWidth(160);
        Label captureError = new Label();
        captureError.setId("capture-error");
        captureError.getStyleClass().add("capture-error");
        captureError.textProperty().bind(vm.captureError);
        captureError.setWrapText(true);
        captureError.setMaxWidth(520);
        captureError.visibleProperty().bind(vm.captureError.isNotNull());
        captureError.managedProperty().bind(captureError.visibleProperty());
        return new ToolBar(open, recent, save, new Separator(), device, bpf, new Label("keep"), ring,
                new Label("rows"), start, stop, new Separator(), progress, captureError);
    }

    // ---- filter bar ----

    private Node filterBar() {
        filter.setId("filter");
        filter.setPromptText("display filter, e.g. rdmap.opcode == 3 && ddp.msn > 10, violation, stream == 2");
        HBox.setHgrow(filter, Priority.ALWAYS);
        filter.textProperty().addListener((o, a, b) -> {
            boolean ok = vm.checkFilter(b);
            filter.getStyleClass().removeAll("filter-error", "filter-ok");
            if (!b.isBlank()) filter.getStyleClass().add(ok ? "filter-ok" : "filter-error");
            complete(b);
        });
        filter.setOnAction(e -> {
            completion.hide();
            vm.applyFilter(filter.getText());
        });
        // While the completion list shows, it receives the keys, and typing moves its focus onto an item: Enter
        // picks a completion only after the user went into the list with the arrow keys, else it applies the filter.
        completion.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.UP || e.getCode() == KeyCode.DOWN) browsingCompletion = true;
            if (e.getCode() != KeyCode.ENTER || browsingCompletion) return;
            e.consume();
            completion.hide();
            vm.applyFilter(filter.getText());
        });
        completion.setOnHidden(e -> browsingCompletion = false);
        filterMessage.setId("filter-message");
        filterMessage.getStyleClass().add("filter-message");
        filterMessage.textProperty().bind(vm.filterError);
        Button apply = new Button("Apply");
        apply.setId("apply");
        apply.setOnAction(e -> vm.applyFilter(filter.getText()));
        Button clear = new Button("Clear");
        clear.setOnAction(e -> {
            filter.clear();
            vm.applyFilter("");
        });
        HBox bar = new HBox(6, new Label("Filter:"), filter, apply, clear, filterMessage);
        bar.setPadding(new Insets(4, 8, 4, 8));
        bar.getStyleClass().add("filter-bar");
        return bar;
    }

    /** Completion of the field name being typed (the word before the caret). */
    private void complete(String text) {
        int end = text.length();
        int start = end;
        while (start > 0 && (Character.isLetterOrDigit(text.charAt(start - 1)) || text.charAt(start - 1) == '.'
                || text.charAt(start - 1) == '_')) {
            start--;
        }
        String word = text.substring(start, end);
        if (word.isEmpty() || Character.isDigit(word.charAt(0))) {
            completion.hide();
            return;
        }
        List<String> names = FilterFields.complete(word);
        if (names.isEmpty() || (names.size() == 1 && names.get(0).equals(word))) {
            completion.hide();
            return;
        }
        completion.getItems().clear();
        browsingCompletion = false;
        int from = start;
        for (String n : names.subList(0, Math.min(15, names.size()))) {
            FilterFields.Field f = FilterFields.get(n);
            MenuItem item = new MenuItem(n + "   — " + f.description());
            item.getStyleClass().add("completion-item");
            item.setOnAction(e -> {
                filter.setText(text.substring(0, from) + n);
                filter.positionCaret(filter.getText().length());
            });
            completion.getItems().add(item);
        }
        if (!completion.isShowing() && filter.getScene() != null && filter.getScene().getWindow() != null) {
            completion.show(filter, Side.BOTTOM, 0, 0);
        }
    }

    // ---- packets tab ----

    /** The style class of a packet row: its worst violation, else its protocol. */
    static String rowClass(PacketRow r) {
        if ((r.flags() & PduIndex.FLAG_ERROR) != 0) return "violation-error";
        if ((r.flags() & PduIndex.FLAG_VIOLATION) != 0) return "violation-other";
        return switch (r.protocol()) {
            case "MPA" -> "proto-mpa";
            case "DDP" -> "proto-ddp";
            case "RDMAP" -> "proto-rdmap";
            default -> "proto-rpc";
        };
    }

    private Node packetsPane() {
        packets.setId("packets");
        packets.setItems(vm.rows);
        packets.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        packets.getColumns().add(column("No.", 70, r -> r.frame()));
        packets.getColumns().add(column("Time", 100, PacketRow::time));
        packets.getColumns().add(column("Source", 150, PacketRow::source));
        packets.getColumns().add(column("Destination", 150, PacketRow::destination));
        packets.getColumns().add(column("Protocol", 75, PacketRow::protocol));
        packets.getColumns().add(column("Length", 65, r -> r.length()));
        packets.getColumns().add(column("Info", 700, PacketRow::info));
        packets.setRowFactory(t -> new TableRow<>() {
            private String shown;

            @Override
            protected void updateItem(PacketRow r, boolean empty) {
                super.updateItem(r, empty);
                String want = empty || r == null ? null : rowClass(r);
                // only a change touches the style classes: each change has the row's CSS applied again, and this
                // runs for every visible row each time a loading capture's list grows
                if (java.util.Objects.equals(want, shown)) return;
                if (shown != null) getStyleClass().remove(shown);
                if (want != null) getStyleClass().add(want);
                shown = want;
            }
        });
        packets.getSelectionModel().selectedIndexProperty().addListener((o, a, b) -> vm.select(b.intValue()));
        RowFollower.install(packets, vm.capturing);
        vm.selectionRequest.addListener((ListChangeListener<Integer>) c -> {
            List<Integer> want = List.copyOf(vm.selectionRequest);
            if (want.isEmpty()) return;
            tabs.getSelectionModel().select(0);
            packets.getSelectionModel().clearSelection();
            for (int i : want) packets.getSelectionModel().select(i);
            packets.getSelectionModel().select(want.get(0));
            packets.scrollTo(Math.max(0, want.get(0) - 3));
            packets.requestFocus();
        });

        tree.setId("detail");
        tree.setShowRoot(false);
        tree.rootProperty().bind(vm.detail);
        tree.getSelectionModel().selectedItemProperty().addListener((o, a, b) ->
                vm.selectField(b == null ? null : b.getValue()));
        hex.setId("hex");
        SplitPane detail = new SplitPane(tree, hex);
        detail.setDividerPositions(0.55);

        violationTable.setId("violations");
        violationTable.setItems(vm.violations);
        violationTable.getColumns().add(vcolumn("Severity", 70, v -> v.severity().name().toLowerCase()));
        violationTable.getColumns().add(vcolumn("Check", 210, Violation::id));
        violationTable.getColumns().add(vcolumn("RFC", 120, v -> v.rfc() + " " + v.section()));
        violationTable.getColumns().add(vcolumn("Terminate", 110, v -> v.errorType() == null ? "" : v.errorType().toString()));
        violationTable.getColumns().add(vcolumn("Frame", 60, v -> v.frame() > 0 ? Long.toString(v.frame()) : ""));
        violationTable.getColumns().add(vcolumn("Stream", 55, v -> v.stream() >= 0 ? Integer.toString(v.stream()) : ""));
        violationTable.getColumns().add(vcolumn("Message", 600, Violation::message));
        violationTable.setPlaceholder(new Label("No violations"));
        violationTable.getSelectionModel().selectedItemProperty().addListener((o, a, v) -> {
            if (v != null && v.frame() > 0) vm.selectFrame(v.frame());
        });

        streamTable.setId("streams");
        streamTable.setItems(vm.streams);
        streamTable.getColumns().add(scolumn("Stream", 55, s -> Integer.toString(s.stream)));
        streamTable.getColumns().add(scolumn("Client", 150, s -> s.client));
        streamTable.getColumns().add(scolumn("Server", 150, s -> s.server));
        streamTable.getColumns().add(scolumn("MPA", 200, StreamStats::mpa));
        streamTable.getColumns().add(scolumn("Client → server", 220, s -> s.clientToServer().messagesText()));
        streamTable.getColumns().add(scolumn("Bytes →", 75, s -> Long.toString(s.clientToServer().payloadBytes())));
        streamTable.getColumns().add(scolumn("Server → client", 220, s -> s.serverToClient().messagesText()));
        streamTable.getColumns().add(scolumn("Bytes ←", 75, s -> Long.toString(s.serverToClient().payloadBytes())));
        streamTable.getColumns().add(scolumn("Terminates", 75, s -> Long.toString(s.terminates())));
        streamTable.getColumns().add(scolumn("Close", 130, s -> s.state));
        streamTable.getColumns().add(scolumn("Violations", 75, s -> s.violations + (s.errors > 0 ? " (" + s.errors + " errors)" : "")));
        streamTable.setPlaceholder(new Label("No streams"));

        TabPane lower = new TabPane(new Tab("Violations", violationTable), new Tab("Streams", streamTable));
        lower.getTabs().forEach(t -> t.setClosable(false));
        lower.getTabs().get(0).textProperty().bind(javafx.beans.binding.Bindings.concat("Violations (",
                javafx.beans.binding.Bindings.size(vm.violations), ")"));
        lower.setId("lower-tabs");
        SplitPane split = new SplitPane(packets, detail, lower);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.45, 0.75);
        return split;
    }

    // ---- pictures ----

    private StreamStats ladderStream() {
        Integer s = vm.ladderStream.get();
        if (s == null) return null;
        for (StreamStats x : vm.streams) if (x.stream == s) return x;
        return null;
    }

    private void pickArrow(LadderEvent e) {
        Integer s = vm.ladderStream.get();
        if (s != null) vm.selectFrames(s, e.firstFrame(), e.lastFrame());
    }

    private void pickAccess(Access a) {
        vm.selectFrames(a.stream(), a.firstFrame(), a.lastFrame());
    }

    private Node ladderPane() {
        ComboBox<Integer> stream = new ComboBox<>(vm.ladderStreams);
        stream.setId("ladder-stream");
        stream.valueProperty().bindBidirectional(vm.ladderStream);
        vm.streams.addListener((ListChangeListener<StreamStats>) c -> ladder.draw());
        Button export = new Button("Export PNG…");
        export.setId("ladder-export");
        export.setOnAction(e -> export(ladder, "ladder-stream-" + vm.ladderStream.get() + ".png"));
        ladder.setId("ladder");
        BorderPane p = new BorderPane(fitWidth(ladder, LadderView.MIN_WIDTH));
        HBox top = new HBox(8, new Label("Stream"), stream, export,
                new Label("Click an arrow to select its frames; red: a violation at one of its frames"));
        top.setPadding(new Insets(4, 8, 4, 8));
        p.setTop(top);
        return p;
    }

    private Node placementPane() {
        ComboBox<Long> stag = new ComboBox<>(vm.stags);
        stag.setId("stag");
        stag.valueProperty().bindBidirectional(vm.stag);
        stag.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(Long v) {
                return v == null ? "" : "0x" + Long.toHexString(v);
            }

            @Override
            public Long fromString(String s) {
                return Long.parseLong(s.replace("0x", ""), 16);
            }
        });
        Button export = new Button("Export PNG…");
        export.setId("placement-export");
        export.setOnAction(e -> export(placement, "placement-stag-" + Long.toHexString(vm.stag.get() == null ? 0
                : vm.stag.get()) + ".png"));
        placement.setId("placement");
        BorderPane p = new BorderPane(fitWidth(placement, PlacementView.MIN_WIDTH));
        HBox top = new HBox(8, new Label("STag"), stag, export,
                new Label("Bar: bytes written (darker: written again; red: a reported overlap or bounds error); rows: accesses"));
        top.setPadding(new Insets(4, 8, 4, 8));
        p.setTop(top);
        return p;
    }

    /** A picture in a scroll pane, as wide as the pane shows (not narrower than {@code min}): it follows the window. */
    private static ScrollPane fitWidth(javafx.scene.canvas.Canvas canvas, double min) {
        ScrollPane sp = new ScrollPane(canvas);
        canvas.widthProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(
                () -> Math.max(min, Math.floor(sp.getViewportBounds().getWidth())), sp.viewportBoundsProperty()));
        return sp;
    }

    private void export(javafx.scene.canvas.Canvas canvas, String name) {
        FileChooser fc = new FileChooser();
        fc.setTitle("Export as PNG");
        fc.setInitialFileName(name);
        File f = fc.showSaveDialog(window());
        if (f == null) return;
        try {
            Pictures.png(canvas, f.toPath());
            vm.status.set("Wrote " + f);
        } catch (IOException e) {
            vm.status.set("Cannot write " + f + ": " + e.getMessage());
        }
    }

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }

    // ---- columns ----

    private static <T> TableColumn<PacketRow, T> column(String title, double width, Function<PacketRow, T> value) {
        TableColumn<PacketRow, T> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setSortable(false);
        c.setCellValueFactory(d -> new ReadOnlyObjectWrapper<>(d.getValue() == null ? null : value.apply(d.getValue())));
        return c;
    }

    private static TableColumn<Violation, String> vcolumn(String title, double width, Function<Violation, String> value) {
        TableColumn<Violation, String> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setCellValueFactory(d -> new ReadOnlyStringWrapper(value.apply(d.getValue())));
        return c;
    }

    private static TableColumn<StreamStats, String> scolumn(String title, double width, Function<StreamStats, String> value) {
        TableColumn<StreamStats, String> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setCellValueFactory(d -> new ReadOnlyStringWrapper(value.apply(d.getValue())));
        return c;
    }

    /** For tests and the screenshot run: runs on the FX thread. */
    static void fx(Runnable r) {
        if (Platform.isFxApplicationThread()) r.run();
        else Platform.runLater(r);
    }
}
