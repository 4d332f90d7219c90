package io.rddp.sink;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * STags the user declared (RFC 5040 §3.2 gives what the ULP passes when it enables an STag), and STags a ULP
 * advertised on the wire (an RPC-over-RDMA chunk segment, an rping buffer: {@link #advertise}). The model believes
 * them: an access the registry does not allow is an error, an STag it does not list is unverifiable unless the model
 * runs strict. Several registrations of one STag may cover different sides, streams or frame windows.
 * <p>
 * A declaration is the whole truth about its STag: when one is valid it is what the STag resolves to, the first one
 * listed when several are. Advertisements are pieces of the truth: an STag names one memory region with one base
 * and one bound at a time (RFC 5040 §2.1 "STag", §5.1), and a ULP may advertise several pieces of it under that STag,
 * e.g. two segments of one RPC-over-RDMA Write chunk, or the same region again in a later call (RFC 8166 §3.4.3: a
 * segment is a handle, a length and an offset; nothing makes a handle unique to one segment). Each piece proves that
 * much of the region exists and the region is contiguous in TO space, so the advertisements valid at a frame resolve
 * to the span from the lowest advertised offset to the highest advertised end, with the union of their rights. An
 * access outside that span is still outside the region as far as the wire shows (RFC 5041 §7.1 tagged checks 3-4).
 */
public final class StagRegistry implements StagDirectory {

    private final Map<Long, List<StagRegistration>> declared = new HashMap<>();
    private final Map<Long, List<StagRegistration>> advertised = new HashMap<>();

    public static StagRegistry empty() {
        return new StagRegistry();
    }

    /** A registration the user or the tester declared (e.g. `--stags`): exactly the STag's base and bounds. */
    public StagRegistry add(StagRegistration r) {
        declared.computeIfAbsent(r.stag(), k -> new ArrayList<>(1)).add(r);
        return this;
    }

    /** A piece of the STag's region a ULP advertised on the wire: the region is at least the span of its pieces. */
    public StagRegistry advertise(StagRegistration r) {
        advertised.computeIfAbsent(r.stag(), k -> new ArrayList<>(1)).add(r);
        return this;
    }

    /**
     * The owner revoked remote access to {@code stag} (deregistration, local invalidation; RFC 5040 §2.4): every
     * registration of it that is still valid after {@code frame} ends at {@code frame}.
     */
    public StagRegistry revoke(long stag, long frame) {
        revoke(declared.get(stag), frame);
        revoke(advertised.get(stag), frame);
        return this;
    }

    private static void revoke(List<StagRegistration> regs, long frame) {
        if (regs == null) return;
        for (int i = 0; i < regs.size(); i++) {
            StagRegistration r = regs.get(i);
            if (r.validUntilFrame() <= frame) continue;
            long from = Math.min(r.validFromFrame(), frame);
            regs.set(i, new StagRegistration(r.stag(), r.baseTo(), r.length(), r.access(), r.owner(), r.streams(), from,
                    frame));
        }
    }

    public boolean isEmpty() {
        return declared.isEmpty() && advertised.isEmpty();
    }

    @Override
    public List<StagRegistration> registrations(long stag) {
        List<StagRegistration> all = new ArrayList<>(declared.getOrDefault(stag, List.of()));
        all.addAll(advertised.getOrDefault(stag, List.of()));
        return List.copyOf(all);
    }

    @Override
    public Resolution resolve(long stag, Side owner, int stream, long frame) {
        List<StagRegistration> decl = declared.get(stag), adv = advertised.get(stag);
        if (decl == null && adv == null) return Resolution.UNKNOWN;
        Verdict best = Verdict.UNKNOWN;
        for (StagRegistration r : decl == null ? List.<StagRegistration>of() : decl) {
            Verdict v = verdict(r, owner, stream, frame);
            if (v == Verdict.VALID) return new Resolution(Verdict.VALID, r);
            best = better(best, v);
        }
        StagRegistration span = null;
        for (StagRegistration r : adv == null ? List.<StagRegistration>of() : adv) {
            Verdict v = verdict(r, owner, stream, frame);
            if (v == Verdict.VALID) span = span == null ? r : span(span, r);
            else best = better(best, v);
        }
        if (span != null) return new Resolution(Verdict.VALID, span);
        return best == Verdict.UNKNOWN ? Resolution.UNKNOWN : new Resolution(best, null);
    }

    /** What one registration says: UNKNOWN when it is another side's, else VALID, OTHER_STREAM or NOT_VALID_AT_FRAME. */
    private static Verdict verdict(StagRegistration r, Side owner, int stream, long frame) {
        if (r.owner() != null && r.owner() != owner) return Verdict.UNKNOWN;
        if (!r.appliesTo(stream)) return Verdict.OTHER_STREAM;
        return r.validAt(frame) ? Verdict.VALID : Verdict.NOT_VALID_AT_FRAME;
    }

    /** A registration for this stream but not this frame says more than one for another stream. */
    private static Verdict better(Verdict a, Verdict b) {
        if (a == Verdict.NOT_VALID_AT_FRAME || b == Verdict.NOT_VALID_AT_FRAME) return Verdict.NOT_VALID_AT_FRAME;
        if (a == Verdict.OTHER_STREAM || b == Verdict.OTHER_STREAM) return Verdict.OTHER_STREAM;
        return Verdict.UNKNOWN;
    }

    /** One region covering both pieces (all offsets unsigned 64-bit; an end past 2^64 saturates). */
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
