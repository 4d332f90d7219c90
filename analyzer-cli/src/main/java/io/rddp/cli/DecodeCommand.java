package io.rddp.cli;

import io.rddp.Notice;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.filter.DisplayFilter;
import io.rddp.filter.FieldRecord;
import io.rddp.sink.Violation;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
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
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "decode",
        description = {"Decode every MPA, DDP and RDMAP PDU of a capture (pcap, pcapng, or .gz of either), or live with -i.",
                "Default output is one line per PDU: frame, time, source -> destination, protocol, info."},
        sortOptions = false)
final class DecodeCommand implements Callable<Integer> {

    enum Format { text, jsonl }

    /** {@code --decode-as} values, as typed. */
    enum DecodeAs {
        auto(RpcRdmaStage.DecodeAs.AUTO), rpcrdma(RpcRdmaStage.DecodeAs.RPCRDMA), none(RpcRdmaStage.DecodeAs.NONE);

        final RpcRdmaStage.DecodeAs mode;

        DecodeAs(RpcRdmaStage.DecodeAs mode) {
            this.mode = mode;
        }
    }

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    HelpOption help;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "Capture file to decode ('-' reads standard input); none with -i.")
    String file;

    @Mixin
    LiveOptions live = new LiveOptions();

    @Option(names = {"-V", "--verbose"}, description = "Print the full field tree of every PDU (text format).")
    boolean verbose;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). "
                    + "jsonl writes one JSON object per PDU.")
    Format format = Format.text;

    @Option(names = "--decode-as", paramLabel = "ULP",
            description = "Upper layer of Sends: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). auto decodes "
                    + "RPC-over-RDMA on port 20049, after RFC 8797 private data, or when a Send's header and RPC XID "
                    + "agree; rpcrdma forces it on every connection; none never decodes it.")
    DecodeAs decodeAs = DecodeAs.auto;

    @Option(names = {"-Y", "--display-filter"}, paramLabel = "FILTER",
            description = "Show only the PDUs that match FILTER, e.g. 'rdmap.opcode == 3 && ddp.msn > 10', 'violation',"
                    + " 'stream == 2' (field names as in -V and JSON; see the README). A filter on violation reads"
                    + " the file twice (analysis first), so it needs a file, not standard input.")
    String displayFilter;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write to OUT instead of standard output.")
    Path output;

    @Option(names = "--no-progress", description = "Never show the progress bar (it is shown only when stderr is a terminal).")
    boolean noProgress;

    @Option(names = {"-q", "--quiet"}, description = "Do not print decode notices (gaps, bad CRCs, ...) on stderr.")
    boolean quiet;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (live.list) return live.listInterfaces(spec.commandLine().getOut(), err);
        String problem = live.problem();
        if (problem == null && live.live() == (file != null)) problem = "give either a FILE or -i IFACE";
        if (problem != null) {
            err.println("rddp: " + problem);
            return Main.EXIT_BAD_INPUT;
        }
        if (live.live()) file = "-i " + live.device;
        DisplayFilter filter = null;
        Map<Long, List<Violation>> violations = Map.of();
        if (displayFilter != null) {
            filter = Filters.compile(displayFilter, err);
            if (filter == null) return Main.EXIT_BAD_INPUT;
            if (filter.uses("violation")) {
                if (file.equals("-") || live.live()) {
                    err.println("rddp: -Y: a filter on violation reads the capture twice, so it needs a file, not standard input");
                    return Main.EXIT_BAD_INPUT;
                }
                try (CaptureReader first = open(file, err)) {
                    if (first == null) return Main.EXIT_BAD_INPUT;
                    violations = Filters.violationsByFrame(first, decodeAs.mode);
                } catch (IOException e) {
                    err.println("rddp: " + file + ": " + e.getMessage());
                    return Main.EXIT_BAD_INPUT;
                }
            }
        }
        final DisplayFilter f = filter;
        final Map<Long, List<Violation>> byFrame = violations;
        final FieldRecord record = new FieldRecord();
        try (CaptureReader reader = live.live() ? live.open(err, null) : open(file, err)) {
            if (reader == null) return Main.EXIT_BAD_INPUT;
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            Thread hook = reader instanceof LiveCapture c ? LiveOptions.stopOnInterrupt(c, done) : null;
            try (OutputStream out = Outputs.open(output);
                 PduWriter writer = writer(out);
                 Progress progress = Progress.start(reader, !noProgress && output == null ? Progress.Mode.AUTO : Progress.Mode.OFF)) {
                NoticePrinter notices = new NoticePrinter(err, quiet);
                RpcRdmaListener listener = new RpcRdmaListener() {
                    @Override
                    public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
                        if (f != null) {
                            List<Violation> vs = byFrame.get(pdu.frame());
                            DisplayFilter.describe(pdu, message, move, Filters.checks(vs), Filters.severities(vs), record);
                            if (!f.matches(record)) return;
                        }
                        writer.write(pdu, message, move);
                    }

                    @Override
                    public void onNotice(Notice notice) {
                        notices.print(notice);
                    }
                };
                try {
                    new DecodePipeline(new RpcRdmaStage(listener, decodeAs.mode)).run(reader, progress::update);
                } catch (CaptureException e) {
                    writer.flush();
                    err.println("rddp: " + file + ": " + e.getMessage());
                    err.println("rddp: everything before that point was decoded");
                    return Main.EXIT_BAD_INPUT;
                } finally {
                    notices.summary();
                }
            } finally {
                if (hook != null) LiveOptions.release(hook, done);
            }
            return Main.EXIT_OK;
        } catch (UncheckedIOException e) {
            return outputFailed(err, e.getCause());
        } catch (IOException e) {
            return outputFailed(err, e);
        }
    }

    /** Opens FILE ('-': standard input), or prints why not and returns null. */
    static CaptureReader open(String file, PrintWriter err) {
        try {
            return file.equals("-") ? CaptureReaders.open(System.in, "<stdin>") : CaptureReaders.open(Path.of(file));
        } catch (NoSuchFileException e) {
            err.println("rddp: " + file + ": no such file");
        } catch (CaptureException e) {
            err.println("rddp: " + file + ": " + e.getMessage());
        } catch (IOException e) {
            err.println("rddp: " + file + ": cannot read: " + e.getMessage());
        }
        return null;
    }

    private PduWriter writer(OutputStream out) throws IOException {
        return switch (format) {
            case jsonl -> new JsonlWriter(out);
            case text -> verbose ? new TreeWriter(out) : new LineWriter(out);
        };
    }

    private int outputFailed(PrintWriter err, IOException e) {
        err.println("rddp: " + (output == null ? "standard output" : output.toString()) + ": " + e.getMessage());
        return Main.EXIT_BAD_INPUT;
    }
}
