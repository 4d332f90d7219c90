package io.rddp.field;

/**
 * A name the display filter knows: a field where a layer puts it ({@code rdmap.terminate.ddpHeader.stag}), or a
 * layer itself ({@code rdmap.terminate}, true when the PDU has it).
 *
 * @param name  the filter name
 * @param layer the layer the name is in (for a layer's own name: the layer)
 * @param field the field, null for a layer's own name
 */
public record FilterName(String name, Layer layer, Field field) {

    /** Whether it names a layer, which a filter can only test for presence. */
    public boolean isLayer() {
        return field == null;
    }

    /** What the completion shows: the field's label, or the layer's description. */
    public String description() {
        return field == null ? layer.description() : field.label();
    }
}
