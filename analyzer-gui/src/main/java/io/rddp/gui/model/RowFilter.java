package io.rddp.gui.model;

import io.rddp.filter.DisplayFilter;
import io.rddp.filter.FieldRecord;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Runs a display filter over the rows of a session, off the UI thread: the recorded field trees are read back in
 * file order (sequential reads, whatever the capture's size) into the same {@link FieldRecord} the CLI's
 * {@code decode -Y} fills, with {@code tcp.*}, {@code ip.*} and the violations at each PDU's frame.
 */
public final class RowFilter {
    private RowFilter() {
    }

    /** Growable list of row numbers. */
    public static final class Rows {
        private long[] rows = new long[1024];
        private int size;

        public void addAll(Rows other) {
            for (int i = 0; i < other.size; i++) add(other.rows[i]);
        }

        public void add(long row) {
            if (size == rows.length) rows = Arrays.copyOf(rows, size * 2);
            rows[size++] = row;
        }

        public int size() {
            return size;
        }

        public long get(int i) {
            return rows[i];
        }
    }

    /**
     * The rows of {@code [from, to)} that match; null when {@code cancelled} said stop.
     */
    public static Rows run(CaptureSession session, DisplayFilter filter, long from, long to,
                           BooleanSupplier cancelled) throws IOException {
        Rows out = new Rows();
        PduIndex index = session.index();
        from = Math.max(from, index.first());
        if (from >= to) return out;
        FieldRecord record = new FieldRecord();
        long[] row = {from};
        long start = index.detail(from);
        long end = to >= index.size() ? session.store().size() : index.detail(to);
        boolean[] stopped = {false};
        session.store().scan(start, end, record, (offset, header) -> {
            if ((row[0] & 1023) == 0 && cancelled.getAsBoolean()) {
                stopped[0] = true;
                return false;
            }
            addConnection(record, header);
            List<Object> frame = record.get("frame");
            List<String>[] v = session.violationNames(frame.isEmpty() ? 0 : (Long) frame.get(0));
            DisplayFilter.addViolations(record, v[0], v[1]);
            if (filter.matches(record)) out.add(row[0]);
            record.clear();
            row[0]++;
            return true;
        });
        return stopped[0] ? null : out;
    }

    /** tcp.* and ip.* from the "ip:port" texts of the row. */
    private static void addConnection(FieldRecord record, DetailStore.Header h) {
        List<Object> stream = record.get("stream");
        int s = stream.isEmpty() ? -1 : (int) (long) (Long) stream.get(0);
        DisplayFilter.addConnection(record, s, address(h.source()), port(h.source()), address(h.destination()),
                port(h.destination()));
    }

    static String address(String endpoint) {
        int i = endpoint.lastIndexOf(':');
        String a = i < 0 ? endpoint : endpoint.substring(0, i);
        return a.startsWith("[") && a.endsWith("]") ? a.substring(1, a.length() - 1) : a;
    }

    static int port(String endpoint) {
        int i = endpoint.lastIndexOf(':');
        try {
            return i < 0 ? 0 : Integer.parseInt(endpoint.substring(i + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
