package io.rddp.rnic;

/** A verb refused: bad arguments, a cap reached, or the object in the wrong state. The message says which. */
public final class RnicException extends RuntimeException {

    /** Why a verb was refused; the DUT control protocol's error codes. */
    public enum Kind { BAD_REQUEST, NOT_SUPPORTED, NOT_FOUND, RESOURCE_LIMIT, TIMEOUT, FAILED, STATE }

    private final Kind kind;

    public RnicException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    static RnicException limit(String what, int cap) {
        return new RnicException(Kind.RESOURCE_LIMIT, what + " cap of " + cap + " reached");
    }
}
