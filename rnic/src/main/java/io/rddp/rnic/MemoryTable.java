package io.rddp.rnic;

import io.rddp.sink.Side;
import io.rddp.sink.StagDirectory;
import io.rddp.sink.StagRegistration;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The RNIC's memory registrations and their STags (the part of Linux siw's siw_mem.c that hands out STags). An STag
 * is a 24-bit index and an 8-bit key, both drawn from a cryptographic random source: RFC 5042 §5.1.2 asks that STags
 * not be predictable, since a guessed STag is an open door to remote memory. Thread-safe.
 *
 * <p>The total cap ({@link RnicConfig.Limits#maxMemory()}) counts every buffer a request makes the RNIC hold:
 * registrations, and the buffers of its own that work requests carry ({@link #charge}: receives posted without a
 * region, the data of a Send or Write given inline), each until its work request is over.
 */
public final class MemoryTable {

    private static final int INDEX_SPACE = 1 << 24;

    private final RnicConfig.Limits limits;
    private final boolean zeroBasedTo;
    private final SecureRandom random = new SecureRandom();
    private final Map<Integer, MemoryRegion> byIndex = new HashMap<>();
    private final Map<Integer, MemoryRegion> byId = new HashMap<>();
    private long memory;
    /** buffers of the RNIC's own, by work request id: {queue pair number, octets} */
    private final Map<Long, long[]> charges = new HashMap<>();
    private int nextId = 1;
    private final boolean sequential;
    private int nextIndex = 1;

    MemoryTable(RnicConfig.Limits limits, boolean zeroBasedTo, boolean sequential) {
        this.limits = limits;
        this.zeroBasedTo = zeroBasedTo;
        this.sequential = sequential;
    }

    /** Registers {@code length} octets with {@code access} in {@code pd}. */
    public synchronized MemoryRegion register(ProtectionDomain pd, int length, Set<Access> access) {
        if (length < 0) throw new RnicException(RnicException.Kind.BAD_REQUEST, "length " + length + " is negative");
        if (length > limits.maxMrSize()) {
            throw new RnicException(RnicException.Kind.RESOURCE_LIMIT, "a region of " + length + " octets exceeds the "
                    + limits.maxMrSize() + "-octet cap");
        }
        if (byId.size() >= limits.maxMr()) throw RnicException.limit("memory registrations", limits.maxMr());
        if (memory + length > limits.maxMemory()) {
            throw new RnicException(RnicException.Kind.RESOURCE_LIMIT, "a region of " + length + " octets would take"
                    + " the RNIC's memory (registrations and buffers of its own, " + memory + " octets now) past its "
                    + limits.maxMemory() + "-octet cap");
        }
        int index;
        do {
            index = sequential ? nextIndex++ & (INDEX_SPACE - 1) : random.nextInt(INDEX_SPACE);
        } while (index == 0 || byIndex.containsKey(index)); // index 0 stays unused: STag 0 is the RTR Write's
        int key = sequential ? 0x42 : random.nextInt(256); // Bug.SEQUENTIAL_STAGS: a counter and a constant key
        long stag = ((long) index << 8) | key;
        // a page-aligned address in the lower half of a 47-bit user space, as a verbs application would register
        long baseTo = zeroBasedTo ? 0 : (0x5000_0000_0000L | ((random.nextLong() & 0x0FFF_FFFF_FFFFL) & ~0xFFFL));
        MemoryRegion r = new MemoryRegion(nextId++, stag, baseTo, length, access, pd);
        byIndex.put(index, r);
        byId.put(r.id(), r);
        memory += length;
        return r;
    }

    /**
     * Counts a buffer of the RNIC's own that work request {@code wrId} of queue pair {@code qpn} holds against the
     * total cap, before it is allocated.
     *
     * @throws RnicException RESOURCE_LIMIT when it would exceed the cap
     */
    public synchronized void charge(long wrId, int qpn, long octets) {
        if (octets < 0) throw new RnicException(RnicException.Kind.BAD_REQUEST, "length " + octets + " is negative");
        if (memory + octets > limits.maxMemory()) {
            throw new RnicException(RnicException.Kind.RESOURCE_LIMIT, "a buffer of " + octets + " octets would take"
                    + " the RNIC's memory (registrations and buffers of its own, " + memory + " octets now) past its "
                    + limits.maxMemory() + "-octet cap");
        }
        long[] old = charges.put(wrId, new long[]{qpn, octets});
        if (old != null) memory -= old[1];
        memory += octets;
    }

    /** Work request {@code wrId} is over: its buffer no longer counts (nothing when it had none). */
    public synchronized void discharge(long wrId) {
        if (charges.isEmpty()) return;
        long[] c = charges.remove(wrId);
        if (c != null) memory -= c[1];
    }

    /** The queue pair is destroyed: none of its buffers count any more. */
    synchronized void dischargeQp(int qpn) {
        for (java.util.Iterator<long[]> it = charges.values().iterator(); it.hasNext(); ) {
            long[] c = it.next();
            if (c[0] == qpn) {
                memory -= c[1];
                it.remove();
            }
        }
    }

    /** Octets counted against the total cap now: registrations and buffers of the RNIC's own. */
    public synchronized long used() {
        return memory;
    }

    public synchronized void deregister(MemoryRegion r) {
        if (byId.remove(r.id()) == null) return;
        byIndex.remove((int) (r.stag() >>> 8));
        r.state(MemoryRegion.State.DEREGISTERED);
        memory -= r.length();
    }

    public synchronized MemoryRegion byId(int id) {
        MemoryRegion r = byId.get(id);
        if (r == null) throw new RnicException(RnicException.Kind.NOT_FOUND, "no memory region " + id);
        return r;
    }

    /** The region whose STag (index and key) is {@code stag}, whatever its state, or null. */
    public synchronized MemoryRegion lookup(long stag) {
        MemoryRegion r = byIndex.get((int) ((stag >>> 8) & 0xFF_FFFF));
        return r != null && r.stag() == stag ? r : null;
    }

    public synchronized List<MemoryRegion> regions() {
        return new ArrayList<>(byId.values());
    }

    public synchronized int size() {
        return byId.size();
    }

    /**
     * The STags as the sink model of one queue pair sees them: regions of the queue pair's protection domain are
     * valid for it, regions of another domain are "not associated" with its stream (RFC 5041 §7.2, RFC 5040 §7.2),
     * invalidated regions are not valid (RFC 5040 §2.4), unknown STags are unknown (the model runs strict, so they are
     * invalid). Only STags this side owns are resolved.
     */
    StagDirectory directory(ProtectionDomain pd, Side self, Set<Bug> bugs) {
        return new StagDirectory() {
            @Override
            public Resolution resolve(long stag, Side owner, int stream, long frame) {
                // the peer's STags are the peer's to judge: to this side's model any access to them is allowed
                if (owner != self) return new Resolution(Verdict.VALID, new StagRegistration(stag, 0, -1L,
                        EnumSet.allOf(StagRegistration.Access.class), owner, Set.of(), 0, Long.MAX_VALUE));
                MemoryRegion r = lookup(stag);
                if (r == null || r.state() == MemoryRegion.State.DEREGISTERED) return Resolution.UNKNOWN;
                if (!r.pd().equals(pd)) return new Resolution(Verdict.OTHER_STREAM, null);
                if (r.state() == MemoryRegion.State.INVALID && !bugs.contains(Bug.STAG_AFTER_INVALIDATE)) {
                    return new Resolution(Verdict.NOT_VALID_AT_FRAME, null);
                }
                Set<StagRegistration.Access> rights = bugs.contains(Bug.NO_ACCESS_CHECK)
                        ? EnumSet.allOf(StagRegistration.Access.class) : Access.remote(r.access());
                return new Resolution(Verdict.VALID, new StagRegistration(stag, r.baseTo(), r.length(), rights, self,
                        Set.of(), 0, Long.MAX_VALUE));
            }

            @Override
            public List<StagRegistration> registrations(long stag) {
                MemoryRegion r = lookup(stag);
                if (r == null) return List.of();
                return List.of(new StagRegistration(stag, r.baseTo(), r.length(), Access.remote(r.access()), self,
                        Set.of(), 0, Long.MAX_VALUE));
            }
        };
    }
}
