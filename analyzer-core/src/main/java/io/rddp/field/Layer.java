package io.rddp.field;

/**
 * A protocol layer or sub-structure that groups fields, Wireshark's protocol subtree: its filter name ({@code ddp},
 * {@code rdmap.readRequest}), the local key a {@link io.rddp.decode.FieldSink} sees, and what it is.
 *
 * @param key         the full filter name; empty for the PDU itself
 * @param name        the last part of the key: what the sink's {@code begin} is given
 * @param shape       how it shows in a filter and in the sink
 * @param template    for a layer that holds another layer's fields at another place (the terminated DDP header
 *                    holds DDP's): that layer, else null
 * @param description one line: what the filter-bar completion shows
 * @param rfc         the section that defines it, e.g. {@code RFC 5041 §4.2}
 */
public record Layer(String key, String name, Shape shape, Layer template, String description, String rfc) {

    /** How a layer shows. */
    public enum Shape {
        /** The PDU itself: its fields have no prefix. */
        ROOT,
        /** A group a filter can test for presence ({@code rdmap}, {@code rpcrdma.reply}). */
        LAYER,
        /** A list: a prefix of its items' fields, not a filter name of its own. */
        LIST,
        /** Names from outside the PDU's description ({@code tcp}, {@code ip}): a prefix only. */
        PREFIX,
        /** Fields that only show where another layer names this one as its template. */
        TEMPLATE
    }

    public Layer {
        int dot = key.lastIndexOf('.');
        if (!name.equals(key.substring(dot + 1))) throw new IllegalArgumentException(key + " vs " + name);
    }

    static Layer root(String description) {
        return new Layer("", "", Shape.ROOT, null, description, "-");
    }

    static Layer of(String key, Shape shape, String description, String rfc) {
        return new Layer(key, key.substring(key.lastIndexOf('.') + 1), shape, null, description, rfc);
    }

    /** A layer at {@code key} holding this one's fields (and any of its own). */
    Layer at(String key, Shape shape, String description, String rfc) {
        return new Layer(key, key.substring(key.lastIndexOf('.') + 1), shape, this, description, rfc);
    }

    /** Whether {@link #key} is a filter name (true when the PDU has the layer). */
    public boolean filterable() {
        return shape == Shape.LAYER;
    }

    /** The filter name of a field called {@code fieldName} in this layer. */
    public String child(String fieldName) {
        return key.isEmpty() ? fieldName : key + "." + fieldName;
    }
}
