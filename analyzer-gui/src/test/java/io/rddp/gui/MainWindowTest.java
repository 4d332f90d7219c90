package io.rddp.gui;

import io.rddp.testing.RepoPaths;
import io.rddp.gui.model.LadderEvent;
import io.rddp.gui.model.PduIndex;
import io.rddp.gui.view.LadderView;
import io.rddp.gui.view.MainView;
import io.rddp.gui.view.PlacementView;
import io.rddp.gui.vm.FieldNode;
import io.rddp.gui.vm.MainViewModel;
import io.rddp.gui.vm.PacketRow;
import io.rddp.testing.LoopbackReplay;
import io.rddp.sink.Violation;
import javafx.scene.Node;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** The window on the real siw captures and the violation corpus, headless (Monocle). */
@ExtendWith(ApplicationExtension.class)
class MainWindowTest {
    private MainViewModel vm;
    private MainView view;

    @TempDir
    Path tmp;

    @Start
    void start(Stage stage) {
        vm = new MainViewModel(false);
        view = new MainView(vm);
        stage.setScene(RddpApp.scene(view));
        stage.show();
    }

    @AfterEach
    void stop() {
        vm.shutdown();
    }

    private void load(FxRobot robot, String capture) throws Exception {
        robot.interact(() -> vm.open(RepoPaths.pcap(capture)));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !vm.busy.get());
        WaitForAsyncUtils.waitForFxEvents();
    }

    private TableView<PacketRow> packets(FxRobot robot) {
        return robot.lookup("#packets").queryTableView();
    }

    private static TreeItem<FieldNode> find(TreeItem<FieldNode> item, Predicate<FieldNode> p) {
        if (item.getValue() != null && p.test(item.getValue())) return item;
        for (TreeItem<FieldNode> c : item.getChildren()) {
            TreeItem<FieldNode> f = find(c, p);
            if (f != null) return f;
        }
        return null;
    }

    @Test
    void rowsTreeAndHexOfTheRpingCapture(FxRobot robot) throws Exception {
        load(robot, "siw/siw-rping-lo.pcap");
        TableView<PacketRow> t = packets(robot);
        // rping -C 10 over siw: MPA Request (frame 4) and Reply (6), then Send, Read Request, Read Response...
        assertThat(t.getItems()).hasSize(72);
        assertThat(t.getItems().get(0).frame()).isEqualTo(4);
        assertThat(t.getItems().get(0).protocol()).isEqualTo("MPA");
        assertThat(t.getItems().get(0).info()).startsWith("Request Frame rev 2");
        assertThat(t.getItems().get(3).info()).startsWith("RDMA Read Request QN 1 MSN 1 MO 0 L");
        assertThat(t.getItems().get(0).source()).isEqualTo("10.0.2.15:39655");
        assertThat(robot.lookup("#status").queryAs(Label.class).getText()).contains("72 PDUs", "(0 errors)");

        // click the Read Request's row (frame 9): its field tree and octets
        robot.interact(() -> t.scrollTo(3));
        robot.clickOn((Node) robot.lookup(".table-row-cell").nth(3).query());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(t.getSelectionModel().getSelectedItem().frame()).isEqualTo(9);
        TreeView<FieldNode> tree = robot.lookup("#detail").query();
        TreeItem<FieldNode> rr = find(tree.getRoot(), n -> n.text().equals("RDMA Read Request header (RFC 5040 §4.4)"));
        assertThat(rr).isNotNull();
        TreeItem<FieldNode> size = find(tree.getRoot(), n -> "rdmap.readRequest.size".equals(n.name()));
        assertThat(size.getValue().text()).isEqualTo("RDMA Read message size: 64");

        // select the MSN field: its four octets are highlighted in the hex and ASCII columns
        TreeItem<FieldNode> msn = find(tree.getRoot(), n -> "ddp.msn".equals(n.name()));
        robot.interact(() -> tree.getSelectionModel().select(msn));
        WaitForAsyncUtils.waitForFxEvents();
        List<Text> selected = robot.lookup(".hex-selected").queryAllAs(Text.class).stream().toList();
        assertThat(selected).hasSize(8);
        assertThat(selected.subList(0, 4)).extracting(Text::getText).containsExactly("00", "00", "00", "01");
        assertThat(vm.highlight.get().offset()).isEqualTo(12);
    }

    @Test
    void filterBarFiltersCompletesAndTurnsRedOnErrors(FxRobot robot) throws Exception {
        load(robot, "siw/siw-rping-lo.pcap");
        TextField filter = robot.lookup("#filter").queryAs(TextField.class);
        robot.clickOn(filter).write("ddp.ms");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup(".completion-item").queryAll()).isNotEmpty();
        assertThat(robot.lookup(".completion-item").queryAll().stream()
                .map(n -> ((javafx.scene.control.Label) robot.from(n).lookup(".label").query()).getText()))
                .anyMatch(s -> s.startsWith("ddp.msn"));
        robot.interact(() -> filter.setText("rdmap.opcode == 1 && ddp.msm <= 2"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(filter.getStyleClass()).contains("filter-error");
        assertThat(robot.lookup("#filter-message").queryAs(Label.class).getText())
                .isEqualTo("column 22: unknown field 'ddp.msm' (did you mean 'ddp.msn'?)");
        robot.interact(() -> filter.setText("rdmap.opcode == 1 && ddp.msn <= 2"));
        assertThat(filter.getStyleClass()).contains("filter-ok").doesNotContain("filter-error");
        robot.clickOn(filter).type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> packets(robot).getItems().size() == 2);
        assertThat(packets(robot).getItems()).extracting(PacketRow::frame).containsExactly(9L, 17L);
        robot.interact(() -> vm.applyFilter(""));
        assertThat(packets(robot).getItems()).hasSize(72);
    }

    @Test
    void clickingAViolationSelectsItsFrame(FxRobot robot) throws Exception {
        // pcaps/violations/msn-skipped-terminated.expected: error ddp.untagged.msn at frame 8
        load(robot, "violations/msn-skipped-terminated.pcap");
        TableView<Violation> v = robot.lookup("#violations").queryTableView();
        assertThat(v.getItems()).extracting(Violation::id).contains("ddp.untagged.msn");
        int i = v.getItems().stream().map(Violation::id).toList().indexOf("ddp.untagged.msn");
        robot.clickOn((Node) robot.from(v).lookup(".table-row-cell").nth(i).query());
        WaitForAsyncUtils.waitForFxEvents();
        PacketRow selected = packets(robot).getSelectionModel().getSelectedItem();
        assertThat(selected.frame()).isEqualTo(8);
        assertThat(selected.flags() & PduIndex.FLAG_ERROR).isNotZero();
        TreeView<FieldNode> tree = robot.lookup("#detail").query();
        assertThat(find(tree.getRoot(), n -> n.text().startsWith("error ddp.untagged.msn [RFC 5041 §4.3"))).isNotNull();
        assertThat(robot.lookup(".violation-error").queryAll()).isNotEmpty();
        // the filter finds it too
        robot.interact(() -> vm.applyFilter("violation.check == \"ddp.untagged.msn\""));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> packets(robot).getItems().size() == 1);
        assertThat(packets(robot).getItems().get(0).frame()).isEqualTo(8);
    }

    @Test
    void ladderPairsReadsAndSelectsFramesOnClick(FxRobot robot) throws Exception {
        load(robot, "siw/siw-rping-lo.pcap");
        robot.clickOn("Ladder");
        WaitForAsyncUtils.waitForFxEvents();
        List<LadderEvent> events = List.copyOf(vm.ladderEvents);
        assertThat(events.get(0).kind()).isEqualTo("MPA Request");
        assertThat(events.get(1).kind()).isEqualTo("MPA Reply");
        LadderEvent response = events.stream().filter(e -> e.kind().equals("Read Response")).findFirst().orElseThrow();
        LadderEvent request = events.stream().filter(e -> e.kind().equals("Read Request")).findFirst().orElseThrow();
        assertThat(response.answers()).isEqualTo(request.firstFrame());
        assertThat(response.serverToClient()).isNotEqualTo(request.serverToClient());
        assertThat(events).noneMatch(LadderEvent::violation);
        int i = events.indexOf(request);
        LadderView ladder = robot.lookup("#ladder").query();
        robot.clickOn(ladder.localToScreen(400, LadderView.yOf(i)));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(packets(robot).getSelectionModel().getSelectedItem().frame()).isEqualTo(request.lastFrame());
        Path png = tmp.resolve("ladder.png");
        robot.interact(() -> {
            try {
                io.rddp.gui.view.Pictures.png(ladder, png);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');
    }

    @Test
    void placementMapShowsEachAccessOfAnStag(FxRobot robot) throws Exception {
        load(robot, "siw/siw-rping-lo.pcap");
        robot.clickOn("Placement map");
        WaitForAsyncUtils.waitForFxEvents();
        // rping reads the client's 64-byte buffer 0x2e281c00 into the server's 0x5fb74500, then writes it back
        assertThat(vm.stags).contains(0x2e281c00L, 0x5fb74500L);
        robot.interact(() -> vm.stag.set(0x5fb74500L));
        assertThat(vm.accesses).isNotEmpty().allMatch(a -> a.length() == 64);
        assertThat(vm.accesses).extracting(a -> a.kind()).contains("Read Response");
        PlacementView p = robot.lookup("#placement").query();
        assertThat(p.getHeight()).isGreaterThan(PlacementView.yOf(vm.accesses.size() - 1));
        Path png = tmp.resolve("placement.png");
        robot.interact(() -> {
            try {
                io.rddp.gui.view.Pictures.png(p, png);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(Files.size(png)).isGreaterThan(1000);
    }

    @Test
    void overlappingWritesAreRedOnThePlacementMap(FxRobot robot) throws Exception {
        load(robot, "violations/tagged-to-order.pcap");
        assertThat(vm.violations).isNotEmpty();
        assertThat(vm.stags).isNotEmpty();
        boolean anyRed = false;
        for (Long s : List.copyOf(vm.stags)) {
            robot.interact(() -> vm.stag.set(s));
            anyRed |= vm.accesses.stream().anyMatch(a -> a.violation());
        }
        assertThat(anyRed).as("an access of a reported frame is drawn red").isTrue();
    }

    @Test
    void savesAsPcapngWithViolationsAsComments(FxRobot robot) throws Exception {
        load(robot, "violations/msn-skipped-terminated.pcap");
        Path out = tmp.resolve("annotated.pcapng");
        robot.interact(() -> vm.saveAs(out));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> vm.status.get().startsWith("Saved"));
        String text = new String(Files.readAllBytes(out), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(text).contains("rddp: error ddp.untagged.msn frame 8");
    }

    @Test
    void liveCaptureOnLoopbackDecodesAsFramesArrive(FxRobot robot) throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        int p = port;
        robot.interact(() -> vm.startCapture("lo", "tcp port " + p, 1000));
        if (vm.captureError.get() != null) Assumptions.abort("live capture on lo not possible here: " + vm.captureError.get());
        assertThat(vm.capturing.get()).isTrue();
        LoopbackReplay.replay(LoopbackReplay.chunks(RepoPaths.pcap("siw/siw-rping-lo.pcap")), port);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> packets(robot).getItems().size() >= 72);
        robot.interact(() -> vm.stopCapture());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !vm.capturing.get());
        assertThat(packets(robot).getItems()).hasSize(72);
        assertThat(packets(robot).getItems().get(0).protocol()).isEqualTo("MPA");
        assertThat(vm.streams).hasSize(1);
        assertThat(vm.streams.get(0).server).endsWith(":" + port);
        Path out = tmp.resolve("live.pcapng");
        robot.interact(() -> vm.saveAs(out));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> vm.status.get().startsWith("Saved"));
        assertThat(Files.size(out)).isGreaterThan(5000);
    }

}
