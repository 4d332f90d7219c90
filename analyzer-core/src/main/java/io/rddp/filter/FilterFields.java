package io.rddp.filter;

import io.rddp.field.CaptureField;
import io.rddp.field.FieldRegistry;
import io.rddp.field.FieldType;
import io.rddp.field.FilterName;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every name the display filter knows, derived from {@link FieldRegistry}: the fields as {@code decode -V} and the
 * JSON lines show them, their keys joined with '.' ({@code rdmap.readRequest.srcStag}), the layers themselves
 * ({@code rdmap}, {@code rpcrdma}, ...: true when the PDU has that layer) and the names from outside the PDU
 * ({@code violation}, {@code violation.check}, {@code violation.severity}, {@code tcp.*}, {@code ip.*},
 * {@code ipv6.*}).
 */
public final class FilterFields {

    /** Kind of a name: a value type, or a layer/group that can only be tested for presence. */
    public enum Kind { NUMBER, BOOLEAN, TEXT, BYTES, IPV4, IPV6, ETHER, LAYER }

    /** One filter name. */
    public record Field(String name, Kind kind, String description) {
    }

    private static final Map<String, Field> FIELDS = new LinkedHashMap<>();

    static {
        List<FilterName> names = new ArrayList<>(FieldRegistry.filterNames());
        // layers, then the PDU's fields in name order, then the names from outside the PDU: the order closest()
        // breaks ties in
        names.sort(Comparator.comparingInt(FilterFields::rank).thenComparing(n -> rank(n) == 1 ? n.name() : ""));
        for (FilterName n : names) {
            FIELDS.put(n.name(), new Field(n.name(), n.isLayer() ? Kind.LAYER : kind(n.field().type()),
                    n.description()));
        }
    }

    private FilterFields() {
    }

    private static int rank(FilterName n) {
        return n.isLayer() ? 0 : CaptureField.all().contains(n.field()) ? 2 : 1;
    }

    private static Kind kind(FieldType type) {
        return switch (type) {
            case NUMBER, UINT64 -> Kind.NUMBER;
            case BOOLEAN -> Kind.BOOLEAN;
            case TEXT, TIME -> Kind.TEXT;
            case BYTES -> Kind.BYTES;
            case IPV4 -> Kind.IPV4;
            case IPV6 -> Kind.IPV6;
            case ETHER -> Kind.ETHER;
        };
    }

    /** The field of that name, or null. */
    public static Field get(String name) {
        return FIELDS.get(name);
    }

    /** Every name, layers first, then fields in name order. */
    public static List<Field> all() {
        return Collections.unmodifiableList(new ArrayList<>(FIELDS.values()));
    }

    /** Names that start with {@code prefix}, in name order (completion in the filter bar). */
    public static List<String> complete(String prefix) {
        List<String> out = new ArrayList<>();
        for (String n : FIELDS.keySet()) {
            if (n.startsWith(prefix)) out.add(n);
        }
        Collections.sort(out);
        return out;
    }

    /** The known name closest to {@code name} by edit distance, or null when none is close. */
    public static String closest(String name) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String n : FIELDS.keySet()) {
            int d = distance(name, n);
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return bestDistance <= Math.max(2, name.length() / 4) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
