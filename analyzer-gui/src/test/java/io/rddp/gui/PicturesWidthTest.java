package io.rddp.gui;

import io.rddp.gui.view.LadderView;
import io.rddp.gui.view.MainView;
import io.rddp.gui.view.PlacementView;
import io.rddp.gui.vm.MainViewModel;
import io.rddp.testing.RepoPaths;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The ladder and the placement map are as wide as the window shows them, and the map's TO labels fit inside. */
@ExtendWith(ApplicationExtension.class)
class PicturesWidthTest {
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
        // off the window first: a relayout after the resizing must not read rows of the closed session
        WaitForAsyncUtils.waitForAsyncFx(5000, () -> stage.setScene(null));
        vm.shutdown();
    }

    @Test
    void theLadderAndThePlacementMapFollowTheWindowsWidthWithTheirLabelsInside(FxRobot robot) throws Exception {
        robot.interact(() -> vm.open(RepoPaths.pcap("siw/siw-rping-lo.pcap")));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !vm.busy.get());
        robot.clickOn("Ladder");
        LadderView ladder = robot.lookup("#ladder").query();
        // the window only narrows: Monocle keeps the limit a narrower frame left on a pixel buffer, and a wider frame
        // that reuses the buffer then fails in the render thread ("Too small int buffer size")
        for (double w : new double[]{1200, 1000}) {
            robot.interact(() -> stage.setWidth(w));
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(ladder.getWidth()).as("ladder in a window %s wide", w).isBetween(w - 40, w);
        }
        robot.clickOn("Placement map");
        robot.interact(() -> vm.stag.set(0x5fb74500L));
        PlacementView p = robot.lookup("#placement").query();
        for (double w : new double[]{900, 800}) {
            robot.interact(() -> stage.setWidth(w));
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(p.getWidth()).as("placement map in a window %s wide", w).isBetween(w - 40, w);
            assertThat(p.textRight()).as("TO labels in a window %s wide", w).isPositive()
                    .isLessThanOrEqualTo(p.getWidth());
        }
    }
}
