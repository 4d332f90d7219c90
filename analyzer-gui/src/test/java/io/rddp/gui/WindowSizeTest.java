package io.rddp.gui;

import io.rddp.gui.view.MainView;
import io.rddp.gui.vm.MainViewModel;
import io.rddp.testing.RepoPaths;
import javafx.geometry.Rectangle2D;
import javafx.scene.control.TableView;
import javafx.stage.Screen;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The window fits the screen's usable area. Monocle's headless screen is 1280 x 800: a taller window was clipped by
 * it, and every repaint then printed a BufferOverflowException from the render thread (UploadingPainter).
 */
@ExtendWith(ApplicationExtension.class)
class WindowSizeTest {
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

    @Test
    void theWindowFitsTheScreenAndRepaintsWithoutAnErrorOnStderr(FxRobot robot) throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                seen.write(b);
                err.write(b);
            }
        }, true, StandardCharsets.UTF_8));
        try {
            robot.interact(() -> vm.open(RepoPaths.pcap("siw/siw-rping-lo.pcap")));
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !vm.busy.get());
            TableView<?> packets = robot.lookup("#packets").queryTableView();
            for (int i = 0; i < 5; i++) {   // each selection repaints the table, the tree and the hex pane
                int row = i;
                robot.interact(() -> packets.getSelectionModel().select(row));
                Thread.sleep(50);
            }
            WaitForAsyncUtils.waitForFxEvents();
        } finally {
            System.setErr(err);
        }
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        assertThat(stage.getHeight()).isLessThanOrEqualTo(screen.getHeight());
        assertThat(stage.getWidth()).isLessThanOrEqualTo(screen.getWidth());
        assertThat(stage.getY() + stage.getHeight()).isLessThanOrEqualTo(screen.getMaxY());
        assertThat(seen.toString(StandardCharsets.UTF_8)).doesNotContain("Exception");
    }
}
