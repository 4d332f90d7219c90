package io.rddp.tcp;

import java.nio.ByteBuffer;

/**
 * Hands out one {@link Endpoint} instance per (address, port) read straight from frame bytes, so that decoding a
 * steady stream of packets allocates nothing. Fixed size, 4-way set associative with round-robin replacement: memory
 * stays bounded however many endpoints a capture holds; a miss costs one allocation.
 */
final class EndpointCache {
    private static final int WAYS = 4;

    private final byte[][] addresses;
    private final int[] ports;
    private final Endpoint[] endpoints;
    private final byte[] victim;
    private final int setMask;

    /** @param sets number of 4-entry sets, rounded up to a power of two */
    EndpointCache(int sets) {
        int n = Integer.highestOneBit(Math.max(1, sets - 1)) << 1;
        addresses = new byte[n * WAYS][];
        ports = new int[n * WAYS];
        endpoints = new Endpoint[n * WAYS];
        victim = new byte[n];
        setMask = n - 1;
    }

    /** The endpoint for {@code length} (4 or 16) address bytes at absolute index {@code at} of {@code buf}. */
    Endpoint get(ByteBuffer buf, int at, int length, int port) {
        // same value as Endpoint.hashCode(): 31 * Arrays.hashCode(address) + port
        int h = 1;
        for (int i = 0; i < length; i++) {
            h = 31 * h + buf.get(at + i);
        }
        h = 31 * h + port;
        int mixed = h * 0x9E3779B9;
        int set = (mixed ^ (mixed >>> 16)) & setMask;
        int base = set * WAYS;
        for (int w = base; w < base + WAYS; w++) {
            Endpoint e = endpoints[w];
            if (e != null && ports[w] == port && e.hashCode() == h && sameBytes(addresses[w], buf, at, length)) {
                return e;
            }
        }
        byte[] address = new byte[length];
        buf.get(at, address);
        Endpoint e = new Endpoint(address, port);
        int w = base + victim[set];
        victim[set] = (byte) ((victim[set] + 1) % WAYS);
        addresses[w] = address;
        ports[w] = port;
        endpoints[w] = e;
        return e;
    }

    private static boolean sameBytes(byte[] a, ByteBuffer buf, int at, int length) {
        if (a.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (a[i] != buf.get(at + i)) {
                return false;
            }
        }
        return true;
    }
}
