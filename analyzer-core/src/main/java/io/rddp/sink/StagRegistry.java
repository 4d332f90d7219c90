package io.rddp.sink;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /**
     * {@inheritDoc}
     * <p>
     * Several registrations valid for the same side, stream and frame describe one memory region: an STag names one
     * region with one base and one bound at a time (RFC 5040 §2.1 "STag", §5.1), and a ULP may advertise several
     * pieces of it under that STag, e.g. two segments of one RPC-over-RDMA Write chunk, or the same region in
     * successive calls (RFC 8166 §3.4.3: a segment is a handle, a length and an offset, nothing makes a handle
     * unique to one segment). Each piece proves that much of the region exists and the region is contiguous in TO
     * space, so it spans at least from the lowest advertised offset to the highest advertised end: that span, with
     * the union of the rights, is what they resolve to. An access outside every piece and the span between them is
     * still outside the region as far as the wire shows (RFC 5041 §7.1 tagged checks 3-4).
     */
    @Override
    public Resolution resolve(long stag, Side owner, int stream, long frame) {
        List<StagRegistration> regs = byStag.get(stag);
        if (regs == null) return Resolution.UNKNOWN;
        Verdict best = Verdict.UNKNOWN;
        StagRegistration valid = null;
        for (StagRegistration r : regs) {
            if (r.owner() != null && r.owner() != owner) continue;
            if (!r.appliesTo(stream)) {
                if (best == Verdict.UNKNOWN) best = Verdict.OTHER_STREAM;
                continue;
            }
            if (r.validAt(frame)) {
                valid = valid == null ? r : span(valid, r);
                continue;
            }
            if (best != Verdict.VALID) best = Verdict.NOT_VALID_AT_FRAME;
        }
        if (valid != null) return new Resolution(Verdict.VALID, valid);
        return best == Verdict.UNKNOWN ? Resolution.UNKNOWN : new Resolution(best, null);
    }

    /** One region covering both registrations (all offsets unsigned 64-bit; an end past 2^64 saturates). */
    private static StagRegistration span(StagRegistration a, StagRegistration b) {
        long base = Long.compareUnsigned(a.baseTo(), b.baseTo()) <= 0 ? a.baseTo() : b.baseTo();
        long endA = end(a), endB = end(b);
        long end = Long.compareUnsigned(endA, endB) >= 0 ? endA : endB;
        Set<StagRegistration.Access> access = EnumSet.noneOf(StagRegistration.Access.class);
        access.addAll(a.access());
        access.addAll(b.access());
        Set<Integer> streams = new HashSet<>();
        if (!a.streams().isEmpty() && !b.streams().isEmpty()) {
            streams.addAll(a.streams());
            streams.addAll(b.streams());
        }
        return new StagRegistration(a.stag(), base, end - base, access, a.owner() == b.owner() ? a.owner() : null,
                streams, Math.min(a.validFromFrame(), b.validFromFrame()),
                Math.min(a.validUntilFrame(), b.validUntilFrame()));
    }

    private static long end(StagRegistration r) {
        long end = r.baseTo() + r.length();
        return Long.compareUnsigned(end, r.baseTo()) < 0 ? -1L : end;
    }
}
