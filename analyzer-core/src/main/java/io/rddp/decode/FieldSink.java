package io.rddp.decode;

/**
 * Receives the fields of a decoded PDU in order, Wireshark-style: every field has a stable key (used by JSON and
 * filters), a human label (used by the field tree) and a typed value. One description of each header serves the
 * JSON output, the {@code -V} tree and the GUI.
 */
public interface FieldSink {

    /** Opens a group of fields (a protocol layer or a sub-structure). */
    void begin(String key, String label);

    void end();

    /**
     * Opens a list; its items are groups opened with a null key, or values given with a null key. Sinks that do
     * not know lists see a group.
     */
    default void beginList(String key, String label) {
        begin(key, label);
    }

    default void endList() {
        end();
    }

    /** A signed or small unsigned number (fits a long as a non-negative value). */
    void number(String key, String label, long value);

    /**
     * A 32-bit identifier a person reads in hex (STag, XID, CRC, chunk handle): the tree and JSON show it as
     * {@code 0x%08x}; filters and sinks that do not care take it as a number.
     */
    default void id32(String key, String label, long value) {
        number(key, label, value);
    }

    /** A 64-bit unsigned number stored in a long (e.g. a Tagged Offset); shown in hex, never lossy in JSON. */
    void unsigned64(String key, String label, long value);

    void bool(String key, String label, boolean value);

    /** A nullable boolean: null means "not applicable / not checked". */
    default void boolOrNull(String key, String label, Boolean value) {
        if (value != null) bool(key, label, value);
    }

    void text(String key, String label, String value);

    /**
     * A capture time in epoch nanoseconds, shown as {@code "seconds.nanoseconds"} text (it is one per PDU: a
     * writer may format it without building the string).
     */
    default void time(String key, String label, long nanos) {
        text(key, label, PduFields.epochSeconds(nanos));
    }

    void hex(String key, String label, byte[] value);
}
