package io.rddp.decode;

import io.rddp.field.Base;
import io.rddp.field.Field;
import io.rddp.field.FieldType;
import io.rddp.field.Layer;

/**
 * Receives the fields of a decoded PDU in order, Wireshark-style: every field has a stable key (used by JSON and
 * filters), a human label (used by the field tree) and a typed value. One description of each header serves the
 * JSON output, the {@code -V} tree and the GUI.
 *
 * <p>Describers emit by the handles of {@link io.rddp.field.FieldRegistry} ({@link #open}, {@link #emit}): the
 * handle gives the key, the label and the call its type and display base ask for. Sinks implement the calls by
 * key and label below.
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

    /**
     * A number a person reads in hex with at least {@code digits} digits, as Wireshark shows its {@code BASE_HEX}
     * fields ({@code eth.type} 0x0800, {@code tcp.flags} 0x0018); sinks that do not care take it as an identifier.
     */
    default void hexNumber(String key, String label, long value, int digits) {
        id32(key, label, value);
    }

    /**
     * An address: 4 octets IPv4, 16 IPv6, 6 an Ethernet MAC address. Sinks that do not compare addresses take its
     * text ({@link #addressText}).
     */
    default void address(String key, String label, byte[] octets) {
        text(key, label, addressText(octets));
    }

    /** "10.0.2.15", "fd00::3" (RFC 5952), "00:1b:21:0a:0b:0c": as tshark writes addresses. */
    static String addressText(byte[] octets) {
        if (octets.length == 6) return java.util.HexFormat.ofDelimiter(":").formatHex(octets);
        return new io.rddp.tcp.Endpoint(octets, 0).addressString();
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

    /** Opens a layer (a group, or a list for {@link Layer.Shape#LIST}) under its key, shown with {@code label}. */
    default void open(Layer layer, String label) {
        if (layer.shape() == Layer.Shape.LIST) {
            beginList(layer.name(), label);
        } else {
            begin(layer.name(), label);
        }
    }

    /** Closes what {@link #open} opened. */
    default void close(Layer layer) {
        if (layer.shape() == Layer.Shape.LIST) {
            endList();
        } else {
            end();
        }
    }

    /** Opens an item of a list: a group without a key. */
    default void openItem(String label) {
        begin(null, label);
    }

    /** Opens a list of values of one field ({@code rpc.ops}); give them with {@link #item}. */
    default void openValues(Field field, String label) {
        beginList(field.name(), label);
    }

    /** A value of the list {@link #openValues} opened. */
    default void item(Field field, String value) {
        text(null, field.label(), value);
    }

    /** A number, a 64-bit value or a capture time, as the field's type and display base say. */
    default void emit(Field field, long value) {
        emit(field, field.label(), value);
    }

    /** {@link #emit(Field, long)} shown with another label than the field's. */
    default void emit(Field field, String label, long value) {
        FieldType t = field.type();
        if (t == FieldType.UINT64) {
            unsigned64(field.name(), label, value);
        } else if (t == FieldType.TIME) {
            time(field.name(), label, value);
        } else if (t != FieldType.NUMBER) {
            throw new IllegalArgumentException(field.key() + " is " + t + ", not a number");
        } else if (field.base() == Base.HEX && field.hexDigits() != 8) {
            hexNumber(field.name(), label, value, field.hexDigits());
        } else if (field.base() == Base.HEX) {
            id32(field.name(), label, value);
        } else {
            number(field.name(), label, value);
        }
    }

    /**
     * A number shown in decimal whatever the field's base: how the fields of a header cut short have always been
     * shown ({@code TruncatedFields}).
     */
    default void decimal(Field field, long value) {
        number(field.name(), field.label(), value);
    }

    default void emit(Field field, boolean value) {
        bool(field.name(), field.label(), value);
    }

    /** A boolean that is left out when null ("not applicable / not checked"). */
    default void emitIfKnown(Field field, Boolean value) {
        boolOrNull(field.name(), field.label(), value);
    }

    default void emit(Field field, String value) {
        text(field.name(), field.label(), value);
    }

    default void emit(Field field, byte[] value) {
        hex(field.name(), field.label(), value);
    }

    /** An address field ({@link FieldType#IPV4}, {@link FieldType#IPV6}, {@link FieldType#ETHER}). */
    default void emitAddress(Field field, byte[] octets) {
        address(field.name(), field.label(), octets);
    }
}
