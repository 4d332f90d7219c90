package io.rddp.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the repository's files are, for the tests of every module: surefire sets {@code rddp.root} (the parent POM);
 * run from an IDE, the nearest directory above the working directory that holds {@code pcaps/} and a
 * {@code pom.xml}.
 */
public final class RepoPaths {
    private RepoPaths() {
    }

    public static Path root() {
        String prop = System.getProperty("rddp.root");
        if (prop != null && !prop.isBlank() && Files.isDirectory(Path.of(prop, "pcaps"))) return Path.of(prop);
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("pcaps")) && Files.exists(p.resolve("pom.xml"))) return p;
        }
        throw new IllegalStateException("repository root with pcaps/ and pom.xml not found above "
                + Path.of("").toAbsolutePath());
    }

    /** The bundled captures, {@code pcaps/}. */
    public static Path pcaps() {
        return root().resolve("pcaps");
    }

    /** A bundled capture by its path below {@code pcaps/}. */
    public static Path pcap(String name) {
        return pcaps().resolve(name);
    }

    /** A page of the documentation, {@code docs/NAME}. */
    public static Path doc(String name) {
        return root().resolve("docs").resolve(name);
    }
}
