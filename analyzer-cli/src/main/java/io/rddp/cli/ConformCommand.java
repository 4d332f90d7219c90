package io.rddp.cli;

import io.rddp.Plural;
import io.rddp.conformance.AgentDut;
import io.rddp.conformance.Baseline;
import io.rddp.conformance.Catalog;
import io.rddp.conformance.Dut;
import io.rddp.conformance.Gate;
import io.rddp.conformance.Report;
import io.rddp.conformance.Result;
import io.rddp.conformance.RpingClientDut;
import io.rddp.conformance.Readiness;
import io.rddp.conformance.RpingDut;
import io.rddp.conformance.Runner;
import io.rddp.conformance.Scenario;
import io.rddp.conformance.ScenarioInfo;
import io.rddp.conformance.RoundTrips;
import io.rddp.conformance.Timeouts;
import io.rddp.conformance.ControlClient;
import io.rddp.dut.DutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

@Command(name = "conform",
        description = {"Certify an iWARP RNIC against RFC 5040, 5041, 5044, 6581 and 7306: drive the device under test"
                + " over real TCP through scripted scenarios with byte-exact fault injection, judge every PDU it"
                + " sends with the analyzer's sink model, and write a certification report.",
                "Profiles: agent (the DUT is driven through the DUT control protocol: rddp peer --control, or"
                        + " agent/rddp-dut-agent on a host with an RNIC), rping (the DUT runs stock"
                        + " 'rping -s'; the tester plays rping's client), rping-client (the DUT runs stock 'rping -c' in"
                        + " a loop against --tester-listen; the tester plays rping's server and answers its MPA"
                        + " Requests), rpcrdma (the DUT is an RPC-over-RDMA version 1 Responder serving NFSv3, e.g."
                        + " Linux's nfsd over RDMA or 'rddp peer --app rpcrdma'; the tester is its Requester, RFC"
                        + " 8166)."},
        sortOptions = false,
        footer = {"", "Examples:",
                "  rddp conform --list",
                "  rddp conform --target 10.0.0.5:7777 --profile agent --control 10.0.0.5:7174 --report out/",
                "  rddp conform --target 127.0.0.1:7174 --profile rping --only 'ddp.*,mpa.framing.*'",
                "  rddp conform --profile rping-client --tester-listen 127.0.0.1:7174   (DUT: while :; do rping -c -a"
                        + " HOST -p 7174 -C 1; done)",
                "  rddp conform --profile rpcrdma --target 127.0.0.1:20049   (DUT: rddp peer --listen 127.0.0.1:20049"
                        + " --app rpcrdma)",
                "  rddp conform --profile rpcrdma --target 10.0.0.5 --rpcrdma-root-fh 01000100... --rpcrdma-file f"
                        + " --rpcrdma-dir d   (an NFS server's export)",
                "  rddp conform ... --write-baseline siw.json;  rddp conform ... --baseline siw.json",
                "Exit codes: 0 every scenario passed or is waived by the baseline, 1 a failure or a regression"
                        + " (or what --strict, --fail-non-strict, --exact-baseline, --fail-stale-baseline make one),"
                        + " 2 the suite could not run or judge (DUT unreachable, bad usage or baseline, a scenario the"
                        + " suite could not carry out). --write-baseline exits 0 once the baseline is written."})
final class ConformCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    HelpOption help;

    @Option(names = "--target", paramLabel = "HOST:PORT", description = "Where the DUT accepts iWARP connections.")
    String target;

    @Option(names = "--profile", paramLabel = "PROFILE", description = "agent, rping, rping-client or rpcrdma"
            + " (default ${DEFAULT-VALUE}).")
    String profile = "agent";

    @Option(names = "--rpcrdma-root-fh", paramLabel = "HEX", description = "rpcrdma profile: the export's root file"
            + " handle (NFSv3 nfs_fh3, in hex) for the scenarios that need a file; without it the reference"
            + " responder's is tried, and those scenarios are skipped, saying so, on another server.")
    String rpcrdmaRootFh;

    @Option(names = "--rpcrdma-file", paramLabel = "NAME", description = "rpcrdma profile: a regular file in the"
            + " export's root the tester may overwrite (its first MiB; default ${DEFAULT-VALUE}).")
    String rpcrdmaFile = "scratch";

    @Option(names = "--rpcrdma-dir", paramLabel = "NAME", description = "rpcrdma profile: a directory in the export's"
            + " root whose listing exceeds 1024 octets (about 40 entries; default ${DEFAULT-VALUE}).")
    String rpcrdmaDir = "many";

    @Option(names = "--tester-listen", paramLabel = "HOST:PORT", description = "Where the tester listens when the DUT"
            + " is the MPA Initiator (agent: default 127.0.0.1, any port; rping-client: required).")
    String testerListen;

    @Option(names = "--tester-address", paramLabel = "HOST:PORT", description = "Agent profile: the address the DUT"
            + " is told to connect to, when it reaches --tester-listen through a forward (the siw lab:"
            + " 10.0.2.100:7174).")
    String testerAddress;

    @Option(names = "--control", paramLabel = "HOST:PORT", description = "The DUT's control channel (agent profile).")
    String control;

    @Option(names = "--control-token-file", paramLabel = "FILE", description = "The DUT control channel's token (the"
            + " DUT's --token-file): the tester proves it has it, and the DUT proves it back.")
    Path controlTokenFile;

    @Option(names = "--dut-port", paramLabel = "PORT", description = "The port the DUT listens on, when it differs from"
            + " the target's (a port forward): the agent is told to listen there.")
    Integer dutPort;

    @Option(names = "--only", paramLabel = "IDS", split = ",", description = "Scenario ids or patterns (* and ?),"
            + " comma separated.")
    List<String> only;

    @Option(names = "--list", description = "List the scenarios and exit.")
    boolean list;

    @Option(names = "--report", paramLabel = "DIR", description = "Write report.html, report.json, junit.xml and one"
            + " pcapng per scenario here.")
    Path report;

    @Option(names = "--baseline", paramLabel = "FILE", description = "Fail only on regressions from these verdicts;"
            + " a failure the baseline lists is waived with its reason.")
    Path baseline;

    @Option(names = "--write-baseline", paramLabel = "FILE", description = "Write this run's verdicts as a baseline"
            + " (failures as waivers, with what was observed as their reason, to review) and exit 0.")
    Path writeBaseline;

    @Option(names = "--exact-baseline", description = "With --baseline: any change of verdict or grade is a failure,"
            + " a regression or an improvement (pins a third-party stack's behaviour).")
    boolean exactBaseline;

    @Option(names = "--fail-stale-baseline", description = "With --baseline: an improvement over the baseline fails"
            + " the run until the baseline is updated.")
    boolean failStale;

    @Option(names = "--strict", description = "Only the RFC's first answer passes: lenient and non-strict passes"
            + " fail the run.")
    boolean strict;

    @Option(names = "--fail-non-strict", description = "Non-strict passes (a SHOULD missed) fail the run.")
    boolean failNonStrict;

    @Option(names = "--timeout-scale", paramLabel = "F", description = "Multiply every default wait by F instead of"
            + " deriving the waits from the round trips measured at the start (an explicit override).")
    Double timeoutScale;

    @Option(names = "--jobs", paramLabel = "N", description = "Run up to N scenarios at once where the profile and the"
            + " DUT allow (agent profile, a control server that serves several sessions); scenarios that need the DUT"
            + " alone still run alone, and results come in catalogue order (default ${DEFAULT-VALUE}).")
    int jobs = 1;

    @Option(names = "--forwarded-ports", description = "With --jobs: the DUT is reached through port forwards (a VM"
            + " guest), so job k uses the DUT's port + k (--target and --dut-port) and the tester's + k (--tester-listen"
            + " and --tester-address); without it a job's DUT listens where it chooses, unless --dut-port differs from"
            + " --target's port.")
    boolean forwardedPorts;

    @Option(names = "--caps", paramLabel = "LIST", split = ",", description = "rping profile: what the DUT supports"
            + " beyond MPA rev 2, e.g. crc,markers (the agent profile asks the DUT).")
    List<String> caps = new ArrayList<>();

    @Option(names = "--on-dead", paramLabel = "COMMAND", description = "Run this shell command to bring the DUT back"
            + " when it stops answering (a failed liveness check, or silence at a scenario's start): the failure stays"
            + " on the scenario that caused it and the run goes on against a fresh DUT (at most 120 s a time).")
    String onDead;

    @Option(names = "--retries", paramLabel = "N", description = "With --baseline: run a scenario whose verdict left"
            + " the baseline again, up to N times; the last run counts and its notes keep the first (default"
            + " ${DEFAULT-VALUE}).")
    int retries = 0;

    @Option(names = "--record-cap", paramLabel = "MIB", description = "DUT octets each scenario records and keeps at"
            + " most, in MiB (default ${DEFAULT-VALUE}): past it the DUT is still read and judged, the recording is"
            + " marked truncated, and the scenario fails where the flood broke an RFC rule.")
    int recordCapMib = 16;

    @Option(names = "--restart-ms", paramLabel = "MS", description = "rping profile: how long rping -s needs to listen"
            + " again after a connection (default ${DEFAULT-VALUE}; a restart loop in a VM needs about 1500).")
    int restartMs = 0;

    @Option(names = "--ready-cmd", paramLabel = "COMMAND", description = "rping profile: a shell command that exits 0"
            + " once rping -s listens again after a connection; the tester waits for it (at most the connect wait)"
            + " instead of --restart-ms, which stays the pacing when it fails.")
    String readyCmd;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        Catalog catalog;
        try {
            catalog = Catalog.load();
        } catch (RuntimeException e) {
            err.println("rddp: the scenario catalogue does not load: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        List<Scenario> scenarios = select(catalog.scenarios());
        if (list) {
            for (Scenario s : scenarios) {
                ScenarioInfo i = s.info();
                out.printf("%-44s %-14s %s%s%n", i.id(), String.join(",", new java.util.TreeSet<>(i.profiles())),
                        i.title(), i.needs().isEmpty() ? "" : "  [needs " + String.join(", ",
                                new java.util.TreeSet<>(i.needs())) + "]");
                if (!i.catches().isEmpty()) {
                    out.println(shorten("    proven by: " + String.join(", ", i.catches()), LINE));
                }
            }
            out.println(Plural.of(scenarios.size(), "scenario"));
            out.flush();
            return Main.EXIT_OK;
        }
        if (scenarios.isEmpty()) {
            err.println("rddp: --only " + only + " selects no scenario; see 'rddp conform --list'");
            return Main.EXIT_BAD_INPUT;
        }
        if (recordCapMib < 1) {
            err.println("rddp: --record-cap must be at least 1 (MiB), got " + recordCapMib);
            return Main.EXIT_BAD_INPUT;
        }
        if (target == null && !profile.equals("rping-client")) {
            err.println("rddp: --target HOST:PORT is needed (where the DUT accepts iWARP connections)");
            return Main.EXIT_BAD_INPUT;
        }
        InetSocketAddress dutAddr = null;
        try {
            if (target != null) dutAddr = PeerCommand.address(withDefaultPort(profile, target), null);
        } catch (IllegalArgumentException | UnknownHostException e) {
            err.println("rddp: --target " + target + ": " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        if (jobs < 1) {
            err.println("rddp: --jobs must be at least 1, got " + jobs);
            return Main.EXIT_BAD_INPUT;
        }
        if (timeoutScale != null && !(timeoutScale > 0)) {
            err.println("rddp: --timeout-scale must be above 0, got " + timeoutScale);
            return Main.EXIT_BAD_INPUT;
        }
        Timeouts timeouts = Timeouts.defaults().scaled(timeoutScale == null ? 1.0 : timeoutScale);
        Dut dut;
        try {
            dut = open(dutAddr, timeouts, out, err);
        } catch (IOException | DutException e) {
            err.println("rddp: the DUT cannot be reached: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        if (dut == null) return Main.EXIT_BAD_INPUT;
        RoundTrips rtts;
        try {
            rtts = RoundTrips.measure(dut, timeouts);
        } catch (Exception e) {
            err.println("rddp: the DUT cannot be reached: measuring its round trips failed: " + e.getMessage());
            dut.close();
            return Main.EXIT_BAD_INPUT;
        }
        if (timeoutScale == null) timeouts = rtts.waits(Timeouts.defaults());
        int jobsRun = Math.min(jobs, dut.jobLimit().max());
        Baseline base = null;
        if (baseline != null) {
            try {
                base = Baseline.read(baseline, catalog.scenarios().stream().map(x -> x.info().id())
                        .collect(java.util.stream.Collectors.toSet()));
            } catch (Baseline.Invalid e) {
                err.println("rddp: --baseline " + e.getMessage());
                dut.close();
                return Main.EXIT_BAD_INPUT;
            } catch (IOException e) {
                err.println("rddp: --baseline " + baseline + ": " + e.getMessage());
                dut.close();
                return Main.EXIT_BAD_INPUT;
            }
        }
        if (report != null) {
            String why = Report.writable(report);
            if (why != null) {
                err.println("rddp: --report " + report + " cannot be written: " + why);
                dut.close();
                return Main.EXIT_BAD_INPUT;
            }
        }
        Instant started = Instant.now();
        out.println("rddp conform: " + Plural.of(scenarios.size(), "scenario") + " against " + dut.describe() + " (profile "
                + dut.profile() + ")");
        out.println("rddp conform: " + rtts.text());
        out.println("rddp conform: waits " + timeouts.text() + (timeoutScale == null
                ? " (at least the defaults)" : " (the defaults times " + timeoutScale + ")"));
        if (jobs > jobsRun) {
            out.println("rddp conform: --jobs " + jobs + ": " + jobsRun + " at a time, as " + dut.jobLimit().why());
        } else if (jobsRun > 1) {
            out.println("rddp conform: up to " + jobsRun + " scenarios at once");
        }
        out.flush();
        int[] n = {0};
        List<Result> results;
        Gate.Policy policy = new Gate.Policy(strict, failNonStrict, exactBaseline, failStale);
        try (dut) {
            Runner runner = new Runner(dut, timeouts, report, r -> {
                n[0]++;
                out.println(progress(n[0], scenarios.size(), r));
                out.flush();
            });
            runner.recordCap(recordCapMib * (1L << 20));
            runner.jobs(jobsRun).notices(line -> {
                out.println(line);
                out.flush();
            });
            if (onDead != null) runner.onDead(() -> restart(onDead, out));
            results = new ArrayList<>(runner.run(scenarios));
            if (base != null && retries > 0) rerunChanged(runner, scenarios, results, base, policy, out);
        }
        Gate gate = Gate.decide(results, base, policy);
        Report rep = new Report(new Report.Run(dut.describe(), dut.profile(), version(), started,
                options(dut, rtts, timeouts, jobsRun)),
                catalog, gate);
        summary(rep, out);
        if (report != null) {
            try {
                rep.write(report);
                out.println("report: " + report.resolve("report.html"));
            } catch (IOException e) {
                err.println("rddp: cannot write the report into " + report + ": " + e.getMessage());
                out.flush();
                return Main.EXIT_BAD_INPUT;
            }
        }
        if (writeBaseline != null) {
            int waivers;
            try {
                waivers = Baseline.write(writeBaseline, results, base);
            } catch (IOException e) {
                err.println("rddp: --write-baseline " + writeBaseline + ": " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            }
            out.println("baseline written: " + writeBaseline + " (" + Plural.of(results.size(), "scenario") + ", "
                    + Plural.of(waivers, "failure or error", "failures and errors") + " recorded as "
                    + (waivers == 1 ? "a waiver: review its reason)" : "waivers: review their reasons)"));
            out.flush();
            return Main.EXIT_OK;
        }
        out.flush();
        return gate.exitCode();
    }

    /** The rpcrdma profile's target without a port: the NFS/RDMA port (RFC 5667 §5, RFC 8166 §5). */
    static String withDefaultPort(String profile, String t) {
        if (!profile.equals("rpcrdma")) return t;
        boolean bracketed = t.startsWith("[") && t.endsWith("]");
        boolean hasPort = !bracketed && t.lastIndexOf(':') >= 0 && t.indexOf(':') == t.lastIndexOf(':')
                || t.startsWith("[") && t.contains("]:");
        return hasPort ? t : t + ":" + io.rddp.conformance.rpcrdma.RpcRdmaDut.DEFAULT_PORT;
    }

    /** Console lines stay within this many characters; the detail is in the report. */
    static final int LINE = 150;

    /** One short console line per scenario: the verdict and what the DUT did, or why it failed. */
    static String progress(int i, int total, Result r) {
        String head = String.format(Locale.ROOT, "[%3d/%d] %-5s %-13s %s  ", i, total,
                r.verdict().wireName().toUpperCase(Locale.ROOT), r.grade() == null ? "" : r.grade().wireName(),
                r.id());
        String what = r.observed();
        if ((r.verdict() == Result.Verdict.FAIL || r.verdict() == Result.Verdict.ERROR) && !r.notes().isEmpty()) {
            what = r.notes().get(0);
        }
        return head + shorten(what, Math.max(40, LINE - head.length()));
    }

    static String shorten(String s, int max) {
        String one = s.replace('\n', ' ');
        return one.length() <= max ? one : one.substring(0, max - 1) + "…";
    }

    /** The tally, the coverage, and what the gate decided, each kind of decision named as what it is. */
    private static void summary(Report rep, PrintWriter out) {
        Gate gate = rep.gate();
        out.println(rep.tally().text());
        out.println(rep.coverage().headline(rep.catalog()));
        for (Gate.Status s : List.of(Gate.Status.WAIVED, Gate.Status.IMPROVEMENT, Gate.Status.REGRESSION,
                Gate.Status.FAILED, Gate.Status.ERROR)) {
            List<Gate.Line> ls = gate.lines().stream().filter(l -> l.status() == s).toList();
            if (ls.isEmpty()) continue;
            out.println(heading(s, ls.size()) + ":");
            for (Gate.Line l : ls) {
                Result r = l.result();
                String why = l.why() != null ? l.why()
                        : s == Gate.Status.ERROR && !r.notes().isEmpty() ? r.notes().get(0) : r.observed();
                out.println(shorten("  " + r.id() + ": " + why, LINE));
            }
        }
        int exit = gate.exitCode();
        out.println("gate: exit " + exit + switch (exit) {
            case 0 -> "";
            case 1 -> " (a scenario fails the run)";
            default -> " (the suite could not judge every scenario)";
        });
    }

    private static String heading(Gate.Status s, int n) {
        return switch (s) {
            case WAIVED -> n + " waived (known failures, with the baseline's reason)";
            case IMPROVEMENT -> n + (n == 1 ? " improvement" : " improvements") + " over the baseline";
            case REGRESSION -> n + (n == 1 ? " regression" : " regressions") + " from the baseline";
            case FAILED -> n + " failed";
            default -> n + " could not be judged (error)";
        };
    }

    /** The run's options as the report records them. */
    private java.util.Map<String, String> options(Dut dut, RoundTrips rtts, Timeouts waits, int jobsRun) {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("profile", profile);
        if (target != null) m.put("target", target);
        if (control != null) m.put("control", control);
        if (testerListen != null) m.put("tester-listen", testerListen);
        if (testerAddress != null) m.put("tester-address", testerAddress);
        if (dutPort != null) m.put("dut-port", dutPort.toString());
        if (forwardedPorts) m.put("forwarded-ports", "true");
        m.put("capabilities", String.join(",", new java.util.TreeSet<>(dut.capabilities())));
        if (timeoutScale != null) m.put("timeout-scale", Double.toString(timeoutScale));
        m.put("round-trips", rtts.text());
        m.put("waits", waits.text());
        m.put("jobs", jobsRun + (jobs > jobsRun ? " (--jobs " + jobs + ": " + dut.jobLimit().why() + ")" : ""));
        if (only != null && !only.isEmpty()) m.put("only", String.join(",", only));
        if (baseline != null) m.put("baseline", baseline.toString());
        List<String> flags = new ArrayList<>();
        if (strict) flags.add("--strict");
        if (failNonStrict) flags.add("--fail-non-strict");
        if (exactBaseline) flags.add("--exact-baseline");
        if (failStale) flags.add("--fail-stale-baseline");
        if (!flags.isEmpty()) m.put("gate", String.join(" ", flags));
        if (retries > 0) m.put("retries", Integer.toString(retries));
        m.put("record-cap", recordCapMib + " MiB");
        if (onDead != null) m.put("on-dead", onDead);
        if (dut instanceof io.rddp.conformance.rpcrdma.RpcRdmaDut r) m.put("rpcrdma-export", r.export().describe());
        if (readyCmd != null) m.put("ready-cmd", readyCmd);
        return m;
    }

    /**
     * Runs the --on-dead command (at most 300 s: it may reboot a VM) and returns the last line it printed, which the
     * report keeps; a non-zero exit is an error with that line.
     */
    private static String restart(String command, PrintWriter out) throws IOException, InterruptedException {
        out.println("rddp conform: the DUT stopped answering; running: " + command);
        out.flush();
        java.nio.file.Path log = java.nio.file.Files.createTempFile("rddp-on-dead", ".log");
        try {
            Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(300, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("--on-dead did not finish within 300 s");
            }
            String last = "";
            for (String line : java.nio.file.Files.readAllLines(log, java.nio.charset.StandardCharsets.UTF_8)) {
                if (!line.isBlank()) last = line.strip();
            }
            if (last.length() > 300) last = last.substring(0, 300) + "…";
            out.println("rddp conform: --on-dead: " + (last.isEmpty() ? "exit " + p.exitValue() : last));
            out.flush();
            if (p.exitValue() != 0) throw new IOException("--on-dead exited " + p.exitValue()
                    + (last.isEmpty() ? "" : ": " + last));
            return last;
        } finally {
            java.nio.file.Files.deleteIfExists(log);
        }
    }

    /**
     * A DUT in an emulated VM answers late now and then: a scenario whose verdict left the baseline runs again, at most
     * --retries times, and the last run counts; its notes say what the first run gave, so a flaky one stays visible.
     */
    private void rerunChanged(Runner runner, List<Scenario> scenarios, List<Result> results, Baseline base,
                              Gate.Policy policy, PrintWriter out) {
        for (int i = 0; i < results.size(); i++) {
            Result first = results.get(i);
            Result r = first;
            for (int t = 1; t <= retries && leftBaseline(r, base, policy); t++) {
                out.printf("retry %d/%d of %s (%s)%n", t, retries, r.id(), r.verdictText());
                out.flush();
                Result again = runner.run(scenarios.get(i));
                List<String> notes = new ArrayList<>(again.notes());
                notes.add("run " + (t + 1) + ": the first run gave " + first.verdictText() + ", outside the baseline");
                r = again.withNotes(notes);
                out.printf("        %-5s %-13s %s%n", r.verdict().wireName().toUpperCase(Locale.ROOT),
                        r.grade() == null ? "" : r.grade().wireName(), r.id());
            }
            results.set(i, r);
        }
    }

    /** Whether a result fails the gate against its baseline (a regression, or any change under --exact-baseline). */
    private static boolean leftBaseline(Result r, Baseline base, Gate.Policy policy) {
        return Gate.decide(List.of(r), base, policy).lines().get(0).failing();
    }

    private Dut open(InetSocketAddress dutAddr, Timeouts t, PrintWriter out, PrintWriter err) throws IOException, DutException {
        switch (profile) {
            case "agent" -> {
                if (control == null) {
                    err.println("rddp: the agent profile needs --control HOST:PORT (the DUT control channel)");
                    return null;
                }
                InetSocketAddress c;
                try {
                    c = PeerCommand.address(control, null);
                } catch (IllegalArgumentException e) {
                    err.println("rddp: --control " + control + ": " + e.getMessage());
                    return null;
                }
                byte[] secret = null;
                if (controlTokenFile != null) {
                    try {
                        secret = io.rddp.dut.ControlToken.read(controlTokenFile);
                    } catch (IOException e) {
                        err.println("rddp: --control-token-file: " + e.getMessage());
                        return null;
                    }
                }
                AgentDut agent = new AgentDut(ControlClient.connect(c, t.connect(), secret), dutAddr,
                        dutPort != null ? dutPort : dutAddr.getPort());
                agent.forwardedLanes(forwardedPorts);
                if (testerListen != null || testerAddress != null) {
                    try {
                        agent.testerListen(testerListen != null ? PeerCommand.address(testerListen, null)
                                : new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0),
                                testerAddress != null ? PeerCommand.address(testerAddress, null) : null);
                    } catch (IllegalArgumentException e) {
                        err.println("rddp: --tester-listen/--tester-address: " + e.getMessage());
                        agent.close();
                        return null;
                    }
                }
                return agent;
            }
            case "rping-client" -> {
                if (testerListen == null) {
                    err.println("rddp: the rping-client profile needs --tester-listen HOST:PORT (where the DUT's"
                            + " rping -c connects)");
                    return null;
                }
                InetSocketAddress listen;
                try {
                    listen = PeerCommand.address(testerListen, null);
                } catch (IllegalArgumentException e) {
                    err.println("rddp: --tester-listen " + testerListen + ": " + e.getMessage());
                    return null;
                }
                Set<String> cs = new HashSet<>(Set.of("mpa-rev2"));
                for (String k : caps) cs.add(k.trim());
                return new RpingClientDut(listen, cs);
            }
            case "rping" -> {
                // no probe connection: a connection without an MPA Request occupies rping's small listen backlog
                // until the DUT times it out; the first scenario's connection finds out whether the DUT is there
                Set<String> cs = new HashSet<>(Set.of("mpa-rev2"));
                for (String k : caps) cs.add(k.trim());
                return new RpingDut(dutAddr, cs, restartMs,
                        readyCmd == null ? Readiness.NONE : new ShellReadiness(readyCmd, out));
            }
            case "rpcrdma" -> {
                byte[] fh = null;
                if (rpcrdmaRootFh != null) {
                    try {
                        fh = java.util.HexFormat.of().parseHex(rpcrdmaRootFh.replace(":", "").replace(" ", ""));
                    } catch (IllegalArgumentException e) {
                        err.println("rddp: --rpcrdma-root-fh " + rpcrdmaRootFh + " is not hex: " + e.getMessage());
                        return null;
                    }
                    if (fh.length == 0 || fh.length > 64) {
                        err.println("rddp: --rpcrdma-root-fh: an NFSv3 file handle is 1 to 64 octets (RFC 1813 §2.5),"
                                + " got " + fh.length);
                        return null;
                    }
                }
                return new io.rddp.conformance.rpcrdma.RpcRdmaDut(dutAddr,
                        new io.rddp.conformance.rpcrdma.Export(fh, rpcrdmaFile, rpcrdmaDir));
            }
            default -> {
                err.println("rddp: --profile must be agent, rping, rping-client or rpcrdma, got '" + profile + "'");
                return null;
            }
        }
    }

    private List<Scenario> select(List<Scenario> all) {
        if (only == null || only.isEmpty()) return all;
        List<Pattern> ps = new ArrayList<>();
        for (String o : only) {
            String g = o.trim();
            if (g.isEmpty()) continue;
            ps.add(Pattern.compile(Pattern.quote(g).replace("*", "\\E.*\\Q").replace("?", "\\E.\\Q")));
        }
        List<Scenario> out = new ArrayList<>();
        for (Scenario s : all) {
            for (Pattern p : ps) {
                if (p.matcher(s.info().id()).matches()) {
                    out.add(s);
                    break;
                }
            }
        }
        return out;
    }

    private static String version() {
        return Main.Version.text();
    }
}
