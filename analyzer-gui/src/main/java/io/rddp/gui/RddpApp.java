package io.rddp.gui;

import io.rddp.gui.view.MainView;
import io.rddp.gui.vm.MainViewModel;
import javafx.application.Application;
import javafx.scene.Scene;
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

    /** The window's scene with the style sheet. */
    public static Scene scene(MainView view) {
        Scene scene = new Scene(view, 1280, 860);
        scene.getStylesheets().add(RddpApp.class.getResource("/io/rddp/gui/rddp.css").toExternalForm());
        return scene;
    }

    @Override
    public void stop() {
        if (vm != null) vm.shutdown();
    }
}
