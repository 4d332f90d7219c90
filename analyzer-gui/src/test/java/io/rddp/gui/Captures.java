package io.rddp.gui;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's captures (surefire sets rddp.root). */
final class Captures {
    private Captures() {
    }

    static Path root() {
        String prop = System.getProperty("rddp.root");
        if (prop != null && Files.isDirectory(Path.of(prop, "pcaps"))) return Path.of(prop);
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("pcaps")) && Files.exists(p.resolve("pom.xml"))) return p;
        }
        throw new IllegalStateException("repository root not found");
    }

    static Path pcap(String name) {
        return root().resolve("pcaps").resolve(name);
    }
}
