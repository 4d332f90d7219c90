package io.rddp.gui;

import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.decode.PduSummary;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The packet list the window shows, fed by the same decode events as the CLI. Rows are copies (the pipeline's
 * views die with each callback); beyond {@code maxRows} the oldest rows are dropped and counted, so a live
 * capture cannot grow the window's memory without end.
 */
public final class PacketListModel implements PduListener {
    private final int maxRows;
    private final ArrayList<PacketRow> rows = new ArrayList<>();
    private long dropped;

    public PacketListModel(int maxRows) {
        if (maxRows < 1) throw new IllegalArgumentException("maxRows must be at least 1, was " + maxRows);
        this.maxRows = maxRows;
    }

    @Override
    public void onPdu(Pdu pdu) {
        if (rows.size() == maxRows) {
            // Drop the oldest half at once: removing from the front one by one would be quadratic.
            int drop = Math.max(1, maxRows / 2);
            rows.subList(0, drop).clear();
            dropped += drop;
        }
        rows.add(new PacketRow(pdu.frame(), pdu.relativeNanos(), pdu.stream(), pdu.source().toString(),
                pdu.destination().toString(), PduSummary.protocol(pdu), PduSummary.info(pdu, new StringBuilder()).toString()));
    }

    public List<PacketRow> rows() {
        return Collections.unmodifiableList(rows);
    }

    /** Rows dropped to stay within maxRows. */
    public long dropped() {
        return dropped;
    }
}
