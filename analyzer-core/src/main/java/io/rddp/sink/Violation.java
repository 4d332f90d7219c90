package io.rddp.sink;

import io.rddp.tcp.Direction;

import java.util.List;

/**
 * One departure from the RFCs found by the {@link SinkModel}.
 *
 * @param frame     the key frame (the offending PDU, or where the problem became certain), 0 when none
 * @param frames    all frames involved, ascending, the key frame included
 * @param stream    TCP stream index, -1 when not tied to one
 * @param direction the direction of the PDU at fault (its sender's side), null when not tied to one
 * @param check     what was checked; gives layer and, unless overridden, RFC and section
 * @param rfc       "RFC 5041"
 * @param section   "§4.3"
 * @param errorType the Terminate error type a conforming receiver reports for this error, or null
 * @param severity  how much it matters
 * @param message   plain-language text with the field values
 */
public record Violation(long frame, List<Long> frames, int stream, Direction direction, Check check, String rfc,
                        String section, ErrorType errorType, Severity severity, String message) {

    public Violation {
        frames = List.copyOf(frames);
    }

    public Layer layer() {
        return check.layer();
    }

    /** The check's stable id. */
    public String id() {
        return check.id();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(severity.name().toLowerCase()).append(' ').append(check.id());
        if (frame > 0) sb.append(" frame ").append(frame);
        if (stream >= 0) sb.append(" stream ").append(stream);
        if (direction != null) sb.append(direction == Direction.CLIENT_TO_SERVER ? " c>s" : " s>c");
        sb.append(": ").append(message).append(" [").append(rfc).append(' ').append(section);
        if (errorType != null) sb.append("; Terminate ").append(errorType);
        return sb.append(']').toString();
    }
}
