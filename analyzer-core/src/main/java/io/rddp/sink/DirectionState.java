package io.rddp.sink;

import io.rddp.count.DirectionCounter;
import io.rddp.ddp.DdpHeader;
import io.rddp.tcp.Direction;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the reference Data Sink of one stream direction remembers about what its peer sent it: open messages, the
 * next MSN per queue, requests awaiting responses, placements, and the Terminate it owes. All of it bounded.
 */
final class DirectionState {

    /** RDMAP queues: 0 Send, 1 Read Request, 2 Terminate (RFC 5040 §3.1), 3 Atomic Response (RFC 7306 §10.2). */
    static final int QUEUES = 4;
    static final int RECENT = 64;
    static final int MAX_OWED = 16;

    final Direction direction;

    // counters
    long segments, messages, bytesPlaced, bytesDelivered, deliveries;
    /** completed messages per opcode: segments, 1 each, ULP message octets */
    final DirectionCounter byOpcode = new DirectionCounter();
    long firstFpduFrame = -1;
    long lastFrame = -1;
    boolean closed;

    // DDP (RFC 5041)
    final long[] nextMsn = new long[QUEUES];
    final boolean[] msnKnown = new boolean[QUEUES];
    final List<OpenMessage> open = new ArrayList<>();
    OpenMessage previous;
    boolean versionReported, reservedReported, rdmapVersionReported, rdmapReservedReported;

    // RDMAP (RFC 5040)
    long terminateFrame = -1;
    boolean afterTerminateReported, afterExitReported;
    /** FPDUs with PAD octets not zero (RFC 5044 §4.1), reported once per direction when the stream ends */
    long padCount, padFirstOffset = -1;
    int padFirstUlpduLength;
    final long[] padFrames = new long[PAD_FRAMES];
    static final int PAD_FRAMES = 8;
    /** frame of the last Send-type or Immediate Data message this side completed */
    long lastSendFrame = -1;
    /** requests this side sent, oldest first, whose responses have not started */
    final ArrayDeque<Outstanding> outstanding = new ArrayDeque<>();
    /** responses to this side's requests that started but did not complete */
    int responsesInProgress;
    /** outbound Read/Atomic Requests allowed at once, -1 when not negotiated (RFC 6581 §9.1) */
    int outstandingLimit = -1;
    /** {@link #outstandingLimit} is the receiving endpoint's own IRD, not a number the MPA exchange carried */
    boolean outstandingLimitOwn;
    boolean limitUnknownReported;

    /** Terminates this side owes for what its peer sent (RFC 5040 §7.1), first offending PDU first */
    final List<Expectation> owed = new ArrayList<>();

    // recent segments this side sent, to find what a Terminate of the peer refers to (RFC 5040 §4.8)
    private final long[] recentFrames = new long[RECENT];
    private final DdpHeader[] recentHeaders = new DdpHeader[RECENT];
    private int recentNext, recentCount;

    /** per STag this side wrote into since it last signalled completion (RFC 5040 §5.5) */
    private final LinkedHashMap<Long, Placed> placed;
    // The buffer of the last lookup: the segments of one tagged message write one buffer in a row, and a lookup in
    // the map boxes the STag and reorders the map's entries. It is always the map's most recently used entry.
    private long lastPlacedStag;
    private Placed lastPlaced;
    final Set<Long> unknownStagsReported = new HashSet<>();
    final Set<Long> crossStreamReported = new HashSet<>();

    // reporting limits
    final int[] reports = new int[Check.values().length];
    final int[] suppressed = new int[Check.values().length];
    boolean placementDropNoticed, coarsenNoticed, openDropNoticed, outstandingDropNoticed, unknownCapNoticed;

    /** Bytes of one tagged buffer written since the writer's last completion signal. */
    static final class Placed {
        final RangeSet ranges;
        boolean overlapReported;

        Placed(int capacity) {
            ranges = new RangeSet(capacity);
        }
    }

    DirectionState(Direction direction, int maxBuffers) {
        this.direction = direction;
        // RFC 5040 §5.4: one Terminate per stream, on QN 2, whose MSN therefore is always the initial 1 (RFC 5041
        // §4.3), even when the capture missed the start
        nextMsn[2] = 1;
        msnKnown[2] = true;
        this.placed = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Placed> eldest) {
                if (size() <= maxBuffers) return false;
                if (eldest.getValue() == lastPlaced) lastPlaced = null;
                return true;
            }
        };
    }

    /** What this side wrote into {@code stag} since its last completion signal, or null. */
    Placed placed(long stag) {
        if (lastPlaced != null && lastPlacedStag == stag) return lastPlaced;
        Placed p = placed.get(stag);
        if (p != null) {
            lastPlacedStag = stag;
            lastPlaced = p;
        }
        return p;
    }

    void placed(long stag, Placed p) {
        lastPlacedStag = stag;
        lastPlaced = p;
        placed.put(stag, p);
    }

    int placedBuffers() {
        return placed.size();
    }

    void forEachPlaced(java.util.function.BiConsumer<Long, Placed> action) {
        placed.forEach(action); // in the order of use: forEach does not reorder
    }

    /** The writes into {@code stag} are determinate now (RFC 5040 §5.5). */
    void forgetPlaced(long stag) {
        placed.remove(stag);
        if (lastPlaced != null && lastPlacedStag == stag) lastPlaced = null;
    }

    /** All writes of this side are determinate now (RFC 5040 §5.5). */
    void forgetAllPlaced() {
        placed.clear();
        lastPlaced = null;
    }

    void remember(long frame, DdpHeader header) {
        recentFrames[recentNext] = frame;
        recentHeaders[recentNext] = header;
        recentNext = (recentNext + 1) % RECENT;
        if (recentCount < RECENT) recentCount++;
    }

    /** Frame of the most recent segment this side sent with exactly this header, or -1. */
    long findRecent(DdpHeader header) {
        for (int k = 1; k <= recentCount; k++) {
            int i = (recentNext - k + RECENT) % RECENT;
            if (header.equals(recentHeaders[i])) return recentFrames[i];
        }
        return -1;
    }

    int recentCount() {
        return recentCount;
    }

    int outstandingCount() {
        return outstanding.size() + responsesInProgress;
    }

    void resetMessages() {
        open.clear();
        previous = null;
        for (int q = 0; q < QUEUES; q++) {
            if (q != 2) msnKnown[q] = false;
        }
        forgetAllPlaced();
    }
}
