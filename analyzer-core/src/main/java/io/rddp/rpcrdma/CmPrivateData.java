package io.rddp.rpcrdma;

import java.nio.ByteBuffer;

/**
 * RPC-over-RDMA version 1 connection private data (RFC 8797 §5.1), carried on iWARP as the ULP part of the MPA
 * Request/Reply private data: format identifier 0xF6AB0E18, version 1, flags (bit 0: Remote Invalidation
 * accepted), then the sender's largest Send and Receive sizes, each encoded as (octets / 1024) - 1.
 */
public record CmPrivateData(int version, boolean remoteInvalidation, int sendSize, int receiveSize) {
    /** RFC 8797 §8 (IANA "RDMA-CM Private Data Identifiers"). */
    public static final long FORMAT_IDENTIFIER = 0xF6AB0E18L;
    public static final int LENGTH = 8;

    /** Decodes {@code data} when it starts with the RFC 8797 format identifier and version 1, else null. */
    public static CmPrivateData parse(byte[] data) {
        if (data == null || data.length < LENGTH) return null;
        ByteBuffer b = ByteBuffer.wrap(data);
        if ((b.getInt(0) & 0xFFFF_FFFFL) != FORMAT_IDENTIFIER) return null;
        int version = b.get(4) & 0xFF;
        if (version != 1) return null; // RFC 8797 §5.1: other versions have other layouts
        int flags = b.get(5) & 0xFF;
        return new CmPrivateData(version, (flags & 1) != 0, decodeSize(b.get(6)), decodeSize(b.get(7)));
    }

    /** RFC 8797 §5.1: "the value ... plus one, multiplied by 1024". */
    static int decodeSize(byte encoded) {
        return ((encoded & 0xFF) + 1) * 1024;
    }

    public byte[] toBytes() {
        for (int size : new int[]{sendSize, receiveSize}) {
            if (size < 1024 || size > 256 * 1024 || size % 1024 != 0) {
                throw new IllegalArgumentException("RFC 8797 sizes are multiples of 1024 from 1 KiB to 256 KiB: " + size);
            }
        }
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.putInt((int) FORMAT_IDENTIFIER).put((byte) version).put((byte) (remoteInvalidation ? 1 : 0))
                .put((byte) (sendSize / 1024 - 1)).put((byte) (receiveSize / 1024 - 1));
        return b.array();
    }
}
