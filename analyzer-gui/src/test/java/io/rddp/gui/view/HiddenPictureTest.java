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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A picture not on show is not drawn, from its construction on: drawing into a canvas on a hidden tab left the scene
 * dirty, and the window repainted that region some 20 times a second while a capture loaded (a third of a 2 GB
 * capture's load time). Drawing sets the canvas' height to its rows, so an undrawn canvas keeps the height it was
 * made with.
 */
@ExtendWith(ApplicationExtension.class)
class HiddenPictureTest {

    @Start
    void start(Stage stage) {
        stage.show();
    }

    @Test
    void thePlacementMapIsDrawnWhenShownAndNotBefore(FxRobot robot) {
        ObservableList<Access> accesses = FXCollections.observableArrayList();
        PlacementView[] view = new PlacementView[1];
        robot.interact(() -> {
            view[0] = new PlacementView(accesses, a -> { });
            accesses.add(new Access(0x42, 0, 4096, "Write", 0, 5, 5, false));
        });
        assertThat(view[0].getHeight()).as("not drawn while hidden").isEqualTo(200);
        robot.interact(() -> view[0].shown.set(true));
        assertThat(view[0].getHeight()).as("drawn when shown: one row").isEqualTo(PlacementView.TOP + PlacementView.ROW + 20);
    }

    @Test
    void theLadderIsDrawnWhenShownAndNotBefore(FxRobot robot) {
        ObservableList<LadderEvent> events = FXCollections.observableArrayList();
        LadderView[] view = new LadderView[1];
        robot.interact(() -> view[0] = new LadderView(events, () -> null, e -> { }));
        assertThat(view[0].getHeight()).as("not drawn while hidden").isEqualTo(200);
        robot.interact(() -> view[0].shown.set(true));
        assertThat(view[0].getHeight()).as("drawn when shown").isNotEqualTo(200);
    }
}
