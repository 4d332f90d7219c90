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

    /** A literal: Long (an unsigned 64-bit number), Boolean, String or byte[] (a bytes field's hex string). */
    record Literal(Object value) {
        @Override
        public String toString() {
            if (value instanceof Long n) return Long.toUnsignedString(n);
            if (value instanceof Boolean b) return b.toString();
            if (value instanceof byte[] b) return quote(HexFormat.of().formatHex(b));
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

    record Not(Expr operand) implements Expr {
        @Override
        public String toString() {
            return "!" + (operand instanceof Compare ? "(" + operand + ")" : operand.toString());
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
