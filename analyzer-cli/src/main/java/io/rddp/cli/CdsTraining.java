package io.rddp.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The training run of the launchers' class-data sharing archive ({@code ./rddp}, {@code bin/rddp}): generates a small
 * busy-RNIC capture and runs {@code analyze} and {@code decode} on it, so that the archive the JVM writes when this
 * run exits ({@code -XX:ArchiveClassesAtExit}) holds the classes those commands load, already parsed, verified and
 * linked. Not a command: the launchers run it with {@code java -cp rddp.jar} once per jar and Java. Exits 0 when every
 * command succeeded; the launchers use no archive otherwise.
 */
public final class CdsTraining {
    private CdsTraining() {
    }

    public static void main(String[] args) throws IOException {
        System.exit(train() == 0 ? 0 : 1);
    }

    /** Runs the commands with their output discarded; returns how many failed. */
    static int train() throws IOException {
        Path dir = Files.createTempDirectory("rddp-cds-training");
        PrintStream out = System.out;
        PrintStream err = System.err;
        int failed = 0;
        try (PrintStream none = new PrintStream(OutputStream.nullOutputStream())) {
            System.setOut(none);
            System.setErr(none);
            String cap = dir.resolve("busy-rnic.pcap").toString();
            if (Main.run("generate", "busy-rnic", "--size", "2MB", "-o", cap) != Main.EXIT_OK) failed++;
            // analyze exits 1 when it finds violations; --fail-on never makes 0 mean "ran"
            if (Main.run("analyze", "--format", "json", "--no-progress", "--fail-on", "never",
                    "-o", dir.resolve("report.json").toString(), cap) != Main.EXIT_OK) failed++;
            if (Main.run("decode", "--format", "jsonl", "--no-progress", "-o",
                    dir.resolve("pdus.jsonl").toString(), cap) != Main.EXIT_OK) failed++;
        } finally {
            System.setOut(out);
            System.setErr(err);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return failed;
    }
}
