package io.rddp.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * Marks on the PDUs of one connection for the report: its ends, the fields the tester injected faults into, the
 * DUT's faulty ones. Bounded by {@link #MAX}. Not thread-safe: callers hold the connection's lock.
 */
final class WireMarks {

    /** Marks kept, at most. */
    static final int MAX = 256;

    private final int localPort, remotePort;
    private final List<WireMark> marks = new ArrayList<>();

    WireMarks(int localPort, int remotePort) {
        this.localPort = localPort;
        this.remotePort = remotePort;
        marks.add(new WireMark(WireMark.Kind.CONNECTION, localPort, remotePort, 0, 0, List.of(), ""));
    }

    void mark(WireMark.Kind kind, long from, long to, List<String> fields, String what) {
        if (marks.size() < MAX) marks.add(new WireMark(kind, localPort, remotePort, from, to, fields, what));
    }

    /** Whether more marks would still be kept. */
    boolean room() {
        return marks.size() < MAX;
    }

    /** A mark on the DUT's PDU at {@code offset} in its direction, not kept here (the caller reports it). */
    WireMark dutMark(long offset, List<String> fields, String what) {
        return new WireMark(WireMark.Kind.OFFENDING, localPort, remotePort, offset, offset + 1, fields, what);
    }

    List<WireMark> list() {
        return new ArrayList<>(marks);
    }
}
