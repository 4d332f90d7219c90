package io.rddp.gui.view;

import javafx.embed.swing.SwingFXUtils;
import javafx.scene.canvas.Canvas;
import javafx.scene.image.WritableImage;

import javax.imageio.ImageIO;
import java.io.IOException;
import java.nio.file.Path;

/** Export of a picture as PNG. */
public final class Pictures {
    private Pictures() {
    }

    /** Writes what the canvas shows to a PNG file. FX thread. */
    public static void png(Canvas canvas, Path file) throws IOException {
        WritableImage image = canvas.snapshot(null, null);
        if (!ImageIO.write(SwingFXUtils.fromFXImage(image, null), "png", file.toFile())) {
            throw new IOException("no PNG writer");
        }
    }
}
