package io.rddp.gui.view;

import io.rddp.decode.FieldSpans;
import javafx.beans.value.ObservableValue;
import javafx.scene.control.ScrollPane;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * The PDU's octets as hex and ASCII, 16 a line; the octets of the selected field carry the style class
 * {@code hex-selected} (highlighted) in both columns.
 */
public final class HexView extends ScrollPane {
    private final TextFlow flow = new TextFlow();

    public HexView(ObservableValue<byte[]> bytes, ObservableValue<FieldSpans.Span> highlight) {
        flow.getStyleClass().add("hex");
        setContent(flow);
        setFitToWidth(true);
        getStyleClass().add("hex-pane");
        bytes.addListener((o, a, b) -> render(b, highlight.getValue()));
        highlight.addListener((o, a, b) -> render(bytes.getValue(), b));
        render(bytes.getValue(), highlight.getValue());
    }

    private void render(byte[] b, FieldSpans.Span span) {
        flow.getChildren().clear();
        if (b == null || b.length == 0) {
            flow.getChildren().add(styled("(select a PDU)", "hex-offset"));
            return;
        }
        int from = span == null ? -1 : span.offset();
        int to = span == null ? -1 : Math.min(b.length, span.offset() + span.length());
        for (int line = 0; line < b.length; line += 16) {
            flow.getChildren().add(styled(String.format("%04x  ", line), "hex-offset"));
            for (int i = line; i < line + 16; i++) {
                if (i < b.length) {
                    flow.getChildren().add(styled(String.format("%02x", b[i] & 0xFF), i >= from && i < to
                            ? "hex-selected" : "hex-byte"));
                    flow.getChildren().add(styled(i == line + 7 ? "  " : " ", "hex-byte"));
                } else {
                    flow.getChildren().add(styled(i == line + 7 ? "    " : "   ", "hex-byte"));
                }
            }
            flow.getChildren().add(styled(" ", "hex-byte"));
            for (int i = line; i < Math.min(b.length, line + 16); i++) {
                int c = b[i] & 0xFF;
                flow.getChildren().add(styled(c >= 0x20 && c < 0x7F ? String.valueOf((char) c) : ".",
                        i >= from && i < to ? "hex-selected" : "hex-ascii"));
            }
            flow.getChildren().add(styled("\n", "hex-byte"));
        }
    }

    private static Text styled(String s, String style) {
        Text t = new Text(s);
        t.getStyleClass().add(style);
        return t;
    }
}
