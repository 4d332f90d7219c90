package io.rddp.dut;

/** A request the DUT refused, with the control protocol's error code. */
public final class DutException extends Exception {
    private final String code;

    public DutException(String code, String message) {
        super(message);
        this.code = code;
    }

    /** bad-request, unknown-op, not-supported, not-found, resource-limit, timeout, failed or state. */
    public String code() {
        return code;
    }

    public static DutException bad(String message) {
        return new DutException("bad-request", message);
    }
}
