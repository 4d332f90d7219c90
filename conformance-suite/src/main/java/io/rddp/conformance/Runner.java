package io.rddp.conformance;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.analyze.Annotator;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.rnic.link.Link;
import io.rddp.rnic.link.Recorder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.Terminate;
import io.rddp.sink.ErrorType;
import io.rddp.sink.Severity;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.Violation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs scenarios against a DUT and judges each: the reaction to the fault against the scenario's accepted reactions
 * (strict, lenient, non-strict, fail), the close as its own axis, the judge's findings about what the DUT sent, then
 * the placement check (canary) and, after a negative scenario, the liveness check. A scenario that the suite itself
 * could not run is an error, never a failure of the DUT.
 */
public final class Runner {

    /** Judge findings that the reaction axis judges instead (the Terminate's form and whether it came). */
    private static final Set<String> REACTION_CHECKS = Set.of("rdmap.terminate.missing", "rdmap.terminate.mismatch",
            "rdmap.terminate.header-control", "rdmap.terminate.terminated-header", "rdmap.terminate.code",
            "rdmap.terminate.segments", "rdmap.terminate.unexplained");
    /** The Terminate's own form (RFC 5040 §4.8): its errors fail an accepted Terminate, its warnings lower it. */
    private static final Set<String> TERMINATE_FORM = Set.of("rdmap.terminate.header-control",
            "rdmap.terminate.terminated-header", "rdmap.terminate.code", "rdmap.terminate.segments");

    /** How the DUT ended the stream after its Terminate: a breach fails an accepted reaction (RFC 5040 §5.4). */
    private static final Set<String> CONDUCT = Set.of("rdmap.terminate.after", "rdmap.terminate.repeated");

    private final Dut dut;
    private final Timeouts timeouts;
    private final Path reportDir;
    private final Consumer<Result> progress;
    private Restart restart;
    private RecordingCap recordCap = RecordingCap.defaults();
    private int jobs = 1;
    private Consumer<String> notice = m -> { };
    /** restarts of the DUT so far (lanes of a concurrent run join the restarted DUT again) */
    private int restarts;
    /** a lane's runner: the DUT stopped answering during its last scenario (no restart: {@link Jobs} decides) */
    private boolean sawDutDown;

    /**
     * Brings a hung DUT back (e.g. restarts its daemon or reboots its host): returns what it did, in a few words for
     * the report (e.g. "the guest kernel had oopsed: rebooted it"), or throws saying why it could not.
     */
    @FunctionalInterface
    public interface Restart {
        String restart() throws Exception;
    }

    /**
     * What to do when the DUT stops answering: after a failed liveness check, or when a scenario finds it silent at
     * its start, the DUT is restarted (the failure stays on the scenario that caused it) and, in the second case, the
     * scenario is tried once more. The report says so.
     */
    public Runner onDead(Restart r) {
        this.restart = r;
        return this;
    }

    /**
     * DUT octets each scenario records and keeps at most, over its connections (default
     * {@link RecordingCap#DEFAULT_OCTETS}): past it the DUT is still read and judged, but nothing more is kept.
     */
    public Runner recordCap(long octets) {
        this.recordCap = new RecordingCap(octets);
        return this;
    }

    /**
     * Scenarios to run at once (default 1), as far as the DUT allows ({@link Dut#jobLimit()}): the rest wait, a
     * scenario that must have the DUT alone ({@link ScenarioInfo#alone()}) runs when no other does, and results come
     * in the order of the list whatever the order they finish in ({@link Jobs}).
     */
    public Runner jobs(int n) {
        if (n < 1) throw new IllegalArgumentException("jobs must be at least 1");
        this.jobs = n;
        return this;
    }

    /** Where a concurrent run says what it changed of its plan (a lane lost, scenarios run again alone). */
    public Runner notices(Consumer<String> n) {
        this.notice = n;
        return this;
    }

    /** A runner of scenarios on lane {@code d} of a concurrent run: same settings, no restart, no progress. */
    Runner lane(Dut d) {
        Runner r = new Runner(d, timeouts, reportDir, x -> { });
        r.recordCap = recordCap;
        return r;
    }

    Dut dut() {
        return dut;
    }

    int restarts() {
        return restarts;
    }

    /** Whether the DUT stopped answering during this lane runner's last scenario, and forgets it. */
    boolean tookDutDown() {
        boolean b = sawDutDown;
        sawDutDown = false;
        return b;
    }

    Consumer<String> notice() {
        return notice;
    }

    /** @param reportDir where per-scenario pcapngs go (pcaps/ below it), or null for none */
    public Runner(Dut dut, Timeouts timeouts, Path reportDir, Consumer<Result> progress) {
        this.dut = dut;
        this.timeouts = timeouts;
        this.reportDir = reportDir;
        this.progress = progress;
    }

    public List<Result> run(List<Scenario> scenarios) {
        int n = Math.min(jobs, dut.jobLimit().max());
        if (n > 1 && scenarios.size() > 1) return Jobs.run(this, n, scenarios, progress);
        List<Result> out = new ArrayList<>();
        for (Scenario s : scenarios) {
            Result r = run(s);
            out.add(r);
            progress.accept(r);
        }
        return out;
    }

    public Result run(Scenario scenario) {
        ScenarioInfo info = scenario.info();
        long start = System.nanoTime();
        if (!info.profiles().contains(dut.profile())) {
            return skip(info, Result.Grade.PROFILE, "needs the " + String.join(" or ", info.profiles()) + " profile",
                    start);
        }
        for (String need : info.needs()) {
            if (!dut.capabilities().contains(need)) {
                return skip(info, Result.Grade.NOT_SUPPORTED, "the DUT does not declare " + need, start);
            }
        }
        Path pcap = null;
        Recorder recorder = null;
        try {
            if (reportDir != null) {
                Files.createDirectories(reportDir.resolve("pcaps"));
                pcap = reportDir.resolve("pcaps").resolve(info.id() + ".pcapng");
                recorder = Recorder.create(pcap, recordCap.octets());
            } else {
                recorder = Recorder.counting(recordCap.octets()); // no file, but the cap still spans the scenario
            }
        } catch (IOException e) {
            return new Result(info, dut.profile(), Result.Verdict.ERROR, null, null, "", List.of(),
                    List.of("cannot record the exchange: " + e.getMessage()), null, millis(start), null);
        }
        ScenarioContext ctx = new ScenarioContext(dut, timeouts, recorder, info);
        Result r;
        try {
            Outcome o = execute(scenario, ctx);
            if (o.silentAtStart() && restart != null) {
                // the DUT was hung before the scenario could start: bring it back and try once more
                String how = restartDut();
                for (Session s : ctx.sessions()) s.close();
                ctx = new ScenarioContext(dut, timeouts, recorder, info);
                ctx.note("the DUT did not answer at the start; " + how + "; the scenario ran again");
                o = execute(scenario, ctx);
            }
            r = o.result();
            if (r.liveness() == Result.Liveness.DEAD && restart != null) {
                List<String> notes = new ArrayList<>(r.notes());
                notes.add("the DUT failed the liveness check: " + restartDut());
                r = r.withNotes(notes);
            }
        } finally {
            for (Session s : ctx.sessions()) s.close();
            try {
                dut.reset();
            } catch (Exception e) {
                ctx.note("resetting the DUT failed: " + e.getMessage());
            }
            if (recorder != null) {
                try {
                    recorder.close();
                } catch (IOException e) {
                    ctx.note("recording: " + e.getMessage());
                }
            }
        }
        if (pcap != null) annotate(pcap);
        Result done = r.withRecording(pcap == null ? null : "pcaps/" + pcap.getFileName(), millis(start));
        // bounded recording: a DUT that sent more than the cap is stated, and fails where that broke a rule (Flood)
        Flood flood = Flood.of(ctx.sessions(), recorder);
        return flood == null ? done : flood.apply(done);
    }

    /** A run of a scenario; {@code silentAtStart}: the DUT did not answer before the scenario reached its point. */
    private record Outcome(Result result, boolean silentAtStart) {
    }

    /** A connection the DUT reset or ended (not one refused: nothing listening may be the suite's address). */
    private static boolean resetByDut(Throwable e) {
        return e instanceof java.net.SocketException && !(e instanceof java.net.ConnectException)
                || e instanceof java.io.EOFException;
    }

    private static io.rddp.dut.ControlChannelException controlChannel(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.rddp.dut.ControlChannelException c) return c;
        }
        return null;
    }

    private String restartDut() {
        restarts++;
        String what;
        try {
            what = restart.restart();
        } catch (Exception e) {
            return "restarting it failed: " + e.getMessage();
        }
        String done = "it was restarted" + (what == null || what.isBlank() ? "" : " (" + what + ")");
        try {
            dut.revived();
            String live = dut.liveness(null, timeouts);
            return live == null ? done + " and is live again" : done + " but is still not live (" + live + ")";
        } catch (Exception e) {
            return done + " but is still not live (" + e.getMessage() + ")";
        }
    }

    private Outcome execute(Scenario scenario, ScenarioContext ctx) {
        ScenarioInfo info = scenario.info();
        String failure = null;
        try {
            scenario.run(ctx);
        } catch (Scenario.Skip e) {
            return new Outcome(new Result(info, dut.profile(), Result.Verdict.SKIP, e.notSupported()
                    ? Result.Grade.NOT_SUPPORTED : Result.Grade.PROFILE, null, e.getMessage(), List.of(), ctx.notes(),
                    null, 0, null), false);
        } catch (Scenario.ScenarioFailure e) {
            failure = e.getMessage();
        } catch (Scenario.DutSilent e) {
            if (restart != null) return new Outcome(error(info, ctx, "the DUT was silent: " + e.getMessage()), true);
            sawDutDown = true;
            failure = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(error(info, ctx, "interrupted"), false);
        } catch (Exception e) {
            if (controlChannel(e) != null) {
                // the agent died or hangs: the DUT stopped answering, not a suite error
                String why = "the DUT's control channel failed: " + controlChannel(e).getMessage();
                sawDutDown = true;
                return new Outcome(error(info, ctx, why), restart != null);
            }
            if (ctx.primary() == null && resetByDut(e)) {
                // the DUT accepted the TCP connection and reset it before the scenario could start: it is as good
                // as hung (RFC 5044 §7.1.2: a Responder answers a valid Request), so a restart hook may bring it back
                String why = "the DUT reset the connection before the scenario could start: " + e.getMessage();
                if (restart != null) return new Outcome(error(info, ctx, "the DUT was silent: " + why), true);
                sawDutDown = true;
                failure = why;
            } else {
                // the tester could not carry out its own steps: a suite error, unless the DUT simply went away (a
                // write may meet its reset before the reader has seen it)
                Session p = ctx.primary();
                if (!(e instanceof IOException) || p == null
                        || p.conn().peerClose() == Link.PeerClose.OPEN && !resetByDut(e)) {
                    return new Outcome(error(info, ctx, "the scenario could not run: " + e), false);
                }
                ctx.note("the tester's own step failed because the DUT closed first: " + e.getMessage());
            }
        }
        Session primary = ctx.primary();
        if (primary == null && failure != null) {
            return new Outcome(new Result(info, dut.profile(), Result.Verdict.FAIL, null, "rst", "the DUT reset the"
                    + " connection", List.of(), List.of(failure), null, 0, null), false);
        }
        if (primary == null) return new Outcome(error(info, ctx, "the scenario opened no connection"), false);
        ScriptedConnection c = primary.conn();
        try {
            awaitReaction(info, c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(error(info, ctx, "interrupted"), false);
        }
        c.settle();
        Judge.Observed o = observe(c, info).withRpc(ctx.rpcReaction());
        Judge.Facts facts = facts(c, failure, o);
        Judge.Judgement j = Judge.judge(info, facts);
        List<String> notes = new ArrayList<>(j.notes());
        notes.addAll(ctx.notes());
        Result.Verdict verdict = j.verdict();
        Result.Grade grade = j.grade();
        if (verdict != Result.Verdict.FAIL) {
            try {
                String placed = dut.placement(primary, ctx.allowed());
                if (placed != null) {
                    verdict = Result.Verdict.FAIL;
                    grade = null;
                    notes.add("placement check: " + placed);
                }
            } catch (Exception e) {
                // the canary could not be read back: the suite cannot tell whether the DUT placed out of bounds
                verdict = Result.Verdict.ERROR;
                grade = null;
                notes.add(0, "the placement check could not run: " + e.getMessage());
            }
        }
        Result.Liveness liveness = Result.Liveness.NOT_CHECKED;
        if (info.negative()) {
            for (Session s : ctx.sessions()) s.close();
            String dead;
            try {
                dead = dut.liveness(ctx.recorder(), timeouts);
            } catch (Exception e) {
                dead = e.getMessage(); // the DUT went away in the middle of the round trip
            }
            liveness = dead == null ? Result.Liveness.LIVE : Result.Liveness.DEAD;
            if (dead != null) {
                sawDutDown = true;
                if (verdict != Result.Verdict.ERROR) {
                    verdict = Result.Verdict.FAIL;
                    grade = null;
                }
                notes.add("liveness check: " + dead);
            }
        }
        return new Outcome(new Result(info, dut.profile(), verdict, grade, closeText(c), o.text(), facts.findings(),
                notes, null, 0, liveness).withDetail(ctx.compared(), marks(ctx)), false);
    }

    /**
     * The marks on the scenario's PDUs for the report: every connection's ends and the DUT's faulty fields, and in a
     * negative scenario the tester's injected ones (a positive scenario injects nothing, whatever fields it sets).
     */
    private static List<WireMark> marks(ScenarioContext ctx) {
        List<WireMark> out = new ArrayList<>();
        for (Session s : ctx.sessions()) {
            out.addAll(DutFacts.marks(s.conn()));
            for (WireMark m : s.conn().marks()) {
                boolean tester = m.kind() == WireMark.Kind.INJECTED || m.kind() == WireMark.Kind.TESTER_FAULT;
                if (!tester || ctx.info().negative()) out.add(m);
            }
        }
        return out;
    }

    /** The judge's errors about what the DUT sent, split into the reaction's form and everything else. */
    private Judge.Facts facts(ScriptedConnection c, String failure, Judge.Observed o) {
        List<String> findings = new ArrayList<>(), conduct = new ArrayList<>(), formErrors = new ArrayList<>(),
                formWarnings = new ArrayList<>();
        for (Violation v : c.violations()) {
            if (v.direction() != c.dutDirection()) continue;
            if (TERMINATE_FORM.contains(v.id())) {
                if (v.severity() == Severity.ERROR) formErrors.add(v.id() + ": " + v.message());
                else if (v.severity() == Severity.WARNING) formWarnings.add(v.id() + ": " + v.message());
            } else if (v.severity() == Severity.ERROR && !REACTION_CHECKS.contains(v.id())) {
                String text = v.id() + ": " + v.message() + " [" + v.rfc() + " " + v.section() + "]";
                findings.add(text);
                if (CONDUCT.contains(v.id())) conduct.add(text);
            }
        }
        return new Judge.Facts(failure, o, findings, conduct, formErrors, formWarnings, timeouts.reaction());
    }

    /** Waits for what the scenario expects: a close after a fault, or a quiet spell when the DUT should go on. */
    private void awaitReaction(ScenarioInfo info, ScriptedConnection c) throws InterruptedException {
        if (info.expected().isEmpty()) return; // a positive scenario checked what it needed itself
        boolean expectsEnd = false, mayGoOn = false;
        for (Reaction r : info.expected()) {
            // an RPC-over-RDMA answer leaves the connection open: the scenario waited for it itself
            if (r.kind() != Reaction.Kind.CONTINUE && r.kind() != Reaction.Kind.RPC) expectsEnd = true;
            else mayGoOn = true;
        }
        if (expectsEnd && mayGoOn) {
            // going on is acceptable too: a quiet spell decides, unless a Terminate or a reject already came, whose
            // close is then waited for
            c.awaitClose(timeouts.quiet());
            Judge.Observed o = observe(c);
            if (o.close() == Link.PeerClose.OPEN && (o.terminate() != null || o.rejected())) {
                c.awaitClose(timeouts.reaction());
            }
        } else if (expectsEnd) {
            c.awaitClose(timeouts.reaction());
        } else {
            c.awaitClose(timeouts.quiet());
        }
    }

    static Judge.Observed observe(ScriptedConnection c) {
        return observe(c, null);
    }

    /**
     * What the DUT did: the reaction the judge matches (its structured fields), and in the text that reaction, how
     * the connection ended and what the DUT sent that matters ({@link DutFacts}). A Terminate the scenario expects
     * is named by its numbers only: its name is the Expected column's.
     */
    static Judge.Observed observe(ScriptedConnection c, ScenarioInfo info) {
        Terminate term = null;
        boolean rejected = false, replied = false;
        int fpdus = 0, startFrames = 0;
        for (ScriptedConnection.DutPdu p : c.dutPdus()) {
            if (p.start() != null) {
                startFrames++;
                replied |= p.start().kind() == MpaStartFrame.Kind.REPLY;
                rejected |= p.start().kind() == MpaStartFrame.Kind.REPLY && p.start().reject();
            } else {
                fpdus++;
            }
            if (term == null && p.rdmap() != null && p.rdmap().opcode() == Opcode.TERMINATE
                    && p.rdmap().body() instanceof Terminate t) {
                term = t;
            }
        }
        Link.PeerClose close = c.peerClose();
        StringBuilder sb = new StringBuilder();
        if (term != null) {
            ErrorType et = ErrorType.of(term);
            boolean expected = false;
            if (info != null) {
                for (Reaction r : info.expected()) expected |= r.kind() == Reaction.Kind.TERMINATE && r.matches(et);
            }
            sb.append("Terminate ").append(expected ? et.layer() + "/" + et.etype() + "/" + et.code() : et)
                    .append(term.segmentLengthValid() ? " M" : "")
                    .append(term.ddpHeaderIncluded() ? " D" : "").append(term.rdmaHeaderIncluded() ? " R" : "");
        } else if (rejected) {
            sb.append("MPA Reply with R = 1");
        } else if (!replied && c.ourStartFrame() != null && c.ourStartFrame().kind() == MpaStartFrame.Kind.REQUEST) {
            sb.append("no MPA Reply");
        } else if (c.dutActive() && fpdus == 0) {
            sb.append("no FPDU after the MPA Reply");
        } else {
            sb.append("no Terminate");
        }
        sb.append(switch (close) {
            case OPEN -> ", connection still open";
            case FIN -> ", then FIN after " + c.closeAtMs() + " ms";
            case RST -> (c.dataBeforeClose() ? ", then RST" : ", RST") + " after " + c.closeAtMs() + " ms";
        });
        if (info != null) {
            String sent = DutFacts.of(c, sb.toString());
            if (!sent.isEmpty()) sb.append("; ").append(sent);
        }
        // silent: nothing after the tester's start frame (the DUT's own Request comes before it when the DUT is active)
        boolean silent = fpdus == 0 && startFrames <= (c.dutActive() ? 1 : 0);
        return new Judge.Observed(term == null ? null : ErrorType.of(term), rejected, replied, close, sb.toString(),
                silent);
    }

    private static String closeText(ScriptedConnection c) {
        return switch (c.peerClose()) {
            case OPEN -> "open";
            case FIN -> "fin";
            case RST -> c.dataBeforeClose() ? "rst-after-data" : "rst";
        };
    }

    /** Re-analyses the recording and writes it back with the violations as packet comments. */
    private static void annotate(Path pcap) {
        try {
            Analysis a;
            try (CaptureReader r = CaptureReaders.open(pcap)) {
                a = new Analyzer(SinkModel.Options.defaults(), StagRegistry.empty()).run(r, () -> { });
            }
            Path tmp = pcap.resolveSibling(pcap.getFileName() + ".tmp");
            Annotator.annotate(pcap, tmp, a.violations());
            Files.move(tmp, pcap, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // the unannotated recording stays
        }
    }

    private Result skip(ScenarioInfo info, Result.Grade grade, String why, long start) {
        return new Result(info, dut.profile(), Result.Verdict.SKIP, grade, null, why, List.of(), List.of(), null,
                millis(start), null);
    }

    private Result error(ScenarioInfo info, ScenarioContext ctx, String why) {
        List<String> notes = new ArrayList<>(ctx.notes());
        notes.add(0, why);
        return new Result(info, dut.profile(), Result.Verdict.ERROR, null, null, "", List.of(), notes, null, 0, null);
    }

    private static long millis(long start) {
        return (System.nanoTime() - start) / 1_000_000L;
    }
}
