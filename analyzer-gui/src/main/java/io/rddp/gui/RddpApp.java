package io.rddp.gui;

import io.rddp.gui.view.MainView;
import io.rddp.gui.vm.MainViewModel;
import javafx.application.Application;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.stage.Screen;
import javafx.stage.Stage;

import java.nio.file.Path;
import java.util.List;

/** The JavaFX application: one window on a {@link MainViewModel}. Started through {@link Launcher}. */
public final class RddpApp extends Application {
    private MainViewModel vm;

    @Override
    public void start(Stage stage) {
        vm = new MainViewModel(true);
        MainView view = new MainView(vm);
        stage.setScene(scene(view));
        stage.titleProperty().bind(vm.title);
        stage.show();
        List<String> args = getParameters().getRaw();
        if (!args.isEmpty()) vm.open(Path.of(args.get(0)));
    }

    /**
     * The window's scene with the style sheet, 1280 x 860 or what the screen's usable area has room for: a window
     * larger than the screen runs off it (a 1366 x 768 laptop), and Monocle's headless 1280 x 800 screen, clipping
     * such a window, leaves its pixel buffer short for the next frame (BufferOverflowException in UploadingPainter).
     */
    public static Scene scene(MainView view) {
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        Scene scene = new Scene(view, Math.min(1280, screen.getWidth()), Math.min(860, screen.getHeight()));
        scene.getStylesheets().add(RddpApp.class.getResource("/io/rddp/gui/rddp.css").toExternalForm());
        return scene;
    }

    @Override
    public void stop() {
        if (vm != null) vm.shutdown();
    }
}
