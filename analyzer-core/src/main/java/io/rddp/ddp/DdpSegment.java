package io.rddp.ddp;

import io.rddp.MalformedException;

import java.nio.ByteBuffer;

/**
 * One DDP segment (RFC 5041 §4.4): a header and the ULP payload after it. {@link #payload()} is a view, not a copy:
 * when parsed from a ULPDU it is valid only as long as that ULPDU's bytes are.
 *
 * @param header  the DDP header
 * @param payload the bytes after the header, position 0 to limit = payload length
 */
public record DdpSegment(DdpHeader header, ByteBuffer payload) {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    public DdpSegment {
        if (header == null) throw new IllegalArgumentException("header is required");
        payload = payload == null ? EMPTY : payload;
    }

    /**
     * Splits a ULPDU (position to limit; RFC 5044 §4.1, markers removed) into header and payload view without
     * moving its position.
     *
     * @throws MalformedException when the ULPDU is too short for the header its T bit announces
     */
    public static DdpSegment parse(ByteBuffer ulpdu) throws MalformedException {
        DdpHeader header = DdpHeader.parse(ulpdu);
        int hl = header.headerLength();
        return new DdpSegment(header, ulpdu.slice(ulpdu.position() + hl, ulpdu.remaining() - hl));
    }

    public int payloadLength() {
        return payload.remaining();
    }

    /** Header plus payload: the ULPDU length an MPA layer frames. */
    public int length() {
        return header.headerLength() + payload.remaining();
    }

    /** Writes header and payload at out's position and advances it; the payload view is not moved. */
    public void writeTo(ByteBuffer out) {
        NetworkOrder.writing(out, o -> {
            header.writeTo(o);
            o.put(payload.duplicate());
        });
    }

    /** The segment as a new heap buffer, position 0, limit {@link #length()}. */
    public ByteBuffer toByteBuffer() {
        ByteBuffer out = ByteBuffer.allocate(length());
        writeTo(out);
        return out.flip();
    }

    @Override
    public String toString() {
        return header + " payload " + payload.remaining();
    }
}
