package io.rddp;

/**
 * Thrown by a header parser when the bytes cannot be the header it parses (too short, impossible field).
 * The only checked exception a parser throws; callers turn it into a {@link Notice} and carry on.
 */
public class MalformedException extends Exception {
    private final long offset;

    public MalformedException(String message, long offset) {
        super(message);
        this.offset = offset;
    }

    public MalformedException(String message) {
        this(message, -1);
    }

    /** Offset of the offending byte within the parsed buffer, or -1. */
    public long offset() {
        return offset;
    }
}
