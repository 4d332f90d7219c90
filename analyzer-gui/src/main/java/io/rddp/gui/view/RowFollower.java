package io.rddp.gui.view;

import javafx.application.Platform;
import javafx.beans.value.ObservableBooleanValue;
import javafx.collections.ListChangeListener;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.VirtualFlow;

/**
 * Keeps a growing table scrolled to its newest row while {@code live} holds and the user was at the bottom when rows
 * arrived; scrolled up, the list stays where the user put it until they come back down (Wireshark's auto-scroll in a
 * live capture).
 */
public final class RowFollower {
    private final TableView<?> table;
    private final ObservableBooleanValue live;
    private int lastSize;

    private RowFollower(TableView<?> table, ObservableBooleanValue live) {
        this.table = table;
        this.live = live;
    }

    public static void install(TableView<?> table, ObservableBooleanValue live) {
        RowFollower f = new RowFollower(table, live);
        f.lastSize = table.getItems().size();
        table.getItems().addListener((ListChangeListener<Object>) c -> f.changed());
    }

    private void changed() {
        int before = lastSize, size = table.getItems().size();
        lastSize = size;
        if (!live.get() || size <= before) return;
        // the flow has not laid out the new rows yet: its last cell is where the user was before they arrived
        VirtualFlow<?> flow = (VirtualFlow<?>) table.lookup(".virtual-flow");
        IndexedCell<?> last = flow == null ? null : flow.getLastVisibleCell();
        boolean atBottom = before == 0 || last == null || last.getIndex() >= before - 1;
        // later: the table's skin learns of the new rows after this listener, and scrolls only within those it knows;
        // laid out at once, so that the next rows find the flow where this left it
        if (atBottom) {
            Platform.runLater(() -> {
                int end = table.getItems().size() - 1;
                table.scrollTo(end);
                table.layout();
                // TableView.scrollTo on the last row can leave it just below the viewport (JavaFX 17's estimate of
                // the rows' heights); the flow's own scrollTo then brings it wholly in
                if (flow != null) flow.scrollTo(end);
                table.layout();
            });
        }
    }
}
