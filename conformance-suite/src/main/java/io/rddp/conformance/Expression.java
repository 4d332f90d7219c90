package io.rddp.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The value expressions of number fields: terms joined by {@code +}, {@code -} and {@code ^} (xor), each a decimal or
 * {@code 0x} hex number, {@code name.field} of a buffer ({@code stag}, {@code to}, {@code len}, {@code end},
 * {@code mr}), {@code mulpdu} or {@code mulpdu.untagged}; e.g. "dut.end-16", "other.stag^0x01", "mulpdu.untagged+1".
 * A lone "dut" is the scenario buffer's STag or TO, as the field's name says. One grammar for running and loading.
 */
final class Expression {

    /** The fields of a buffer an expression may name. */
    static final List<String> FIELDS = List.of("stag", "to", "len", "end", "mr");
    /** The Data Sink fields of a Read Request, in {@code answer-reads} only. */
    static final List<String> SINK = List.of("sink.stag", "sink.to");

    private Expression() {
    }

    /**
     * The value of {@code text} in a field named {@code field}: {@code names} gives the value of a named term, or
     * null when the term is no name (it is then read as a number).
     */
    static long evaluate(String text, String field, Function<String, Long> names) {
        String e = text.replace(" ", "");
        if (e.equals("dut")) e = field.contains("stag") ? "dut.stag" : "dut.to";
        long total = 0;
        int op = '+';
        List<String> parts = split(e);
        for (int k = 0; k < parts.size(); k += 2) {
            String term = parts.get(k);
            Long named = names.apply(term);
            long t = term.isEmpty() ? 0 : named != null ? named
                    : term.startsWith("0x") ? Long.parseUnsignedLong(term.substring(2), 16) : Long.parseLong(term);
            total = op == '^' ? total ^ t : op == '-' ? total - t : total + t;
            if (k + 1 < parts.size()) op = parts.get(k + 1).charAt(0);
        }
        return total;
    }

    /**
     * What is wrong with {@code text} as an expression whose names are the buffers {@code buffers} (and the Data Sink
     * fields when {@code sink}), or null when nothing is.
     */
    static String problem(String text, Set<String> buffers, boolean sink) {
        String e = text.replace(" ", "");
        if (e.isEmpty()) return "an empty expression";
        if (e.equals("dut")) return null;
        List<String> parts = split(e);
        for (int k = 0; k < parts.size(); k += 2) {
            String term = parts.get(k);
            if (term.isEmpty()) return "an operator without a term in \"" + text + "\"";
            if (term.matches("-?[0-9]+") || term.matches("0x[0-9a-fA-F]{1,16}")) continue;
            if (term.equals("mulpdu") || term.equals("mulpdu.untagged")) continue;
            if (sink && SINK.contains(term)) continue;
            int dot = term.indexOf('.');
            String name = dot < 0 ? term : term.substring(0, dot);
            if (dot < 0 || !buffers.contains(name)) {
                return "unknown term \"" + term + "\" (numbers, 0x hex, mulpdu, mulpdu.untagged"
                        + (sink ? ", sink.stag, sink.to" : "") + ", or a field of the buffers " + String.join(", ",
                        buffers) + ")";
            }
            if (!FIELDS.contains(term.substring(dot + 1))) {
                return "unknown field \"" + term.substring(dot + 1) + "\" of buffer " + name + " ("
                        + String.join(", ", FIELDS) + ")";
            }
        }
        return null;
    }

    /** Terms and operators alternately; a '-' that starts a term is its sign. */
    private static List<String> split(String e) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i <= e.length()) {
            int j = i;
            while (j < e.length() && e.charAt(j) != '+' && e.charAt(j) != '^' && (e.charAt(j) != '-' || j == i)) j++;
            out.add(e.substring(i, j));
            if (j >= e.length()) break;
            out.add(String.valueOf(e.charAt(j)));
            i = j + 1;
        }
        return out;
    }
}
