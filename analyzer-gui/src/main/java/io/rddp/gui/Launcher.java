package io.rddp.gui;

import javafx.application.Application;

/**
 * Main class of {@code rddp gui [FILE]}. It does not extend {@link Application}: with JavaFX on the class path
 * (not the module path), a main class that extends Application fails with "JavaFX runtime components are missing".
 */
public final class Launcher {
    private Launcher() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.println("Usage: rddp gui [FILE]\n  Opens the rddp window, with FILE (pcap, pcapng, .gz) loaded when given.");
            return;
        }
        Application.launch(RddpApp.class, args);
    }
}
