package io.rddp.gui.view;

import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Scene;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The live packet list follows new rows while the user is at the bottom, and stays put once they scroll up. */
@ExtendWith(ApplicationExtension.class)
class RowFollowerTest {
    private final ObservableList<Integer> rows = FXCollections.observableArrayList();
    private final SimpleBooleanProperty live = new SimpleBooleanProperty(true);
    private TableView<Integer> table;

    @Start
    void start(Stage stage) {
        table = new TableView<>(rows);
        TableColumn<Integer, Integer> c = new TableColumn<>("No.");
        c.setCellValueFactory(d -> new ReadOnlyObjectWrapper<>(d.getValue()));
        table.getColumns().add(c);
        RowFollower.install(table, live);
        stage.setScene(new Scene(table, 300, 300));
        stage.show();
    }

    private void add(FxRobot robot, int n) {
        robot.interact(() -> {
            int from = rows.size();
            rows.addAll(IntStream.range(from, from + n).boxed().toList());
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private int lastVisible() {
        return ((VirtualFlow<?>) table.lookup(".virtual-flow")).getLastVisibleCell().getIndex();
    }

    private int firstVisible() {
        return ((VirtualFlow<?>) table.lookup(".virtual-flow")).getFirstVisibleCell().getIndex();
    }

    @Test
    void followsNewRowsAtTheBottomStopsWhenScrolledUpAndResumesAtTheBottom(FxRobot robot) {
        add(robot, 5);
        for (int i = 0; i < 5; i++) add(robot, 40);
        assertThat(lastVisible()).as("following").isEqualTo(rows.size() - 1);

        robot.interact(() -> table.scrollTo(10));   // the user scrolls up to look at row 10
        WaitForAsyncUtils.waitForFxEvents();
        add(robot, 40);
        assertThat(firstVisible()).as("stays where the user scrolled").isEqualTo(10);
        assertThat(lastVisible()).isLessThan(rows.size() - 1);

        robot.clickOn(table).type(KeyCode.END);   // back at the bottom
        WaitForAsyncUtils.waitForFxEvents();
        add(robot, 40);
        assertThat(lastVisible()).as("following again").isEqualTo(rows.size() - 1);

        live.set(false);   // a file being loaded: the list stays at its top
        robot.interact(() -> table.scrollTo(0));
        WaitForAsyncUtils.waitForFxEvents();
        add(robot, 40);
        assertThat(firstVisible()).isZero();
    }
}
