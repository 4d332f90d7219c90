package io.rddp.ddp;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The Data Source side of RFC 5041 §5.2: splits one DDP message into segments no larger than MULPDU. Payloads are
 * views of the message buffer, not copies.
 */
public final class DdpSegmenter {

    private DdpSegmenter() {
    }

    /**
     * Segments {@code message} (position to limit, not moved) after the header template {@code first}: every segment
     * carries the template's fields (RsvdULP, STag or QN/MSN, DV, Rsvd) with the TO/MO advanced by the payload
     * already sent (RFC 5041 §5.2), and L set only on the last (RFC 5041 §4.1). A zero-length message is one segment
     * (RFC 5041 §5.2). The template's own L flag is ignored; its offset is the message's starting TO or MO. Offsets
     * wrap as the wire fields do (TO modulo 2^64, MO modulo 2^32), so a wrap can be produced on purpose.
     *
     * @param mulpdu the largest segment (header + payload), RFC 5041 §5.2; must exceed the header length
     */
    public static List<DdpSegment> segment(DdpHeader first, ByteBuffer message, int mulpdu) {
        int room = mulpdu - first.headerLength();
        if (room <= 0) {
            throw new IllegalArgumentException("MULPDU " + mulpdu + " leaves no room after the "
                    + first.headerLength() + "-byte DDP header");
        }
        int total = message.remaining();
        List<DdpSegment> out = new ArrayList<>(Math.max(1, (total + room - 1) / room));
        int done = 0;
        do {
            int n = Math.min(room, total - done);
            ByteBuffer payload = message.duplicate();
            payload.position(message.position() + done).limit(message.position() + done + n);
            boolean last = done + n == total;
            out.add(new DdpSegment(first.withOffset(first.offset() + done).withLast(last), payload.slice()));
            done += n;
        } while (done < total);
        return out;
    }

    /** Tagged message to {@code stag} starting at {@code baseTo}, with DV 1 and Rsvd 0. */
    public static List<DdpSegment> tagged(long stag, long baseTo, int rsvdUlp, ByteBuffer message, int mulpdu) {
        return segment(TaggedHeader.of(false, rsvdUlp, stag, baseTo), message, mulpdu);
    }

    /** Untagged message (QN, MSN) starting at MO 0, with DV 1 and Rsvd 0. */
    public static List<DdpSegment> untagged(long qn, long msn, long rsvdUlp, ByteBuffer message, int mulpdu) {
        return segment(UntaggedHeader.of(false, rsvdUlp, qn, msn, 0), message, mulpdu);
    }
}
