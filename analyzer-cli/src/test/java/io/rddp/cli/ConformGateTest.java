package io.rddp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rddp.dut.ControlServer;
import io.rddp.rnic.Bug;
import io.rddp.rnic.ConnectionSettings;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicControl;
import io.rddp.rnic.RnicListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rddp conform} as a CI gate against the emulated RNIC in the agent profile, with a bug knob so that a scenario
 * fails: the exit code, the console and the artifacts agree on waivers, regressions and improvements; a bad baseline
 * or an unwritable report folder stops the run before its first scenario.
 */
class ConformGateTest {

    /** Fails with --bug no-bounds-check (a Write past the end is placed); passes on a correct RNIC. */
    private static final String FAILS = "ddp.tagged.past-end";
    private static final String PASSES = "positive.write.1";

    @TempDir
    Path tmp;

    private record Run(int rc, String out, String err) {
    }

    private interface Body {
        void run(String[] dut) throws Exception;
    }

    /** An emulated RNIC with {@code bugs}, reached through its control channel: the agent profile's arguments. */
    private static void withAgent(Set<Bug> bugs, Body body) throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults().withBugs(bugs), null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    ConnectionSettings.defaults(rnic));
            try (ControlServer cs = new ControlServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    () -> new RnicControl(rnic, "test"))) {
                body.run(new String[]{"--profile", "agent", "--target", "127.0.0.1:" + l.port(), "--control",
                        "127.0.0.1:" + cs.address().getPort(), "--only", FAILS + "," + PASSES});
            }
        }
    }

    private static Run conform(String[] dut, String... more) {
        String[] all = new String[1 + dut.length + more.length];
        all[0] = "conform";
        System.arraycopy(dut, 0, all, 1, dut.length);
        System.arraycopy(more, 0, all, 1 + dut.length, more.length);
        Object[] r = CliRun.run(all);
        return new Run((Integer) r[0], (String) r[1], (String) r[2]);
    }

    private static JsonNode scenario(Path report, String id) throws Exception {
        for (JsonNode s : new ObjectMapper().readTree(report.resolve("report.json").toFile()).path("scenarios")) {
            if (s.path("id").asText().equals(id)) return s;
        }
        throw new AssertionError("no " + id + " in report.json");
    }

    @Test
    void aWrittenBaselineWaivesTheFailuresItRecordedAndTheArtifactsAgreeWithExitZero() throws Exception {
        withAgent(Set.of(Bug.NO_BOUNDS_CHECK), dut -> {
            Path base = tmp.resolve("base.json");
            Run write = conform(dut, "--write-baseline", base.toString());
            assertThat(write.rc()).as("--write-baseline exits 0 once written\n" + write.out()).isZero();
            assertThat(write.out()).contains("baseline written: " + base + " (2 scenarios, 1 failure or error"
                    + " recorded as a waiver: review its reason)");

            Path report = tmp.resolve("report");
            Run gated = conform(dut, "--baseline", base.toString(), "--report", report.toString());
            assertThat(gated.rc()).as(gated.out() + gated.err()).isZero();
            assertThat(gated.out()).contains("1 waived (known failures, with the baseline's reason):")
                    .contains("  " + FAILS + ": recorded: ").contains("gate: exit 0");
            String junit = Files.readString(report.resolve("junit.xml"));
            assertThat(junit).doesNotContain("<failure").contains("<skipped message=\"waived (fail): recorded: ");
            assertThat(scenario(report, FAILS).path("gate").path("status").asText()).isEqualTo("waived");
            assertThat(Files.readString(report.resolve("report.html"))).contains("exit 0: 1 waived");
        });
    }

    @Test
    void anImprovementIsNamedAsOneAndFailsOnlyWithFailStaleBaseline() throws Exception {
        withAgent(Set.of(), dut -> {
            Path base = tmp.resolve("base.json");
            Files.writeString(base, "{\"scenarios\": {\"" + FAILS + "\": {\"verdict\": \"fail\", \"reason\": \"places"
                    + " past the end\"}}}");
            Path report = tmp.resolve("report");
            Run r = conform(dut, "--baseline", base.toString(), "--report", report.toString());
            assertThat(r.rc()).as(r.out()).isZero();
            assertThat(r.out()).contains("1 improvement over the baseline:")
                    .contains("  " + FAILS + ": the baseline has fail, this run pass/strict")
                    .doesNotContain("regression");
            assertThat(scenario(report, FAILS).path("gate").path("status").asText()).isEqualTo("improvement");
            Run stale = conform(dut, "--baseline", base.toString(), "--fail-stale-baseline");
            assertThat(stale.rc()).as(stale.out()).isEqualTo(1);
            assertThat(stale.out()).contains("--fail-stale-baseline: update the baseline");
        });
    }

    @Test
    void anExactBaselineNamesARegressionAndAnImprovementEachAsWhatItIs() throws Exception {
        withAgent(Set.of(Bug.NO_BOUNDS_CHECK), dut -> {
            Path base = tmp.resolve("base.json");
            Files.writeString(base, "{\"scenarios\": {\"" + FAILS + "\": {\"verdict\": \"pass\", \"grade\":"
                    + " \"strict\"}, \"" + PASSES + "\": {\"verdict\": \"fail\", \"reason\": \"pinned\"}}}");
            Run r = conform(dut, "--baseline", base.toString(), "--exact-baseline");
            assertThat(r.rc()).isEqualTo(1);
            assertThat(r.out()).contains("1 regression from the baseline:\n  " + FAILS
                    + ": the baseline has pass/strict, this run fail")
                    .contains("1 improvement over the baseline:\n  " + PASSES
                            + ": the baseline has fail, this run pass/strict (--exact-baseline: update the baseline)");
        });
    }

    @Test
    void aBaselineWithAnUnknownVerdictStopsTheRunBeforeItsFirstScenario() throws Exception {
        withAgent(Set.of(), dut -> {
            Path base = tmp.resolve("base.json");
            Files.writeString(base, "{\"scenarios\": {\n  \"" + PASSES + "\": {\"verdict\": \"passs\"}}}");
            Run r = conform(dut, "--baseline", base.toString());
            assertThat(r.rc()).isEqualTo(2);
            assertThat(r.err()).contains("rddp: --baseline " + base + ":2:").contains("unknown verdict \"passs\"");
            assertThat(r.out()).doesNotContain("[  1/");
        });
    }

    @Test
    void aBaselineThatIsNotJsonIsAClearErrorWithoutTheParsersInternals() throws Exception {
        withAgent(Set.of(), dut -> {
            Path base = tmp.resolve("base.yaml");
            Files.writeString(base, "scenarios:\n  positive.write.1: pass\n");
            Run r = conform(dut, "--baseline", base.toString());
            assertThat(r.rc()).isEqualTo(2);
            assertThat(r.err()).contains(base + ":1:").contains("not JSON").doesNotContain("Source:")
                    .doesNotContain("at com.fasterxml");
        });
    }

    @Test
    void anUnwritableReportFolderStopsTheRunBeforeItsFirstScenario() throws Exception {
        withAgent(Set.of(), dut -> {
            Path notADir = tmp.resolve("a-file");
            Files.writeString(notADir, "x");
            Run r = conform(dut, "--report", notADir.resolve("report").toString());
            assertThat(r.rc()).isEqualTo(2);
            assertThat(r.err()).contains("rddp: --report " + notADir.resolve("report") + " cannot be written");
            assertThat(r.out()).doesNotContain("[  1/");
        });
    }

    @Test
    void consoleLinesStayShortAndTheDetailIsInTheReport() throws Exception {
        withAgent(Set.of(Bug.NO_BOUNDS_CHECK), dut -> {
            Run r = conform(dut, "--report", tmp.resolve("report").toString());
            assertThat(r.rc()).isEqualTo(1);
            assertThat(r.out().lines()).allMatch(l -> l.length() <= ConformCommand.LINE, "at most "
                    + ConformCommand.LINE + " characters");
            assertThat(r.out()).contains("pass 1 (1 strict, 0 lenient, 0 non-strict: SHOULD missed), 1 fail, 0 skip,"
                    + " 0 error").contains("this run: ").contains("(catalogue: ");
        });
    }

    @Test
    void jobsRunScenariosAtOnceAndTheReportRecordsThemWithTheMeasuredRoundTripsAndWaits() throws Exception {
        withAgent(Set.of(Bug.NO_BOUNDS_CHECK), dut -> {
            Run r = conform(dut, "--jobs", "3", "--report", tmp.resolve("jobs").toString());
            assertThat(r.rc()).isEqualTo(1);
            assertThat(r.out()).contains("rddp conform: up to 3 scenarios at once")
                    .contains("rddp conform: round trips: set-up ").contains("rddp conform: waits connect 5000 ms,"
                            + " reaction 3000 ms, quiet 300 ms, control 5000 ms (at least the defaults)");
            assertThat(r.out().indexOf("[  1/2] PASS")).as("catalogue order").isLessThan(r.out().indexOf("[  2/2]"
                    + " FAIL"));
            var options = new com.fasterxml.jackson.databind.ObjectMapper().readTree(tmp.resolve("jobs")
                    .resolve("report.json").toFile()).path("options");
            assertThat(options.path("jobs").asText()).isEqualTo("3");
            assertThat(options.path("round-trips").asText()).startsWith("round trips: set-up ");
            assertThat(options.path("waits").asText()).contains("quiet 300 ms");
            assertThat(options.has("timeout-scale")).isFalse();
        });
    }

    @Test
    void anExplicitTimeoutScaleOverridesTheDerivedWaits() throws Exception {
        withAgent(Set.of(), dut -> {
            Run r = conform(dut, "--timeout-scale", "2", "--only", PASSES);
            assertThat(r.out()).contains("rddp conform: waits connect 10000 ms, reaction 6000 ms, quiet 600 ms,"
                    + " control 10000 ms (the defaults times 2.0)");
        });
    }
}
