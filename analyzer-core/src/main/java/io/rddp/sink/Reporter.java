package io.rddp.sink;

import io.rddp.Notice;
import io.rddp.ddp.DdpHeader;
import io.rddp.rdmap.ReadRequest;
import io.rddp.tcp.Direction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Turns findings into {@link Violation}s and {@link Notice}s, within per-check limits, and books owed Terminates. */
final class Reporter {

    private final SinkListener listener;
    private final int maxPerCheck;

    Reporter(SinkListener listener, int maxPerCheck) {
        this.listener = listener;
        this.maxPerCheck = maxPerCheck;
    }

    /** A violation with the check's own severity, error type, RFC and section. */
    void report(StreamState s, Direction dir, Check c, long frame, String message, long... otherFrames) {
        emit(s, dir, c, c.severity(), c.errorType(), c.rfc(), c.section(), frame, otherFrames, message);
    }

    void report(StreamState s, Direction dir, Check c, Severity severity, long frame, String message,
                long... otherFrames) {
        emit(s, dir, c, severity, c.errorType(), c.rfc(), c.section(), frame, otherFrames, message);
    }

    void emit(StreamState s, Direction dir, Check c, Severity severity, ErrorType errorType, String rfc,
              String section, long frame, long[] otherFrames, String message) {
        int[] counts = s == null ? null : dir == null ? s.reports : s.dir(dir).reports;
        if (counts != null && counts[c.ordinal()]++ >= maxPerCheck) {
            int[] sup = dir == null ? s.suppressed : s.dir(dir).suppressed;
            sup[c.ordinal()]++;
            return;
        }
        List<Long> frames = new ArrayList<>(1 + otherFrames.length);
        if (frame > 0) frames.add(frame);
        for (long f : otherFrames) {
            if (f > 0 && !frames.contains(f)) frames.add(f);
        }
        frames.sort(null);
        listener.onViolation(new Violation(frame, frames, s == null ? -1 : s.index, dir, c, rfc, section,
                errorType, severity, message));
    }

    void deliver(Delivery delivery) {
        listener.onDelivery(delivery);
    }

    void notice(Notice.Severity severity, long frame, int stream, String message) {
        listener.onNotice(new Notice(severity, "sink", frame, stream, -1, message));
    }

    /**
     * Books the Terminate that the receiver of {@code offender}'s PDU owes (RFC 5040 §7.1). Only the first
     * {@link DirectionState#MAX_OWED} are kept: rule 4 asks for the first error only.
     */
    void expect(StreamState s, Direction offender, long frame, Check cause, Expectation.Level level,
                DdpHeader header, int segmentLength, ReadRequest readRequest, int[]... accepted) {
        DirectionState owing = s.dir(offender.reverse());
        // nothing is owed once either side terminated (RFC 5040 §5.4)
        if (owing.terminateFrame >= 0 || s.dir(offender).terminateFrame >= 0
                || owing.owed.size() >= DirectionState.MAX_OWED) {
            return;
        }
        Expectation e = new Expectation(frame, cause, Arrays.asList(accepted), level, header, segmentLength,
                readRequest);
        owing.owed.add(e);
        listener.onTerminateOwed(e.view(s.index, offender));
    }

    /** One accepted Terminate type. */
    static int[] accept(ErrorType t) {
        return new int[]{t.layer(), t.etype(), t.code()};
    }

    /** Every code of a Terminate type. */
    static int[] acceptAny(int layer, int etype) {
        return new int[]{layer, etype, -1};
    }

    /** Notices for checks whose reports went over the limit on this stream. */
    void suppressedNotices(StreamState s, long frame) {
        for (Check c : Check.values()) {
            int n = s.suppressed[c.ordinal()] + s.c2s.suppressed[c.ordinal()] + s.s2c.suppressed[c.ordinal()];
            if (n > 0) {
                notice(Notice.Severity.WARNING, frame, s.index, n + " more " + c.id() + " reports suppressed after "
                        + maxPerCheck + " per stream direction");
            }
        }
    }
}
