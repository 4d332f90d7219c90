package io.rddp.filter;

import java.util.HexFormat;

/**
 * A parsed display filter. {@link #toString()} gives a canonical text (binary operators parenthesised, numbers in
 * decimal, strings quoted) that parses back to an equal expression.
 */
public sealed interface Expr {

    /** Comparison operators; {@code CONTAINS} is substring (text) or sub-sequence (bytes). */
    enum Op {
        EQ("=="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">="), CONTAINS("contains");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    /**
     * A literal: Long (an unsigned 64-bit number), Boolean, String, byte[] (a bytes field's hex string),
     * {@link IpAddress} or {@link IpPrefix} (a CIDR block).
     */
    record Literal(Object value) {
        @Override
        public String toString() {
            if (value instanceof Long n) return Long.toUnsignedString(n);
            if (value instanceof Boolean b) return b.toString();
            if (value instanceof byte[] b) return quote(HexFormat.of().formatHex(b));
            if (value instanceof IpAddress || value instanceof IpPrefix) return value.toString();
            return quote((String) value);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Literal l)) return false;
            if (value instanceof byte[] a && l.value instanceof byte[] b) return java.util.Arrays.equals(a, b);
            return value.equals(l.value);
        }

        @Override
        public int hashCode() {
            return value instanceof byte[] b ? java.util.Arrays.hashCode(b) : value.hashCode();
        }

        static String quote(String s) {
            StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') sb.append('\\');
                sb.append(c);
            }
            return sb.append('"').toString();
        }
    }

    /** A bare name: true when the PDU has the field or layer (for a yes/no field: when it is yes). */
    record Present(String field) implements Expr {
        @Override
        public String toString() {
            return field;
        }
    }

    record Compare(String field, Op op, Literal value) implements Expr {
        @Override
        public String toString() {
            return field + " " + op.symbol + " " + value;
        }
    }

    /** {@code field in {a, b..c}}: some value of the field is one of the elements (Wireshark 4 writes commas). */
    record In(String field, java.util.List<Element> elements) implements Expr {
        public In {
            elements = java.util.List.copyOf(elements);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(field).append(" in {");
            for (int i = 0; i < elements.size(); i++) sb.append(i > 0 ? ", " : "").append(elements.get(i));
            return sb.append('}').toString();
        }
    }

    /** One element of a set: a value ({@code high} null) or the range {@code low..high}, both ends included. */
    record Element(Literal low, Literal high) {
        @Override
        public String toString() {
            return high == null ? low.toString() : low + ".." + high;
        }
    }

    record Not(Expr operand) implements Expr {
        @Override
        public String toString() {
            return "!" + (operand instanceof Compare || operand instanceof In ? "(" + operand + ")" : operand.toString());
        }
    }

    record And(Expr left, Expr right) implements Expr {
        @Override
        public String toString() {
            return "(" + left + " && " + right + ")";
        }
    }

    record Or(Expr left, Expr right) implements Expr {
        @Override
        public String toString() {
            return "(" + left + " || " + right + ")";
        }
    }
}
