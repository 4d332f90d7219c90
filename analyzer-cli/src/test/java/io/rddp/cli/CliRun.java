package io.rddp.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in this JVM with System.out and System.err captured, for the command tests. */
final class CliRun {
    private CliRun() {
    }

    /** @return {exit code, stdout, stderr} */
    static Object[] run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int rc = Main.run(args);
            return new Object[]{rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
