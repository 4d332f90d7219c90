package io.rddp.field;

/**
 * The base a person reads a number in (Wireshark's {@code BASE_DEC}/{@code BASE_HEX}): identifiers (STag, XID, CRC,
 * chunk handle) and 64-bit offsets in hex, counts and lengths in decimal. {@link #NONE} for fields that are not
 * numbers.
 */
public enum Base {
    NONE("-"),
    DEC("dec"),
    HEX("hex");

    private final String text;

    Base(String text) {
        this.text = text;
    }

    /** The word the field reference shows. */
    public String text() {
        return text;
    }
}
