package io.rddp.conformance;

import io.rddp.conformance.ControlClient;
import io.rddp.dut.ControlServer;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicControl;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.app.Rping;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole suite against the emulated RNIC over loopback, in both passive profiles. */
// whole suites, not unit tests: the 10 s default of the fuzz-regression execution (which -Dtest also runs) is too short
@org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class PeerSuiteTest {

    static List<Result> runAgent(RnicConfig config) throws Exception {
        return runAgent(config, false);
    }

    /** @param untilFailure stop at the first failing scenario (enough to show a fault is caught) */
    static List<Result> runAgent(RnicConfig config, boolean untilFailure) throws Exception {
        try (Rnic rnic = new Rnic(config, null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    io.rddp.rnic.ConnectionSettings.defaults(rnic));
            int port = l.port();
            try (ControlServer cs = new ControlServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    () -> new RnicControl(rnic, "test"))) {
                AgentDut dut = new AgentDut(ControlClient.connect(cs.address(), 2000),
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), port), port);
                try (dut) {
                    Runner runner = new Runner(dut, Timeouts.defaults(), null, r -> { });
                    if (!untilFailure) return runner.run(scenarios());
                    List<Result> out = new java.util.ArrayList<>();
                    for (Scenario s : scenarios()) {
                        Result r = runner.run(s);
                        out.add(r);
                        if (r.verdict() == Result.Verdict.FAIL) break;
                    }
                    return out;
                }
            }
        }
    }

    static List<Result> runRping(RnicConfig config) throws Exception {
        try (Rnic rnic = new Rnic(config, null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    Rping.serverSettings(rnic));
            Thread server = Rping.serveInBackground(rnic, l);
            try {
                RpingDut dut = new RpingDut(l.address(), Set.of("mpa-rev2", "crc", "markers"));
                return new Runner(dut, Timeouts.defaults(), null, r -> { }).run(scenarios());
            } finally {
                server.interrupt();
            }
        }
    }

    /**
     * The rping-client profile: the emulated RNIC runs rping's client in a loop against the tester's listener (what
     * {@code while :; do rping -c -a HOST -p PORT -C 1; done} does on a real DUT).
     */
    static List<Result> runRpingClient(RnicConfig config) throws Exception {
        try (Rnic rnic = new Rnic(config, null);
             RpingClientDut dut = new RpingClientDut(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                     Set.of("mpa-rev2", "crc", "markers"))) {
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread client = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        Rping.client(rnic, dut.address(), 1, 64, false, false,
                                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
                    } catch (Rping.Failure | RuntimeException e) {
                        // a scenario refused or broke this connection on purpose: the loop makes the next one
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "rping-client-loop");
            client.setDaemon(true);
            client.start();
            try {
                return new Runner(dut, Timeouts.defaults(), null, r -> { }).run(scenarios());
            } finally {
                stop.set(true);
                client.interrupt();
            }
        }
    }

    /** The catalogue's scenarios, or those whose ids match -Drddp.only (comma-separated, * and ?) while iterating. */
    static List<Scenario> scenarios() {
        List<Scenario> all = Catalog.load().scenarios();
        String only = System.getProperty("rddp.only", "");
        if (only.isBlank()) return all;
        List<java.util.regex.Pattern> ps = new java.util.ArrayList<>();
        for (String p : only.split(",")) {
            ps.add(java.util.regex.Pattern.compile(p.trim().replace(".", "\\.").replace("*", ".*").replace("?", ".")));
        }
        return all.stream().filter(s -> ps.stream().anyMatch(p -> p.matcher(s.info().id()).matches()))
                .collect(Collectors.toList());
    }

    static String table(List<Result> rs) {
        String t = rs.stream().map(r -> r.id() + " " + r.verdict() + " " + r.grade() + " " + r.millis() + " ms | "
                + r.observed() + " | " + r.notes() + " " + r.findings()).collect(Collectors.joining("\n"));
        if (Boolean.getBoolean("rddp.table")) System.out.println(t); // -Drddp.table=true while iterating
        return t;
    }

    /** Each profile's run against the emulated RNIC, made once for the tests of this class. */
    private static final java.util.Map<String, List<Result>> RUNS = new java.util.concurrent.ConcurrentHashMap<>();

    private static List<Result> run(String profile) throws Exception {
        List<Result> rs = RUNS.get(profile);
        if (rs != null) return rs;
        rs = switch (profile) {
            case "agent" -> runAgent(RnicConfig.defaults());
            case "rping" -> runRping(RnicConfig.defaults());
            default -> runRpingClient(RnicConfig.defaults());
        };
        RUNS.put(profile, rs);
        return rs;
    }

    @Test
    void eachProfilesCoverageCountsOnlyWhatRanThereAndStaysBelowTheCatalogue() throws Exception {
        Catalog catalog = Catalog.load();
        Coverage agent = Coverage.of(catalog, run("agent")), rping = Coverage.of(catalog, run("rping")),
                client = Coverage.of(catalog, run("rping-client"));
        assertThat(client.runPercent()).as("rping-client runs a handful of scenarios").isLessThan(rping.runPercent());
        assertThat(rping.runPercent()).as("rping has no control channel").isLessThan(agent.runPercent());
        assertThat(agent.runPercent()).isLessThanOrEqualTo(agent.cataloguePercent());
        assertThat(client.cataloguePercent()).as("the ceiling is the catalogue's, whatever ran")
                .isEqualTo(agent.cataloguePercent());
    }

    @Test
    void everyScenarioPassesAgainstTheEmulatedRnicInTheAgentProfile() throws Exception {
        List<Result> rs = run("agent");
        assertThat(rs).as(table(rs)).allMatch(r -> r.verdict() == Result.Verdict.PASS
                || r.verdict() == Result.Verdict.SKIP && r.grade() == Result.Grade.PROFILE);
    }

    @Test
    void theAgentProfileRunConcurrentlyGivesTheSequentialVerdictsInCatalogueOrder() throws Exception {
        ConcurrentRunTest.assertSameVerdicts(RnicConfig.defaults(), scenarios(), run("agent"));
    }

    @Test
    void everyScenarioPassesAgainstTheEmulatedRnicInTheRpingClientProfile() throws Exception {
        List<Result> rs = run("rping-client");
        assertThat(rs).as(table(rs)).allMatch(r -> r.verdict() == Result.Verdict.PASS
                || r.verdict() == Result.Verdict.SKIP && r.grade() == Result.Grade.PROFILE);
        assertThat(rs).as("DUT-active scenarios run in the rping-client profile")
                .anyMatch(r -> r.verdict() == Result.Verdict.PASS);
    }

    @Test
    void everyScenarioPassesAgainstTheEmulatedRnicInTheRpingProfile() throws Exception {
        List<Result> rs = run("rping");
        assertThat(rs).as(table(rs)).allMatch(r -> r.verdict() == Result.Verdict.PASS
                || r.verdict() == Result.Verdict.SKIP && r.grade() == Result.Grade.PROFILE);
    }
}
