package io.rddp.cli;

import io.rddp.Notice;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.FrameLimit;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.filter.DisplayFilter;
import io.rddp.filter.FieldRecord;
import io.rddp.filter.FilterFields;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;
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
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "decode",
        description = {"Decode every MPA, DDP and RDMAP PDU of captures (pcap, pcapng, or .gz of either), or live with -i.",
                "Default output is one line per PDU: frame, time, source -> destination, protocol, info;",
                "FIN and RST of the iWARP streams are shown among them (text output without -Y).",
                "Exit codes: 0 decoded, 2 bad usage or unreadable input, 3 no iWARP (MPA) traffic in a capture."},
        sortOptions = false)
final class DecodeCommand implements Callable<Integer> {

    /** -T: text (lines, or the tree with -V), json (one array), jsonl (an object a line), fields (-e values). */
    enum Format { text, json, jsonl, fields }

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.Mixin
    HelpOption help;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "Capture files to decode, one after the other ('-' reads standard input); none with -i.")
    List<String> files = new ArrayList<>();

    @Option(names = {"-r", "--read-file"}, paramLabel = "FILE", description = "A capture file to decode, as tshark -r (repeatable; the same as a FILE argument).")
    List<String> readFiles = new ArrayList<>();

    @Mixin
    LiveOptions live = new LiveOptions();

    @Option(names = {"-V", "--verbose"}, description = "Print the full field tree of every PDU (text format).")
    boolean verbose;

    @Option(names = {"-T", "--format"}, paramLabel = "FORMAT",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). json: one array of PDU objects; "
                    + "jsonl: one JSON object a line; fields: the -e fields, tab-separated.")
    Format format = Format.text;

    @Option(names = {"-e", "--field"}, paramLabel = "FIELD",
            description = "With -T fields: a field to print, e.g. -e frame -e ddp.stag -e rdmap.opcodeName (repeatable; names as in -Y).")
    List<String> fields = new ArrayList<>();

    @Option(names = {"-x", "--hex"}, description = "After each PDU (text format), a hex dump of its octets: the MPA Request/Reply, or the "
            + "FPDU's ULPDU_Length and ULPDU (Markers removed).")
    boolean hex;

    @Mixin
    DecodeAsOption decodeAs;

    @Option(names = {"-Y", "--display-filter"}, paramLabel = "FILTER",
            description = "Show only the PDUs that match FILTER, e.g. 'rdmap.opcode == 3 && ddp.msn > 10', 'violation',"
                    + " 'stream == 2' (field names as in -V and JSON; see docs/display-filters.md). A filter on violation reads"
                    + " the file twice (analysis first), so it needs a file, not standard input.")
    String displayFilter;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write to OUT instead of standard output.")
    Path output;

    @Option(names = "--no-progress", description = "Never show the progress bar (it is shown only when stderr is a terminal).")
    boolean noProgress;

    // default 1: formatting the output is most of decode's work, so a second thread (above MPA) gained nothing
    // measurable on a 2 GB busy capture (4.3-4.6 s against 4.2-5.4 s for -T jsonl) and cost 40 % more CPU
    @Option(names = "--threads", paramLabel = "N", description = "Threads: 1, or 2 to decode and format above MPA on a second one, with the same output; text without -Y stays on one (its TCP event lines read the frame clock) (default: ${DEFAULT-VALUE}).")
    int threads = 1;

    @Option(names = {"-q", "--quiet"}, description = "Quiet standard error: no decode notices (gaps, bad CRCs, ...), no progress bar.")
    boolean quiet;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (live.list) return live.listInterfaces(spec.commandLine().getOut(), err);
        List<String> inputs = new ArrayList<>(readFiles);
        inputs.addAll(files);
        String problem = live.problem();
        if (problem == null && live.live() && !inputs.isEmpty()) problem = "give either FILEs (or -r FILE) or -i IFACE, not both";
        if (problem == null && !live.live() && inputs.isEmpty()) problem = "decode needs a FILE (or -r FILE, '-' for standard input) or -i IFACE";
        if (problem == null && format == Format.fields && fields.isEmpty()) problem = "-T fields needs at least one -e FIELD";
        if (problem == null && format != Format.fields && !fields.isEmpty()) problem = "-e FIELD goes with -T fields";
        if (problem == null) problem = unknownField();
        if (problem == null && (threads < 1 || threads > 256)) problem = "--threads: must be 1..256 (got " + threads + ")";
        if (problem != null) {
            err.println("rddp: " + problem);
            err.println("Try 'rddp decode --help' for usage.");
            return Main.EXIT_BAD_INPUT;
        }
        if (live.live()) inputs = List.of("-i " + live.device);
        DisplayFilter filter = null;
        if (displayFilter != null) {
            filter = Filters.compileFor(displayFilter, inputs.contains("-") || live.live(), err);
            if (filter == null) return Main.EXIT_BAD_INPUT;
        }
        OutputStream out = Outputs.openOrSay(output, err);
        if (out == null) return Main.EXIT_BAD_INPUT;
        int worst = Main.EXIT_OK;
        try (out; PduWriter writer = writer(out)) {
            for (String file : inputs) {
                if (inputs.size() > 1) writer.file(file);
                worst = Main.worse(worst, decode(file, filter, writer, err));
            }
        } catch (UncheckedIOException e) {
            return outputFailed(err, e.getCause());
        } catch (IOException e) {
            return outputFailed(err, e);
        }
        return worst;
    }

    /** The first -e name the field registry does not know, as a message; null when all are known. */
    private String unknownField() {
        for (String f : fields) {
            if (FilterFields.get(f) == null) {
                String near = FilterFields.closest(f);
                return "-e: unknown field '" + f + "'" + (near != null ? " (did you mean '" + near + "'?)" : "")
                        + "; the names are those of -Y (docs/fields.md)";
            }
        }
        return null;
    }

    /** One capture to the writer; its exit code. Output errors escape as UncheckedIOException. */
    private int decode(String file, DisplayFilter f, PduWriter writer, PrintWriter err) throws IOException {
        Map<Long, List<Violation>> byFrame = Map.of();
        if (f != null && f.uses("violation")) {
            try (CaptureReader first = open(file, err)) {
                if (first == null) return Main.EXIT_BAD_INPUT;
                byFrame = Filters.violationsByFrame(new FrameLimit(first, live.count), decodeAs.mode());
            } catch (CaptureException e) {
                byFrame = Map.of(); // the decode pass below reports where the file turns bad
            }
        }
        final Map<Long, List<Violation>> violations = byFrame;
        final FieldRecord record = new FieldRecord();
        boolean text = format == Format.text;
        boolean events = text && f == null;
        try (CaptureReader opened = live.live() ? live.open(err, null) : open(file, err)) {
            if (opened == null) return Main.EXIT_BAD_INPUT;
            FrameLimit reader = new FrameLimit(opened, live.live() ? 0 : live.count);
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            Thread hook = opened instanceof LiveCapture c ? LiveOptions.stopOnInterrupt(c, done) : null;
            long[] pdus = {0};
            // streams are numbered from 0 in order of appearance: bit sets, not sets of boxed numbers (per PDU)
            BitSet iwarpStreams = new BitSet();
            BitSet tcpStreams = new BitSet();
            NoticePrinter notices = new NoticePrinter(err, quiet);
            try (Progress progress = Progress.start(reader, !noProgress && !quiet && output == null ? Progress.Mode.AUTO : Progress.Mode.OFF)) {
                RpcRdmaListener listener = new RpcRdmaListener() {
                    @Override
                    public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
                        pdus[0]++;
                        iwarpStreams.set(pdu.stream());
                        if (f != null) {
                            List<Violation> vs = violations.get(pdu.frame());
                            DisplayFilter.describe(pdu, message, move, Filters.checks(vs), Filters.severities(vs), record);
                            if (!f.matches(record)) return;
                        }
                        writer.write(pdu, message, move);
                        if (hex && text) dump(pdu, writer);
                    }

                    @Override
                    public void onConnection(TcpConnection connection) {
                        tcpStreams.set(connection.index());
                    }

                    @Override
                    public void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
                        if (events && iwarpStreams.get(connection.index())) {
                            writer.tcpEvent(frame, reader.relativeNanos(), connection.source(direction),
                                    connection.destination(direction), (reset ? "RST" : "FIN")
                                            + " (stream " + connection.index() + ")");
                        }
                    }

                    @Override
                    public void onNotice(Notice notice) {
                        notices.print(notice);
                    }
                };
                try {
                    // the text's FIN/RST lines read the reader's clock in the listener: that output stays on one thread
                    // the one-line text shows no fields: only the other outputs and filters need the frames' headers
                    new DecodePipeline(new RpcRdmaStage(listener, decodeAs.mode())).threads(events ? 1 : threads)
                            .frameHeaders(!text || verbose || f != null).run(reader, progress::update);
                } catch (CaptureException e) {
                    writer.flush();
                    err.println("rddp: " + Outputs.aboutFile(file, e.getMessage()));
                    err.println("rddp: everything before that point was decoded");
                    return Main.EXIT_BAD_INPUT;
                } finally {
                    notices.summary();
                }
            } finally {
                if (hook != null) LiveOptions.release(hook, done);
            }
            writer.flush();
            if (pdus[0] == 0) {
                err.println("rddp: " + file + ": " + Outputs.nothingToDecode(reader.frames(), tcpStreams.cardinality(), notices.linkTypes()));
                return Main.EXIT_NOTHING;
            }
            return Main.EXIT_OK;
        }
    }

    /** -x: the PDU's octets as MPA has them (the start frame re-encoded, or ULPDU_Length and the ULPDU). */
    private static void dump(Pdu pdu, PduWriter writer) {
        if (pdu.startFrame() != null) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(MpaStartFrame.HEADER_LENGTH + pdu.startFrame().privateData().length);
            pdu.startFrame().writeTo(b);
            writer.hexDump("MPA " + pdu.startFrame().kind().name().toLowerCase(), b.flip());
        } else if (pdu.fpdu() != null) {
            java.nio.ByteBuffer u = pdu.fpdu().ulpdu().duplicate();
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(2 + u.remaining());
            b.putShort((short) pdu.fpdu().ulpduLength()).put(u).flip();
            writer.hexDump("FPDU: ULPDU_Length and ULPDU", b);
        }
    }

    /** Opens FILE ('-': standard input), or prints why not and returns null. */
    static CaptureReader open(String file, PrintWriter err) {
        try {
            return file.equals("-") ? CaptureReaders.open(System.in, "<stdin>") : CaptureReaders.open(Path.of(file));
        } catch (NoSuchFileException e) {
            err.println("rddp: " + file + ": no such file");
        } catch (java.nio.file.AccessDeniedException e) {
            err.println("rddp: " + file + ": permission denied");
        } catch (CaptureException e) {
            err.println("rddp: " + Outputs.aboutFile(file, e.getMessage()));
        } catch (IOException e) {
            err.println("rddp: " + file + ": cannot read: " + Outputs.withoutFile(file, e.getMessage()));
        }
        return null;
    }

    private PduWriter writer(OutputStream out) throws IOException {
        return switch (format) {
            case jsonl -> new JsonlWriter(out);
            case json -> new JsonlWriter(out, true);
            case fields -> new FieldsWriter(out, fields);
            case text -> verbose ? new TreeWriter(out) : new LineWriter(out);
        };
    }

    private int outputFailed(PrintWriter err, IOException e) {
        if (output == null && Outputs.brokenPipe(e)) return Main.EXIT_OK; // `rddp decode big.pcap | head`: the reader has what it wanted
        err.println("rddp: " + Outputs.cannotWrite(output, e));
        return Main.EXIT_BAD_INPUT;
    }
}
