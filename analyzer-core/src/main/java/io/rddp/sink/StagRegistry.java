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
public final class StagRegistry implements StagDirectory {

    private final Map<Long, List<StagRegistration>> byStag = new HashMap<>();

    public static StagRegistry empty() {
        return new StagRegistry();
    }

    public StagRegistry add(StagRegistration r) {
        byStag.computeIfAbsent(r.stag(), k -> new ArrayList<>(1)).add(r);
        return this;
    }

    /**
     * The owner revoked remote access to {@code stag} (deregistration, local invalidation; RFC 5040 §2.4): every
     * registration of it that is still valid after {@code frame} ends at {@code frame}.
     */
    public StagRegistry revoke(long stag, long frame) {
        List<StagRegistration> regs = byStag.get(stag);
        if (regs == null) return this;
        for (int i = 0; i < regs.size(); i++) {
            StagRegistration r = regs.get(i);
            if (r.validUntilFrame() <= frame) continue;
            long from = Math.min(r.validFromFrame(), frame);
            regs.set(i, new StagRegistration(r.stag(), r.baseTo(), r.length(), r.access(), r.owner(), r.streams(), from,
                    frame));
        }
        return this;
    }

    public boolean isEmpty() {
        return byStag.isEmpty();
    }

    @Override
    public List<StagRegistration> registrations(long stag) {
        return List.copyOf(byStag.getOrDefault(stag, List.of()));
    }

    @Override
    public Resolution resolve(long stag, Side owner, int stream, long frame) {
        List<StagRegistration> regs = byStag.get(stag);
        if (regs == null) return Resolution.UNKNOWN;
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
        return best == Verdict.UNKNOWN ? Resolution.UNKNOWN : new Resolution(best, null);
    }
}
