package io.rddp.field;

import java.util.ArrayList;
import java.util.List;

/** Collects the fields a declaration class declares, in order, so that each is written once. */
final class FieldList {
    private final List<Field> fields = new ArrayList<>();

    Field add(Layer layer, String name, String label, FieldType type, Base base, String description, String rfc) {
        int digits = base != Base.HEX ? 0 : type == FieldType.UINT64 ? 16 : 8;
        return add(new Field(layer, name, label, type, base, digits, description, rfc));
    }

    private Field add(Field f) {
        fields.add(f);
        return f;
    }

    Field number(Layer layer, String name, String label, String description, String rfc) {
        return add(layer, name, label, FieldType.NUMBER, Base.DEC, description, rfc);
    }

    Field hex32(Layer layer, String name, String label, String description, String rfc) {
        return add(layer, name, label, FieldType.NUMBER, Base.HEX, description, rfc);
    }

    Field uint64(Layer layer, String name, String label, String description, String rfc) {
        return add(layer, name, label, FieldType.UINT64, Base.HEX, description, rfc);
    }

    /** A number shown in hex with at least {@code digits} digits, as Wireshark shows a {@code BASE_HEX} field. */
    Field hex(Layer layer, String name, String label, int digits, String description, String rfc) {
        return add(new Field(layer, name, label, FieldType.NUMBER, Base.HEX, digits, description, rfc));
    }

    Field bool(Layer layer, String name, String label, String description, String rfc) {
        return add(layer, name, label, FieldType.BOOLEAN, Base.NONE, description, rfc);
    }

    Field text(Layer layer, String name, String label, String description, String rfc) {
        return add(layer, name, label, FieldType.TEXT, Base.NONE, description, rfc);
    }

    Field address(Layer layer, String name, FieldType family, String label, String description, String rfc) {
        return add(layer, name, label, family, Base.NONE, description, rfc);
    }

    List<Field> all() {
        return List.copyOf(fields);
    }
}
