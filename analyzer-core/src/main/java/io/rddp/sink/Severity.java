package io.rddp.sink;

/** How much a {@link Violation} matters. Ordered: a filter "at or above" compares {@link #ordinal()}. */
public enum Severity {
    /** a fact worth knowing, or a check the capture cannot decide ("unverifiable") */
    INFO,
    /** a SHOULD not followed, or a MUST whose breach the capture cannot prove beyond doubt */
    WARNING,
    /** a MUST or MUST NOT of the RFCs broken */
    ERROR;

    public boolean atLeast(Severity other) {
        return compareTo(other) >= 0;
    }
}
