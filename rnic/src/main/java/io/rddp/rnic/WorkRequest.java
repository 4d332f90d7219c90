package io.rddp.rnic;

/**
 * A send-queue work request, like libibverbs' {@code ibv_send_wr} (one scatter/gather element). Built with the
 * static factories; the RNIC checks the local buffer and rights when it is posted.
 *
 * @param wrId           the caller's id, returned in the completion
 * @param op             the operation
 * @param local          local buffer (payload of Send/Write, Data Sink of Read, result of an atomic), or null
 * @param localOffset    offset of the payload in {@code local}
 * @param length         payload length (Read: RDMA Read Message Size)
 * @param inline         payload given inline instead of a local buffer, or null
 * @param remoteStag     Data Sink STag (Write), Data Source STag (Read), Remote STag (atomics)
 * @param remoteTo       the matching Tagged Offset
 * @param invalidateStag the STag a Send with Invalidate or a local invalidation names
 * @param immediate      Immediate Data (RFC 7306 §6)
 * @param compare        Compare Data of CmpSwap
 * @param swapOrAdd      Swap Data of CmpSwap, Add Data of FetchAdd
 * @param solicited      ask for a Solicited Event (the SE variants of Send and Immediate Data)
 * @param signaled       produce a completion on success
 */
public record WorkRequest(long wrId, Op op, MemoryRegion local, int localOffset, int length, byte[] inline,
                          long remoteStag, long remoteTo, long invalidateStag, long immediate, long compare,
                          long swapOrAdd, boolean solicited, boolean signaled) {

    /** Operations, with the RFC that defines each. */
    public enum Op {
        /** RFC 5040 §5.3 */
        SEND(WcOpcode.SEND),
        /** RFC 5040 §5.3, with an Invalidate STag */
        SEND_INV(WcOpcode.SEND),
        /** RFC 5040 §5.1 */
        WRITE(WcOpcode.WRITE),
        /** RFC 5040 §5.2 */
        READ(WcOpcode.READ),
        /** RFC 7306 §5.2 */
        FETCH_ADD(WcOpcode.FETCH_ADD),
        /** RFC 7306 §5.2 */
        CMP_SWAP(WcOpcode.CMP_SWAP),
        /** RFC 7306 §6 */
        IMMEDIATE(WcOpcode.IMMEDIATE),
        /** local invalidation (RFC 5040 §2.4 "Invalidate STag"): no traffic */
        LOCAL_INV(WcOpcode.LOCAL_INV);

        final WcOpcode completion;

        Op(WcOpcode completion) {
            this.completion = completion;
        }

        /** Whether it waits for a response and counts against ORD (RFC 5040 §6.1, RFC 7306 §5.2). */
        boolean outstanding() {
            return this == READ || this == FETCH_ADD || this == CMP_SWAP;
        }
    }

    public static WorkRequest send(long wrId, MemoryRegion local, int offset, int length, boolean solicited) {
        return new WorkRequest(wrId, Op.SEND, local, offset, length, null, 0, 0, 0, 0, 0, 0, solicited, true);
    }

    public static WorkRequest sendInline(long wrId, byte[] data, boolean solicited) {
        return new WorkRequest(wrId, Op.SEND, null, 0, data.length, data, 0, 0, 0, 0, 0, 0, solicited, true);
    }

    public static WorkRequest sendInvalidate(long wrId, MemoryRegion local, int offset, int length, byte[] inline,
                                             long invalidateStag, boolean solicited) {
        return new WorkRequest(wrId, Op.SEND_INV, local, offset, length, inline, 0, 0, invalidateStag, 0, 0, 0,
                solicited, true);
    }

    public static WorkRequest write(long wrId, MemoryRegion local, int offset, int length, byte[] inline, long stag,
                                    long to) {
        return new WorkRequest(wrId, Op.WRITE, local, offset, length, inline, stag, to, 0, 0, 0, 0, false, true);
    }

    public static WorkRequest read(long wrId, MemoryRegion sink, int offset, int length, long sourceStag,
                                   long sourceTo) {
        return new WorkRequest(wrId, Op.READ, sink, offset, length, null, sourceStag, sourceTo, 0, 0, 0, 0, false,
                true);
    }

    public static WorkRequest fetchAdd(long wrId, MemoryRegion result, int offset, long stag, long to, long add) {
        return new WorkRequest(wrId, Op.FETCH_ADD, result, offset, 8, null, stag, to, 0, 0, 0, add, false, true);
    }

    public static WorkRequest cmpSwap(long wrId, MemoryRegion result, int offset, long stag, long to, long compare,
                                      long swap) {
        return new WorkRequest(wrId, Op.CMP_SWAP, result, offset, 8, null, stag, to, 0, 0, compare, swap, false,
                true);
    }

    public static WorkRequest immediate(long wrId, long data, boolean solicited) {
        return new WorkRequest(wrId, Op.IMMEDIATE, null, 0, 0, null, 0, 0, 0, data, 0, 0, solicited, true);
    }

    public static WorkRequest localInvalidate(long wrId, long stag) {
        return new WorkRequest(wrId, Op.LOCAL_INV, null, 0, 0, null, 0, 0, stag, 0, 0, 0, false, true);
    }

    /** The same request, completing only on error when {@code s} is false. */
    public WorkRequest signaled(boolean s) {
        return new WorkRequest(wrId, op, local, localOffset, length, inline, remoteStag, remoteTo, invalidateStag,
                immediate, compare, swapOrAdd, solicited, s);
    }
}
