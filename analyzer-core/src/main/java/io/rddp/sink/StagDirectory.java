package io.rddp.sink;

import java.util.List;

/**
 * Where the model looks STags up (RFC 5040 §3.2: what the ULP passes when it enables an STag). A
 * {@link StagRegistry} is a fixed list the user declares for a capture; an emulated RNIC answers from its live memory
 * registrations, so the same rules judge a capture and the RNIC's receive path.
 */
public interface StagDirectory {

    /** What the directory says about one access. */
    enum Verdict {
        /** nothing registered for this STag */
        UNKNOWN,
        /** a registration covers side, stream and frame */
        VALID,
        /** registered for this side, but only for other streams */
        OTHER_STREAM,
        /** registered for this side and stream, but not valid at this frame */
        NOT_VALID_AT_FRAME
    }

    /** A verdict and, for VALID, the registration that grants it. */
    record Resolution(Verdict verdict, StagRegistration registration) {
        public static final Resolution UNKNOWN = new Resolution(Verdict.UNKNOWN, null);
    }

    /** What the directory says about using {@code stag} of {@code owner}'s on {@code stream} at {@code frame}. */
    Resolution resolve(long stag, Side owner, int stream, long frame);

    /** Every registration of {@code stag} (for messages). */
    List<StagRegistration> registrations(long stag);
}
