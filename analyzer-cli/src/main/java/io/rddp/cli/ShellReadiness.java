package io.rddp.cli;

import io.rddp.conformance.Readiness;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * {@code rddp conform --ready-cmd}: a shell command that exits 0 once the DUT listens again (the siw lab asks its
 * guest whether a fresh rping -s listens). What it prints is shown on the console, a line each, prefixed (the lab says
 * when it restarted an rping -s that did not exit); a command that fails, or outlives the limit, means "cannot tell"
 * and the tester falls back to its pacing.
 */
record ShellReadiness(String command, PrintWriter console) implements Readiness {

    /** What is shown of the command's output at most: a probe says a line or two. */
    static final int MAX_SHOWN = 4096;

    @Override
    public boolean await(long limitMs) throws InterruptedException {
        Path log = null;
        try {
            log = Files.createTempFile("rddp-ready", ".log");
            Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            boolean done = p.waitFor(limitMs, TimeUnit.MILLISECONDS);
            if (!done) p.destroyForcibly().waitFor(1, TimeUnit.SECONDS);
            show(log);
            return done && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } finally {
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException ignored) {
                    // a temporary file left behind in the temp folder is harmless
                }
            }
        }
    }

    private void show(Path log) throws IOException {
        byte[] head;
        try (var in = Files.newInputStream(log)) {
            head = in.readNBytes(MAX_SHOWN);
        }
        for (String line : new String(head, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) console.println("rddp conform: --ready-cmd: " + line.strip());
        }
        console.flush();
    }
}
