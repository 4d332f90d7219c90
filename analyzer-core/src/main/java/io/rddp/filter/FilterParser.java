package io.rddp.filter;

import io.rddp.filter.Expr.Literal;
import io.rddp.filter.Expr.Op;
import io.rddp.filter.FilterFields.Field;
import io.rddp.filter.FilterFields.Kind;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Lexer and recursive-descent parser of the display-filter language, Wireshark's shape:
 * <pre>
 *   or      := and (("||" | "or") and)*
 *   and     := unary (("&amp;&amp;" | "and") unary)*
 *   unary   := ("!" | "not") unary | primary
 *   primary := "(" or ")" | NAME [op value]
 *   op      := "==" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;=" | "contains" | eq ne lt le gt ge
 *   value   := NUMBER (decimal or 0x hex, unsigned 64-bit) | "string" | true | false
 * </pre>
 * Names are checked against {@link FilterFields} and values against the field's type, so a filter that compiles
 * cannot fail later. Errors carry the 1-based column.
 */
final class FilterParser {

    private enum T { NAME, NUMBER, STRING, OP, AND, OR, NOT, LPAREN, RPAREN, TRUE, FALSE, END }

    private record Token(T type, String text, int column, Object value) {
    }

    private final String src;
    private final List<Token> tokens;
    private int pos;

    private FilterParser(String src) throws FilterException {
        this.src = src;
        this.tokens = lex(src);
    }

    static Expr parse(String text) throws FilterException {
        FilterParser p = new FilterParser(text);
        if (p.peek().type == T.END) throw new FilterException(1, "the filter is empty");
        Expr e = p.or();
        Token t = p.peek();
        if (t.type != T.END) {
            throw new FilterException(t.column, t.type == T.RPAREN ? "')' without a matching '('"
                    : "expected '&&', '||' or the end of the filter, found " + describe(t));
        }
        return e;
    }

    // ---- parser ----

    private Token peek() {
        return tokens.get(pos);
    }

    private Token take() {
        return tokens.get(pos++);
    }

    private Expr or() throws FilterException {
        Expr left = and();
        while (peek().type == T.OR) {
            take();
            left = new Expr.Or(left, and());
        }
        return left;
    }

    private Expr and() throws FilterException {
        Expr left = unary();
        while (peek().type == T.AND) {
            take();
            left = new Expr.And(left, unary());
        }
        return left;
    }

    private Expr unary() throws FilterException {
        if (peek().type == T.NOT) {
            take();
            return new Expr.Not(unary());
        }
        return primary();
    }

    private Expr primary() throws FilterException {
        Token t = take();
        switch (t.type) {
            case LPAREN -> {
                Expr e = or();
                Token close = take();
                if (close.type != T.RPAREN) {
                    throw new FilterException(close.column, "expected ')' to close the '(' at column " + t.column
                            + ", found " + describe(close));
                }
                return e;
            }
            case NAME -> {
                Field f = FilterFields.get(t.text);
                if (f == null) {
                    String near = FilterFields.closest(t.text);
                    throw new FilterException(t.column, "unknown field '" + t.text + "'"
                            + (near != null ? " (did you mean '" + near + "'?)" : ""));
                }
                if (peek().type != T.OP) return new Expr.Present(f.name());
                Token opToken = take();
                Op op = (Op) opToken.value;
                Token v = take();
                return new Expr.Compare(f.name(), op, literal(f, op, opToken, v));
            }
            default -> throw new FilterException(t.column, "expected a field name, '(' or '!', found " + describe(t));
        }
    }

    /** The value after an operator, checked against the field's type. */
    private static Literal literal(Field f, Op op, Token opToken, Token v) throws FilterException {
        if (v.type != T.NUMBER && v.type != T.STRING && v.type != T.TRUE && v.type != T.FALSE) {
            throw new FilterException(v.column, "expected a value after '" + opToken.text + "', found " + describe(v));
        }
        boolean ordering = op == Op.LT || op == Op.LE || op == Op.GT || op == Op.GE;
        switch (f.kind()) {
            case LAYER -> throw new FilterException(opToken.column, "'" + f.name()
                    + "' is a layer: test it alone (e.g. '" + f.name() + "' or '!" + f.name() + "')");
            case NUMBER -> {
                if (v.type != T.NUMBER) throw typeError(f, v, "a number");
                if (op == Op.CONTAINS) throw new FilterException(opToken.column, "'contains' needs a text or bytes field");
                return new Literal(v.value);
            }
            case BOOLEAN -> {
                if (ordering || op == Op.CONTAINS) {
                    throw new FilterException(opToken.column, "'" + f.name() + "' is yes/no: use == or !=");
                }
                if (v.type == T.TRUE || v.type == T.FALSE) return new Literal(v.type == T.TRUE);
                if (v.type == T.NUMBER && ((Long) v.value == 0 || (Long) v.value == 1)) {
                    return new Literal((Long) v.value == 1);
                }
                throw typeError(f, v, "true, false, 1 or 0");
            }
            case TEXT -> {
                if (v.type != T.STRING) throw typeError(f, v, "a quoted string");
                return new Literal(v.value);
            }
            case BYTES -> {
                if (v.type != T.STRING) throw typeError(f, v, "a quoted hex string such as \"0a1b\"");
                if (ordering) throw new FilterException(opToken.column, "bytes compare with ==, != or contains");
                String hex = ((String) v.value).replace(":", "");
                try {
                    return new Literal(HexFormat.of().parseHex(hex));
                } catch (IllegalArgumentException e) {
                    throw new FilterException(v.column, "'" + v.value + "' is not hex octets");
                }
            }
            default -> throw new IllegalStateException(f.kind().toString());
        }
    }

    private static FilterException typeError(Field f, Token v, String wanted) {
        String kind = switch (f.kind()) {
            case NUMBER -> "a number";
            case BOOLEAN -> "yes/no";
            case TEXT -> "text";
            case BYTES -> "bytes";
            case LAYER -> "a layer";
        };
        return new FilterException(v.column, "'" + f.name() + "' is " + kind + ": compare it with " + wanted
                + ", not " + describe(v));
    }

    private static String describe(Token t) {
        return switch (t.type) {
            case END -> "the end of the filter";
            case STRING -> "the string " + Literal.quote((String) t.value);
            default -> "'" + t.text + "'";
        };
    }

    // ---- lexer ----

    private static List<Token> lex(String s) throws FilterException {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (true) {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
            if (i >= s.length()) {
                out.add(new Token(T.END, "", s.length() + 1, null));
                return out;
            }
            char c = s.charAt(i);
            int col = i + 1;
            if (Character.isLetter(c) || c == '_') {
                int j = i + 1;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_'
                        || s.charAt(j) == '.' || s.charAt(j) == '-')) {
                    j++;
                }
                String w = s.substring(i, j);
                out.add(switch (w) {
                    case "and" -> new Token(T.AND, w, col, null);
                    case "or" -> new Token(T.OR, w, col, null);
                    case "not" -> new Token(T.NOT, w, col, null);
                    case "true" -> new Token(T.TRUE, w, col, null);
                    case "false" -> new Token(T.FALSE, w, col, null);
                    case "contains" -> new Token(T.OP, w, col, Op.CONTAINS);
                    case "eq" -> new Token(T.OP, w, col, Op.EQ);
                    case "ne" -> new Token(T.OP, w, col, Op.NE);
                    case "lt" -> new Token(T.OP, w, col, Op.LT);
                    case "le" -> new Token(T.OP, w, col, Op.LE);
                    case "gt" -> new Token(T.OP, w, col, Op.GT);
                    case "ge" -> new Token(T.OP, w, col, Op.GE);
                    default -> new Token(T.NAME, w, col, null);
                });
                i = j;
            } else if (Character.isDigit(c)) {
                int j = i;
                while (j < s.length() && Character.isLetterOrDigit(s.charAt(j))) j++;
                String w = s.substring(i, j);
                out.add(new Token(T.NUMBER, w, col, number(w, col)));
                i = j;
            } else if (c == '"') {
                StringBuilder sb = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= s.length()) throw new FilterException(col, "string not closed with '\"'");
                    char d = s.charAt(j);
                    if (d == '"') break;
                    if (d == '\\') {
                        if (j + 1 >= s.length()) throw new FilterException(j + 1, "'\\' at the end of the filter");
                        d = s.charAt(++j);
                    }
                    sb.append(d);
                    j++;
                }
                out.add(new Token(T.STRING, s.substring(i, j + 1), col, sb.toString()));
                i = j + 1;
            } else {
                String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
                Token t = switch (two) {
                    case "==" -> new Token(T.OP, two, col, Op.EQ);
                    case "!=" -> new Token(T.OP, two, col, Op.NE);
                    case "<=" -> new Token(T.OP, two, col, Op.LE);
                    case ">=" -> new Token(T.OP, two, col, Op.GE);
                    case "&&" -> new Token(T.AND, two, col, null);
                    case "||" -> new Token(T.OR, two, col, null);
                    default -> null;
                };
                if (t == null) {
                    String one = String.valueOf(c);
                    t = switch (c) {
                        case '<' -> new Token(T.OP, one, col, Op.LT);
                        case '>' -> new Token(T.OP, one, col, Op.GT);
                        case '!' -> new Token(T.NOT, one, col, null);
                        case '(' -> new Token(T.LPAREN, one, col, null);
                        case ')' -> new Token(T.RPAREN, one, col, null);
                        case '=' -> throw new FilterException(col, "'=' is not an operator: use '=='");
                        case '&' -> throw new FilterException(col, "'&' is not an operator: use '&&'");
                        case '|' -> throw new FilterException(col, "'|' is not an operator: use '||'");
                        default -> throw new FilterException(col, "unexpected character '" + c + "'");
                    };
                }
                out.add(t);
                i += t.text.length();
            }
        }
    }

    private static Long number(String w, int col) throws FilterException {
        try {
            if (w.length() > 2 && (w.startsWith("0x") || w.startsWith("0X"))) {
                String hex = w.substring(2);
                if (hex.length() > 16) throw new NumberFormatException();
                return Long.parseUnsignedLong(hex, 16);
            }
            return Long.parseUnsignedLong(w);
        } catch (NumberFormatException e) {
            throw new FilterException(col, "'" + w + "' is not a number (decimal or 0x hex, at most 64 bits)");
        }
    }
}
