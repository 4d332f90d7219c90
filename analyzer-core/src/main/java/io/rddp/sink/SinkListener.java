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

    /** A stream ended (both sides closed) or the capture ended. */
    default void onStreamFinished(StreamSummary summary) {
    }
}
