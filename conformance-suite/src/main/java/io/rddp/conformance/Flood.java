package io.rddp.conformance;

import io.rddp.rnic.link.Recorder;
import io.rddp.mpa.MpaDecoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.sink.Severity;
import io.rddp.sink.Violation;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A scenario whose DUT sent more than the record cap: what it sent, stated as facts, and the RFC rule the sending
 * broke, when it broke one. The rule is never made up here: it is the judge's most frequent error about what the DUT
 * sent (past the cap that includes every Send, which found no receive posted: RFC 5041 §7.1); or, for octets that
 * never formed an MPA start frame, RFC 5044 §7.1.1's bound on its size; or, for octets after it that formed no FPDU,
 * RFC 5040 §6.1 (only RDMA Messages once in RDMA mode).
 *
 * @param facts   what the DUT sent, e.g. "the DUT sent 120.0 MB in 9.1 s, more than the record cap of 16 MiB ..."
 * @param broken  the rule broken, with RFC and section, or null when the flood broke none
 */
record Flood(String facts, String broken) {

    /** A start frame with all the Private Data RFC 5044 §7.1.1 allows. */
    private static final int LARGEST_START = MpaStartFrame.HEADER_LENGTH + MpaStartFrame.MAX_PRIVATE_DATA;

    /** The flood of a scenario's connections, or null when the DUT stayed within the cap. */
    static Flood of(List<Session> sessions, Recorder recorder) {
        boolean truncated = recorder != null && recorder.truncated();
        for (Session s : sessions) truncated |= s.conn().truncated();
        if (!truncated) return null;
        long octets = 0, span = 0, fpdus = 0, undecodable = 0, notKept = 0, sends = 0;
        long cap = recorder != null && recorder.cap() != Recorder.UNCAPPED ? recorder.cap()
                : RecordingCap.DEFAULT_OCTETS;
        Map<String, Long> ops = new TreeMap<>();
        ScriptedConnection.Tally worst = null;
        long noStart = 0, noFpdu = 0;
        for (Session s : sessions) {
            ScriptedConnection c = s.conn();
            ScriptedConnection.DutTraffic t = c.dutTraffic();
            octets += t.octets();
            span = Math.max(span, t.spanMs());
            fpdus += t.fpdus();
            undecodable += t.undecodable();
            notKept += t.notKept();
            sends += t.sendsPastCap();
            t.byOpcode().forEach((k, v) -> ops.merge(k, v, Long::sum));
            for (ScriptedConnection.Tally y : c.tallies()) {
                if (y.first().direction() == c.dutDirection() && y.first().severity() == Severity.ERROR
                        && (worst == null || y.count() > worst.count())) {
                    worst = y;
                }
            }
            // whatever the tester sent, the DUT's first octets on a connection are a start frame or nothing: past the
            // largest frame none can come; and past the decoder's framing search no FPDU can follow
            if (t.startFrames() == 0 && t.octets() > LARGEST_START) noStart = Math.max(noStart, t.octets());
            if (t.startFrames() > 0 && t.fpdus() == 0 && t.octets() > LARGEST_START + MpaDecoder.MAX_SEARCH) {
                noFpdu = Math.max(noFpdu, t.octets());
            }
        }
        StringBuilder f = new StringBuilder("the DUT sent ").append(size(octets))
                .append(String.format(Locale.ROOT, " in %.1f s", span / 1000.0))
                .append(", more than the record cap of ").append(size(cap))
                .append(" a scenario: the recording is truncated");
        long all = recorder == null ? 0 : recorder.peerOctets();
        if (all > octets) f.append(" (").append(size(all)).append(" over all its connections, the liveness check's")
                .append(" included)");
        if (notKept > 0) f.append("; ").append(count(notKept)).append(" PDUs were read and judged but not kept");
        if (fpdus > 0) {
            f.append("; ").append(count(fpdus)).append(" FPDUs (");
            String sep = "";
            for (Map.Entry<String, Long> e : ops.entrySet()) {
                f.append(sep).append(e.getKey()).append(' ').append(count(e.getValue()));
                sep = ", ";
            }
            if (undecodable > 0) f.append(sep).append(count(undecodable)).append(" without a valid DDP segment");
            f.append(')');
        }
        if (sends > 0) {
            f.append("; ").append(count(sends)).append(" Sends begun past the cap, where the tester has no receive"
                    + " posted");
        }
        String broken = null;
        if (worst != null) {
            Violation v = worst.first();
            broken = v.rfc() + " " + v.section() + ": " + v.id() + " (the judge reported it "
                    + (worst.count() == 1 ? "once" : count(worst.count()) + " times") + "; first: " + v.message() + ")";
        } else if (noStart > 0) {
            broken = "RFC 5044 §7.1.1: " + count(noStart) + " octets formed no MPA start frame, which is "
                    + MpaStartFrame.HEADER_LENGTH + " octets and at most " + MpaStartFrame.MAX_PRIVATE_DATA
                    + " octets of Private Data";
        } else if (noFpdu > 0) {
            broken = "RFC 5040 §6.1: " + count(noFpdu) + " octets with its MPA start frame and no FPDU framing found"
                    + " after it, where \"an implementation MUST send only RDMA Messages\"";
        }
        return new Flood(f.toString(), broken);
    }

    /** The failure to report: the facts and the rule, or null when no rule was broken. */
    String failure() {
        return broken == null ? null : facts + "; it broke " + broken;
    }

    /** {@code r} with the flood: failed where it broke a rule, else only noted; marked truncated either way. */
    Result apply(Result r) {
        List<String> notes = new java.util.ArrayList<>(r.notes());
        boolean fail = broken != null;
        notes.add(0, fail ? failure() : facts + " (no RFC rule broken: the verdict stands)");
        return new Result(r.info(), r.profile(), fail ? Result.Verdict.FAIL : r.verdict(), fail ? null : r.grade(),
                r.close(), r.observed(), r.findings(), notes, r.pcap(), r.millis(), r.liveness(), true, r.compared(),
                r.marks());
    }

    static String size(long octets) {
        if (octets >= 1L << 20 && octets % (1L << 20) == 0) return (octets >> 20) + " MiB";
        return octets >= 1_000_000 ? String.format(Locale.ROOT, "%.1f MB", octets / 1e6)
                : octets >= 1000 ? String.format(Locale.ROOT, "%.1f kB", octets / 1e3) : octets + " octets";
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
