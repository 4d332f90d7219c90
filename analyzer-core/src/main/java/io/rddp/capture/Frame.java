package io.rddp.capture;

import java.nio.ByteBuffer;

/**
 * One captured frame. A flyweight: a reader refills the same instance on every call, and {@link #data()} is a view
 * into the reader's buffer that is valid only until the next call. Copy what must outlive that.
 */
public final class Frame {
    /** 1-based frame number, counted as tshark counts (every record of the file, whatever its link type). */
    public long number;
    /** Capture time in nanoseconds since the epoch, already scaled from the file's resolution. */
    public long timestampNanos;
    /** LINKTYPE_* value of the interface the frame was captured on (see {@link LinkType}). */
    public int linkType;
    /** Length of the frame on the wire; may exceed the captured length. */
    public int originalLength;
    /** Offset in the (uncompressed) file of the record that holds this frame. */
    public long fileOffset;
    /** pcapng interface id, 0 for pcap. */
    public int interfaceId;
    /** Captured bytes, position 0 to limit = captured length, big-endian order. */
    public ByteBuffer data;
    /** pcapng opt_comment of the packet, or null. */
    public String comment;

    public int capturedLength() {
        return data.remaining();
    }
}
