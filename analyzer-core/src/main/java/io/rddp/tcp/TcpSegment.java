package io.rddp.tcp;

import java.nio.ByteBuffer;

/**
 * One decoded TCP segment. A flyweight: {@link PacketDecoder#decode} refills the same instance for every frame, and
 * {@link #payload()} is a view into the frame's bytes, valid only until the frame is refilled. Copy what must
 * outlive that.
 */
public final class TcpSegment {
    private Endpoint source;
    private Endpoint destination;
    private long sequence;
    private long acknowledgment;
    private int flags;
    private int window;
    private ByteBuffer payload;
    private int payloadStart;
    private int capturedLength;
    private int payloadLength;
    private long frame;
    private long timestampNanos;

    /**
     * Fills every field; used by the decoder and by anyone feeding a {@link TcpReassembler} directly.
     *
     * @param payload       the captured payload bytes between position and limit (kept by reference, not copied)
     * @param payloadLength the payload length on the wire, at least {@code payload.remaining()}; larger when the
     *                      capture cut the frame short (snaplen)
     */
    public TcpSegment set(Endpoint source, Endpoint destination, long sequence, long acknowledgment, int flags,
                          int window, ByteBuffer payload, int payloadLength, long frame, long timestampNanos) {
        if (payloadLength < payload.remaining()) {
            throw new IllegalArgumentException("payload length " + payloadLength + " below the "
                    + payload.remaining() + " captured bytes");
        }
        this.source = source;
        this.destination = destination;
        this.sequence = sequence & 0xffffffffL;
        this.acknowledgment = acknowledgment & 0xffffffffL;
        this.flags = flags;
        this.window = window;
        this.payload = payload;
        this.payloadStart = payload.position();
        this.capturedLength = payload.remaining();
        this.payloadLength = payloadLength;
        this.frame = frame;
        this.timestampNanos = timestampNanos;
        return this;
    }

    /** Source endpoint; the decoder hands out cached instances, so a steady stream does not allocate. */
    public Endpoint source() {
        return source;
    }

    public Endpoint destination() {
        return destination;
    }

    /** Sequence number, unsigned 32 bits. */
    public long sequence() {
        return sequence;
    }

    /** Acknowledgment number, unsigned 32 bits (meaningful only with ACK set). */
    public long acknowledgment() {
        return acknowledgment;
    }

    /** Control bits, see the {@link TcpHeader} constants. */
    public int flags() {
        return flags;
    }

    public boolean syn() {
        return (flags & TcpHeader.SYN) != 0;
    }

    public boolean fin() {
        return (flags & TcpHeader.FIN) != 0;
    }

    public boolean rst() {
        return (flags & TcpHeader.RST) != 0;
    }

    public boolean ack() {
        return (flags & TcpHeader.ACK) != 0;
    }

    /** Window field as on the wire, unscaled. */
    public int window() {
        return window;
    }

    /**
     * The captured payload between position and limit, reset to the whole captured payload on every call. The same
     * view object is handed out for every segment a decoder fills from the same frame buffer, so whoever reads it
     * may move its position and limit.
     */
    public ByteBuffer payload() {
        payload.limit(payloadStart + capturedLength).position(payloadStart);
        return payload;
    }

    /** Payload length on the wire (from the IP length fields). */
    public int payloadLength() {
        return payloadLength;
    }

    /** Payload bytes actually captured: less than {@link #payloadLength()} when the frame was cut by snaplen. */
    public int capturedPayloadLength() {
        return capturedLength;
    }

    public boolean truncated() {
        return capturedLength < payloadLength;
    }

    /** 1-based number of the frame that carried this segment. */
    public long frame() {
        return frame;
    }

    public long timestampNanos() {
        return timestampNanos;
    }

    @Override
    public String toString() {
        return "frame " + frame + " " + source + " -> " + destination + " [" + TcpHeader.flagNames(flags) + "] seq="
                + sequence + " ack=" + acknowledgment + " win=" + window + " len=" + payloadLength
                + (truncated() ? " (captured " + capturedLength + ")" : "");
    }
}
