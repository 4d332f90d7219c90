package io.rddp.gui;

import io.rddp.testing.RepoPaths;
import io.rddp.gui.view.MainView;
import io.rddp.gui.vm.FieldNode;
import io.rddp.gui.vm.MainViewModel;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import javax.imageio.ImageIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Screenshots of the real window (GTK on an X display, e.g. Xvfb) for the README, written to docs/images/. Runs only
 * when analyzer-gui/screenshots.sh asks for it (-Drddp.screenshots=true with the GTK platform); headless test runs
 * skip it.
 */
@EnabledIfSystemProperty(named = "rddp.screenshots", matches = "true")
@ExtendWith(ApplicationExtension.class)
class ScreenshotTest {
    private MainViewModel vm;
    private MainView view;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        vm = new MainViewModel(false);
        view = new MainView(vm);
        stage.setScene(RddpApp.scene(view));
        stage.setTitle("rddp");
        stage.show();
    }

    private void shot(FxRobot robot, String name) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        Path dir = RepoPaths.root().resolve("docs/images");
        Files.createDirectories(dir);
        WritableImage[] img = {null};
        robot.interact(() -> img[0] = stage.getScene().snapshot(null));
        ImageIO.write(SwingFXUtils.fromFXImage(img[0], null), "png", dir.resolve(name).toFile());
        System.out.println("ScreenshotTest: wrote " + dir.resolve(name));
    }

    private void load(FxRobot robot, String capture) throws Exception {
        robot.interact(() -> vm.open(RepoPaths.pcap(capture)));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !vm.busy.get());
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static TreeItem<FieldNode> find(TreeItem<FieldNode> item, String name) {
        if (item.getValue() != null && name.equals(item.getValue().name())) return item;
        for (TreeItem<FieldNode> c : item.getChildren()) {
            TreeItem<FieldNode> f = find(c, name);
            if (f != null) return f;
        }
        return null;
    }

    @Test
    void mainViews(FxRobot robot) throws Exception {
        load(robot, "siw/siw-rping-lo.pcap");
        TableView<?> packets = robot.lookup("#packets").queryTableView();
        robot.interact(() -> packets.getSelectionModel().select(3));
        TreeView<FieldNode> tree = robot.lookup("#detail").query();
        robot.interact(() -> tree.getSelectionModel().select(find(tree.getRoot(), "rdmap.readRequest.size")));
        shot(robot, "main-window.png");

        TextField filter = robot.lookup("#filter").queryAs(TextField.class);
        robot.interact(() -> filter.setText("rdmap.opcode == 1 && ddp.msm > 3"));
        shot(robot, "filter-error.png");
        robot.interact(() -> {
            filter.setText("rdmap.opcodeName contains \"Read\" || mpa.kind == \"request\"");
            vm.applyFilter(filter.getText());
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> packets.getItems().size() == 21);
        shot(robot, "filter.png");
        robot.interact(() -> {
            filter.setText("");
            vm.applyFilter("");
        });

        TabPane tabs = (TabPane) view.getCenter();
        robot.interact(() -> tabs.getSelectionModel().select(1));
        shot(robot, "ladder.png");

        load(robot, "siw/siw-write-bw-lo.pcap");
        robot.interact(() -> {
            tabs.getSelectionModel().select(2);
            vm.stag.set(0x22af0c00L);
        });
        shot(robot, "placement.png");

        load(robot, "violations/write-after-invalidate.pcap");
        robot.interact(() -> {
            tabs.getSelectionModel().select(2);
            vm.stag.set(0x12345600L);
        });
        shot(robot, "placement-violation.png");

        load(robot, "violations/msn-skipped-terminated.pcap");
        robot.interact(() -> tabs.getSelectionModel().select(0));
        TableView<?> violations = robot.lookup("#violations").queryTableView();
        robot.interact(() -> violations.getSelectionModel().select(0));
        shot(robot, "violations.png");
        robot.interact(() -> tabs.getSelectionModel().select(1));
        shot(robot, "ladder-terminate.png");
        assertThat(Files.size(RepoPaths.root().resolve("docs/images/main-window.png"))).isGreaterThan(10_000);
    }
}
