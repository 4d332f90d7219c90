package io.rddp.analyze;

import io.rddp.Notice;
import io.rddp.sink.Severity;
import io.rddp.sink.StreamSummary;
import io.rddp.sink.Violation;
import io.rddp.tcp.Endpoint;

import java.util.List;
import java.util.Map;

/**
 * The result of analysing one capture.
 *
 * @param frames     frames read
 * @param pdus       MPA/DDP/RDMAP PDUs decoded
 * @param messages   DDP messages completed
 * @param streams    one entry per TCP stream that carried MPA, in stream order
 * @param violations what the sink model found, in the order found
 * @param notices    decode and analysis notices (gaps, inferred parameters, dropped state), the first
 *                   {@link Analyzer#MAX_NOTICES}
 * @param noticesDropped notices beyond those, only counted
 * @param error      why the capture could not be read to its end (with offset and frame), or null
 * @param limits     the caps the analysis ran with ({@link AnalysisLimits#describe()})
 */
public record Analysis(long frames, long pdus, long messages, List<Stream> streams, List<Violation> violations,
                       List<Notice> notices, long noticesDropped, String error, Map<String, Long> limits) {

    /** A stream with its endpoints and what the model counted on it. */
    public record Stream(int index, Endpoint client, Endpoint server, StreamSummary summary) {
    }

    public Analysis {
        streams = List.copyOf(streams);
        violations = List.copyOf(violations);
        notices = List.copyOf(notices);
        limits = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(limits));
    }

    public long count(Severity severity) {
        return violations.stream().filter(v -> v.severity() == severity).count();
    }

    /** Whether any violation is at or above the given severity. */
    public boolean hasAtLeast(Severity severity) {
        return violations.stream().anyMatch(v -> v.severity().atLeast(severity));
    }
}
