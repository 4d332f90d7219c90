package io.rddp.filter;

/**
 * The syntax of address literals in a display filter: IPv4 dotted quads ({@code 10.0.2.15}, no leading zeros, as
 * inet_pton), IPv6 in RFC 4291 §2.2 text form ({@code fe80::1}, {@code ::}, {@code ::ffff:10.0.2.15}), and either
 * with a CIDR prefix length ({@code 10.0.2.0/24}, RFC 4632 §3.1). No host names: a filter never looks anything up.
 * Every error names the 1-based column of the part that is wrong.
 */
final class AddressLiteral {
    private AddressLiteral() {
    }

    /** An address or, with "/N", a prefix, {@code text} starting at {@code column} of the filter. */
    static Object addressOrPrefix(String text, int column) throws FilterException {
        int slash = text.indexOf('/');
        if (slash < 0) return address(text, column);
        IpAddress a = address(text.substring(0, slash), column);
        String len = text.substring(slash + 1);
        int lenColumn = column + slash + 1;
        int max = a.isIpv6() ? 128 : 32;
        if (len.isEmpty()) throw new FilterException(lenColumn, "a prefix length (0 to " + max + ") after '/'");
        if (!len.chars().allMatch(c -> c >= '0' && c <= '9') || len.length() > 3) {
            throw new FilterException(lenColumn, "'" + len + "' is not a prefix length (0 to " + max + ")");
        }
        int bits = Integer.parseInt(len);
        if (bits > max) {
            throw new FilterException(lenColumn, "prefix length " + bits + " is out of range for an "
                    + (a.isIpv6() ? "IPv6" : "IPv4") + " address (0 to " + max + ")");
        }
        return new IpPrefix(a, bits);
    }

    /** An IPv6 address when {@code text} has a ':', else an IPv4 address. */
    static IpAddress address(String text, int column) throws FilterException {
        if (text.isEmpty()) throw new FilterException(column, "an address before '/'");
        byte[] octets = text.indexOf(':') >= 0 ? ipv6(text, column) : ipv4(text, column, text);
        return new IpAddress(octets);
    }

    private static byte[] ipv4(String text, int column, String whole) throws FilterException {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new FilterException(column, "'" + whole + "' is not an IPv4 address: " + parts.length
                    + (parts.length == 1 ? " part" : " parts") + " where 4 are needed (e.g. 10.0.2.15)");
        }
        byte[] out = new byte[4];
        int at = column;
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty()) throw new FilterException(at, "an empty part in the IPv4 address '" + whole + "'");
            if (!p.chars().allMatch(c -> c >= '0' && c <= '9') || p.length() > 3) {
                throw new FilterException(at, "'" + p + "' in '" + whole + "' is not a number 0 to 255");
            }
            if (p.length() > 1 && p.charAt(0) == '0') {
                throw new FilterException(at, "'" + p + "' in '" + whole + "': no leading zeros in an IPv4 address");
            }
            int v = Integer.parseInt(p);
            if (v > 255) throw new FilterException(at, "'" + p + "' in '" + whole + "' is above 255");
            out[i] = (byte) v;
            at += p.length() + 1;
        }
        return out;
    }

    private static byte[] ipv6(String text, int column) throws FilterException {
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            throw new FilterException(column + text.indexOf("::", gap + 1), "'::' may appear only once in '" + text + "'");
        }
        byte[] out = new byte[16];
        if (gap < 0) {
            int n = groups(text, column, text, out, 0, true);
            if (n != 16) {
                throw new FilterException(column, "'" + text + "' is not an IPv6 address: " + n / 2
                        + " groups where 8 are needed (or '::' for zeros)");
            }
            return out;
        }
        byte[] head = new byte[16], tail = new byte[16];
        int h = gap == 0 ? 0 : groups(text.substring(0, gap), column, text, head, 0, false);
        String rest = text.substring(gap + 2);
        int t = rest.isEmpty() ? 0 : groups(rest, column + gap + 2, text, tail, 0, true);
        if (h + t > 14) {
            throw new FilterException(column, "'" + text + "' is not an IPv6 address: more than 7 groups besides '::'");
        }
        System.arraycopy(head, 0, out, 0, h);
        System.arraycopy(tail, 0, out, 16 - t, t);
        return out;
    }

    /**
     * Reads ':'-separated groups of 1 to 4 hex digits into {@code out} from {@code at}; the last may be a dotted IPv4
     * address when {@code lastMayBeIpv4}. Returns the octets read.
     */
    private static int groups(String s, int column, String whole, byte[] out, int at, boolean lastMayBeIpv4)
            throws FilterException {
        String[] gs = s.split(":", -1);
        int col = column;
        for (int i = 0; i < gs.length; i++) {
            String g = gs[i];
            if (i == gs.length - 1 && lastMayBeIpv4 && g.indexOf('.') >= 0) {
                if (at + 4 > 16) throw new FilterException(col, "too many groups in the IPv6 address '" + whole + "'");
                System.arraycopy(ipv4(g, col, g), 0, out, at, 4);
                return at + 4;
            }
            if (g.isEmpty()) throw new FilterException(col, "an empty group in the IPv6 address '" + whole + "'");
            if (g.length() > 4) {
                throw new FilterException(col, "'" + g + "' in '" + whole + "' has more than 4 hex digits");
            }
            int v = 0;
            for (int k = 0; k < g.length(); k++) {
                int d = Character.digit(g.charAt(k), 16);
                if (d < 0) throw new FilterException(col + k, "'" + g.charAt(k) + "' in '" + whole + "' is not a hex digit");
                v = v << 4 | d;
            }
            if (at + 2 > 16) throw new FilterException(col, "too many groups in the IPv6 address '" + whole + "'");
            out[at] = (byte) (v >>> 8);
            out[at + 1] = (byte) v;
            at += 2;
            col += g.length() + 1;
        }
        return at;
    }
}
