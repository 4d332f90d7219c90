package io.rddp.filter;

/** A display filter that does not parse or does not fit the field registry; {@link #column()} is 1-based. */
public final class FilterException extends Exception {
    private final int column;
    private final String reason;

    public FilterException(int column, String reason) {
        super("column " + column + ": " + reason);
        this.column = column;
        this.reason = reason;
    }

    /** 1-based column of the character where the filter went wrong (one past the end for "ends too early"). */
    public int column() {
        return column;
    }

    /** The message without the column. */
    public String reason() {
        return reason;
    }
}
