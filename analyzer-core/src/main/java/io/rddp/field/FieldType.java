package io.rddp.field;

/** What a field holds, and so which {@link io.rddp.decode.FieldSink} call carries it. */
public enum FieldType {
    /** An unsigned number that fits a long as a non-negative value (most header fields). */
    NUMBER("number"),
    /** A 64-bit unsigned number kept in a long (Tagged Offsets, atomic operands): never lossy in JSON. */
    UINT64("64-bit number"),
    BOOLEAN("boolean"),
    TEXT("text"),
    /** A capture time in epoch nanoseconds, written as {@code "seconds.nanoseconds"} text. */
    TIME("time"),
    BYTES("bytes"),
    /** An IPv4 address (Wireshark's FT_IPV4): a display filter compares it with addresses and CIDR blocks. */
    IPV4("IPv4 address"),
    /** An IPv6 address (Wireshark's FT_IPV6). */
    IPV6("IPv6 address"),
    /** A 6-octet Ethernet (MAC) address (Wireshark's FT_ETHER), written {@code 00:1b:21:0a:0b:0c}. */
    ETHER("Ethernet address");

    private final String text;

    FieldType(String text) {
        this.text = text;
    }

    /** The word the field reference shows. */
    public String text() {
        return text;
    }

    /** Whether a display filter compares it as a number. */
    public boolean numeric() {
        return this == NUMBER || this == UINT64;
    }
}
