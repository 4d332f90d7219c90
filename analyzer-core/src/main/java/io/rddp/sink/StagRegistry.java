package io.rddp.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * STags the user declared (RFC 5040 §3.2 gives what the ULP passes when it enables an STag). The model believes it:
 * an access the registry does not allow is an error, an STag it does not list is unverifiable unless the model runs
 * strict. Several registrations of one STag may cover different sides, streams or frame windows.
 */
public final class StagRegistry {

    /** What the registry says about one access. */
    public enum Verdict {
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
    public record Resolution(Verdict verdict, StagRegistration registration) {
    }

    private static final Resolution UNKNOWN = new Resolution(Verdict.UNKNOWN, null);

    private final Map<Long, List<StagRegistration>> byStag = new HashMap<>();

    public static StagRegistry empty() {
        return new StagRegistry();
    }

    public StagRegistry add(StagRegistration r) {
        byStag.computeIfAbsent(r.stag(), k -> new ArrayList<>(1)).add(r);
        return this;
    }

    public boolean isEmpty() {
        return byStag.isEmpty();
    }

    public List<StagRegistration> registrations(long stag) {
        return List.copyOf(byStag.getOrDefault(stag, List.of()));
    }

    /** What the registry says about using {@code stag} of {@code owner}'s on {@code stream} at {@code frame}. */
    public Resolution resolve(long stag, Side owner, int stream, long frame) {
        List<StagRegistration> regs = byStag.get(stag);
        if (regs == null) return UNKNOWN;
        Verdict best = Verdict.UNKNOWN;
        for (StagRegistration r : regs) {
            if (r.owner() != null && r.owner() != owner) continue;
            if (!r.appliesTo(stream)) {
                if (best == Verdict.UNKNOWN) best = Verdict.OTHER_STREAM;
                continue;
            }
            if (r.validAt(frame)) return new Resolution(Verdict.VALID, r);
            best = Verdict.NOT_VALID_AT_FRAME;
        }
        return best == Verdict.UNKNOWN ? UNKNOWN : new Resolution(best, null);
    }
}
