package io.rddp.cli;

import io.rddp.Plural;
import io.rddp.analyze.Analysis;
import io.rddp.analyze.AnalysisLimits;
import io.rddp.analyze.Analyzer;
import io.rddp.analyze.UlpProfile;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.FrameLimit;
import io.rddp.filter.DisplayFilter;
import io.rddp.filter.FieldRecord;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapngWriter;
import io.rddp.sink.Severity;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagFile;
import io.rddp.sink.StagRegistration;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.Violation;
import picocli.CommandLine.Command;
import io.rddp.live.LiveCapture;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "analyze",
        description = {"Decode a capture (or live traffic with -i) and check every stream against the reference Data Sink model:",
                "each departure from RFC 5040/5041/5042/5044/6581/7306 is reported with its RFC section and,",
                "where the RFC defines one, the Terminate error type (Layer/EType/Code).",
                "Exit codes: 0 clean, 1 violations at or above --fail-on, 2 bad usage or unreadable input,",
                "3 nothing to analyse (no capture in the folders given, no iWARP traffic, undecoded link types).",
                "With several files the worst counts, in the order 2, 1, 3, 0."},
        sortOptions = false)
final class AnalyzeCommand implements Callable<Integer> {

    enum Format { text, json, junit }

    enum FailOn { error, warning, never }

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    HelpOption help;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = {"Capture files (pcap, pcapng, .gz of either; '-' for standard input)",
            "or directories (every capture below them). Each is analysed on its own; the exit code is the worst."})
    List<String> files = new ArrayList<>();

    @Option(names = {"-r", "--read-file"}, paramLabel = "FILE", description = "A capture file to analyse, as tshark -r (repeatable; the same as a FILE argument).")
    List<String> readFiles = new ArrayList<>();

    @Mixin
    LiveOptions live = new LiveOptions();

    @Option(names = {"-T", "--format"}, paramLabel = "FORMAT", description = "Report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format format = Format.text;

    @Option(names = {"-V", "--verbose"}, description = "Text report: every violation on its own with its frames (not one line per check), every notice kept.")
    boolean verbose;

    @Option(names = {"-Y", "--display-filter"}, paramLabel = "FILTER",
            description = "Report only the violations whose key frame has a PDU that matches FILTER (decode's -Y language), e.g. "
                    + "'stream == 2', 'rdmap.opcode == 1', 'violation.severity == \"error\"'. The analysis still sees every PDU; "
                    + "stream summaries stay whole; the exit code follows the violations kept.")
    String displayFilter;

    @Option(names = {"-q", "--quiet"}, description = "Quiet standard error: no progress bar.")
    boolean quiet;

    @Option(names = "--fail-on", paramLabel = "LEVEL", description = "Exit 1 when a violation is at or above: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    FailOn failOn = FailOn.error;

    @Option(names = "--strict", description = "STags that nothing registered or advertised are errors, not 'unverifiable' (info).")
    boolean strict;

    @Option(names = "--stags", paramLabel = "FILE", description = "JSON file of known STags: stag, baseTo, length, access, owner, streams, validFrom, validUntil.")
    Path stags;

    @Option(names = "--profile", paramLabel = "ULP", description = "Upper-layer protocol whose STag advertisements to learn: none, rping (default: none).")
    UlpProfile profile = UlpProfile.NONE;

    @picocli.CommandLine.Mixin
    DecodeAsOption decodeAs;

    @Option(names = "--annotate", paramLabel = "OUT.pcapng", description = "Also write the capture as pcapng with each violation as a comment on its frame.")
    Path annotate;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write the report to OUT instead of standard output.")
    Path output;

    @Option(names = "--no-progress", description = "Never show the progress bar.")
    boolean noProgress;

    @Option(names = "--threads", paramLabel = "N", description = "Threads per capture: 1 decodes and judges on one; 2 or more decode on one and judge on another, with the same report (default: the cores, ${DEFAULT-VALUE}).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--jobs", paramLabel = "N", description = "Captures analysed at once (several FILEs or a folder); each then gets --threads / N threads, at least 1. Reports keep the order of the files (default: ${DEFAULT-VALUE}).")
    int jobs = 1;

    /** threads of one capture's analysis: --threads shared among --jobs */
    private int threadsPerFile() {
        return Math.max(1, threads / Math.max(1, jobs));
    }

    @Option(names = "--limits", description = "Print every cap that bounds an analysis, with its value, and exit.")
    boolean printLimits;

    @Option(names = "--max-connections", paramLabel = "N", description = "TCP connections tracked at once; the least recently active is evicted beyond it (default: ${DEFAULT-VALUE}).")
    int maxConnections = AnalysisLimits.defaults().tcp().maxConnections();

    @Option(names = "--max-buffered-bytes", paramLabel = "N", description = "Out-of-order TCP bytes buffered per direction before a gap is declared (default: ${DEFAULT-VALUE}).")
    long maxBufferedBytes = AnalysisLimits.defaults().tcp().maxBufferedBytes();

    @Option(names = "--max-outstanding-reads", paramLabel = "N", description = "Unanswered RDMA Read and Atomic Requests remembered per direction (default: ${DEFAULT-VALUE}).")
    int maxOutstanding = AnalysisLimits.defaults().sink().maxOutstanding();

    @Option(names = "--max-stags", paramLabel = "N", description = "STags learned from the traffic, over all streams (default: ${DEFAULT-VALUE}).")
    int maxStags = AnalysisLimits.defaults().sink().maxLearnedStags();

    @Option(names = "--max-violations", paramLabel = "N", description = "Violations kept for the report; later ones are counted (default: ${DEFAULT-VALUE}).")
    int maxViolations = AnalysisLimits.defaults().violations();

    /** The first option out of its range, named with the range; null when all are fine. */
    private String rangeProblem() {
        if (maxConnections < 1) return "--max-connections: must be 1.." + Integer.MAX_VALUE + " (got " + maxConnections + ")";
        if (maxBufferedBytes < 1) return "--max-buffered-bytes: must be 1.." + Long.MAX_VALUE + " (got " + maxBufferedBytes + ")";
        if (maxOutstanding < 1) return "--max-outstanding-reads: must be 1.." + Integer.MAX_VALUE + " (got " + maxOutstanding + ")";
        if (maxStags < 1) return "--max-stags: must be 1.." + Integer.MAX_VALUE + " (got " + maxStags + ")";
        if (maxViolations < 1) return "--max-violations: must be 1.." + Integer.MAX_VALUE + " (got " + maxViolations + ")";
        return null;
    }

    /** The caps as the options set them. */
    AnalysisLimits limits() {
        AnalysisLimits d = AnalysisLimits.defaults();
        SinkModel.Options s = d.sink();
        return d.withTcp(d.tcp().withMaxConnections(maxConnections).withMaxBufferedBytes(maxBufferedBytes))
                .withSink(new SinkModel.Options(strict, s.maxReportsPerCheck(), s.maxOpenMessages(), maxOutstanding,
                        s.maxTaggedBuffers(), s.maxRanges(), maxStags))
                .withViolations(maxViolations);
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        String range = rangeProblem();
        if (range != null) {
            err.println("rddp: " + range);
            return Main.EXIT_BAD_INPUT;
        }
        AnalysisLimits limits;
        try {
            limits = limits();
        } catch (IllegalArgumentException e) {
            err.println("rddp: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        if (printLimits) {
            PrintWriter out = spec.commandLine().getOut();
            limits.describe().forEach((k, v) -> out.printf("%-30s %d%n", k, v));
            out.flush();
            return Main.EXIT_OK;
        }
        if (live.list) return live.listInterfaces(spec.commandLine().getOut(), err);
        String problem = live.problem();
        List<String> given = new ArrayList<>(readFiles);
        given.addAll(files);
        if (problem == null && live.live() && !given.isEmpty()) problem = "give either FILEs (or -r FILE) or -i IFACE, not both";
        if (problem == null) problem = rangeProblem();
        if (problem != null) {
            err.println("rddp: " + problem);
            return Main.EXIT_BAD_INPUT;
        }
        if (threads < 1 || threads > 256) {
            err.println("rddp: --threads: must be 1..256 (got " + threads + ")");
            return Main.EXIT_BAD_INPUT;
        }
        if (jobs < 1 || jobs > 256) {
            err.println("rddp: --jobs: must be 1..256 (got " + jobs + ")");
            return Main.EXIT_BAD_INPUT;
        }
        if (!live.live() && given.isEmpty()) {
            err.println("rddp: analyze needs at least one FILE (or -r FILE, '-' for standard input), or -i IFACE (or --limits)");
            return Main.EXIT_BAD_INPUT;
        }
        List<StagRegistration> registrations = List.of();
        if (stags != null) {
            try {
                registrations = StagFile.read(stags);
            } catch (IOException e) {
                err.println("rddp: " + stags + ": " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            }
        }
        List<String> inputs;
        Path liveCopy = null;
        try {
            if (live.live()) {
                inputs = List.of("-i " + live.device);
                // --annotate reads the frames a second time: keep them in a temporary pcapng while capturing
                if (annotate != null) liveCopy = Files.createTempFile("rddp-live-", ".pcapng");
            } else {
                inputs = expand(given);
                if (inputs.isEmpty()) {
                    err.println("rddp: " + String.join(", ", given) + ": no capture found (*.pcap, *.pcapng, *.cap, or .gz of them)");
                    return Main.EXIT_NOTHING;
                }
            }
        } catch (IOException e) {
            err.println("rddp: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        try {
            return run(inputs, registrations, liveCopy, err);
        } finally {
            if (liveCopy != null) {
                try {
                    Files.deleteIfExists(liveCopy);
                } catch (IOException e) {
                    err.println("rddp: cannot remove " + liveCopy + ": " + e.getMessage());
                }
            }
        }
    }

    private int run(List<String> inputs, List<StagRegistration> registrations, Path liveCopy, PrintWriter err) {
        if (annotate != null && !live.live() && (inputs.size() != 1 || inputs.get(0).equals("-"))) {
            err.println("rddp: --annotate takes exactly one capture file (not standard input: the frames are read twice)");
            return Main.EXIT_BAD_INPUT;
        }
        DisplayFilter filter = null;
        if (displayFilter != null) {
            filter = Filters.compileFor(displayFilter, inputs.contains("-") || live.live(), err);
            if (filter == null) return Main.EXIT_BAD_INPUT;
        }
        OutputStream out = Outputs.openOrSay(output, err);
        if (out == null) return Main.EXIT_BAD_INPUT;
        int worst = Main.EXIT_OK;
        List<FileResult> done;
        if (live.live()) {
            long start = System.nanoTime();
            done = List.of(analyzeLive(registrations, liveCopy, err).took(start));
        } else if (jobs > 1 && inputs.size() > 1 && !inputs.contains("-")) {
            done = inParallel(inputs, registrations, filter, err);
        } else {
            done = new ArrayList<>();
            for (String file : inputs) done.add(analyze(file, registrations, filter, err));
        }
        for (FileResult r : done) {
            worst = Main.worse(worst, r.exit());
            if (r.nothing() != null) err.println("rddp: " + r.file() + ": " + r.nothing());
        }
        try (out) {
            switch (format) {
                case text -> {
                    for (int i = 0; i < done.size(); i++) {
                        if (i > 0) out.write("\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        AnalysisText.text(done.get(i), verbose, out);
                    }
                    if (done.size() > 1) AnalysisText.total(done, out);
                }
                case json -> AnalysisJson.json(done, inputs.size() > 1, out);
                case junit -> AnalysisJunit.junit(done, failLevel(), inputs.size() > 1, out);
            }
        } catch (IOException e) {
            if (output == null && Outputs.brokenPipe(e)) return worst;
            err.println("rddp: " + Outputs.cannotWrite(output, e));
            return Main.EXIT_BAD_INPUT;
        }
        if (annotate != null && done.get(0).analysis() != null) {
            try {
                int annotated = annotate(liveCopy != null ? liveCopy.toString() : inputs.get(0), done.get(0).analysis().violations());
                err.println("rddp: wrote " + annotate + " with " + Plural.of(annotated, "annotated frame"));
            } catch (IOException e) {
                err.println("rddp: " + Outputs.cannotWrite(annotate, e));
                return Main.EXIT_BAD_INPUT;
            }
        }
        for (FileResult r : done) {
            if (r.analysis() != null && r.analysis().error() != null && !reportTellsErrors()) {
                err.println("rddp: " + Outputs.aboutFile(r.file(), r.analysis().error()));
                err.println("rddp: everything before that point was analysed");
            }
        }
        return worst;
    }

    /**
     * Whether the text report on standard output already tells a file's read error ("FILE: cannot read: why",
     * "incomplete: why"), so that standard error does not say it a second time on the same terminal.
     */
    private boolean reportTellsErrors() {
        return format == Format.text && output == null && !live.live();
    }

    /**
     * --jobs: the captures analysed by a pool of that many threads, results in the order of {@code inputs} (so every
     * report reads as with one job). No progress bar: several would fight over one line.
     */
    private List<FileResult> inParallel(List<String> inputs, List<StagRegistration> registrations, DisplayFilter filter,
                                        PrintWriter err) {
        noProgress = true;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.min(jobs, inputs.size()), r -> {
                    Thread t = new Thread(r, "rddp-job");
                    t.setDaemon(true);
                    return t;
                });
        try {
            List<java.util.concurrent.Future<FileResult>> futures = new ArrayList<>();
            for (String file : inputs) futures.add(pool.submit(() -> analyze(file, registrations, filter, err)));
            List<FileResult> done = new ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                try {
                    done.add(futures.get(i).get());
                } catch (java.util.concurrent.ExecutionException e) {
                    // a bug, not the file: say which capture, keep the others
                    done.add(new FileResult(inputs.get(i), null, "analysis failed: " + e.getCause(), Map.of(),
                            Main.EXIT_BAD_INPUT));
                }
            }
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while analysing captures", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One capture, timed; an unreadable one gives a result with its error (printed too). */
    private FileResult analyze(String file, List<StagRegistration> registrations, DisplayFilter filter, PrintWriter err) {
        long start = System.nanoTime();
        return analyzeFile(file, registrations, filter, err).took(start);
    }

    private FileResult analyzeFile(String file, List<StagRegistration> registrations, DisplayFilter filter,
                                   PrintWriter err) {
        StagRegistry registry = StagRegistry.empty(); // fresh per file: a ULP profile adds to it
        registrations.forEach(registry::add);
        java.io.StringWriter why = new java.io.StringWriter();
        Set<Long> matching = new HashSet<>();
        FieldRecord record = new FieldRecord();
        Closes closes = new Closes() {
            @Override
            public void onPdu(io.rddp.decode.Pdu pdu, io.rddp.rpcrdma.RpcRdmaMessage message, io.rddp.rpcrdma.ChunkMove move) {
                super.onPdu(pdu, message, move);
                if (filter != null && !filter.uses("violation")) {
                    DisplayFilter.describe(pdu, message, move, List.of(), List.of(), record);
                    if (filter.matches(record)) matching.add(pdu.frame());
                }
            }
        };
        try (CaptureReader opened = DecodeCommand.open(file, new PrintWriter(why, true))) {
            if (opened == null) {
                String msg = why.toString().strip();
                if (!reportTellsErrors()) err.println(msg);
                return new FileResult(file, null, msg.replaceFirst("^rddp: " + java.util.regex.Pattern.quote(file) + ": ", ""),
                        Map.of(), Main.EXIT_BAD_INPUT);
            }
            FrameLimit reader = new FrameLimit(opened, live.count);
            Analysis a;
            try (Progress progress = Progress.start(reader, noProgress || quiet ? Progress.Mode.OFF : Progress.Mode.AUTO)) {
                a = new Analyzer(limits(), registry, profile).decodeAs(decodeAs.mode()).threads(threadsPerFile())
                        .frameHeaders(filter != null).observe(closes).run(reader, progress::update);
            }
            if (filter != null) a = filtered(a, file, filter, matching);
            return new FileResult(file, a, null, closes.byStream, exitCode(a));
        } catch (IOException e) {
            if (!reportTellsErrors()) err.println("rddp: " + Outputs.aboutFile(file, e.getMessage()));
            return new FileResult(file, null, Outputs.withoutFile(file, e.getMessage()), Map.of(), Main.EXIT_BAD_INPUT);
        }
    }

    /**
     * -Y: the violations whose key frame has a PDU the filter matches (with that frame's violations for the
     * {@code violation} names: a second, decode-only pass). The stream summaries stay whole.
     */
    private Analysis filtered(Analysis a, String file, DisplayFilter filter, Set<Long> matching) throws IOException {
        Set<Long> frames = matching;
        Map<Long, List<Violation>> byFrame = new java.util.HashMap<>();
        if (filter.uses("violation")) {
            for (Violation v : a.violations()) if (v.frame() > 0) byFrame.computeIfAbsent(v.frame(), k -> new ArrayList<>()).add(v);
            frames = new HashSet<>();
            Set<Long> hit = frames;
            FieldRecord record = new FieldRecord();
            try (CaptureReader again = DecodeCommand.open(file, new PrintWriter(java.io.Writer.nullWriter()))) {
                if (again == null) throw new IOException("cannot read it a second time for -Y");
                io.rddp.rpcrdma.RpcRdmaListener l = (pdu, message, move) -> {
                    List<Violation> vs = byFrame.get(pdu.frame());
                    if (vs == null) return;
                    DisplayFilter.describe(pdu, message, move, Filters.checks(vs), Filters.severities(vs), record);
                    if (filter.matches(record)) hit.add(pdu.frame());
                };
                try {
                    new io.rddp.decode.DecodePipeline(new io.rddp.rpcrdma.RpcRdmaStage(l, decodeAs.mode()))
                            .run(new FrameLimit(again, live.count));
                } catch (io.rddp.capture.CaptureException e) {
                    // the analysis reported where the file turns bad; what came before is filtered
                }
            }
        }
        Set<Long> keep = frames;
        List<Violation> vs = a.violations().stream().filter(v -> keep.contains(v.frame())).toList();
        return new Analysis(a.frames(), a.pdus(), a.messages(), a.streams(), vs, a.notices(), a.noticesDropped(),
                a.error(), a.limits());
    }

    /**
     * How each iWARP stream's sides closed, from the TCP events. Only streams that carried a PDU, and no more than
     * the report lists ({@code report.streams}): a capture of a million connections must not grow it.
     */
    class Closes implements Analyzer.Observer {
        final Map<Integer, List<String>> byStream = new java.util.HashMap<>();
        private final int cap = limits().reportedStreams();

        @Override
        public void onPdu(io.rddp.decode.Pdu pdu, io.rddp.rpcrdma.RpcRdmaMessage message, io.rddp.rpcrdma.ChunkMove move) {
            iwarp(pdu.stream());
        }

        @Override
        public void onClose(io.rddp.tcp.TcpConnection c, io.rddp.tcp.Direction d, boolean reset, long frame) {
            close(c.index(), d, reset, frame);
        }

        @Override
        public void onConnectionEnd(io.rddp.tcp.TcpConnection c, long frame, boolean captureEnded) {
            end(c.index(), captureEnded);
        }

        void iwarp(int stream) {
            if (!byStream.containsKey(stream) && byStream.size() < cap) byStream.put(stream, new ArrayList<>(2));
        }

        void close(int stream, io.rddp.tcp.Direction d, boolean reset, long frame) {
            List<String> l = byStream.get(stream);
            if (l == null) return;
            if (l.size() < 8) l.add((d == io.rddp.tcp.Direction.CLIENT_TO_SERVER ? "client " : "server ")
                    + (reset ? "RST" : "FIN") + " frame " + frame);
        }

        void end(int stream, boolean captureEnded) {
            List<String> l = byStream.get(stream);
            if (l == null) return;
            if (captureEnded && l.stream().noneMatch(x -> x.contains("RST"))
                    && l.stream().filter(x -> x.contains("FIN")).count() < 2) l.add("open at the end of the capture");
        }
    }

    /** The live capture of -i, analysed as it arrives until Ctrl-C, --duration or -c; an error result when it cannot start. */
    private FileResult analyzeLive(List<StagRegistration> registrations, Path copy, PrintWriter err) {
        String name = "-i " + live.device;
        StagRegistry registry = StagRegistry.empty();
        registrations.forEach(registry::add);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Closes closes = new Closes();
        try (PcapngWriter tee = copy == null ? null : PcapngWriter.create(copy, LinkType.ETHERNET);
             LiveCapture capture = live.open(err, tee)) {
            if (capture == null) return new FileResult(name, null, "cannot capture", Map.of(), Main.EXIT_BAD_INPUT);
            Thread hook = LiveOptions.stopOnInterrupt(capture, done);
            try {
                Analysis a = new Analyzer(limits(), registry, profile).decodeAs(decodeAs.mode()).observe(closes).run(capture, () -> { });
                err.println("rddp: captured " + Plural.of(capture.frames(), "frame") + " on " + capture.device());
                return new FileResult(name, a, null, closes.byStream, exitCode(a));
            } finally {
                LiveOptions.release(hook, done);
            }
        } catch (IOException e) {
            err.println("rddp: " + e.getMessage());
            return new FileResult(name, null, e.getMessage(), Map.of(), Main.EXIT_BAD_INPUT);
        }
    }

    private int exitCode(Analysis a) {
        if (a.error() != null) return Main.EXIT_BAD_INPUT;
        if (a.streams().isEmpty() && a.pdus() == 0) return Main.EXIT_NOTHING;
        Severity level = failLevel();
        return level != null && a.hasAtLeast(level) ? Main.EXIT_FINDINGS : Main.EXIT_OK;
    }

    /** Files as given; directories replaced by the captures below them, in name order. */
    static List<String> expand(List<String> given) throws IOException {
        List<String> out = new ArrayList<>();
        for (String f : given) {
            Path p = Path.of(f);
            if (!f.equals("-") && Files.isDirectory(p)) {
                int before = out.size();
                try (java.util.stream.Stream<Path> walk = Files.walk(p)) {
                    walk.filter(Files::isRegularFile)
                            .filter(x -> x.getFileName().toString().matches("(?i).*\\.(pcap|pcapng|cap)(\\.gz)?$"))
                            .sorted().forEach(x -> out.add(x.toString()));
                }
                if (out.size() == before && given.size() > 1) System.err.println("rddp: " + f + ": no capture found in this directory");
            } else {
                out.add(f);
            }
        }
        return out;
    }

    private Severity failLevel() {
        return switch (failOn) {
            case error -> Severity.ERROR;
            case warning -> Severity.WARNING;
            case never -> null;
        };
    }

    /** Second pass: every frame into pcapng, violations as packet comments (Wireshark shows them on the frame). */
    private int annotate(String file, List<Violation> violations) throws IOException {
        return io.rddp.analyze.Annotator.annotate(Path.of(file), annotate, violations);
    }
}
