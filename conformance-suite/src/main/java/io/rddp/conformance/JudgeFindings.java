package io.rddp.conformance;

import io.rddp.sink.OwedTerminate;
import io.rddp.sink.Severity;
import io.rddp.sink.SinkListener;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the judge found on one scripted connection, both directions: violations (the first
 * {@link ScriptedConnection#MAX_VIOLATIONS}, then only counted), a tally per check, the Terminates the DUT owes, and
 * marks on the PDUs at fault. Not thread-safe: the judge calls it, and callers read it, under the connection's lock.
 */
final class JudgeFindings implements SinkListener {

    private final Direction in, out;
    private final WireMarks marks;
    /** the DUT's PDUs kept so far, for violations found after their frames */
    private final Supplier<List<ScriptedConnection.DutPdu>> kept;
    private final List<Violation> violations = new ArrayList<>();
    private long violationCount;
    /** per check id, in the order first seen: the first violation and how many there were */
    private final Map<String, ScriptedConnection.Tally> tallies = new LinkedHashMap<>();
    private final List<OwedTerminate> owedByDut = new ArrayList<>();
    /** the PDU the judge is looking at: its direction, frame and stream offset (violations found now are about it) */
    private Direction judging;
    private long judgingFrame, judgingOffset;

    JudgeFindings(Direction in, Direction out, WireMarks marks, Supplier<List<ScriptedConnection.DutPdu>> kept) {
        this.in = in;
        this.out = out;
        this.marks = marks;
        this.kept = kept;
    }

    /** The judge is about to look at the PDU of {@code frame} at {@code offset} in direction {@code d}. */
    void judging(Direction d, long frame, long offset) {
        judging = d;
        judgingFrame = frame;
        judgingOffset = offset;
    }

    /** The judge is done with that PDU. */
    void judged() {
        judging = null;
    }

    @Override
    public void onViolation(Violation v) {
        violationCount++;
        if (violations.size() < ScriptedConnection.MAX_VIOLATIONS) violations.add(v);
        ScriptedConnection.Tally t = tallies.get(v.id());
        tallies.put(v.id(), t == null ? new ScriptedConnection.Tally(v, 1)
                : new ScriptedConnection.Tally(t.first(), t.count() + 1));
        // a violation of the PDU being judged: the report marks its fields (the DUT's offending ones, or what the
        // judge found wrong in the tester's, which a raw step carries)
        boolean matters = v.severity() == Severity.ERROR || v.severity() == Severity.WARNING;
        if (matters && judging != null && v.direction() == judging && v.frame() == judgingFrame) {
            marks.mark(judging == in ? WireMark.Kind.OFFENDING : WireMark.Kind.TESTER_FAULT, judgingOffset,
                    judgingOffset + 1, WireMark.fieldsOf(v.id()), v.id() + ": " + v.message());
        } else if (matters && v.direction() == in && marks.room()) {
            // found later (e.g. at the stream's end, for all its frames): the DUT's PDUs of its first frames
            List<Long> frames = v.frames().subList(0, Math.min(8, v.frames().size()));
            for (ScriptedConnection.DutPdu p : kept.get()) {
                if (p.start() == null && frames.contains(p.frame())) {
                    marks.mark(WireMark.Kind.OFFENDING, p.offset(), p.offset() + 1, WireMark.fieldsOf(v.id()),
                            v.id() + ": " + v.message());
                }
            }
        }
    }

    @Override
    public void onTerminateOwed(OwedTerminate o) {
        if (o.offender() == out && owedByDut.size() < ScriptedConnection.MAX_VIOLATIONS) owedByDut.add(o);
    }

    List<Violation> violations() {
        return new ArrayList<>(violations);
    }

    long violationCount() {
        return violationCount;
    }

    List<ScriptedConnection.Tally> tallies() {
        return new ArrayList<>(tallies.values());
    }

    List<OwedTerminate> owedByDut() {
        return new ArrayList<>(owedByDut);
    }
}
