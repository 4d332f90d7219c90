package io.rddp.gui.vm;

import io.rddp.decode.FieldSink;
import io.rddp.field.Base;
import io.rddp.field.Field;
import io.rddp.field.FieldRegistry;
import javafx.scene.control.TreeItem;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;

/**
 * Builds the detail tree from the recorded field description (the same labels {@code decode -V} prints); a number is
 * shown in hex and decimal when its field's display base is hex.
 */
final class TreeBuilder implements FieldSink {
    final TreeItem<FieldNode> root = new TreeItem<>(new FieldNode("PDU", null));
    private final Deque<TreeItem<FieldNode>> stack = new ArrayDeque<>();
    private final Deque<String> names = new ArrayDeque<>();
    boolean tagged;
    boolean startFrame;
    int pdLength;

    TreeBuilder() {
        stack.push(root);
        names.push("");
    }

    private String name(String key) {
        String parent = names.peek();
        if (key == null) return parent.isEmpty() ? null : parent;
        return parent.isEmpty() ? key : parent + "." + key;
    }

    @Override
    public void begin(String key, String label) {
        String n = name(key);
        TreeItem<FieldNode> item = new TreeItem<>(new FieldNode(label, key == null ? null : n));
        item.setExpanded(true);
        stack.peek().getChildren().add(item);
        stack.push(item);
        names.push(n == null ? names.peek() : n);
    }

    @Override
    public void end() {
        stack.pop();
        names.pop();
    }

    private void leaf(String key, String label, String value) {
        stack.peek().getChildren().add(new TreeItem<>(new FieldNode(label + ": " + value, key == null ? null : name(key))));
    }

    @Override
    public void number(String key, String label, long value) {
        String n = name(key);
        Field f = n == null ? null : FieldRegistry.field(n);
        boolean hex = f != null && f.base() == Base.HEX;
        // Wireshark's hex fields keep their width (eth.type 0x0800); identifiers show their digits
        String digits = hex && f.hexDigits() != 8 ? "%0" + f.hexDigits() + "x" : "%x";
        leaf(key, label, hex ? "0x" + String.format(digits, value) + " (" + value + ")" : Long.toString(value));
        if ("mpa.pdLength".equals(n)) pdLength = (int) value;
    }

    @Override
    public void unsigned64(String key, String label, long value) {
        leaf(key, label, "0x" + Long.toHexString(value) + " (" + Long.toUnsignedString(value) + ")");
    }

    @Override
    public void bool(String key, String label, boolean value) {
        leaf(key, label, value ? "yes" : "no");
        if ("ddp.tagged".equals(name(key))) tagged = value;
    }

    @Override
    public void text(String key, String label, String value) {
        leaf(key, label, value);
        if ("mpa.kind".equals(name(key))) startFrame = !value.equals("fpdu");
    }

    @Override
    public void hex(String key, String label, byte[] value) {
        leaf(key, label, value.length == 0 ? "(none)" : HexFormat.of().formatHex(value));
    }
}
