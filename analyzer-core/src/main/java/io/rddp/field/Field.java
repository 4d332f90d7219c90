package io.rddp.field;

/**
 * One field, declared once (Wireshark's {@code hf_register_info}): the decoders' describers emit it by this handle,
 * the display filter knows it by its {@link #key()}, the {@code -V} text and the GUI tree show its label and read
 * its display base, and {@code docs/fields.md} lists it.
 *
 * @param layer       the layer it belongs to
 * @param name        its key inside the layer: what a {@link io.rddp.decode.FieldSink} is given
 * @param label       the label {@code decode -V}, the GUI tree and the filter completion show (a describer may show
 *                    another in a case the label does not fit; the field reference lists those)
 * @param type        what it holds
 * @param base        the base a number is shown in
 * @param description what it means, one sentence
 * @param rfc         the section that defines it, e.g. {@code RFC 5041 §4.2}; "-" for fields of the analyzer's own
 */
public record Field(Layer layer, String name, String label, FieldType type, Base base, String description,
                    String rfc) {

    public Field {
        if (name.isEmpty() || name.indexOf('.') >= 0) throw new IllegalArgumentException("field name " + name);
        if (type.numeric() == (base == Base.NONE)) throw new IllegalArgumentException(name + ": " + type + " " + base);
    }

    /** The filter name where the field's own layer puts it, e.g. {@code ddp.stag}. */
    public String key() {
        return layer.child(name);
    }
}
