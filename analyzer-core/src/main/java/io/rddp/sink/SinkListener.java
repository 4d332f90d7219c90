package io.rddp.sink;

import io.rddp.Notice;

/** Receives what the {@link SinkModel} finds. Only {@link #onViolation} must be implemented. */
public interface SinkListener {

    /** A departure from the RFCs (or, at INFO, a check the capture cannot decide). */
    void onViolation(Violation violation);

    /** Facts about the analysis itself: state dropped to stay within bounds, reports suppressed, gaps. */
    default void onNotice(Notice notice) {
    }

    /** A DDP message completed, in the delivery order of its stream direction (for pictures of the exchange). */
    default void onDelivery(Delivery delivery) {
    }

    /**
     * The receiver of a PDU in error now owes a Terminate (RFC 5040 §7.1), booked right after the violation that
     * explains it. Nothing is booked once either side of the stream has sent a Terminate.
     */
    default void onTerminateOwed(OwedTerminate owed) {
    }

    /** A stream ended (both sides closed) or the capture ended. */
    default void onStreamFinished(StreamSummary summary) {
    }
}
