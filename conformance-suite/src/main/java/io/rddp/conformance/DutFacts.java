package io.rddp.conformance;

import io.rddp.ddp.TaggedHeader;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.ReadRequest;
import io.rddp.sink.StagRegistration;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the DUT sent that matters to a vendor reading a verdict, counted, in one short sentence for the observed text:
 * its RDMA Read Responses and their octets against what the tester's Read Requests asked and the source buffer the
 * DUT registered, its Atomic Responses, Sends, Writes and Read Requests, Terminates past the first, and a start frame
 * it sent nothing after. Facts only: which reaction the DUT owed is the judge's business, not this sentence's.
 */
final class DutFacts {

    /** Kinds of message named at most, the unusual first. */
    private static final int MAX_PARTS = 3;

    private DutFacts() {
    }

    /** "3 RDMA Read Response segments carrying 4,097 octets, 1 beyond the source buffer", or "". */
    static String of(ScriptedConnection c, String reaction) {
        List<ScriptedConnection.DutPdu> pdus = c.dutPdus();
        long[] segs = new long[16], octets = new long[16];
        long fpdus = 0;
        MpaStartFrame start = null;
        for (ScriptedConnection.DutPdu p : pdus) {
            if (p.start() != null) {
                start = p.start();
                continue;
            }
            fpdus++;
            if (p.rdmap() == null || p.rdmap().opcode() == null) continue;
            int op = p.rdmap().opcode().code();
            segs[op]++;
            octets[op] += p.payload() == null ? 0 : p.payload().length;
        }
        List<String> parts = new ArrayList<>();
        int rr = Opcode.RDMA_READ_RESPONSE.code();
        if (segs[rr] > 0) parts.add(readResponses(c, pdus, segs[rr], octets[rr]));
        int terms = (int) segs[Opcode.TERMINATE.code()];
        if (terms > 1) parts.add(terms + " Terminates");
        carrying(parts, "Send", segs, octets, Opcode.SEND, Opcode.SEND_WITH_INVALIDATE, Opcode.SEND_WITH_SE,
                Opcode.SEND_WITH_SE_AND_INVALIDATE);
        count(parts, "Atomic Response", segs[Opcode.ATOMIC_RESPONSE.code()]);
        carrying(parts, "RDMA Write", segs, octets, Opcode.RDMA_WRITE);
        count(parts, "RDMA Read Request", segs[Opcode.RDMA_READ_REQUEST.code()]);
        count(parts, "Atomic Request", segs[Opcode.ATOMIC_REQUEST.code()]);
        count(parts, "Immediate Data message", segs[Opcode.IMMEDIATE_DATA.code()]
                + segs[Opcode.IMMEDIATE_DATA_WITH_SE.code()]);
        if (start != null && fpdus == 0 && !start.reject() && !reaction.contains("MPA Reply")
                && !reaction.contains("no FPDU")) {
            parts.add("nothing after its MPA " + (start.kind() == MpaStartFrame.Kind.REQUEST ? "Request" : "Reply"));
        }
        if (parts.isEmpty()) return "";
        if (parts.size() > MAX_PARTS) {
            parts = new ArrayList<>(parts.subList(0, MAX_PARTS));
            parts.add("more");
        }
        // past the record cap the tester keeps no PDUs: what is counted here is what came before it
        if (c.truncated()) parts.set(parts.size() - 1, parts.get(parts.size() - 1) + " before the record cap");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) sb.append(i == parts.size() - 1 ? " and " : "; ");
            sb.append(parts.get(i));
        }
        return sb.toString();
    }

    /**
     * One of the DUT's Read Response segments against the tester's Read Request it answers (matched by the Data Sink
     * STag, each request has its own): its octets, and those from before or beyond the source buffer the DUT
     * registered for the request's source STag (RFC 5040 §7.2 item 4d: a DUT must refuse such a Read, not answer it).
     *
     * @param request the index of the request in {@link ScriptedConnection#testerReads()}, or -1: none
     */
    private record Answer(ScriptedConnection.DutPdu pdu, int request, long octets, long before, long beyond) {
    }

    private static List<Answer> answers(ScriptedConnection c, List<ScriptedConnection.DutPdu> pdus,
                                        List<ReadRequest> reads) {
        List<Answer> out = new ArrayList<>();
        for (ScriptedConnection.DutPdu p : pdus) {
            if (p.rdmap() == null || p.rdmap().opcode() != Opcode.RDMA_READ_RESPONSE
                    || !(p.segment().header() instanceof TaggedHeader t)) {
                continue;
            }
            int n = p.payload() == null ? 0 : p.payload().length;
            int i = request(reads, t);
            long before = 0, beyond = 0;
            StagRegistration src = i < 0 ? null : c.dutRegistration(reads.get(i).sourceStag());
            if (src != null) {
                ReadRequest q = reads.get(i);
                // where in the source the segment's octets came from: the sink offset carried over to the source
                long rel = q.sourceTo() + (t.to() - q.sinkTo()) - src.baseTo();
                before = Math.max(0, Math.min(n, -rel));
                beyond = Math.max(0, Math.min(n, rel + n - src.length()));
            }
            out.add(new Answer(p, i, n, before, beyond));
        }
        return out;
    }

    /** The DUT's Read Response segments that carried octets from outside their source buffer, marked for the report. */
    static List<WireMark> marks(ScriptedConnection c) {
        List<WireMark> out = new ArrayList<>();
        for (Answer a : answers(c, c.dutPdus(), c.testerReads())) {
            if (a.before() + a.beyond() == 0 || out.size() >= 16) continue;
            out.add(c.dutMark(a.pdu().offset(), List.of("rdmap.payloadLength"), "octets from "
                    + (a.beyond() > 0 ? "beyond" : "before") + " the source buffer: " + n(a.before() + a.beyond())
                    + " of its " + n(a.octets()) + " (RFC 5040 §7.2 item 4d: a Read outside the buffer is refused,"
                    + " not answered)"));
        }
        return out;
    }

    /** The DUT's Read Responses: their octets against what the tester's Reads asked and the source buffers. */
    private static String readResponses(ScriptedConnection c, List<ScriptedConnection.DutPdu> pdus, long segs,
                                         long octets) {
        List<ReadRequest> reads = c.testerReads();
        long[] got = new long[reads.size()];
        long before = 0, beyond = 0, unmatched = 0;
        for (Answer a : answers(c, pdus, reads)) {
            if (a.request() < 0) {
                unmatched += a.octets();
                continue;
            }
            got[a.request()] += a.octets();
            before += a.before();
            beyond += a.beyond();
        }
        long asked = 0, more = 0;
        boolean any = false;
        for (int i = 0; i < reads.size(); i++) {
            if (got[i] == 0) continue;
            any = true;
            asked += reads.get(i).size();
            more += Math.max(0, got[i] - reads.get(i).size());
        }
        StringBuilder sb = new StringBuilder();
        sb.append(n(segs)).append(segs == 1 ? " RDMA Read Response" : " RDMA Read Response segments")
                .append(" carrying ").append(n(octets)).append(octets == 1 ? " octet" : " octets");
        if (more > 0) sb.append(", ").append(n(more)).append(" more than the ").append(n(asked)).append(" asked");
        else if (any && octets - unmatched < asked) sb.append(" of the ").append(n(asked)).append(" asked");
        if (before > 0) sb.append(", ").append(n(before)).append(" from before the source buffer");
        if (beyond > 0) sb.append(", ").append(n(beyond)).append(" beyond the source buffer");
        if (unmatched > 0) sb.append(", ").append(n(unmatched)).append(" to no Read the tester sent");
        return sb.toString();
    }

    /** The tester's Read Request whose Data Sink the segment lands in (its STag, its TO in the sink), or -1. */
    private static int request(List<ReadRequest> reads, TaggedHeader t) {
        int fallback = -1;
        for (int i = reads.size() - 1; i >= 0; i--) {
            ReadRequest q = reads.get(i);
            if (q.sinkStag() != t.stag()) continue;
            long off = t.to() - q.sinkTo();
            if (off >= 0 && off < Math.max(1, q.size())) return i;
            fallback = i;
        }
        return fallback;
    }

    private static void carrying(List<String> parts, String name, long[] segs, long[] octets, Opcode... ops) {
        long s = 0, o = 0;
        for (Opcode op : ops) {
            s += segs[op.code()];
            o += octets[op.code()];
        }
        if (s == 0) return;
        parts.add(n(s) + " " + name + (s == 1 ? "" : " segments") + " carrying " + n(o)
                + (o == 1 ? " octet" : " octets"));
    }

    private static void count(List<String> parts, String name, long k) {
        if (k > 0) parts.add(n(k) + " " + name + (k == 1 ? "" : "s"));
    }

    private static String n(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }
}
