package io.rddp.field;

/**
 * One field, declared once (Wireshark's {@code hf_register_info}): the decoders' describers emit it by this handle,
 * the display filter knows it by its {@link #key()}, the {@code -V} text and the GUI tree show its label and read
 * its display base, and {@code docs/fields.md} lists it.
 *
 * @param layer       the layer it belongs to
 * @param name        its key inside the layer: what a {@link io.rddp.decode.FieldSink} is given ({@code flags.syn}
 *                    for a bit of the layer's {@code flags})
 * @param label       the label {@code decode -V}, the GUI tree and the filter completion show (a describer may show
 *                    another in a case the label does not fit; the field reference lists those)
 * @param type        what it holds
 * @param base        the base a number is shown in
 * @param hexDigits   for a number shown in hex: how many digits at least ({@code 0x%08x} for 32-bit identifiers,
 *                    {@code 0x%04x} for Wireshark's 16-bit {@code BASE_HEX} fields); 0 otherwise
 * @param description what it means, one sentence
 * @param rfc         the section that defines it, e.g. {@code RFC 5041 §4.2}; "-" for fields of the analyzer's own
 */
public record Field(Layer layer, String name, String label, FieldType type, Base base, int hexDigits,
                    String description,
                    String rfc) {

    public Field {
        // a dot only inside: Wireshark names the bits of a flags field below it (tcp.flags, tcp.flags.syn)
        if (name.isEmpty() || name.startsWith(".") || name.endsWith(".")) {
            throw new IllegalArgumentException("field name " + name);
        }
        if (type.numeric() == (base == Base.NONE)) throw new IllegalArgumentException(name + ": " + type + " " + base);
        if ((base == Base.HEX) != (hexDigits > 0)) throw new IllegalArgumentException(name + ": " + hexDigits);
    }

    /** The filter name where the field's own layer puts it, e.g. {@code ddp.stag}. */
    public String key() {
        return layer.child(name);
    }
}
