package io.rddp.cli;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.AnalysisLimits;
import io.rddp.analyze.Analyzer;
import io.rddp.analyze.UlpProfile;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapngWriter;
import io.rddp.sink.Severity;
import io.rddp.sink.SinkModel;
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
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "analyze",
        description = {"Decode a capture (or live traffic with -i) and check every stream against the reference Data Sink model:",
                "each departure from RFC 5040/5041/5042/5044/6581/7306 is reported with its RFC section and,",
                "where the RFC defines one, the Terminate error type (Layer/EType/Code).",
                "Exit codes: 0 clean, 1 violations at or above --fail-on, 2 bad usage or unreadable input."},
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
    List<String> files;

    @Mixin
    LiveOptions live = new LiveOptions();

    @Option(names = "--format", paramLabel = "FORMAT", description = "Report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format format = Format.text;

    @Option(names = "--fail-on", paramLabel = "LEVEL", description = "Exit 1 when a violation is at or above: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    FailOn failOn = FailOn.error;

    @Option(names = "--strict", description = "STags that nothing registered or advertised are errors, not 'unverifiable' (info).")
    boolean strict;

    @Option(names = "--stags", paramLabel = "FILE", description = "JSON file of known STags: stag, baseTo, length, access, owner, streams, validFrom, validUntil.")
    Path stags;

    @Option(names = "--profile", paramLabel = "ULP", description = "Upper-layer protocol whose STag advertisements to learn: none, rping (default: none).")
    UlpProfile profile = UlpProfile.NONE;

    @Option(names = "--decode-as", paramLabel = "ULP",
            description = "Upper layer of Sends: auto, rpcrdma, none (default: auto: RPC-over-RDMA on port 20049, "
                    + "after RFC 8797 private data, or when a Send's header and RPC XID agree).")
    DecodeCommand.DecodeAs decodeAs = DecodeCommand.DecodeAs.auto;

    @Option(names = "--annotate", paramLabel = "OUT.pcapng", description = "Also write the capture as pcapng with each violation as a comment on its frame.")
    Path annotate;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write the report to OUT instead of standard output.")
    Path output;

    @Option(names = "--no-progress", description = "Never show the progress bar.")
    boolean noProgress;

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
        if (problem == null && live.live() && files != null && !files.isEmpty()) problem = "give either FILEs or -i IFACE";
        if (problem != null) {
            err.println("rddp: " + problem);
            return Main.EXIT_BAD_INPUT;
        }
        if (!live.live() && (files == null || files.isEmpty())) {
            err.println("rddp: analyze needs at least one FILE, or -i IFACE (or --limits)");
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
                inputs = expand(files);
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
        int worst = Main.EXIT_OK;
        List<Analysis> done = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String file : inputs) {
            Analysis a = live.live() ? analyzeLive(registrations, liveCopy, err) : analyze(file, registrations, err);
            if (a == null) {
                worst = Main.EXIT_BAD_INPUT;
                continue;
            }
            done.add(a);
            names.add(file);
            worst = Math.max(worst, exitCode(a));
        }
        if (done.isEmpty()) return worst; // nothing could be read: the reasons are printed, no empty report
        try (OutputStream out = Outputs.open(output)) {
            switch (format) {
                case text -> {
                    for (int i = 0; i < done.size(); i++) {
                        if (i > 0) out.write("\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        AnalysisReports.text(done.get(i), names.get(i), out);
                    }
                }
                case json -> AnalysisReports.json(done, names, inputs.size() > 1, out);
                case junit -> AnalysisReports.junit(done, names, failLevel(), inputs.size() > 1, out);
            }
        } catch (IOException e) {
            err.println("rddp: " + (output == null ? "standard output" : output) + ": " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        if (annotate != null && !done.isEmpty()) {
            try {
                int annotated = annotate(liveCopy != null ? liveCopy.toString() : inputs.get(0), done.get(0).violations());
                err.println("rddp: wrote " + annotate + " with " + annotated + " annotated frames");
            } catch (IOException e) {
                err.println("rddp: " + annotate + ": " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            }
        }
        for (int i = 0; i < done.size(); i++) {
            if (done.get(i).error() != null) {
                err.println("rddp: " + names.get(i) + ": " + done.get(i).error());
                err.println("rddp: everything before that point was analysed");
            }
        }
        return worst;
    }

    /** One capture; null when it cannot be opened at all (the reason is printed). */
    private Analysis analyze(String file, List<StagRegistration> registrations, PrintWriter err) {
        StagRegistry registry = StagRegistry.empty(); // fresh per file: a ULP profile adds to it
        registrations.forEach(registry::add);
        try (CaptureReader reader = DecodeCommand.open(file, err)) {
            if (reader == null) return null;
            try (Progress progress = Progress.start(reader, noProgress ? Progress.Mode.OFF : Progress.Mode.AUTO)) {
                return new Analyzer(limits(), registry, profile).decodeAs(decodeAs.mode).run(reader, progress::update);
            }
        } catch (IOException e) {
            err.println("rddp: " + file + ": " + e.getMessage());
            return null;
        }
    }

    /** The live capture of -i, analysed as it arrives until Ctrl-C, --duration or -c; null when it cannot start. */
    private Analysis analyzeLive(List<StagRegistration> registrations, Path copy, PrintWriter err) {
        StagRegistry registry = StagRegistry.empty();
        registrations.forEach(registry::add);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        try (PcapngWriter tee = copy == null ? null : PcapngWriter.create(copy, LinkType.ETHERNET);
             LiveCapture capture = live.open(err, tee)) {
            if (capture == null) return null;
            Thread hook = LiveOptions.stopOnInterrupt(capture, done);
            try {
                Analysis a = new Analyzer(limits(), registry, profile).decodeAs(decodeAs.mode).run(capture, () -> { });
                err.println("rddp: captured " + capture.frames() + " frames on " + capture.device());
                return a;
            } finally {
                LiveOptions.release(hook, done);
            }
        } catch (IOException e) {
            err.println("rddp: " + e.getMessage());
            return null;
        }
    }

    private int exitCode(Analysis a) {
        if (a.error() != null) return Main.EXIT_BAD_INPUT;
        Severity level = failLevel();
        return level != null && a.hasAtLeast(level) ? Main.EXIT_FINDINGS : Main.EXIT_OK;
    }

    /** Files as given; directories replaced by the captures below them, in name order. */
    static List<String> expand(List<String> given) throws IOException {
        List<String> out = new ArrayList<>();
        for (String f : given) {
            Path p = Path.of(f);
            if (!f.equals("-") && Files.isDirectory(p)) {
                try (java.util.stream.Stream<Path> walk = Files.walk(p)) {
                    walk.filter(Files::isRegularFile)
                            .filter(x -> x.getFileName().toString().matches("(?i).*\\.(pcap|pcapng|cap)(\\.gz)?$"))
                            .sorted().forEach(x -> out.add(x.toString()));
                }
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
