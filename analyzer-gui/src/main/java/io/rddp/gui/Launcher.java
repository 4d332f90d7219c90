package io.rddp.gui;

import javafx.application.Application;

/**
 * Main class of {@code rddp gui [FILE]}: answers {@code --help} and a missing display before JavaFX starts. The
 * launchers run it from the class path with JavaFX on the module path ({@code --module-path ... --add-modules
 * javafx.controls,javafx.swing}). It does not extend {@link Application}, so that it also starts with JavaFX on the
 * class path (a main class that extends Application then fails with "JavaFX runtime components are missing").
 */
public final class Launcher {
    private Launcher() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.println("Usage: rddp gui [FILE]\n  Opens the rddp window, with FILE (pcap, pcapng, .gz) loaded when given.");
            return;
        }
        if (System.getProperty("os.name", "").startsWith("Linux") && blank(System.getenv("DISPLAY"))
                && blank(System.getenv("WAYLAND_DISPLAY")) && !"Monocle".equals(System.getProperty("glass.platform"))) {
            System.err.println("rddp gui: no display (DISPLAY is not set): run it on a desktop, over ssh -X, or"
                    + " under Xvfb (xvfb-run ./rddp gui)");
            System.exit(2);
        }
        try {
            Application.launch(RddpApp.class, args);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            System.err.println("rddp gui: JavaFX could not open a window: " + e.getMessage());
            if (!String.valueOf(e.getMessage()).contains("DISPLAY")) {
                System.err.println("rddp gui: on Linux JavaFX needs GTK 3 (e.g. apt-get install libgtk-3-0)");
            }
            System.exit(2);
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
