package io.rddp.field;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every layer and field of the analyzer, each declared once in its protocol's declaration class ({@link MpaField},
 * {@link DdpField}, {@link RdmapField}, {@link AtomicField}, {@link RpcRdmaField}, {@link RpcField},
 * {@link ChunkField}, plus {@link FrameField}, the frame's headers ({@link EthernetField}, {@link VlanField},
 * {@link IpField}, {@link Ipv6Field}, {@link TcpField}) and {@link CaptureField}), and the filter names they give: a field's
 * name under its layer's key, and again under every layer that holds its layer's fields as a template.
 */
public final class FieldRegistry {
    private FieldRegistry() {
    }

    private static final List<Layer> LAYERS = List.of(FrameField.PDU, EthernetField.ETH, VlanField.VLAN, IpField.IP,
            Ipv6Field.IPV6, TcpField.TCP, MpaField.MPA, DdpField.DDP, RdmapField.RDMAP,
            RdmapField.READ_REQUEST, RdmapField.TERMINATE, AtomicField.ATOMIC_REQUEST, AtomicField.ATOMIC_RESPONSE,
            RdmapField.TERMINATED_DDP, RdmapField.TERMINATED_READ_REQUEST, RpcRdmaField.RPCRDMA, RpcRdmaField.READS,
            RpcRdmaField.WRITES, RpcRdmaField.WRITE_SEGMENTS, RpcRdmaField.REPLY, RpcRdmaField.REPLY_SEGMENTS,
            RpcRdmaField.SEGMENT, RpcField.RPC, ChunkField.CHUNK, CaptureField.VIOLATIONS);

    private static final List<Field> FIELDS = Stream.of(FrameField.ALL, EthernetField.ALL, VlanField.ALL,
            IpField.ALL, Ipv6Field.ALL, TcpField.ALL, MpaField.ALL, DdpField.ALL, RdmapField.ALL,
            AtomicField.ALL, RpcRdmaField.ALL, RpcField.ALL, ChunkField.ALL, CaptureField.ALL)
            .flatMap(List::stream).toList();

    private static final Map<String, FilterName> NAMES = new LinkedHashMap<>();

    static {
        for (Layer l : LAYERS) {
            if (l.filterable()) add(new FilterName(l.key(), l, null));
        }
        for (Layer l : LAYERS) {
            if (l.shape() == Layer.Shape.TEMPLATE) continue;
            for (Field f : fieldsOf(l)) add(new FilterName(l.child(f.name()), l, f));
        }
    }

    private static void add(FilterName n) {
        if (NAMES.putIfAbsent(n.name(), n) != null) throw new IllegalStateException("two fields named " + n.name());
    }

    /** Every layer, the PDU's own first. */
    public static List<Layer> layers() {
        return LAYERS;
    }

    /** Every field, by protocol, in the order its declaration class declares them. */
    public static List<Field> fields() {
        return FIELDS;
    }

    /** The fields a layer shows: its template's, then its own. */
    public static List<Field> fieldsOf(Layer layer) {
        List<Field> out = new ArrayList<>();
        if (layer.template() != null) out.addAll(fieldsOf(layer.template()));
        for (Field f : FIELDS) {
            if (f.layer() == layer) out.add(f);
        }
        return out;
    }

    /** Every filter name: layers first, then fields, each layer's in declaration order. */
    public static List<FilterName> filterNames() {
        return Collections.unmodifiableList(new ArrayList<>(NAMES.values()));
    }

    /** The filter name, or null when there is none such. */
    public static FilterName byName(String name) {
        return NAMES.get(name);
    }

    /** The field a filter name names, or null (a layer, or no such name). */
    public static Field field(String name) {
        FilterName n = NAMES.get(name);
        return n == null ? null : n.field();
    }

    /** The filter names a field shows under, its own layer's first. */
    public static List<String> filterNamesOf(Field field) {
        List<String> out = new ArrayList<>();
        for (FilterName n : NAMES.values()) {
            if (n.field() == field) out.add(n.name());
        }
        return out;
    }
}
