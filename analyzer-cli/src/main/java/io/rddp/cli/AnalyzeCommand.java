package io.rddp.cli;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.analyze.UlpProfile;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapngWriter;
import io.rddp.sink.Severity;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.Violation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

@Command(name = "analyze",
        description = {"Decode a capture and check every stream against the reference Data Sink model:",
                "each departure from RFC 5040/5041/5042/5044/6581/7306 is reported with its RFC section and,",
                "where the RFC defines one, the Terminate error type (Layer/EType/Code).",
                "Exit codes: 0 clean, 1 violations at or above --fail-on, 2 bad usage or unreadable input."},
        mixinStandardHelpOptions = true,
        sortOptions = false)
final class AnalyzeCommand implements Callable<Integer> {

    enum Format { text, json, junit }

    enum FailOn { error, warning, never }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Capture file (pcap, pcapng, .gz of either; '-' for standard input).")
    String file;

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

    @Option(names = "--annotate", paramLabel = "OUT.pcapng", description = "Also write the capture as pcapng with each violation as a comment on its frame.")
    Path annotate;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write the report to OUT instead of standard output.")
    Path output;

    @Option(names = "--no-progress", description = "Never show the progress bar.")
    boolean noProgress;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        StagRegistry registry = StagRegistry.empty();
        if (stags != null) {
            try {
                registry = StagFile.read(stags);
            } catch (IOException e) {
                err.println("rddp: " + stags + ": " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            }
        }
        if (annotate != null && file.equals("-")) {
            err.println("rddp: --annotate needs a file, not standard input (the frames are read twice)");
            return Main.EXIT_BAD_INPUT;
        }
        Analysis analysis;
        try (CaptureReader reader = DecodeCommand.open(file, err)) {
            if (reader == null) return Main.EXIT_BAD_INPUT;
            try (Progress progress = Progress.start(reader, noProgress ? Progress.Mode.OFF : Progress.Mode.AUTO)) {
                analysis = new Analyzer(SinkModel.Options.defaults().withStrict(strict), registry, profile).run(reader, progress::update);
            }
        } catch (IOException e) {
            err.println("rddp: " + file + ": " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        try (OutputStream out = output == null
                ? new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16)
                : new BufferedOutputStream(Files.newOutputStream(output), 1 << 16)) {
            switch (format) {
                case text -> AnalysisReports.text(analysis, file, out);
                case json -> AnalysisReports.json(analysis, file, out);
                case junit -> AnalysisReports.junit(analysis, file, failLevel(), out);
            }
        } catch (IOException e) {
            err.println("rddp: " + (output == null ? "standard output" : output) + ": " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        if (annotate != null) {
            try {
                int annotated = annotate(analysis.violations());
                err.println("rddp: wrote " + annotate + " with " + annotated + " annotated frames");
            } catch (IOException e) {
                err.println("rddp: " + annotate + ": " + e.getMessage());
                return Main.EXIT_BAD_INPUT;
            }
        }
        if (analysis.error() != null) {
            err.println("rddp: " + file + ": " + analysis.error());
            err.println("rddp: everything before that point was analysed");
            return Main.EXIT_BAD_INPUT;
        }
        Severity level = failLevel();
        return level != null && analysis.hasAtLeast(level) ? Main.EXIT_FINDINGS : Main.EXIT_OK;
    }

    private Severity failLevel() {
        return switch (failOn) {
            case error -> Severity.ERROR;
            case warning -> Severity.WARNING;
            case never -> null;
        };
    }

    /** Second pass: every frame into pcapng, violations as packet comments (Wireshark shows them on the frame). */
    private int annotate(List<Violation> violations) throws IOException {
        Map<Long, List<String>> comments = new TreeMap<>();
        for (Violation v : violations) {
            if (v.frame() > 0) comments.computeIfAbsent(v.frame(), k -> new ArrayList<>()).add("rddp: " + v);
        }
        try (CaptureReader reader = CaptureReaders.open(Path.of(file));
             PcapngWriter out = PcapngWriter.create(annotate, LinkType.ETHERNET)) {
            Frame f = new Frame();
            try {
                while (reader.next(f)) {
                    List<String> c = comments.get(f.number);
                    out.writeFrame(f, c == null ? f.comment : String.join("\n", c));
                }
            } catch (CaptureException e) {
                // the analysis already reported where the file turned bad; keep the frames before it
            }
        }
        return comments.size();
    }
}
