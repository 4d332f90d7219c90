package io.rddp.stats;

import io.rddp.Plural;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.stats.CaptureStats.DirectionStats;
import io.rddp.count.OpcodeCounts;
import io.rddp.stats.CaptureStats.ProcedureStats;
import io.rddp.stats.CaptureStats.ReadStats;
import io.rddp.stats.CaptureStats.StreamStats;
import io.rddp.stats.CaptureStats.TerminateEntry;
import io.rddp.stats.LatencyHistogram.Latency;
import io.rddp.tcp.Direction;

import java.io.PrintWriter;

/**
 * The person-readable form of {@link CaptureStats}: aligned tables, one section per kind of figure. Latencies in
 * microseconds with three decimals (the capture's nanoseconds), times in seconds since the capture's first frame.
 */
public final class StatsText {
    private static final String RULE = "=".repeat(100);

    private StatsText() {
    }

    public static void print(CaptureStats s, String file, PrintWriter out) {
        out.println(RULE);
        out.println("rddp stats: " + file);
        out.printf("Frames: %d  PDUs: %d  iWARP streams: %d  Duration: %s s%n", s.frames(), s.pdus(),
                s.streams().size() + s.streamsNotListed(), seconds(s.durationNanos()));
        out.println(RULE);
        streams(s, out);
        opcodes(s, out);
        reads(s, out);
        rpc(s, out);
        chunkBytes(s, out);
        terminates(s, out);
        if (s.error() != null) {
            out.println();
            out.println("Incomplete: " + s.error());
        }
        out.println(RULE);
        out.flush();
    }

    private static void streams(CaptureStats s, PrintWriter out) {
        out.println();
        out.println("Streams");
        TextTable t = new TextTable(">Stream", "Client", "Server", ">Frames", ">PDUs c>s", ">PDUs s>c",
                ">Wire bytes c>s", ">Wire bytes s>c", ">Start (s)", ">Duration (s)", "Closed");
        for (StreamStats st : s.streams()) {
            t.row(st.stream(), st.client(), st.server(), st.firstFrame() + "-" + st.lastFrame(),
                    st.clientToServer().pdus(), st.serverToClient().pdus(), st.clientToServer().wireBytes(),
                    st.serverToClient().wireBytes(), seconds(st.firstNanos() - s.firstNanos()),
                    seconds(st.lastNanos() - st.firstNanos()), st.close().describe());
        }
        if (t.isEmpty()) {
            out.println("  no iWARP PDUs in this capture");
        } else {
            t.print(out);
        }
        if (s.streamsNotListed() > 0) {
            out.println("  " + s.streamsNotListed() + " more streams counted but not listed (cap "
                    + StatsCollector.MAX_STREAMS + ")");
        }
    }

    private static void opcodes(CaptureStats s, PrintWriter out) {
        TextTable t = new TextTable(">Stream", "Dir", "Opcode", ">Segments", ">Messages", ">Payload bytes",
                ">Wire bytes");
        for (StreamStats st : s.streams()) {
            for (Direction d : Direction.values()) {
                DirectionStats ds = st.direction(d);
                if (ds.startFrames() > 0) t.row(st.stream(), dir(d), "MPA Request/Reply", ds.startFrames(), "-", "-",
                        ds.startFrameBytes());
                for (OpcodeCounts o : ds.opcodes()) {
                    t.row(st.stream(), dir(d), o.name(), o.segments(), o.messages(), o.payloadBytes(), o.wireBytes());
                }
            }
        }
        if (t.isEmpty()) return;
        out.println();
        out.println("Segments, messages and bytes per opcode (payload: ULP octets after the DDP/RDMAP headers; "
                + "wire: MPA octets, FPDUs with PAD, CRC and Markers)");
        t.print(out);
    }

    private static void reads(CaptureStats s, PrintWriter out) {
        TextTable t = new TextTable(">Stream", "Requester", ">Reads", ">Answered", ">Unanswered", ">Unmatched",
                ">Bytes asked", "Response", ">min", ">median", ">p99", ">max");
        for (StreamStats st : s.streams()) {
            for (Direction d : Direction.values()) {
                ReadStats r = st.reads(d);
                if (r.requests() == 0 && r.unmatched() == 0) continue;
                String who = d == Direction.CLIENT_TO_SERVER ? "client" : "server";
                latencyRow(t, new Object[]{st.stream(), who, r.requests(), r.completed(), r.unanswered(),
                        r.unmatched(), r.requestedBytes(), "first"}, r.first());
                latencyRow(t, new Object[]{"", "", "", "", "", "", "", "last"}, r.last());
            }
        }
        if (t.isEmpty()) return;
        if (s.streams().size() > 1) {
            latencyRow(t, new Object[]{"all", "", "", "", "", "", "", "first"}, s.readsFirst());
            latencyRow(t, new Object[]{"", "", "", "", "", "", "", "last"}, s.readsLast());
        }
        out.println();
        out.println("RDMA Read latency: Read Request to its first and last Read Response segment (µs)");
        t.print(out);
    }

    private static void rpc(CaptureStats s, PrintWriter out) {
        TextTable t = new TextTable(">Stream", "Procedure", ">Calls", ">Replies", ">Unanswered", ">Dropped", ">min",
                ">median", ">p99", ">max");
        boolean any = false;
        for (StreamStats st : s.streams()) {
            CaptureStats.RpcStats r = st.rpc();
            if (r.calls() == 0 && r.replies() == 0 && r.unmatched() == 0) continue;
            any = true;
            for (ProcedureStats p : r.byProcedure()) procedureRow(t, st.stream(), p);
            latencyRow(t, new Object[]{st.stream(), "(all)", r.calls(), r.replies(), r.unanswered(), r.dropped()},
                    r.all());
        }
        if (!any) return;
        CaptureStats.RpcStats all = s.rpc();
        if (s.streams().size() > 1) {
            for (ProcedureStats p : all.byProcedure()) procedureRow(t, "all", p);
            latencyRow(t, new Object[]{"all", "(all)", all.calls(), all.replies(), all.unanswered(), all.dropped()},
                    all.all());
        }
        out.println();
        out.println("RPC-over-RDMA call to reply time, matched by XID per connection (µs; Send of the call to Send of "
                + "the reply)");
        t.print(out);
        if (all.unmatched() > 0) out.println("  " + Plural.of(all.unmatched(), "reply", "replies") + " to no call seen");
        if (all.dropped() > 0) {
            out.println("  " + Plural.of(all.dropped(), "call") + " dropped unanswered: more than "
                    + StatsCollector.MAX_OPEN_CALLS + " open on one connection");
        }
    }

    private static void procedureRow(TextTable t, Object stream, ProcedureStats p) {
        latencyRow(t, new Object[]{stream, p.procedure(), p.calls(), p.replies(), p.unanswered(), p.dropped()},
                p.latency());
    }

    private static void chunkBytes(CaptureStats s, PrintWriter out) {
        TextTable t = new TextTable(">Stream", "Carried by", ">Sends/chunks", ">Advertised", ">Returned", ">Moved");
        for (StreamStats st : s.streams()) {
            if (!st.rpc().bytes().isEmpty()) chunkRows(t, st.stream(), st.rpc().bytes());
        }
        if (t.isEmpty()) return;
        if (s.streams().size() > 1) chunkRows(t, "all", s.rpc().bytes());
        out.println();
        out.println("RPC-over-RDMA octets by how they moved (inline: Send octets after the transport header; chunks: "
                + "RDMA Read Response and Write payload placed in an advertised segment)");
        t.print(out);
    }

    private static void chunkRows(TextTable t, Object stream, ChunkBytes b) {
        t.row(stream, "inline, calls", b.calls().sends(), "-", "-", b.calls().payloadBytes());
        t.row(stream, "inline, replies", b.replies().sends(), "-", "-", b.replies().payloadBytes());
        t.row(stream, "Read chunks", b.read().chunks(), b.read().advertised(), "-", b.read().moved());
        t.row(stream, "  at Position zero", b.positionZero().chunks(), b.positionZero().advertised(), "-",
                b.positionZero().moved());
        t.row(stream, "Write chunks", b.write().chunks(), b.write().advertised(), b.write().returned(),
                b.write().moved());
        t.row(stream, "Reply chunks", b.reply().chunks(), b.reply().advertised(), b.reply().returned(),
                b.reply().moved());
        t.row(stream, "total RPC messages", "-", "-", "-", b.total());
        t.row(stream, "transport headers", b.calls().sends() + b.replies().sends(), "-", "-",
                b.calls().headerBytes() + b.replies().headerBytes());
        if (b.unattributed() > 0) t.row(stream, "in no chunk", "-", "-", "-", b.unattributed());
        long undecoded = b.calls().undecoded() + b.replies().undecoded();
        if (undecoded > 0) {
            t.row(stream, "Sends not decoded", undecoded, "-", "-",
                    b.calls().undecodedBytes() + b.replies().undecodedBytes());
        }
    }

    private static void terminates(CaptureStats s, PrintWriter out) {
        if (s.terminates().isEmpty()) return;
        TextTable t = new TextTable(">Frame", ">Time (s)", ">Stream", "Source", "Destination", "L/E/C", "Error",
                "Terminated headers");
        for (TerminateEntry e : s.terminates()) {
            Terminate term = e.terminate();
            t.row(e.frame(), seconds(e.nanos() - s.firstNanos()), e.stream(), e.source(), e.destination(),
                    term.layer() + "/" + term.errorType() + "/" + term.errorCode(), term.describe(),
                    terminated(term));
        }
        out.println();
        out.println("Terminates (RFC 5040 §4.8)");
        t.print(out);
        if (s.terminatesNotListed() > 0) {
            out.println("  " + s.terminatesNotListed() + " more Terminates counted but not listed");
        }
    }

    /** "untagged QN 0 MSN 0x5 MO 0 (segment length 40); Read Request ..." or "-". */
    static String terminated(Terminate t) {
        StringBuilder sb = new StringBuilder();
        DdpHeader h = t.terminatedDdpHeader();
        if (h instanceof TaggedHeader g) {
            sb.append("tagged STag 0x").append(Long.toHexString(g.stag())).append(" TO 0x")
                    .append(Long.toHexString(g.to()));
        } else if (h instanceof UntaggedHeader u) {
            sb.append("untagged QN ").append(u.qn()).append(" MSN ").append(u.msn()).append(" MO ").append(u.mo());
        }
        if (h != null) {
            sb.append(h.last() ? " L" : "").append(" (segment length ").append(t.ddpSegmentLength()).append(')');
        }
        ReadRequest r = t.terminatedRdmaHeader();
        if (r != null) {
            if (sb.length() > 0) sb.append("; ");
            sb.append("Read Request sink STag 0x").append(Long.toHexString(r.sinkStag())).append(" TO 0x")
                    .append(Long.toHexString(r.sinkTo())).append(" size ").append(r.size()).append(" source STag 0x")
                    .append(Long.toHexString(r.sourceStag())).append(" TO 0x").append(Long.toHexString(r.sourceTo()));
        }
        return sb.length() == 0 ? "-" : sb.toString();
    }

    private static void latencyRow(TextTable t, Object[] lead, Latency l) {
        Object[] row = new Object[lead.length + 4];
        System.arraycopy(lead, 0, row, 0, lead.length);
        row[lead.length] = micros(l.minNs(), l);
        row[lead.length + 1] = micros(l.medianNs(), l);
        row[lead.length + 2] = micros(l.p99Ns(), l);
        row[lead.length + 3] = micros(l.maxNs(), l);
        t.row(row);
    }

    private static String micros(long nanos, Latency l) {
        if (l.count() == 0) return "-";
        return String.format("%d.%03d", nanos / 1000, nanos % 1000);
    }

    private static String dir(Direction d) {
        return d == Direction.CLIENT_TO_SERVER ? "c>s" : "s>c";
    }

    /** Nanoseconds as seconds with 6 decimals, like tshark's relative times. */
    static String seconds(long nanos) {
        long micros = Math.floorDiv(nanos + (nanos >= 0 ? 500 : -500), 1000);
        String frac = Long.toString(Math.abs(micros % 1_000_000) + 1_000_000).substring(1);
        long whole = micros / 1_000_000;
        return (micros < 0 && whole == 0 ? "-" : "") + whole + "." + frac;
    }
}
