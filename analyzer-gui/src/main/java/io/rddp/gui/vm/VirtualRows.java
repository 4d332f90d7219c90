package io.rddp.gui.vm;

import io.rddp.gui.model.CaptureSession;
import io.rddp.gui.model.DetailStore;
import io.rddp.gui.model.PduIndex;
import io.rddp.gui.model.RowFilter;
import javafx.collections.ObservableListBase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The packet list as the TableView sees it: a list whose size is the number of rows (all, or those a filter kept)
 * and whose elements are made on demand from the index and the field store, so only the visible rows ever exist
 * (plus a small cache). Changes are announced on the FX thread by {@link #show}.
 */
public final class VirtualRows extends ObservableListBase<PacketRow> {
    private static final int CACHE = 1024;

    private CaptureSession session;
    private long first;
    private long end;
    private RowFilter.Rows filtered;
    private final Map<Long, PacketRow> cache = new LinkedHashMap<>(CACHE, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, PacketRow> e) {
            return size() > CACHE;
        }
    };

    /** Shows rows {@code [first, end)} of the session, or only {@code filtered} of them. FX thread. */
    void show(CaptureSession session, long first, long end, RowFilter.Rows filtered) {
        int oldSize = size();
        boolean sameBase = session == this.session && first == this.first && filtered == this.filtered
                && filtered == null;
        this.session = session;
        this.first = first;
        this.end = end;
        this.filtered = filtered;
        if (!sameBase) cache.clear();
        int newSize = size();
        beginChange();
        if (sameBase && newSize >= oldSize) {
            if (newSize > oldSize) nextAdd(oldSize, newSize);
        } else {
            nextRemove(0, Collections.nCopies(oldSize, (PacketRow) null));
            if (newSize > 0) nextAdd(0, newSize);
        }
        endChange();
    }

    /** Global row number of list position {@code i}. */
    public long rowAt(int i) {
        return filtered != null ? filtered.get(i) : first + i;
    }

    /** List position of a global row number, or -1 when not shown. */
    public int indexOfRow(long row) {
        if (filtered == null) return row >= first && row < end ? (int) (row - first) : -1;
        int lo = 0, hi = filtered.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long v = filtered.get(mid);
            if (v < row) lo = mid + 1;
            else if (v > row) hi = mid - 1;
            else return mid;
        }
        return -1;
    }

    @Override
    public PacketRow get(int i) {
        long row = rowAt(i);
        PacketRow r = cache.get(row);
        if (r == null) {
            r = build(session, row);
            cache.put(row, r);
        }
        return r;
    }

    static PacketRow build(CaptureSession session, long row) {
        PduIndex x = session.index();
        try {
            DetailStore.Header h = session.store().header(x.detail(row));
            return new PacketRow(row, x.frame(row), x.time(row), x.stream(row), h.source(), h.destination(),
                    h.protocol(), x.length(row), h.info(), x.flags(row));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public int size() {
        if (session == null) return 0;
        return filtered != null ? filtered.size() : (int) Math.min(Integer.MAX_VALUE, end - first);
    }

    /** Forgets cached rows (their violation flags may have changed). */
    void invalidate() {
        cache.clear();
    }
}
