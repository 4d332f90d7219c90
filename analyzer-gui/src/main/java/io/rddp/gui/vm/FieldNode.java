package io.rddp.gui.vm;

/**
 * A node of the detail tree.
 *
 * @param text the line shown: "Message sequence number: 2"
 * @param name the filter name ({@code ddp.msn}), null for list items
 */
public record FieldNode(String text, String name) {
    @Override
    public String toString() {
        return text;
    }
}
