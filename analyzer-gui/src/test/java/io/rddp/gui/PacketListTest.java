package io.rddp.gui;

import io.rddp.gui.view.MainView;
import io.rddp.gui.vm.MainViewModel;
import io.rddp.gui.vm.PacketRow;
import io.rddp.live.LiveCapture;
import io.rddp.testing.RepoPaths;
import javafx.geometry.Bounds;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Labeled;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.Background;
import javafx.scene.layout.BackgroundFill;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The packet list and the bars above it, as a user drives them with keys and the mouse (headless, real JavaFX). */
@ExtendWith(ApplicationExtension.class)
class PacketListTest {
    private MainViewModel vm;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        vm = new MainViewModel(false);
        stage.setScene(RddpApp.scene(new MainView(vm)));
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

    @Test
    void enterAppliesTheFilterWhileTheCompletionListShows(FxRobot robot) throws Exception {
        load(robot, "violations/msn-skipped-terminated.pcap");
        int all = packets(robot).getItems().size();
        robot.clickOn("#filter").write("violation");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup(".completion-item").queryAll()).as("the completion list shows").isNotEmpty();
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> vm.activeFilter.get().equals("violation")
                && !vm.filtering.get());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(packets(robot).getItems()).hasSizeLessThan(all).isNotEmpty().allMatch(r -> r.flags() != 0);
        assertThat(robot.lookup("#filter").queryAs(TextField.class).getText()).isEqualTo("violation");
    }

    /** WCAG 2 contrast ratio of two colours (1 to 21; 4.5 is the minimum for text). */
    private static double contrast(Color a, Color b) {
        double la = luminance(a), lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    private static double luminance(Color c) {
        double[] v = {c.getRed(), c.getGreen(), c.getBlue()};
        for (int i = 0; i < 3; i++) v[i] = v[i] <= 0.03928 ? v[i] / 12.92 : Math.pow((v[i] + 0.055) / 1.055, 2.4);
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
    }

    private static Color topFill(Background b) {
        List<BackgroundFill> fills = b.getFills();
        return (Color) fills.get(fills.size() - 1).getFill();
    }

    @Test
    void aSelectedRowIsReadableAndStandsOutOverEveryRowColour(FxRobot robot) throws Exception {
        // the rping capture has MPA, RDMAP rows; the corpus capture an error row
        for (String capture : List.of("siw/siw-rping-lo.pcap", "violations/msn-skipped-terminated.pcap")) {
            load(robot, capture);
            TableView<PacketRow> t = packets(robot);
            for (int i = 0; i < Math.min(8, t.getItems().size()); i++) {
                int row = i;
                robot.interact(() -> {
                    t.getSelectionModel().clearAndSelect(row);
                    t.scrollTo(row);
                });
                robot.interact(() -> t.getSelectionModel().clearAndSelect(row));
                for (boolean focused : List.of(true, false)) {
                    robot.interact(() -> {
                        if (focused) t.requestFocus();
                        else robot.lookup("#filter").query().requestFocus();
                    });
                    WaitForAsyncUtils.waitForFxEvents();
                    TableRow<?> r = robot.lookup(".table-row-cell").queryAllAs(TableRow.class).stream()
                            .filter(x -> x.getIndex() == row).findFirst().orElseThrow();
                    robot.interact(() -> r.applyCss());
                    Color back = topFill(r.getBackground());
                    Labeled cell = (Labeled) r.lookup(".table-cell");
                    Color text = (Color) cell.getTextFill();
                    String what = capture + " row " + row + " " + r.getStyleClass() + (focused ? " focused" : "");
                    assertThat(contrast(back, text)).as("text on the selection, %s", what).isGreaterThanOrEqualTo(4.5);
                    // the selection differs clearly from every unselected row colour
                    for (Map.Entry<String, Color> c : ROW_COLOURS.entrySet()) {
                        assertThat(contrast(back, c.getValue())).as("selection against %s, %s", c.getKey(), what)
                                .isGreaterThanOrEqualTo(3);
                    }
                }
            }
        }
    }

    /** The unselected row colours of rddp.css. */
    private static final Map<String, Color> ROW_COLOURS = Map.of("mpa", Color.web("#ead9f5"), "ddp",
            Color.web("#e8e8e8"), "rdmap", Color.web("#dbe8fb"), "rpc", Color.web("#dcf3d8"), "error",
            Color.web("#f2a3a3"), "warning", Color.web("#faf0a0"), "white", Color.WHITE);

    @Test
    void endShowsTheLastRowWhollyAboveTheHorizontalScrollBar(FxRobot robot) throws Exception {
        load(robot, "siw/siw-rping-lo.pcap");
        TableView<PacketRow> t = packets(robot);
        robot.clickOn((Node) robot.lookup(".table-row-cell").nth(1).query());
        robot.type(KeyCode.END);
        WaitForAsyncUtils.waitForFxEvents();
        int last = t.getItems().size() - 1;
        assertThat(t.getSelectionModel().getSelectedIndex()).isEqualTo(last);
        ScrollBar hbar = t.lookupAll(".scroll-bar").stream().map(ScrollBar.class::cast)
                .filter(b -> b.getOrientation() == Orientation.HORIZONTAL && b.isVisible()).findFirst().orElseThrow();
        IndexedCell<?> row = robot.lookup(".table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(r -> r.getIndex() == last && r.isVisible()).findFirst().orElseThrow();
        Bounds rb = row.localToScene(row.getBoundsInLocal()), hb = hbar.localToScene(hbar.getBoundsInLocal());
        assertThat(rb.getMaxY()).as("bottom of the last row").isLessThanOrEqualTo(hb.getMinY() + 0.5);
    }

    @Test
    void startStaysInTheToolbarWhenAnInterfaceWithALongDescriptionIsChosen(FxRobot robot) {
        @SuppressWarnings("unchecked")
        ComboBox<LiveCapture.Device> device = robot.lookup("#device").queryAs(ComboBox.class);
        LiveCapture.Device d = new LiveCapture.Device("enp0s31f6", "Intel Corporation Ethernet Connection (7) I219-LM",
                List.of("192.168.178.20", "fe80::1c2d:3e4f:5a6b:7c8d", "2001:db8:4711:0:1c2d:3e4f:5a6b:7c8d"), false, true);
        robot.interact(() -> {
            vm.devices.setAll(d);
            device.setValue(d);
        });
        WaitForAsyncUtils.waitForFxEvents();
        for (String id : List.of("#start", "#stop")) {
            Button b = robot.lookup(id).queryButton();
            assertThat(b.getScene()).as("%s is in the window, not in the overflow menu", id).isNotNull();
            assertThat(b.getParent()).isNotNull();
            Bounds bb = b.localToScene(b.getBoundsInLocal());
            assertThat(bb.getMaxX()).as("%s right edge", id).isLessThanOrEqualTo(stage.getScene().getWidth());
        }
    }
}
