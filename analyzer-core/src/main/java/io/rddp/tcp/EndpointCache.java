package io.rddp.tcp;

import java.nio.ByteBuffer;

/**
 * Hands out one {@link Endpoint} instance per (address, port) read straight from frame bytes, so that decoding a
 * steady stream of packets allocates nothing. Fixed size, 4-way set associative with round-robin replacement: memory
 * stays bounded however many endpoints a capture holds; a miss costs one allocation.
 */
final class EndpointCache {
    private static final int WAYS = 4;

    // per way: the address as up to two longs (IPv4 in the low 32 bits of the first), its length, the port
    private final long[] hi;
    private final long[] lo;
    private final byte[] lengths;
    private final int[] ports;
    private final Endpoint[] endpoints;
    private final byte[] victim;
    private final int setMask;

    /** @param sets number of 4-entry sets, rounded up to a power of two */
    EndpointCache(int sets) {
        int n = Integer.highestOneBit(Math.max(1, sets - 1)) << 1;
        hi = new long[n * WAYS];
        lo = new long[n * WAYS];
        lengths = new byte[n * WAYS];
        ports = new int[n * WAYS];
        endpoints = new Endpoint[n * WAYS];
        victim = new byte[n];
        setMask = n - 1;
    }

    /** The endpoint for {@code length} (4 or 16) address bytes at absolute index {@code at} of {@code buf}. */
    Endpoint get(ByteBuffer buf, int at, int length, int port) {
        // the address read as whole words and compared as numbers: a few loads per endpoint, not a loop of bytes
        long a, b;
        if (length == 4) {
            a = buf.getInt(at) & 0xFFFF_FFFFL;
            b = 0;
        } else {
            a = buf.getLong(at);
            b = buf.getLong(at + 8);
        }
        long h = (a * 0x9E3779B97F4A7C15L) ^ (b * 0xC2B2AE3D27D4EB4FL) ^ (port * 0x165667B19E3779F9L);
        int set = (int) (h ^ (h >>> 32)) & setMask;
        int base = set * WAYS;
        for (int w = base; w < base + WAYS; w++) {
            Endpoint e = endpoints[w];
            if (e != null && ports[w] == port && hi[w] == a && lo[w] == b && lengths[w] == length) {
                return e;
            }
        }
        byte[] address = new byte[length];
        buf.get(at, address);
        Endpoint e = new Endpoint(address, port);
        int w = base + victim[set];
        victim[set] = (byte) ((victim[set] + 1) % WAYS);
        hi[w] = a;
        lo[w] = b;
        lengths[w] = (byte) length;
        ports[w] = port;
        endpoints[w] = e;
        return e;
    }
}
