package io.rddp.cli;

import io.rddp.conformance.Readiness;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * {@code rddp conform --ready-cmd}: a shell command that exits 0 once the DUT listens again (the siw lab asks its
 * guest whether a fresh rping -s listens and the last connection is gone). Its output is discarded; a command that
 * fails, or outlives the limit, says nothing and the tester falls back to its pacing.
 */
record ShellReadiness(String command) implements Readiness {

    @Override
    public boolean await(long limitMs) throws InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            return false;
        }
        if (!p.waitFor(limitMs, TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            return false;
        }
        return p.exitValue() == 0;
    }
}
