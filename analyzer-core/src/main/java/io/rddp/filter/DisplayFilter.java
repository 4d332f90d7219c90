package io.rddp.filter;

import io.rddp.decode.Pdu;
import io.rddp.decode.PduFields;
import io.rddp.field.CaptureField;
import io.rddp.field.IpField;
import io.rddp.field.Ipv6Field;
import io.rddp.field.TcpField;
import io.rddp.filter.Expr.Literal;
import io.rddp.filter.Expr.Op;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.tcp.Endpoint;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A compiled display filter ({@code rddp decode -Y}, the GUI's filter bar), evaluated over a {@link FieldRecord}.
 * Semantics:
 * <ul>
 *   <li>a bare name is true when the PDU has that field or layer; a bare yes/no field when it is yes;</li>
 *   <li>{@code ==}, {@code <}, ..., {@code contains} are true when some value of the field satisfies them (a name
 *       with several values, e.g. {@code rpcrdma.reads.handle}); {@code !=} when the field is there and no value
 *       equals; any comparison of a field the PDU does not have is false (so {@code !(rdmap.opcode == 3)} and
 *       {@code rdmap.opcode != 3} differ on an MPA Request);</li>
 *   <li>{@code in {...}} is true when some value of the field equals an element of the set or lies in one of its
 *       ranges;</li>
 *   <li>numbers compare as unsigned 64-bit values, text by characters, addresses as addresses of their family
 *       (a CIDR block: whether the address lies in it).</li>
 * </ul>
 * Not thread-safe only in the sense that a {@link FieldRecord} is; the compiled filter itself is immutable.
 */
public final class DisplayFilter {
    private final String text;
    private final Expr expr;
    private final Set<String> fields = new LinkedHashSet<>();

    private DisplayFilter(String text, Expr expr) {
        this.text = text;
        this.expr = expr;
        collect(expr);
    }

    /** Parses and type-checks {@code text}. */
    public static DisplayFilter compile(String text) throws FilterException {
        return new DisplayFilter(text, FilterParser.parse(Objects.requireNonNull(text, "text")));
    }

    public String text() {
        return text;
    }

    public Expr expression() {
        return expr;
    }

    /** Whether the filter mentions {@code name} or a name below it ({@code uses("violation")}). */
    public boolean uses(String name) {
        for (String f : fields) {
            if (f.equals(name) || f.startsWith(name + ".")) return true;
        }
        return false;
    }

    public boolean matches(FieldRecord record) {
        return eval(expr, record);
    }

    /**
     * Fills {@code record} with everything a filter can ask of a PDU: the registry's fields, {@code tcp.*},
     * {@code ip.*} and the violations at its frame ({@code violationChecks}: check ids, with their severities in
     * {@code severities}, or null/empty for none).
     */
    public static void describe(Pdu pdu, RpcRdmaMessage message, ChunkMove move, Collection<String> violationChecks,
                                Collection<String> severities, FieldRecord record) {
        record.clear();
        PduFields.describe(pdu, record);
        RpcRdmaFields.describe(message, move, record);
        Endpoint src = pdu.source();
        Endpoint dst = pdu.destination();
        // with its frame's headers the PDU described its addresses and ports itself (PduFields)
        addConnection(record, pdu.stream(), new IpAddress(src.address()), src.port(), new IpAddress(dst.address()),
                dst.port(), pdu.headers() == null);
        addViolations(record, violationChecks, severities);
    }

    /**
     * The {@code tcp.*} and {@code ip.*} or {@code ipv6.*} names of a PDU, from address texts ("10.0.2.15",
     * "fe80::1"); an address that is not one is left out.
     */
    public static void addConnection(FieldRecord record, int stream, String srcAddress, int srcPort,
                                     String dstAddress, int dstPort) {
        addConnection(record, stream, IpAddress.parseOrNull(srcAddress), srcPort, IpAddress.parseOrNull(dstAddress),
                dstPort);
    }

    /** The {@code tcp.*} names and, as Wireshark names them, {@code ip.*} of IPv4 or {@code ipv6.*} of IPv6. */
    public static void addConnection(FieldRecord record, int stream, IpAddress src, int srcPort, IpAddress dst,
                                     int dstPort) {
        addConnection(record, stream, src, srcPort, dst, dstPort, true);
    }

    /** As above; {@code endpoints}: whether to add the source and destination too, not only either. */
    private static void addConnection(FieldRecord record, int stream, IpAddress src, int srcPort, IpAddress dst,
                                      int dstPort, boolean endpoints) {
        record.put(TCP_STREAM, (long) stream);
        if (endpoints) {
            record.put(TCP_SRCPORT, (long) srcPort);
            record.put(TCP_DSTPORT, (long) dstPort);
        }
        record.put(TCP_PORT, (long) srcPort);
        record.put(TCP_PORT, (long) dstPort);
        if (src != null) {
            if (endpoints) record.put(src.isIpv6() ? IPV6_SRC : IP_SRC, src);
            record.put(src.isIpv6() ? IPV6_ADDR : IP_ADDR, src);
        }
        if (dst != null) {
            if (endpoints) record.put(dst.isIpv6() ? IPV6_DST : IP_DST, dst);
            record.put(dst.isIpv6() ? IPV6_ADDR : IP_ADDR, dst);
        }
    }

    // the filter names of CaptureField, built once (a record is filled per PDU)
    private static final String TCP_STREAM = CaptureField.TCP_STREAM.key();
    private static final String TCP_SRCPORT = TcpField.SRCPORT.key();
    private static final String TCP_DSTPORT = TcpField.DSTPORT.key();
    private static final String TCP_PORT = CaptureField.TCP_PORT.key();
    private static final String IP_SRC = IpField.SRC.key();
    private static final String IP_DST = IpField.DST.key();
    private static final String IP_ADDR = CaptureField.IP_ADDR.key();
    private static final String IPV6_SRC = Ipv6Field.SRC.key();
    private static final String IPV6_DST = Ipv6Field.DST.key();
    private static final String IPV6_ADDR = CaptureField.IPV6_ADDR.key();
    private static final String VIOLATION = CaptureField.VIOLATION.key();
    private static final String VIOLATION_CHECK = CaptureField.VIOLATION_CHECK.key();
    private static final String VIOLATION_SEVERITY = CaptureField.VIOLATION_SEVERITY.key();

    /** {@code violation}, {@code violation.check} and {@code violation.severity}. */
    public static void addViolations(FieldRecord record, Collection<String> checks, Collection<String> severities) {
        boolean any = checks != null && !checks.isEmpty();
        record.put(VIOLATION, any);
        if (any) {
            for (String c : checks) record.put(VIOLATION_CHECK, c);
            if (severities != null) for (String s : severities) record.put(VIOLATION_SEVERITY, s);
        }
    }

    private void collect(Expr e) {
        if (e instanceof Expr.Present p) {
            fields.add(p.field());
        } else if (e instanceof Expr.Compare c) {
            fields.add(c.field());
        } else if (e instanceof Expr.In in) {
            fields.add(in.field());
        } else if (e instanceof Expr.Not n) {
            collect(n.operand());
        } else if (e instanceof Expr.And a) {
            collect(a.left());
            collect(a.right());
        } else if (e instanceof Expr.Or o) {
            collect(o.left());
            collect(o.right());
        }
    }

    static boolean eval(Expr e, FieldRecord r) {
        if (e instanceof Expr.And a) return eval(a.left(), r) && eval(a.right(), r);
        if (e instanceof Expr.Or o) return eval(o.left(), r) || eval(o.right(), r);
        if (e instanceof Expr.Not n) return !eval(n.operand(), r);
        if (e instanceof Expr.Present p) {
            if (!r.has(p.field())) return false;
            List<Object> values = r.get(p.field());
            if (!values.isEmpty() && values.get(0) instanceof Boolean) return values.contains(Boolean.TRUE);
            return true;
        }
        if (e instanceof Expr.In in) {
            for (Object v : r.get(in.field())) {
                for (Expr.Element el : in.elements()) {
                    if (el.high() == null ? compare(v, Op.EQ, el.low())
                            : compare(v, Op.GE, el.low()) && compare(v, Op.LE, el.high())) {
                        return true;
                    }
                }
            }
            return false;
        }
        Expr.Compare c = (Expr.Compare) e;
        List<Object> values = r.get(c.field());
        if (values.isEmpty()) return false;
        if (c.op() == Op.NE) {
            for (Object v : values) {
                if (compare(v, Op.EQ, c.value())) return false;
            }
            return true;
        }
        for (Object v : values) {
            if (compare(v, c.op(), c.value())) return true;
        }
        return false;
    }

    private static boolean compare(Object v, Op op, Literal literal) {
        Object l = literal.value();
        if (op == Op.CONTAINS) {
            if (v instanceof String s && l instanceof String t) return s.contains(t);
            if (v instanceof byte[] b && l instanceof byte[] t) return indexOf(b, t) >= 0;
            return false;
        }
        int cmp;
        if (v instanceof Long a && l instanceof Long b) {
            cmp = Long.compareUnsigned(a, b);
        } else if (v instanceof Boolean a && l instanceof Boolean b) {
            cmp = a.equals(b) ? 0 : 1;
        } else if (v instanceof String a && l instanceof String b) {
            cmp = a.compareTo(b);
        } else if (v instanceof byte[] a && l instanceof byte[] b) {
            cmp = java.util.Arrays.equals(a, b) ? 0 : 1;
        } else if (v instanceof IpAddress a && l instanceof IpPrefix p) {
            // the parser allows only == and != with a CIDR block
            cmp = p.contains(a) ? 0 : 1;
        } else if (v instanceof IpAddress a && l instanceof IpAddress b) {
            if (a.isIpv6() != b.isIpv6()) return false; // the parser keeps families apart; never ordered across
            cmp = a.compareTo(b);
        } else {
            return false;
        }
        return switch (op) {
            case EQ -> cmp == 0;
            case NE -> cmp != 0;
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case GT -> cmp > 0;
            case GE -> cmp >= 0;
            case CONTAINS -> false;
        };
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) continue outer;
            }
            return i;
        }
        return -1;
    }

    @Override
    public String toString() {
        return text;
    }
}
