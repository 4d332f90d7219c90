package io.rddp.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository root (surefire sets rddp.root) and its bundled captures. */
final class Repo {
    private Repo() {
    }

    static Path root() {
        String prop = System.getProperty("rddp.root");
        if (prop != null && Files.isDirectory(Path.of(prop, "pcaps"))) return Path.of(prop);
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("pcaps")) && Files.exists(p.resolve("pom.xml"))) return p;
        }
        throw new IllegalStateException("repository root with pcaps/ not found from " + Path.of("").toAbsolutePath());
    }

    static Path pcaps() {
        return root().resolve("pcaps");
    }
}
