package io.rddp.rnic;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * How an emulated RNIC behaves: what it asks for in MPA (RFC 5044 §7.1, RFC 6581), its limits, and the faults it is
 * told to have.
 *
 * @param revisions       MPA revisions accepted from a peer (1: RFC 5044, 2: RFC 6581); the highest is requested
 * @param crc             ask for CRC32c (C = 1); CRCs are used when either side asks (RFC 5044 §7.1.1)
 * @param markers         ask for Markers on what this side receives (M = 1, RFC 5044 §7.1.1)
 * @param acceptMarkers   send Markers when the peer asks for them; false rejects such a peer (as siw does)
 * @param ird             inbound RDMA Read/Atomic Requests allowed at once (RFC 5040 §6.1), advertised in RFC 6581 data
 * @param ord             outbound RDMA Read/Atomic Requests at once
 * @param peerToPeer      initiate peer-to-peer connections (RFC 6581 §9.2: A = 1, then an RTR)
 * @param rtr             RTR types offered and accepted (RFC 6581 §9.2)
 * @param mss             TCP maximum segment size the FPDUs are sized for (MULPDU, RFC 5044 §4.1, §8)
 * @param zeroBasedTo     Tagged Offsets start at 0 in every region; otherwise at a random page-aligned "virtual
 *                        address", as siw and most RNICs use
 * @param limits          resource caps
 * @param bugs            faults to have on purpose
 * @param mpaTimeout      how long the whole MPA start frame exchange may take from the TCP connection on (a peer
 *                        silent after connecting, or one that trickles its start frame, is closed); 3 s by default
 */
public record RnicConfig(Set<Integer> revisions, boolean crc, boolean markers, boolean acceptMarkers, int ird,
                         int ord, boolean peerToPeer, Set<Rtr> rtr, int mss, boolean zeroBasedTo, Limits limits,
                         Set<Bug> bugs, Duration mpaTimeout) {

    /** RFC 6581 §9.2 Ready-to-Receive indications, in the order this RNIC prefers them. */
    public enum Rtr {
        WRITE("write"), SEND("send"), READ("read");

        private final String wireName;

        Rtr(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Rtr byWireName(String s) {
            for (Rtr r : values()) if (r.wireName.equals(s)) return r;
            throw new IllegalArgumentException("unknown RTR type \"" + s + "\" (known: write, send, read)");
        }
    }

    /**
     * Caps; reaching one gives a clear error (a verb) or an event (the peer's traffic).
     *
     * @param maxQp          connections at once
     * @param maxMr          memory registrations at once
     * @param maxMrSize      octets of one registration
     * @param maxMemory      octets of all registrations and buffers of the RNIC's own (receives posted without a
     *                       region, inline data of Sends and Writes) together
     * @param maxRecvWr      posted receives per queue pair
     * @param maxSendWr      outstanding send-queue work requests per queue pair
     * @param maxIrdOrd      the largest IRD/ORD this RNIC negotiates
     * @param maxPending     connections waiting for a manual accept, or handed out by none yet
     * @param maxMessage     octets of one message this RNIC sends
     */
    public record Limits(int maxQp, int maxMr, int maxMrSize, long maxMemory, int maxRecvWr, int maxSendWr,
                         int maxIrdOrd, int maxPending, int maxMessage) {
        /** The caps for this JVM: {@link #forHeap(long)} of {@code Runtime.maxMemory()}. */
        public static Limits defaults() {
            return forHeap(Runtime.getRuntime().maxMemory());
        }

        /**
         * The caps for a JVM whose heap may grow to {@code heap} octets, so that no request can make the RNIC run out
         * of memory (a request over a cap is refused with resource-limit):
         * <pre>
         *   maxMemory = min(1 GiB,  heap / 4)   all registrations and buffers of the RNIC's own together
         *   maxMrSize = min(64 MiB, heap / 8)   one registration, one receive buffer
         * </pre>
         * The other three quarters are for what is bounded otherwise (request lines of 1 MiB, completions, the
         * recorder, the sink model, the garbage collector's room). The launcher's 256 MiB heap gives 64 MiB in all
         * and 32 MiB a region; a bigger heap (RDDP_JAVA_OPTS=-Xmx1g) raises them, up to 1 GiB and 64 MiB.
         */
        public static Limits forHeap(long heap) {
            long h = Math.max(heap, 16L << 20);
            long total = Math.min(1L << 30, h / 4);
            int region = (int) Math.min(64L << 20, h / 8);
            return new Limits(64, 4096, region, total, 1024, 1024, 64, 32, 64 << 20);
        }

        public Limits withMemory(long total, int region) {
            return new Limits(maxQp, maxMr, region, total, maxRecvWr, maxSendWr, maxIrdOrd, maxPending, maxMessage);
        }
    }

    public RnicConfig {
        revisions = Set.copyOf(revisions);
        rtr = rtr.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(rtr));
        bugs = bugs.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(bugs));
        if (revisions.isEmpty() || !Set.of(1, 2).containsAll(revisions)) {
            throw new IllegalArgumentException("MPA revisions must be 1 and/or 2, got " + revisions);
        }
        if (ird < 0 || ord < 0 || ird > limits.maxIrdOrd() || ord > limits.maxIrdOrd()) {
            throw new IllegalArgumentException("IRD/ORD must be 0.." + limits.maxIrdOrd() + ", got " + ird + "/" + ord);
        }
        if (mss < 64 || mss > 65495) throw new IllegalArgumentException("MSS must be 64..65495, got " + mss);
        if (peerToPeer && rtr.isEmpty()) throw new IllegalArgumentException("peer-to-peer needs at least one RTR type");
    }

    public static RnicConfig defaults() {
        return new RnicConfig(Set.of(1, 2), false, false, true, 16, 16, false, EnumSet.allOf(Rtr.class), 1460, false,
                Limits.defaults(), Set.of(), Duration.ofSeconds(3));
    }

    public int highestRevision() {
        return revisions.contains(2) ? 2 : 1;
    }

    public boolean has(Bug b) {
        return bugs.contains(b);
    }

    public RnicConfig withRevisions(Set<Integer> v) {
        return new RnicConfig(v, crc, markers, acceptMarkers, ird, ord, peerToPeer, rtr, mss, zeroBasedTo, limits,
                bugs, mpaTimeout);
    }

    public RnicConfig withCrc(boolean v) {
        return new RnicConfig(revisions, v, markers, acceptMarkers, ird, ord, peerToPeer, rtr, mss, zeroBasedTo, limits,
                bugs, mpaTimeout);
    }

    public RnicConfig withMarkers(boolean v) {
        return new RnicConfig(revisions, crc, v, acceptMarkers, ird, ord, peerToPeer, rtr, mss, zeroBasedTo, limits,
                bugs, mpaTimeout);
    }

    public RnicConfig withAcceptMarkers(boolean v) {
        return new RnicConfig(revisions, crc, markers, v, ird, ord, peerToPeer, rtr, mss, zeroBasedTo, limits, bugs,
                mpaTimeout);
    }

    public RnicConfig withIrdOrd(int i, int o) {
        return new RnicConfig(revisions, crc, markers, acceptMarkers, i, o, peerToPeer, rtr, mss, zeroBasedTo, limits,
                bugs, mpaTimeout);
    }

    public RnicConfig withPeerToPeer(boolean p2p, Set<Rtr> types) {
        return new RnicConfig(revisions, crc, markers, acceptMarkers, ird, ord, p2p, types, mss, zeroBasedTo, limits,
                bugs, mpaTimeout);
    }

    public RnicConfig withMss(int v) {
        return new RnicConfig(revisions, crc, markers, acceptMarkers, ird, ord, peerToPeer, rtr, v, zeroBasedTo, limits,
                bugs, mpaTimeout);
    }

    public RnicConfig withZeroBasedTo(boolean v) {
        return new RnicConfig(revisions, crc, markers, acceptMarkers, ird, ord, peerToPeer, rtr, mss, v, limits, bugs,
                mpaTimeout);
    }

    public RnicConfig withLimits(Limits v) {
        return new RnicConfig(revisions, crc, markers, acceptMarkers, ird, ord, peerToPeer, rtr, mss, zeroBasedTo, v,
                bugs, mpaTimeout);
    }

    public RnicConfig withBugs(Set<Bug> v) {
        return new RnicConfig(revisions, crc, markers, acceptMarkers, ird, ord, peerToPeer, rtr, mss, zeroBasedTo,
                limits, v, mpaTimeout);
    }

    public RnicConfig withMpaTimeout(Duration v) {
        return new RnicConfig(revisions, crc, markers, acceptMarkers, ird, ord, peerToPeer, rtr, mss, zeroBasedTo,
                limits, bugs, v);
    }
}
