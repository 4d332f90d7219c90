package io.rddp.ddp;

import io.rddp.ddp.DdpMessage.End;
import io.rddp.ddp.DdpMessage.Kind;
import io.rddp.ddp.DdpMessage.Problem;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Follows the DDP messages of one direction of one stream from its segments, in stream order, and reports each
 * message as a {@link DdpMessage} when it completes or is given up. Keeps no payload; memory is bounded by the cap on
 * open messages (plus {@link #MAX_PROBLEMS} problems each).
 * <p>
 * Which message a segment belongs to (RFC 5041 §5.2): untagged by (QN, MSN); tagged by STag and TO continuity — a
 * tagged segment joins the open message with its STag whose next TO it starts at, else the most recent open message
 * with its STag (recording the discontinuity, since RFC 5041 §5.3 only says SHOULD for increasing TO), else it starts
 * a new message. A zero-length tagged segment with L set that continues nothing is a message of its own (RFC 5041
 * §5.2: zero-length messages are one segment, and their STag and TO are not to be checked).
 * <p>
 * Not thread-safe; one instance per direction.
 */
public final class DdpMessageAssembler {

    public static final int DEFAULT_MAX_OPEN = 64;
    public static final int MAX_PROBLEMS = 16;

    private final int maxOpen;
    private final Consumer<DdpMessage> sink;
    /** open messages, oldest first; small, so a scan beats a map, and the previous message is checked first */
    private final List<Open> open = new ArrayList<>();
    private Open previous;
    private long evicted;

    public DdpMessageAssembler(Consumer<DdpMessage> sink) {
        this(DEFAULT_MAX_OPEN, sink);
    }

    /**
     * @param maxOpen messages that may be open at once; opening one more evicts the oldest
     * @param sink    receives every message, complete or not
     */
    public DdpMessageAssembler(int maxOpen, Consumer<DdpMessage> sink) {
        if (maxOpen < 1) throw new IllegalArgumentException("maxOpen must be at least 1: " + maxOpen);
        this.maxOpen = maxOpen;
        this.sink = sink;
    }

    public void accept(DdpSegment segment, long frame) {
        accept(segment.header(), segment.payloadLength(), frame);
    }

    /** The next segment of this direction: its header, how many payload bytes followed it, and its frame. */
    public void accept(DdpHeader header, int payloadLength, long frame) {
        if (payloadLength < 0) throw new IllegalArgumentException("payload length " + payloadLength);
        Open m = find(header, payloadLength);
        if (previous != null && previous != m && previous.isOpen) {
            previous.problem(Kind.INTERLEAVED, frame, "segment of " + (m == null ? describe(header) : m.name())
                    + " came before this message's last segment");
        }
        if (m == null) {
            m = start(header, frame);
        } else {
            m.add(header, frame);
        }
        m.grow(header, payloadLength, frame);
        if (header.last()) {
            open.remove(m);
            m.isOpen = false;
            sink.accept(m.toMessage(End.COMPLETE));
        }
        previous = m;
    }

    /** Reports every open message as {@link End#ABANDONED} (end of capture, or a gap in the stream) and forgets it. */
    public void abandonAll() {
        for (Open m : open) {
            m.isOpen = false;
            sink.accept(m.toMessage(End.ABANDONED));
        }
        open.clear();
        previous = null;
    }

    public int openMessages() {
        return open.size();
    }

    /** Messages pushed out by the cap so far. */
    public long evicted() {
        return evicted;
    }

    private Open find(DdpHeader h, int payloadLength) {
        if (h instanceof UntaggedHeader u) {
            if (previous != null && previous.isOpen && previous.matches(u)) return previous;
            for (int i = open.size() - 1; i >= 0; i--) {
                if (open.get(i).matches(u)) return open.get(i);
            }
            return null;
        }
        TaggedHeader t = (TaggedHeader) h;
        if (previous != null && previous.isOpen && previous.continues(t)) return previous;
        Open sameStag = null;
        for (int i = open.size() - 1; i >= 0; i--) {
            Open o = open.get(i);
            if (o.continues(t)) return o;
            if (sameStag == null && o.tagged && o.stag == t.stag()) sameStag = o;
        }
        return payloadLength == 0 && t.last() ? null : sameStag;
    }

    private Open start(DdpHeader h, long frame) {
        if (open.size() >= maxOpen) {
            Open oldest = open.remove(0);
            oldest.isOpen = false;
            evicted++;
            sink.accept(oldest.toMessage(End.EVICTED));
        }
        Open m = new Open(h, frame);
        open.add(m);
        return m;
    }

    private static String describe(DdpHeader h) {
        return h instanceof UntaggedHeader u ? "QN " + u.qn() + " MSN " + u.msn()
                : "STag 0x" + Long.toHexString(((TaggedHeader) h).stag());
    }

    private static final class Open {
        final boolean tagged;
        final long qn, msn, stag, baseOffset, rsvdUlp;
        final int version;
        final long firstFrame;
        long lastFrame;
        long nextOffset;
        long length;
        int segments;
        boolean isOpen = true;
        List<Problem> problems;
        int problemCount;

        Open(DdpHeader h, long frame) {
            tagged = h.tagged();
            if (h instanceof UntaggedHeader u) {
                qn = u.qn();
                msn = u.msn();
                stag = -1;
                rsvdUlp = u.rsvdUlp();
                if (u.mo() != 0) {
                    problem(Kind.FIRST_MO_NOT_ZERO, frame, "first segment seen has MO " + u.mo());
                }
            } else {
                TaggedHeader t = (TaggedHeader) h;
                qn = -1;
                msn = -1;
                stag = t.stag();
                rsvdUlp = t.rsvdUlp();
            }
            version = h.version();
            baseOffset = h.offset();
            nextOffset = h.offset();
            firstFrame = frame;
        }

        boolean matches(UntaggedHeader u) {
            return !tagged && qn == u.qn() && msn == u.msn();
        }

        boolean continues(TaggedHeader t) {
            return tagged && stag == t.stag() && nextOffset == t.to();
        }

        String name() {
            return tagged ? "STag 0x" + Long.toHexString(stag) : "QN " + qn + " MSN " + msn;
        }

        /** Checks a segment that continues this message; grow() then accounts for it. */
        void add(DdpHeader h, long frame) {
            if (h.offset() != nextOffset) {
                problem(tagged ? Kind.TO_NOT_CONTIGUOUS : Kind.MO_NOT_CONTIGUOUS, frame,
                        (tagged ? "expected TO " : "expected MO ") + Long.toUnsignedString(nextOffset)
                                + ", got " + Long.toUnsignedString(h.offset()));
            }
            long ulp = h instanceof UntaggedHeader u ? u.rsvdUlp() : ((TaggedHeader) h).rsvdUlp();
            if (ulp != rsvdUlp) {
                problem(Kind.RSVD_ULP_CHANGED, frame, "RsvdULP 0x" + Long.toHexString(ulp) + ", first segment had 0x"
                        + Long.toHexString(rsvdUlp));
            }
            if (h.version() != version) {
                problem(Kind.VERSION_CHANGED, frame, "DV " + h.version() + ", first segment had DV " + version);
            }
        }

        void grow(DdpHeader h, int payloadLength, long frame) {
            long end = h.offset() + payloadLength;
            if (tagged) {
                if (payloadLength > 0 && Long.compareUnsigned(end, h.offset()) < 0) {
                    problem(Kind.TO_WRAP, frame, "TO " + Long.toUnsignedString(h.offset()) + " + "
                            + payloadLength + " bytes passes 2^64");
                }
            } else if (end > 0xFFFF_FFFFL) {
                // MO + payload length is the message length so far (RFC 5041 §5.4), which must stay below 2^32
                problem(Kind.LENGTH_OVERFLOW, frame, "MO " + h.offset() + " + " + payloadLength
                        + " bytes reaches 2^32");
            }
            nextOffset = end;
            length += payloadLength;
            segments++;
            lastFrame = frame;
        }

        void problem(Kind kind, long frame, String detail) {
            problemCount++;
            if (problems == null) problems = new ArrayList<>(4);
            if (problems.size() < MAX_PROBLEMS) problems.add(new Problem(kind, frame, detail));
        }

        DdpMessage toMessage(End end) {
            return new DdpMessage(tagged, qn, msn, stag, baseOffset, length, segments, firstFrame, lastFrame, rsvdUlp,
                    end, problems == null ? List.of() : problems, problemCount);
        }
    }
}
