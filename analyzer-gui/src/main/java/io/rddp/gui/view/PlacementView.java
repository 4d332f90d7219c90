package io.rddp.gui.view;

import io.rddp.gui.model.Access;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.Text;
import javafx.scene.text.TextAlignment;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The placement map of one STag: the buffer's Tagged Offset range as a bar; under it one row per access in capture
 * order (what a Write or Read Response placed, what a Read Request read, what an Atomic touched). On the bar, bytes
 * placed more than once are darker, and red where the sink model reported one of the placements (an overlap before
 * the writer signalled completion, RFC 5040 §5.5; a placement out of bounds; a wrong TO...); such accesses are red
 * in their rows too. Rewriting a buffer after completion, as rping does every round, is not an error.
 */
public final class PlacementView extends Canvas {
    /** The bar runs from LEFT to what the TO labels after the rows leave of the width, which follows the window. */
    static final double TOP = 80, ROW = 22, LEFT = 230, WIDTH = 800, MIN_WIDTH = 600;
    /** Access rows drawn at most: as the ladder's arrows, thousands make a canvas the renderer cannot allocate. */
    static final int MAX_ROWS = 250;
    private static final Font FONT = Font.font("System", 12);
    private final ObservableList<Access> accesses;
    private double textRight;

    /**
     * Whether the picture is on show (the view binds it to its tab). One not on show is drawn when it is shown, not
     * at each change of its data: a loading capture changes it every second, and every drawing of thousands of rows
     * into a canvas that grows each time costs the FX thread and the heap more than the loading itself. Not on show
     * until said: drawing into a canvas no pulse renders leaves the scene dirty, and the window repainted its region
     * some 20 times a second for as long as the picture stayed hidden.
     */
    public final BooleanProperty shown = new SimpleBooleanProperty(false);
    private boolean stale;

    public PlacementView(ObservableList<Access> accesses, Consumer<Access> onPick) {
        super(WIDTH, 200);
        shown.addListener((o, a, b) -> {
            if (b && stale) draw();
        });
        this.accesses = accesses;
        getStyleClass().add("placement");
        accesses.addListener((ListChangeListener<Access>) c -> draw());
        widthProperty().addListener((o, a, b) -> draw());
        setOnMouseClicked(e -> {
            int i = (int) Math.floor((e.getY() - TOP) / ROW);
            if (i >= 0 && i < Math.min(accesses.size(), MAX_ROWS)) onPick.accept(accesses.get(i));
        });
        draw();
    }

    public static double yOf(int i) {
        return TOP + i * ROW + ROW / 2;
    }

    public void draw() {
        stale = !shown.get();
        if (stale) return;
        List<Access> list = List.copyOf(accesses);
        int rows = Math.min(list.size(), MAX_ROWS);
        double h = TOP + Math.max(1, rows) * ROW + 20 + (list.size() > rows ? ROW : 0);
        setHeight(h);
        GraphicsContext g = getGraphicsContext2D();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, getWidth(), h);
        g.setFont(FONT);
        g.setTextBaseline(VPos.CENTER);
        if (list.isEmpty()) {
            g.setFill(Color.gray(0.4));
            g.fillText("(no tagged access to this STag)", LEFT, TOP);
            return;
        }
        long lo = list.get(0).to(), hi = lo;
        for (Access a : list) {
            if (Long.compareUnsigned(a.to(), lo) < 0) lo = a.to();
            long end = a.to() + a.length();
            if (Long.compareUnsigned(end, hi) > 0) hi = end;
        }
        double labels = 0;
        for (Access a : list.subList(0, rows)) labels = Math.max(labels, textWidth("0x" + Long.toHexString(a.to())));
        double bar = Math.max(100, getWidth() - LEFT - labels - 16);
        textRight = LEFT + bar + 6 + labels;
        double span = Math.max(1, (double) (hi - lo));
        double scale = bar / span;
        g.setFill(Color.BLACK);
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText(String.format("STag 0x%x: TO 0x%x – 0x%x (%d octets touched)", list.get(0).stag(), lo, hi,
                hi - lo), 10, 16);
        // the buffer bar: written bytes blue, bytes written more than once red
        double by = 34;
        g.setFill(Color.gray(0.92));
        g.fillRect(LEFT, by, bar, 18);
        List<long[]> written = new ArrayList<>();
        for (Access a : list) {
            if (!a.writes()) continue;
            double x = LEFT + (a.to() - lo) * scale;
            g.setFill(Color.rgb(120, 160, 230));
            g.fillRect(x, by, Math.max(1, a.length() * scale), 18);
            for (long[] w : written) {
                long s = Math.max(w[0] - lo, a.to() - lo), e = Math.min(w[1] - lo, a.to() + a.length() - lo);
                if (e > s) {
                    g.setFill(a.violation() || w[2] != 0 ? Color.rgb(220, 40, 40) : Color.rgb(40, 70, 160));
                    g.fillRect(LEFT + s * scale, by, Math.max(1, (e - s) * scale), 18);
                }
            }
            if (a.violation()) {
                g.setFill(Color.rgb(220, 40, 40));
                g.fillRect(x, by, Math.max(1, a.length() * scale), 18);
            }
            written.add(new long[]{a.to(), a.to() + a.length(), a.violation() ? 1 : 0});
        }
        g.setStroke(Color.gray(0.3));
        g.strokeRect(LEFT, by, bar, 18);
        g.setFill(Color.gray(0.35));
        g.fillText("buffer", LEFT - 50, by + 9);
        g.fillText("0x" + Long.toHexString(lo), LEFT, by + 30);
        g.setTextAlign(TextAlignment.RIGHT);
        g.fillText("0x" + Long.toHexString(hi), LEFT + bar, by + 30);
        for (int i = 0; i < rows; i++) {
            Access a = list.get(i);
            double y = yOf(i);
            g.setFill(a.violation() ? Color.rgb(190, 0, 0) : Color.BLACK);
            g.setTextAlign(TextAlignment.RIGHT);
            g.fillText("#" + a.lastFrame() + " s" + a.stream() + " " + a.kind() + " " + a.length() + " B", LEFT - 8, y);
            double x = LEFT + (a.to() - lo) * scale;
            g.setFill(a.violation() ? Color.rgb(220, 40, 40) : colour(a.kind()));
            g.fillRect(x, y - 7, Math.max(2, a.length() * scale), 14);
            g.setTextAlign(TextAlignment.LEFT);
            g.setFill(Color.gray(0.35));
            g.fillText("0x" + Long.toHexString(a.to()), Math.min(LEFT + bar + 6, x + Math.max(2, a.length() * scale) + 6), y);
        }
        if (list.size() > rows) {
            g.setFill(Color.gray(0.35));
            g.setTextAlign(TextAlignment.LEFT);
            g.fillText("… " + (list.size() - rows) + " more accesses not listed (the first " + rows + " are; the bar"
                    + " shows them all)", LEFT, yOf(rows));
        }
    }

    /** The right edge of the rightmost TO label of the last drawing (tests check it lies inside the canvas). */
    public double textRight() {
        return textRight;
    }

    private static double textWidth(String s) {
        Text t = new Text(s);
        t.setFont(FONT);
        return t.getLayoutBounds().getWidth();
    }

    static Color colour(String kind) {
        return switch (kind) {
            case "Write" -> Color.rgb(40, 90, 200);
            case "Read Response" -> Color.rgb(20, 140, 120);
            case "Read (source)" -> Color.rgb(60, 170, 60);
            default -> Color.rgb(180, 110, 0);
        };
    }
}
