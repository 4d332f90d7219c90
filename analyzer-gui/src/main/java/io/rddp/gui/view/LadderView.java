package io.rddp.gui.view;

import io.rddp.gui.model.LadderEvent;
import io.rddp.gui.model.StreamStats;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The ladder diagram of one stream: client and server as two columns, each message an arrow between them in capture
 * order, a response linked to its request by a bracket on the responder's side, violations in red. A click on an
 * arrow hands its event to {@code onPick}.
 */
public final class LadderView extends Canvas {
    /** The client's column is LEFT from the left edge, the server's as far from the right one: the width follows the window. */
    static final double ROW = 30, TOP = 60, LEFT = 150, WIDTH = 800, MIN_WIDTH = 600;
    /**
     * Arrows drawn at most. A stream of a busy capture has thousands: a canvas some 150,000 pixels tall, which the
     * renderer cannot allocate (it failed on every pulse). The packet list shows every PDU.
     */
    static final int MAX_ARROWS = 200;
    private final ObservableList<LadderEvent> events;
    private final Supplier<StreamStats> stream;

    /**
     * Whether the picture is on show (the view binds it to its tab). One not on show is drawn when it is shown, not
     * at each change of its data: a loading capture changes it every second, and every drawing of thousands of rows
     * into a canvas that grows each time costs the FX thread and the heap more than the loading itself. Not on show
     * until said: drawing into a canvas no pulse renders leaves the scene dirty, and the window repainted its region
     * some 20 times a second for as long as the picture stayed hidden.
     */
    public final BooleanProperty shown = new SimpleBooleanProperty(false);
    private boolean stale;

    public LadderView(ObservableList<LadderEvent> events, Supplier<StreamStats> stream, Consumer<LadderEvent> onPick) {
        super(WIDTH, 200);
        shown.addListener((o, a, b) -> {
            if (b && stale) draw();
        });
        this.events = events;
        this.stream = stream;
        getStyleClass().add("ladder");
        events.addListener((ListChangeListener<LadderEvent>) c -> draw());
        widthProperty().addListener((o, a, b) -> draw());
        setOnMouseClicked(e -> {
            LadderEvent ev = eventAt(e.getY());
            if (ev != null) onPick.accept(ev);
        });
        draw();
    }

    /** The event whose arrow is drawn at height {@code y}, or null. */
    public LadderEvent eventAt(double y) {
        int i = (int) Math.floor((y - TOP) / ROW);
        return i >= 0 && i < Math.min(events.size(), MAX_ARROWS) ? events.get(i) : null;
    }

    /** The height of event {@code i}'s arrow (tests click there). */
    public static double yOf(int i) {
        return TOP + i * ROW + ROW / 2;
    }

    public void draw() {
        stale = !shown.get();
        if (stale) return;
        double right = getWidth() - LEFT;
        List<LadderEvent> all = List.copyOf(events);
        List<LadderEvent> list = all.subList(0, Math.min(all.size(), MAX_ARROWS));
        double h = TOP + Math.max(1, list.size()) * ROW + 30 + (all.size() > list.size() ? ROW : 0);
        setHeight(h);
        GraphicsContext g = getGraphicsContext2D();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, getWidth(), h);
        g.setFont(Font.font("System", 12));
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.CENTER);
        StreamStats s = stream.get();
        g.setFill(Color.BLACK);
        g.fillText("client " + (s != null ? s.client : ""), LEFT, 20);
        g.fillText("server " + (s != null ? s.server : ""), right, 20);
        if (s != null) {
            g.setFill(Color.gray(0.35));
            g.fillText("stream " + s.stream + ": " + s.mpa(), (LEFT + right) / 2, 40);
        }
        g.setStroke(Color.gray(0.4));
        g.setLineWidth(2);
        g.strokeLine(LEFT, TOP - 10, LEFT, h - 10);
        g.strokeLine(right, TOP - 10, right, h - 10);
        if (list.isEmpty()) {
            g.setFill(Color.gray(0.4));
            g.fillText("(no messages on this stream yet)", (LEFT + right) / 2, TOP + ROW / 2);
            return;
        }
        Map<Long, Integer> byFrame = new HashMap<>();
        for (int i = 0; i < list.size(); i++) byFrame.putIfAbsent(list.get(i).firstFrame(), i);
        for (int i = 0; i < list.size(); i++) {
            LadderEvent e = list.get(i);
            double y = yOf(i);
            double x0 = e.serverToClient() ? right : LEFT, x1 = e.serverToClient() ? LEFT : right;
            Color c = e.violation() ? Color.rgb(210, 30, 30) : colour(e.kind());
            g.setStroke(c);
            g.setFill(c);
            g.setLineWidth(e.violation() ? 2.5 : 1.5);
            g.strokeLine(x0, y - 6, x1, y + 6);
            double dir = x1 > x0 ? -1 : 1;
            g.fillPolygon(new double[]{x1, x1 + dir * 10, x1 + dir * 8}, new double[]{y + 6, y + 1, y + 8}, 3);
            g.setFill(e.violation() ? Color.rgb(190, 0, 0) : Color.BLACK);
            g.fillText(e.label() + (e.violation() ? "  ⚠" : ""), (LEFT + right) / 2, y - 10);
            g.setFill(Color.gray(0.45));
            g.setTextAlign(TextAlignment.RIGHT);
            g.fillText(e.firstFrame() == e.lastFrame() ? "#" + e.lastFrame() : "#" + e.firstFrame() + "–" + e.lastFrame(),
                    LEFT - 12, y);
            g.setTextAlign(TextAlignment.CENTER);
            Integer req = e.answers() >= 0 ? byFrame.get(e.answers()) : null;
            if (req != null) {
                // bracket on the responder's side from the request's arrival to the response's departure
                double x = x0 + (x0 == right ? 18 : -18);
                double yr = yOf(req) + 6;
                g.setStroke(Color.gray(0.55));
                g.setLineWidth(1);
                g.setLineDashes(4, 3);
                g.strokeLine(x0, yr, x, yr);
                g.strokeLine(x, yr, x, y - 6);
                g.strokeLine(x, y - 6, x0, y - 6);
                g.setLineDashes(null);
            }
        }
        if (all.size() > list.size()) {
            g.setFill(Color.gray(0.35));
            g.fillText("… " + (all.size() - list.size()) + " more arrows not drawn (the first " + list.size()
                    + " are); the packet list shows every PDU", (LEFT + right) / 2, yOf(list.size()));
        }
    }

    static Color colour(String kind) {
        if (kind.startsWith("MPA")) return Color.rgb(120, 60, 170);
        if (kind.startsWith("Read")) return Color.rgb(20, 120, 60);
        if (kind.startsWith("Write")) return Color.rgb(20, 80, 180);
        if (kind.startsWith("Atomic")) return Color.rgb(170, 100, 0);
        if (kind.startsWith("Terminate")) return Color.rgb(210, 30, 30);
        return Color.rgb(40, 40, 40);
    }
}
