package io.rddp.capture;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Writes packets to a capture file, buffered. Packet data is taken from a buffer's position to its limit without
 * moving the position. Timestamps are nanoseconds since 1970 and must not be negative.
 */
public interface CaptureWriter extends Closeable, Flushable {

    /**
     * Writes one packet.
     *
     * @param originalLength length on the wire, at least {@code data.remaining()}
     * @param comment        packet comment, or null; dropped by formats that cannot hold one (pcap)
     * @throws IllegalArgumentException for a negative timestamp, a packet longer than the file's SnapLen, or an
     *                                  original length below the captured one
     */
    void writePacket(long timestampNanos, ByteBuffer data, int originalLength, String comment) throws IOException;

    /**
     * Copies a frame read from another capture, e.g. to annotate it. A pcapng writer keeps the frame's link type by
     * adding an interface for it when needed; a pcap writer requires the file's link type.
     */
    void writeFrame(Frame frame, String comment) throws IOException;

    default void writeFrame(Frame frame) throws IOException {
        writeFrame(frame, frame.comment);
    }

    default void writePacket(long timestampNanos, ByteBuffer data) throws IOException {
        writePacket(timestampNanos, data, data.remaining(), null);
    }

    default void writePacket(long timestampNanos, ByteBuffer data, String comment) throws IOException {
        writePacket(timestampNanos, data, data.remaining(), comment);
    }

    default void writePacket(long timestampNanos, byte[] data) throws IOException {
        writePacket(timestampNanos, ByteBuffer.wrap(data), data.length, null);
    }

    default void writePacket(long timestampNanos, byte[] data, String comment) throws IOException {
        writePacket(timestampNanos, ByteBuffer.wrap(data), data.length, comment);
    }
}
