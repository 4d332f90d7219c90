package io.rddp.capture;

import java.nio.ByteBuffer;

/**
 * Layout of the 16-octet pcap packet record header (draft-ietf-opsawg-pcap §5 "Packet Record"), shared by
 * {@link PcapReader} and {@link PcapWriter}. All fields are 32-bit unsigned in the file's byte order.
 */
final class PcapRecord {
    static final int TIMESTAMP_SECONDS = 0;
    /** Microseconds or nanoseconds within the second, as the file's magic number says. */
    static final int TIMESTAMP_FRACTION = 4;
    static final int CAPTURED_LENGTH = 8;
    static final int ORIGINAL_LENGTH = 12;
    static final int HEADER = 16;

    private PcapRecord() {
    }

    /** Writes a record header at the buffer's position in the buffer's byte order and advances past it. */
    static void writeHeader(ByteBuffer b, long seconds, long fraction, int capturedLength, int originalLength) {
        b.putInt((int) seconds);
        b.putInt((int) fraction);
        b.putInt(capturedLength);
        b.putInt(originalLength);
    }
}
