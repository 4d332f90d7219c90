package io.rddp.decode;

import java.nio.file.Files;
import java.nio.file.Path;

public final class TestFiles {
    private TestFiles() {
    }

    /** The repository root: surefire's rddp.root, else the nearest parent holding pcaps/ and pom.xml. */
    public static Path root() {
        String prop = System.getProperty("rddp.root");
        if (prop != null && Files.isDirectory(Path.of(prop, "pcaps"))) return Path.of(prop);
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("pcaps")) && Files.exists(p.resolve("pom.xml"))) return p;
        }
        throw new IllegalStateException("repository root with pcaps/ not found");
    }
}
