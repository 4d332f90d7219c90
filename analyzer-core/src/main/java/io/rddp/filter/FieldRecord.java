package io.rddp.filter;

import io.rddp.decode.FieldSink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of one PDU by filter name (the names of {@link io.rddp.field.FieldRegistry}), collected from the
 * describers ({@code PduFields}, {@code RpcRdmaFields}): a group's key and its fields' keys joined with '.', list
 * items under the list's key ({@code rpcrdma.reads.handle}, {@code rpc.ops}). A name may have several values (list
 * items). Reusable: call {@link #clear()} before describing the next PDU.
 */
public final class FieldRecord implements FieldSink {

    private final Map<String, List<Object>> values = new HashMap<>();
    private final Map<String, Integer> hexDigits = new HashMap<>();
    private final StringBuilder path = new StringBuilder(64);
    private final int[] marks = new int[32];
    private int depth;

    public void clear() {
        values.clear();
        hexDigits.clear();
        path.setLength(0);
        depth = 0;
    }

    /** Values of a field: Long (unsigned), Boolean, String, byte[] (bytes, Ethernet addresses) or
     * {@link IpAddress}; empty when absent or a layer. */
    public List<Object> get(String name) {
        List<Object> v = values.get(name);
        return v == null ? List.of() : v;
    }

    /** Whether the PDU has the field or layer. */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** Every field name present, for tests and the registry check. */
    public Map<String, List<Object>> all() {
        return values;
    }

    /** Adds a value under a name outside the description ({@code violation}, {@code tcp.srcport}, ...). */
    public void put(String name, Object value) {
        values.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
    }

    @Override
    public void begin(String key, String label) {
        marks[Math.min(depth, marks.length - 1)] = path.length();
        depth++;
        if (key != null) {
            if (path.length() > 0) path.append('.');
            path.append(key);
            values.putIfAbsent(path.toString(), new ArrayList<>(0)); // the layer is present
        }
    }

    /** A list is not a layer: its name is not present just because the (maybe empty) list is there. */
    @Override
    public void beginList(String key, String label) {
        marks[Math.min(depth, marks.length - 1)] = path.length();
        depth++;
        if (key != null) {
            if (path.length() > 0) path.append('.');
            path.append(key);
        }
    }

    @Override
    public void endList() {
        end();
    }

    @Override
    public void end() {
        depth--;
        path.setLength(marks[Math.min(depth, marks.length - 1)]);
    }

    private String add(String key, Object value) {
        String name;
        if (key == null) {
            name = path.toString();
        } else if (path.length() == 0) {
            name = key;
        } else {
            name = path + "." + key;
        }
        put(name, value);
        return name;
    }

    @Override
    public void number(String key, String label, long value) {
        add(key, value);
    }

    @Override
    public void unsigned64(String key, String label, long value) {
        hexDigits.put(add(key, value), 16);
    }

    @Override
    public void id32(String key, String label, long value) {
        hexDigits.put(add(key, value), 8);
    }

    @Override
    public void hexNumber(String key, String label, long value, int digits) {
        hexDigits.put(add(key, value), digits);
    }

    /** IPv4 and IPv6 addresses as {@link IpAddress}, an Ethernet address as its 6 octets. */
    @Override
    public void address(String key, String label, byte[] octets) {
        add(key, octets.length == 6 ? octets.clone() : new IpAddress(octets));
    }

    /**
     * Hex digits a person reads the field with: 8 for identifiers ({@link FieldSink#id32}: STag, XID, CRC), 16 for
     * 64-bit values (TO), Wireshark's width for its hex fields ({@link FieldSink#hexNumber}), 0 for plain numbers.
     */
    public int hexDigits(String name) {
        return hexDigits.getOrDefault(name, 0);
    }

    @Override
    public void bool(String key, String label, boolean value) {
        add(key, value);
    }

    @Override
    public void text(String key, String label, String value) {
        add(key, value);
    }

    @Override
    public void hex(String key, String label, byte[] value) {
        add(key, value);
    }
}
