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
 *   primary := "(" or ")" | NAME [op value | "in" set]
 *   op      := "==" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;=" | "contains" | eq ne lt le gt ge
 *   set     := "{" element ([","] element)* "}"
 *   element := value [".." value]
 *   value   := NUMBER (decimal or 0x hex, unsigned 64-bit) | "string" | true | false | ADDRESS ["/" LENGTH]
 * </pre>
 * ADDRESS is an IPv4 or IPv6 literal ({@link AddressLiteral}); after an operator and inside a set the lexer reads a
 * value word (letters, digits, '.', ':', '/'), so that {@code 10.0.2.15} and {@code fe80::1} are one token.
 * Names are checked against {@link FilterFields} and values against the field's type, so a filter that compiles
 * cannot fail later. Errors carry the 1-based column.
 */
final class FilterParser {

    private enum T { NAME, NUMBER, STRING, ADDR, OP, IN, AND, OR, NOT, LPAREN, RPAREN, LBRACE, RBRACE, COMMA, RANGE,
        TRUE, FALSE, END }

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
                if (peek().type == T.IN) return set(f, take());
                if (peek().type != T.OP) return new Expr.Present(f.name());
                Token opToken = take();
                Op op = (Op) opToken.value;
                Token v = take();
                return new Expr.Compare(f.name(), op, literal(f, op, opToken, v));
            }
            default -> throw new FilterException(t.column, "expected a field name, '(' or '!', found " + describe(t));
        }
    }

    /** {@code in {...}} after a field name: its elements, each checked against the field's type. */
    private Expr set(Field f, Token in) throws FilterException {
        Token open = take();
        if (open.type != T.LBRACE) {
            throw new FilterException(open.column, "expected '{' after 'in', found " + describe(open));
        }
        if (f.kind() == Kind.LAYER) {
            throw new FilterException(in.column, "'" + f.name() + "' is a layer: test it alone (e.g. '" + f.name()
                    + "' or '!" + f.name() + "')");
        }
        List<Expr.Element> elements = new ArrayList<>();
        while (true) {
            Token v = take();
            if (v.type == T.RBRACE && elements.isEmpty()) throw new FilterException(v.column, "the set is empty");
            if (v.type == T.END) {
                throw new FilterException(v.column, "set not closed with '}' (opened at column " + open.column + ")");
            }
            Literal low = literal(f, Op.EQ, open, v);
            Literal high = null;
            if (peek().type == T.RANGE) {
                Token range = take();
                Token h = take();
                if (h.type == T.END || h.type == T.RBRACE || h.type == T.COMMA) {
                    throw new FilterException(h.column, "expected the end of the range after '..', found " + describe(h));
                }
                high = literal(f, Op.LE, range, h);
                checkRange(f, range, low, high);
            }
            elements.add(new Expr.Element(low, high));
            Token next = peek();
            if (next.type == T.RBRACE) {
                take();
                return new Expr.In(f.name(), elements);
            }
            if (next.type == T.COMMA) {
                take();
                if (peek().type == T.RBRACE || peek().type == T.COMMA || peek().type == T.END) {
                    throw new FilterException(peek().column, "expected a value after ',', found " + describe(peek()));
                }
            } else if (next.type == T.END) {
                throw new FilterException(next.column, "set not closed with '}' (opened at column " + open.column + ")");
            }
        }
    }

    /** A range holds numbers or addresses of one family, the low end first. */
    private static void checkRange(Field f, Token range, Literal low, Literal high) throws FilterException {
        Object a = low.value(), b = high.value();
        boolean ok;
        if (a instanceof Long x && b instanceof Long y) {
            ok = Long.compareUnsigned(x, y) <= 0;
        } else if (a instanceof IpAddress x && b instanceof IpAddress y) {
            ok = x.compareTo(y) <= 0;
        } else {
            throw new FilterException(range.column, "ranges are of numbers or addresses, not of '" + f.name()
                    + "' values (" + low + ".." + high + ")");
        }
        if (!ok) throw new FilterException(range.column, "the range " + low + ".." + high + " is empty: its low end is above its high end");
    }

    /** The value after an operator, checked against the field's type. */
    private static Literal literal(Field f, Op op, Token opToken, Token v) throws FilterException {
        if (v.type != T.NUMBER && v.type != T.STRING && v.type != T.TRUE && v.type != T.FALSE && v.type != T.ADDR) {
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
            case IPV4, IPV6 -> {
                if (v.type != T.ADDR && v.type != T.STRING) {
                    throw typeError(f, v, f.kind() == Kind.IPV4 ? "an IPv4 address such as 10.0.2.15 or 10.0.2.0/24"
                            : "an IPv6 address such as fe80::1 or fe80::/10");
                }
                if (op == Op.CONTAINS) throw new FilterException(opToken.column, "'contains' needs a text or bytes field");
                // a quoted address ("10.0.2.15") is the address: filters written when these fields were text still work
                int column = v.type == T.STRING ? v.column + 1 : v.column;
                Object value = AddressLiteral.addressOrPrefix((String) v.value, column);
                IpAddress a = value instanceof IpPrefix p ? p.address() : (IpAddress) value;
                if (a.isIpv6() != (f.kind() == Kind.IPV6)) {
                    throw new FilterException(v.column, "'" + f.name() + "' is an " + (a.isIpv6() ? "IPv4" : "IPv6")
                            + " address and " + v.value + " is " + (a.isIpv6() ? "IPv6" : "IPv4")
                            + (a.isIpv6() ? " (IPv6 addresses are ipv6." : " (IPv4 addresses are ip.")
                            + f.name().substring(f.name().indexOf('.') + 1) + ")");
                }
                if (value instanceof IpPrefix && ordering) {
                    throw new FilterException(opToken.column, "a CIDR block compares with == or != (or in a set)");
                }
                return new Literal(value);
            }
            case ETHER -> {
                if (ordering || op == Op.CONTAINS) {
                    throw new FilterException(opToken.column, "'" + f.name() + "' is an Ethernet address: use == or !=");
                }
                String text = v.type == T.STRING ? (String) v.value : v.text;
                byte[] mac = ethernetAddress(text);
                if (mac == null) throw typeError(f, v, "an Ethernet address such as 00:1b:21:0a:0b:0c");
                return new Literal(mac);
            }
            default -> throw new IllegalStateException(f.kind().toString());
        }
    }

    /** Six octets written as two hex digits each, separated by ':' or '-' (as Wireshark reads them), or null. */
    private static byte[] ethernetAddress(String text) {
        String[] parts = text.split("[:-]", -1);
        if (parts.length != 6) return null;
        byte[] out = new byte[6];
        for (int i = 0; i < 6; i++) {
            if (!parts[i].matches("[0-9A-Fa-f]{2}")) return null;
            out[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return out;
    }

    private static FilterException typeError(Field f, Token v, String wanted) {
        String kind = switch (f.kind()) {
            case NUMBER -> "a number";
            case BOOLEAN -> "yes/no";
            case TEXT -> "text";
            case BYTES -> "bytes";
            case IPV4 -> "an IPv4 address";
            case IPV6 -> "an IPv6 address";
            case ETHER -> "an Ethernet address";
            case LAYER -> "a layer";
        };
        return new FilterException(v.column, "'" + f.name() + "' is " + kind + ": compare it with " + wanted
                + ", not " + describe(v));
    }

    private static String describe(Token t) {
        return switch (t.type) {
            case END -> "the end of the filter";
            case STRING -> "the string " + Literal.quote((String) t.value);
            case RBRACE -> "'}'";
            default -> "'" + t.text + "'";
        };
    }

    // ---- lexer ----

    private static List<Token> lex(String s) throws FilterException {
        List<Token> out = new ArrayList<>();
        int i = 0;
        boolean inSet = false;
        while (true) {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
            if (i >= s.length()) {
                out.add(new Token(T.END, "", s.length() + 1, null));
                return out;
            }
            char c = s.charAt(i);
            int col = i + 1;
            T last = out.isEmpty() ? null : out.get(out.size() - 1).type;
            boolean valueNext = last == T.OP || inSet;
            if (valueNext && valueChar(c)) {
                int j = i;
                while (j < s.length() && valueChar(s.charAt(j))) j++;
                valueWord(s.substring(i, j), col, inSet, out);
                i = j;
            } else if (c == '{' || c == '}' || c == ',' && inSet) {
                if (c == '{' && (last != T.IN || inSet)) {
                    throw new FilterException(col, inSet ? "a set inside a set" : "'{' starts a set only after 'in'");
                }
                if (c == '}' && !inSet) throw new FilterException(col, "'}' without a matching '{'");
                inSet = c == '{' || c == ',';
                out.add(new Token(c == '{' ? T.LBRACE : c == '}' ? T.RBRACE : T.COMMA, String.valueOf(c), col, null));
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i + 1;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_'
                        || s.charAt(j) == '.' || s.charAt(j) == '-')) {
                    j++;
                }
                String w = s.substring(i, j);
                out.add(word(w, col));
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

    private static boolean valueChar(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == ':' || c == '/' || c == '_' || c == '-';
    }

    /** A keyword, or a field name. */
    private static Token word(String w, int col) {
        return switch (w) {
            case "and" -> new Token(T.AND, w, col, null);
            case "or" -> new Token(T.OR, w, col, null);
            case "not" -> new Token(T.NOT, w, col, null);
            case "in" -> new Token(T.IN, w, col, null);
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
        };
    }

    /**
     * A word where a value is due: a number, an address (it has '.', ':' or '/'), a keyword, or a name (which the
     * parser refuses as a value); in a set, "a..b" is a range.
     */
    private static void valueWord(String w, int col, boolean inSet, List<Token> out) throws FilterException {
        int range = inSet ? w.indexOf("..") : -1;
        if (range >= 0) {
            T last = out.get(out.size() - 1).type;
            boolean afterValue = last == T.STRING || last == T.NUMBER || last == T.ADDR || last == T.TRUE
                    || last == T.FALSE;
            // "a".."b": the range follows a value that is not part of this word
            if (range > 0 || !afterValue) valueWord(w.substring(0, range), col, false, out);
            out.add(new Token(T.RANGE, "..", col + range, null));
            String rest = w.substring(range + 2);
            if (!rest.isEmpty()) valueWord(rest, col + range + 2, false, out);
            return;
        }
        if (w.isEmpty()) throw new FilterException(col, "expected a value before '..'");
        boolean decimal = w.chars().allMatch(Character::isDigit);
        boolean hex = w.length() > 2 && (w.startsWith("0x") || w.startsWith("0X"))
                && w.substring(2).chars().allMatch(ch -> Character.digit(ch, 16) >= 0);
        if (decimal || hex) {
            out.add(new Token(T.NUMBER, w, col, number(w, col)));
        } else if (w.indexOf('.') >= 0 || w.indexOf(':') >= 0 || w.indexOf('/') >= 0) {
            out.add(new Token(T.ADDR, w, col, w));
        } else if (Character.isDigit(w.charAt(0))) {
            out.add(new Token(T.NUMBER, w, col, number(w, col))); // "12ab": the number error
        } else {
            out.add(word(w, col));
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
