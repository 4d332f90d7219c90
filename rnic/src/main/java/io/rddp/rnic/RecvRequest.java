package io.rddp.rnic;

/**
 * A posted receive (libibverbs' {@code ibv_recv_wr}): the buffer the next Send lands in (RFC 5040 §5.3).
 *
 * @param wrId   the caller's id
 * @param region where the message is placed
 * @param offset offset in {@code region}
 * @param length room for the message
 * @param own    the buffer is the RNIC's own (not the caller's region): completions carry its data
 */
public record RecvRequest(long wrId, MemoryRegion region, int offset, int length, boolean own) {
}
