package io.rddp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.app.Rping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rddp conform --baseline/--write-baseline/--exact-baseline/--retries} against the emulated RNIC's rping
 * server over loopback: a run that matches its baseline passes; a verdict that leaves it is run again, the last run
 * counts, and the report keeps what the first run gave.
 */
class ConformBaselineTest {

    private static final String SCENARIO = "positive.write.1";

    @TempDir
    Path tmp;

    private record Run(int rc, String out, String err) {
    }

    private static Run conform(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 1];
        all[0] = "conform";
        System.arraycopy(args, 0, all, 1, args.length);
        int rc = cl.execute(all);
        return new Run(rc, out.toString(), err.toString());
    }

    private interface Body {
        void run(String target) throws Exception;
    }

    private static void withRpingServer(Body body) throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    Rping.serverSettings(rnic));
            Thread server = Rping.serveInBackground(rnic, l);
            try {
                body.run("127.0.0.1:" + l.address().getPort());
            } finally {
                server.interrupt();
            }
        }
    }

    @Test
    void aRunThatMatchesItsWrittenBaselineExactlyPassesWithoutRetrying() throws Exception {
        withRpingServer(target -> {
            Path base = tmp.resolve("base.json");
            Run first = conform("--target", target, "--profile", "rping", "--only", SCENARIO,
                    "--write-baseline", base.toString());
            assertThat(first.rc()).as(first.out() + first.err()).isZero();
            JsonNode written = new ObjectMapper().readTree(base.toFile()).path("scenarios").path(SCENARIO);
            assertThat(written.path("verdict").asText()).isEqualTo("pass");

            Run again = conform("--target", target, "--profile", "rping", "--only", SCENARIO,
                    "--baseline", base.toString(), "--exact-baseline", "--retries", "2");
            assertThat(again.rc()).as(again.out() + again.err()).isZero();
            assertThat(again.out()).doesNotContain("retry");
        });
    }

    @Test
    void aVerdictOutsideAnExactBaselineRunsAgainAndTheReportSaysWhatTheFirstRunGave() throws Exception {
        withRpingServer(target -> {
            Path base = tmp.resolve("base.json");
            // the emulated RNIC passes this scenario: a baseline that pins "fail" makes each run leave it
            Files.writeString(base, "{\"scenarios\": {\"" + SCENARIO + "\": {\"verdict\": \"fail\", \"reason\":"
                    + " \"pinned\"}}}\n");
            Path report = tmp.resolve("report");
            Run r = conform("--target", target, "--profile", "rping", "--only", SCENARIO, "--baseline",
                    base.toString(), "--exact-baseline", "--retries", "2", "--report", report.toString());
            assertThat(r.out()).contains("retry 1/2 of " + SCENARIO + " (pass/")
                    .contains("retry 2/2 of " + SCENARIO + " (pass/");
            assertThat(r.rc()).as("a change of verdict is a regression under --exact-baseline").isEqualTo(1);
            JsonNode sc = null;
            for (JsonNode s : new ObjectMapper().readTree(report.resolve("report.json").toFile()).path("scenarios")) {
                if (s.path("id").asText().equals(SCENARIO)) sc = s;
            }
            assertThat(sc).as("report.json lists " + SCENARIO).isNotNull();
            assertThat(sc.path("verdict").asText()).isEqualTo("pass");
            assertThat(sc.path("notes").toString()).contains("run 3: the first run gave pass/")
                    .contains("outside the baseline");
        });
    }

    @Test
    void withoutABaselineRetriesAreNotUsed() throws Exception {
        withRpingServer(target -> {
            Run r = conform("--target", target, "--profile", "rping", "--only", SCENARIO, "--retries", "3");
            assertThat(r.rc()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).doesNotContain("retry");
        });
    }
}
