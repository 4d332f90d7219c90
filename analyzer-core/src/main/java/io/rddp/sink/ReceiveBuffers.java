package io.rddp.sink;

/**
 * What a receiver knows of the untagged buffers it posted (RFC 5041 §7.1 untagged checks 2 to 4: "The QN and MSN
 * have an associated buffer", "the sum of the DDP Segment payload length and the MO falls in the range of legal
 * offsets"). A capture does not show posted buffers, so the analyzer answers {@link #UNKNOWN}; an emulated RNIC
 * answers from its receive queue, and a tester that posted the DUT's receives through a control channel from what it
 * posted.
 */
@FunctionalInterface
public interface ReceiveBuffers {

    /** Nothing known: the checks are not made. */
    long UNKNOWN = -2;
    /** No buffer is posted for this message. */
    long NONE = -1;

    /** Knows nothing (the analyzer's view of a capture). */
    ReceiveBuffers NOT_KNOWN = (stream, receiver, qn, msn) -> UNKNOWN;

    /**
     * The length of the buffer that takes untagged message ({@code qn}, {@code msn}) at {@code receiver}, {@link #NONE}
     * when none is posted, or {@link #UNKNOWN}. Asked once per message, when its first segment arrives.
     */
    long length(int stream, Side receiver, long qn, long msn);
}
