package io.rddp.sink;

import io.rddp.Notice;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Collects everything a {@link SinkModel} reports. */
final class Recorder implements SinkListener {
    final List<Violation> violations = new ArrayList<>();
    final List<Notice> notices = new ArrayList<>();
    final List<Delivery> deliveries = new ArrayList<>();
    final List<StreamSummary> summaries = new ArrayList<>();
    final List<OwedTerminate> owed = new ArrayList<>();

    @Override
    public void onTerminateOwed(OwedTerminate o) {
        owed.add(o);
    }

    @Override
    public void onViolation(Violation v) {
        violations.add(v);
    }

    @Override
    public void onNotice(Notice n) {
        notices.add(n);
    }

    @Override
    public void onDelivery(Delivery d) {
        deliveries.add(d);
    }

    @Override
    public void onStreamFinished(StreamSummary s) {
        summaries.add(s);
    }

    List<Violation> at(Severity s) {
        return violations.stream().filter(v -> v.severity() == s).collect(Collectors.toList());
    }

    /** Violations at WARNING or above: what a test of a clean exchange asserts to be empty. */
    List<Violation> problems() {
        return violations.stream().filter(v -> v.severity().atLeast(Severity.WARNING)).collect(Collectors.toList());
    }

    List<String> ids() {
        return violations.stream().map(Violation::id).collect(Collectors.toList());
    }

    List<String> ids(Severity atLeast) {
        return violations.stream().filter(v -> v.severity().atLeast(atLeast)).map(Violation::id)
                .collect(Collectors.toList());
    }

    List<Notice> failures() {
        return notices.stream().filter(n -> n.message().startsWith("sink model failure"))
                .collect(Collectors.toList());
    }

    String dump() {
        StringBuilder sb = new StringBuilder();
        violations.forEach(v -> sb.append(v).append('\n'));
        notices.forEach(n -> sb.append(n).append('\n'));
        return sb.toString();
    }
}
