package io.rddp.stats;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** An aligned text table (as tshark's {@code -z conv} prints them): numbers right, words left, two spaces apart. */
final class TextTable {
    private final String[] headers;
    private final boolean[] right;
    private final List<String[]> rows = new ArrayList<>();

    /** @param columns header names; a leading '>' marks a right-aligned (numeric) column */
    TextTable(String... columns) {
        headers = new String[columns.length];
        right = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            right[i] = columns[i].startsWith(">");
            headers[i] = right[i] ? columns[i].substring(1) : columns[i];
        }
    }

    TextTable row(Object... cells) {
        if (cells.length != headers.length) throw new IllegalArgumentException("row of " + cells.length + " cells");
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) r[i] = String.valueOf(cells[i]);
        rows.add(r);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintWriter out) {
        int[] w = new int[headers.length];
        for (int i = 0; i < headers.length; i++) w[i] = headers[i].length();
        for (String[] r : rows) for (int i = 0; i < r.length; i++) w[i] = Math.max(w[i], r[i].length());
        line(out, headers, w);
        for (String[] r : rows) line(out, r, w);
    }

    private void line(PrintWriter out, String[] cells, int[] w) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) sb.append("  ");
            String c = cells[i];
            String pad = " ".repeat(w[i] - c.length());
            sb.append(right[i] ? pad + c : i == cells.length - 1 ? c : c + pad);
        }
        out.println(sb.toString().stripTrailing());
    }
}
