package io.rddp.rnic;

import io.rddp.sink.OwedTerminate;
import io.rddp.sink.Severity;
import io.rddp.sink.SinkListener;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * What the sink model finds on a queue pair's connection, both directions: a log of the most recent violations and
 * the error counts the verbs report, and what the PDU being judged brought (its violations and the Terminate it is
 * owed), which the receive path reacts to. Guarded by the queue pair's lock: the model runs under it.
 */
final class Verdicts implements SinkListener {

    private final Direction in, out;
    /** the incoming PDU being judged: its violations and owed Terminates (cleared for each, never reallocated) */
    final List<Violation> pduViolations = new ArrayList<>();
    final List<OwedTerminate> pduOwed = new ArrayList<>();
    private final ArrayDeque<Violation> log = new ArrayDeque<>();
    private int ownErrors, peerErrors;

    Verdicts(Direction in, Direction out) {
        this.in = in;
        this.out = out;
    }

    /** A new incoming PDU is about to be judged. */
    void clearPdu() {
        pduViolations.clear();
        pduOwed.clear();
    }

    @Override
    public void onViolation(Violation v) {
        if (log.size() >= QueuePair.VIOLATION_LOG) log.poll();
        log.add(v);
        if (v.severity() == Severity.ERROR) {
            if (v.direction() == out) ownErrors++;
            else peerErrors++;
        }
        if (v.direction() == in) pduViolations.add(v);
    }

    @Override
    public void onTerminateOwed(OwedTerminate owed) {
        if (owed.offender() == in) pduOwed.add(owed);
    }

    List<Violation> recent() {
        return new ArrayList<>(log);
    }

    int ownErrors() {
        return ownErrors;
    }
}
