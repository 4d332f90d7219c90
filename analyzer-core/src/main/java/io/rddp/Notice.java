package io.rddp;

/**
 * A fact a decode layer wants a person to know about (a gap, a bad CRC, a truncated frame), with where it happened.
 * Layers only report; judging what is a protocol violation belongs to the sink model.
 *
 * @param severity how much it matters to the decode
 * @param layer    the layer that noticed it: "capture", "tcp", "mpa", "ddp", "rdmap"
 * @param frame    1-based frame number, or 0 when not tied to a frame
 * @param stream   0-based TCP stream index, or -1 when not tied to a stream
 * @param offset   byte offset (in the file for capture notices, in the TCP byte stream otherwise), or -1
 * @param message  plain-language text with the field values
 */
public record Notice(Severity severity, String layer, long frame, int stream, long offset, String message) {
    public enum Severity { INFO, WARNING, ERROR }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(severity.name().toLowerCase()).append(' ').append(layer);
        if (frame > 0) sb.append(" frame ").append(frame);
        if (stream >= 0) sb.append(" stream ").append(stream);
        if (offset >= 0) sb.append(" offset ").append(offset);
        return sb.append(": ").append(message).toString();
    }
}
