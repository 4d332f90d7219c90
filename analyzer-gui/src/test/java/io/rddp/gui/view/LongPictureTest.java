package io.rddp.gui.view;

import io.rddp.gui.model.Access;
import io.rddp.gui.model.LadderEvent;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream of a busy capture has thousands of arrows and an STag thousands of accesses: drawn whole, the canvas was
 * some 150,000 pixels tall and the renderer failed to allocate it on every pulse (a 2 GB capture's ladder tab). The
 * pictures draw their first rows and say how many more there are.
 */
@ExtendWith(ApplicationExtension.class)
class LongPictureTest {

    @Start
    void start(Stage stage) {
        stage.show();
    }

    @Test
    void aLadderOfThousandsOfArrowsStaysAPictureTheRendererCanAllocate(FxRobot robot) {
        List<LadderEvent> many = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            many.add(new LadderEvent(i % 2 == 0, i + 1, i + 1, "Send MSN " + i, "Send", -1, false));
        }
        ObservableList<LadderEvent> events = FXCollections.observableArrayList(many);
        LadderView[] view = new LadderView[1];
        robot.interact(() -> {
            view[0] = new LadderView(events, () -> null, e -> { });
            view[0].shown.set(true);
        });
        assertThat(view[0].getHeight()).isLessThan(8000).isGreaterThan(LadderView.yOf(LadderView.MAX_ARROWS - 1));
        assertThat(view[0].eventAt(LadderView.yOf(LadderView.MAX_ARROWS - 1))).isSameAs(many.get(LadderView.MAX_ARROWS - 1));
        assertThat(view[0].eventAt(LadderView.yOf(LadderView.MAX_ARROWS))).as("not drawn, not picked").isNull();
    }

    @Test
    void aPlacementMapOfThousandsOfAccessesStaysAPictureTheRendererCanAllocate(FxRobot robot) {
        List<Access> many = new ArrayList<>();
        for (int i = 0; i < 5000; i++) many.add(new Access(0x42, i * 64L, 64, "Write", 0, i + 1, i + 1, false));
        ObservableList<Access> accesses = FXCollections.observableArrayList(many);
        PlacementView[] view = new PlacementView[1];
        robot.interact(() -> {
            view[0] = new PlacementView(accesses, a -> { });
            view[0].shown.set(true);
        });
        assertThat(view[0].getHeight()).isLessThan(8000).isGreaterThan(PlacementView.yOf(PlacementView.MAX_ROWS - 1));
    }
}
