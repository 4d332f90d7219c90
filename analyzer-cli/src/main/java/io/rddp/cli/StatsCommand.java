package io.rddp.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.rddp.capture.CaptureReader;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.decode.PduFields;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.report.JsonReports;
import io.rddp.stats.CaptureStats;
import io.rddp.stats.ChunkBytes;
import io.rddp.stats.CaptureStats.DirectionStats;
import io.rddp.count.OpcodeCounts;
import io.rddp.stats.CaptureStats.ProcedureStats;
import io.rddp.stats.CaptureStats.ReadStats;
import io.rddp.stats.CaptureStats.RpcStats;
import io.rddp.stats.CaptureStats.StreamStats;
import io.rddp.stats.CaptureStats.TerminateEntry;
import io.rddp.stats.LatencyHistogram.Latency;
import io.rddp.stats.StatsCollector;
import io.rddp.stats.StatsText;
import io.rddp.tcp.Direction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "stats",
        description = {"Statistics of captures, per stream and direction:",
                "  segments, messages and bytes per RDMAP opcode;",
                "  RDMA Read latency (Read Request to first and last Read Response segment);",
                "  RPC-over-RDMA calls, replies, unanswered calls and call to reply",
                "  time per procedure (matched by XID per connection); octets moved",
                "  inline and through Read, Write and Reply chunks;",
                "  every Terminate with its Layer/EType/Code; how each connection closed.",
                "Latencies: min, median, p99, max (nearest rank; exact up to 256 samples, else within 1/64).",
                "Exit codes: 0 done, 2 bad usage or unreadable input (a damaged capture is counted up to the damage)."},
        mixinStandardHelpOptions = true,
        sortOptions = false)
final class StatsCommand implements Callable<Integer> {

    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = {"Capture files (pcap, pcapng, .gz of either; '-' for standard input)",
            "or directories (every capture below them). Each is counted on its own."})
    List<String> files;

    @Option(names = "--format", paramLabel = "FORMAT", description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format format = Format.text;

    @picocli.CommandLine.Mixin
    DecodeAsOption decodeAs;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write to OUT instead of standard output.")
    Path output;

    @Option(names = "--no-progress", description = "Never show the progress bar.")
    boolean noProgress;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        List<String> inputs;
        try {
            inputs = AnalyzeCommand.expand(files);
        } catch (IOException e) {
            err.println("rddp: " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        if (inputs.isEmpty()) {
            err.println("rddp: no capture files (*.pcap, *.pcapng, *.cap, or .gz of them) in " + String.join(", ", files));
            return Main.EXIT_BAD_INPUT;
        }
        int worst = Main.EXIT_OK;
        List<CaptureStats> done = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String file : inputs) {
            CaptureStats s = stats(file, err);
            if (s == null || s.error() != null) worst = Main.EXIT_BAD_INPUT;
            if (s == null) continue;
            done.add(s);
            names.add(file);
        }
        if (done.isEmpty()) return worst;
        try (OutputStream out = Outputs.open(output)) {
            if (format == Format.json) {
                json(done, names, inputs.size() > 1, out);
            } else {
                PrintWriter w = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
                for (int i = 0; i < done.size(); i++) {
                    if (i > 0) w.println();
                    StatsText.print(done.get(i), names.get(i), w);
                }
                w.flush();
            }
        } catch (IOException e) {
            err.println("rddp: " + (output == null ? "standard output" : output) + ": " + e.getMessage());
            return Main.EXIT_BAD_INPUT;
        }
        for (int i = 0; i < done.size(); i++) {
            if (done.get(i).error() != null) {
                err.println("rddp: " + Outputs.aboutFile(names.get(i), done.get(i).error()));
                err.println("rddp: everything before that point was counted");
            }
        }
        return worst;
    }

    /** One capture; null when it cannot be opened at all (the reason is printed). */
    private CaptureStats stats(String file, PrintWriter err) {
        try (CaptureReader reader = DecodeCommand.open(file, err)) {
            if (reader == null) return null;
            try (Progress progress = Progress.start(reader, noProgress ? Progress.Mode.OFF : Progress.Mode.AUTO)) {
                return new StatsCollector().decodeAs(decodeAs.mode()).run(reader, progress::update);
            }
        } catch (IOException e) {
            err.println("rddp: " + Outputs.aboutFile(file, e.getMessage()));
            return null;
        }
    }

    // ---------------------------------------------------------------- JSON

    /**
     * The JSON form (docs/json.md): counts and byte totals as JSON numbers (exact below 2^53, which a
     * capture cannot pass); STags, TOs and XIDs as "0x..." strings; latencies in integer nanoseconds ({@code *Ns});
     * epoch times as "seconds.nanoseconds" strings, as decode's {@code time}.
     */
    static void json(List<CaptureStats> all, List<String> files, boolean many, OutputStream os) throws IOException {
        JsonReports.write(os, j -> {
            if (many) j.writeStartArray();
            for (int i = 0; i < all.size(); i++) json(all.get(i), files.get(i), j);
            if (many) j.writeEndArray();
        });
    }

    private static void json(CaptureStats s, String file, JsonGenerator j) throws IOException {
        j.writeStartObject();
        j.writeStringField("file", file);
        j.writeObjectFieldStart("summary");
        j.writeNumberField("frames", s.frames());
        j.writeNumberField("pdus", s.pdus());
        j.writeNumberField("streams", s.streams().size() + s.streamsNotListed());
        if (s.streamsNotListed() > 0) j.writeNumberField("streamsNotListed", s.streamsNotListed());
        if (s.firstNanos() >= 0) {
            j.writeStringField("start", PduFields.epochSeconds(s.firstNanos()));
            j.writeStringField("end", PduFields.epochSeconds(s.lastNanos()));
        }
        j.writeNumberField("durationNs", s.durationNanos());
        if (s.error() != null) j.writeStringField("incomplete", s.error());
        j.writeEndObject();
        j.writeArrayFieldStart("streams");
        for (StreamStats st : s.streams()) stream(st, j);
        j.writeEndArray();
        j.writeObjectFieldStart("reads");
        latency("first", s.readsFirst(), j);
        latency("last", s.readsLast(), j);
        j.writeEndObject();
        rpc(s.rpc(), j);
        j.writeArrayFieldStart("terminates");
        for (TerminateEntry e : s.terminates()) terminate(e, s.firstNanos(), j);
        j.writeEndArray();
        if (s.terminatesNotListed() > 0) j.writeNumberField("terminatesNotListed", s.terminatesNotListed());
        j.writeEndObject();
    }

    private static void stream(StreamStats st, JsonGenerator j) throws IOException {
        j.writeStartObject();
        j.writeNumberField("stream", st.stream());
        j.writeStringField("client", st.client().toString());
        j.writeStringField("server", st.server().toString());
        j.writeNumberField("firstFrame", st.firstFrame());
        j.writeNumberField("lastFrame", st.lastFrame());
        j.writeStringField("start", PduFields.epochSeconds(st.firstNanos()));
        j.writeNumberField("durationNs", st.lastNanos() - st.firstNanos());
        for (Direction d : Direction.values()) {
            DirectionStats ds = st.direction(d);
            j.writeObjectFieldStart(d == Direction.CLIENT_TO_SERVER ? "clientToServer" : "serverToClient");
            j.writeNumberField("pdus", ds.pdus());
            j.writeNumberField("startFrames", ds.startFrames());
            j.writeNumberField("startFrameBytes", ds.startFrameBytes());
            j.writeNumberField("wireBytes", ds.wireBytes());
            j.writeArrayFieldStart("opcodes");
            for (OpcodeCounts o : ds.opcodes()) {
                j.writeStartObject();
                j.writeNumberField("opcode", o.code());
                j.writeStringField("name", o.name());
                j.writeNumberField("segments", o.segments());
                j.writeNumberField("messages", o.messages());
                j.writeNumberField("payloadBytes", o.payloadBytes());
                j.writeNumberField("wireBytes", o.wireBytes());
                j.writeEndObject();
            }
            j.writeEndArray();
            j.writeEndObject();
        }
        j.writeObjectFieldStart("reads");
        reads("byClient", st.readsByClient(), j);
        reads("byServer", st.readsByServer(), j);
        j.writeEndObject();
        rpc(st.rpc(), j);
        j.writeObjectFieldStart("close");
        j.writeStringField("end", switch (st.close().end()) {
            case CLOSED -> "closed";
            case CAPTURE_ENDED -> "capture-ended";
            case DROPPED -> "dropped";
        });
        j.writeNumberField("endFrame", st.close().endFrame());
        frame("clientFin", st.close().clientFin(), j);
        frame("serverFin", st.close().serverFin(), j);
        frame("clientRst", st.close().clientRst(), j);
        frame("serverRst", st.close().serverRst(), j);
        j.writeStringField("text", st.close().describe());
        j.writeEndObject();
        j.writeEndObject();
    }

    private static void frame(String name, long frame, JsonGenerator j) throws IOException {
        if (frame >= 0) j.writeNumberField(name, frame);
    }

    private static void reads(String name, ReadStats r, JsonGenerator j) throws IOException {
        j.writeObjectFieldStart(name);
        j.writeNumberField("requests", r.requests());
        j.writeNumberField("completed", r.completed());
        j.writeNumberField("unanswered", r.unanswered());
        j.writeNumberField("unmatched", r.unmatched());
        j.writeNumberField("requestedBytes", r.requestedBytes());
        latency("first", r.first(), j);
        latency("last", r.last(), j);
        j.writeEndObject();
    }

    private static void rpc(RpcStats r, JsonGenerator j) throws IOException {
        j.writeObjectFieldStart("rpc");
        j.writeNumberField("calls", r.calls());
        j.writeNumberField("replies", r.replies());
        j.writeNumberField("unanswered", r.unanswered());
        j.writeNumberField("dropped", r.dropped());
        j.writeNumberField("unmatched", r.unmatched());
        latency("latency", r.all(), j);
        j.writeArrayFieldStart("procedures");
        for (ProcedureStats p : r.byProcedure()) {
            j.writeStartObject();
            j.writeStringField("procedure", p.procedure());
            j.writeNumberField("calls", p.calls());
            j.writeNumberField("replies", p.replies());
            j.writeNumberField("unanswered", p.unanswered());
            j.writeNumberField("dropped", p.dropped());
            latency("latency", p.latency(), j);
            j.writeEndObject();
        }
        j.writeEndArray();
        bytes(r.bytes(), j);
        j.writeEndObject();
    }

    /** Octets inline and per chunk kind (docs/json.md): advertised in the calls, returned in the replies, moved. */
    private static void bytes(ChunkBytes b, JsonGenerator j) throws IOException {
        j.writeObjectFieldStart("bytes");
        inline("calls", b.calls(), j);
        inline("replies", b.replies(), j);
        chunk("read", b.read(), j);
        chunk("positionZero", b.positionZero(), j);
        chunk("write", b.write(), j);
        chunk("reply", b.reply(), j);
        j.writeNumberField("unattributed", b.unattributed());
        j.writeNumberField("towardResponder", b.towardResponder());
        j.writeNumberField("towardRequester", b.towardRequester());
        j.writeNumberField("total", b.total());
        j.writeEndObject();
    }

    private static void inline(String name, ChunkBytes.Inline i, JsonGenerator j) throws IOException {
        j.writeObjectFieldStart(name);
        j.writeNumberField("sends", i.sends());
        j.writeNumberField("headerBytes", i.headerBytes());
        j.writeNumberField("payloadBytes", i.payloadBytes());
        j.writeNumberField("undecodedSends", i.undecoded());
        j.writeNumberField("undecodedBytes", i.undecodedBytes());
        j.writeEndObject();
    }

    private static void chunk(String name, ChunkBytes.Chunk c, JsonGenerator j) throws IOException {
        j.writeObjectFieldStart(name);
        j.writeNumberField("chunks", c.chunks());
        j.writeNumberField("advertised", c.advertised());
        j.writeNumberField("returned", c.returned());
        j.writeNumberField("moved", c.moved());
        j.writeEndObject();
    }

    /** A latency object, or null when nothing was measured. */
    private static void latency(String name, Latency l, JsonGenerator j) throws IOException {
        if (l.count() == 0) {
            j.writeNullField(name);
            return;
        }
        j.writeObjectFieldStart(name);
        j.writeNumberField("count", l.count());
        j.writeNumberField("minNs", l.minNs());
        j.writeNumberField("medianNs", l.medianNs());
        j.writeNumberField("p99Ns", l.p99Ns());
        j.writeNumberField("maxNs", l.maxNs());
        j.writeNumberField("meanNs", l.meanNs());
        j.writeBooleanField("exact", l.exact());
        j.writeEndObject();
    }

    private static void terminate(TerminateEntry e, long first, JsonGenerator j) throws IOException {
        Terminate t = e.terminate();
        j.writeStartObject();
        j.writeNumberField("frame", e.frame());
        j.writeStringField("time", PduFields.epochSeconds(e.nanos()));
        j.writeNumberField("relativeNs", e.nanos() - first);
        j.writeNumberField("stream", e.stream());
        j.writeStringField("direction", e.direction() == Direction.CLIENT_TO_SERVER ? "client-to-server" : "server-to-client");
        j.writeStringField("src", e.source().toString());
        j.writeStringField("dst", e.destination().toString());
        j.writeNumberField("layer", t.layer());
        j.writeStringField("layerName", t.layerName());
        j.writeNumberField("etype", t.errorType());
        if (t.errorTypeName() != null) j.writeStringField("etypeName", t.errorTypeName());
        j.writeNumberField("code", t.errorCode());
        if (t.errorCodeName() != null) j.writeStringField("codeName", t.errorCodeName());
        j.writeStringField("name", t.describe());
        j.writeBooleanField("m", t.segmentLengthValid());
        j.writeBooleanField("d", t.ddpHeaderIncluded());
        j.writeBooleanField("r", t.rdmaHeaderIncluded());
        if (t.ddpHeaderIncluded()) {
            j.writeNumberField("ddpSegmentLength", t.ddpSegmentLength());
            DdpHeader h = t.terminatedDdpHeader();
            j.writeObjectFieldStart("ddpHeader");
            j.writeBooleanField("tagged", h.tagged());
            j.writeBooleanField("last", h.last());
            if (h instanceof TaggedHeader g) {
                j.writeStringField("stag", hex(g.stag()));
                j.writeStringField("to", hex(g.to()));
            } else if (h instanceof UntaggedHeader u) {
                j.writeNumberField("qn", u.qn());
                j.writeNumberField("msn", u.msn());
                j.writeNumberField("mo", u.mo());
            }
            j.writeEndObject();
        }
        if (t.rdmaHeaderIncluded()) {
            ReadRequest r = t.terminatedRdmaHeader();
            j.writeObjectFieldStart("readRequest");
            j.writeStringField("sinkStag", hex(r.sinkStag()));
            j.writeStringField("sinkTo", hex(r.sinkTo()));
            j.writeNumberField("size", r.size());
            j.writeStringField("srcStag", hex(r.sourceStag()));
            j.writeStringField("srcTo", hex(r.sourceTo()));
            j.writeEndObject();
        }
        j.writeEndObject();
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
