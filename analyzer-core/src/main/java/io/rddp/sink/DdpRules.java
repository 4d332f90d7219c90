package io.rddp.sink;

import io.rddp.Plural;
import io.rddp.Notice;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.tcp.Direction;

/**
 * Follows the DDP messages of each direction segment by segment (RFC 5041 §4, §5) and checks the DDP rules, handing
 * each message's start, body, tagged parts and completion to {@link RdmapRules}.
 * <p>
 * Which message a segment belongs to (RFC 5041 §5.2): untagged by (QN, MSN); tagged by STag and TO continuity,
 * else the open message of its STag (out of TO order), else, when its TO continues an open message with another
 * STag, that message (the STag changed, an error), else a new message. A zero-length tagged segment with L that
 * continues nothing is a message of its own.
 */
final class DdpRules {

    private static final long U32 = 0xFFFF_FFFFL;

    private final Reporter reporter;
    private final RdmapRules rdmap;
    private final int maxOpen;
    private final int coverageRanges;
    /** the receiver's posted untagged buffers, when known (an RNIC's own receive queue) */
    ReceiveBuffers buffers = ReceiveBuffers.NOT_KNOWN;

    DdpRules(Reporter reporter, RdmapRules rdmap, int maxOpen, int coverageRanges) {
        this.reporter = reporter;
        this.rdmap = rdmap;
        this.maxOpen = maxOpen;
        this.coverageRanges = coverageRanges;
    }

    void onSegment(StreamState s, DirectionState d, long frame, DdpSegment seg, RdmapPdu pdu, String decodeError) {
        DdpHeader h = seg.header();
        int len = seg.payloadLength();
        int ulpdu = seg.length();
        Direction dir = d.direction;
        d.segments++;
        d.lastFrame = frame;
        d.remember(frame, h);

        if (h.version() != 1 && !d.versionReported) {
            d.versionReported = true;
            // RFC 5041 §4.1: "This field MUST be set to one"; "the same for all the DDP Segments" of the stream
            ErrorType et = h.tagged() ? ErrorType.DDP_T_INVALID_VERSION : ErrorType.DDP_U_INVALID_VERSION;
            reporter.emit(s, dir, Check.DDP_VERSION, Severity.ERROR, et, Check.DDP_VERSION.rfc(),
                    Check.DDP_VERSION.section(), frame, new long[0], "DV " + h.version() + " (must be 1 on every"
                            + " segment of the stream)");
            reporter.expect(s, dir, frame, Check.DDP_VERSION, Expectation.Level.MUST, h, ulpdu, null,
                    Reporter.accept(et));
        }
        if (h.reserved() != 0 && !d.reservedReported) {
            d.reservedReported = true;
            reporter.report(s, dir, Check.DDP_RESERVED, frame, "DDP Rsvd bits " + h.reserved()
                    + " not zero (zero on transmit, not checked on receive)");
        }

        OpenMessage m;
        boolean started;
        if (h instanceof UntaggedHeader u) {
            m = findUntagged(d, u.qn(), u.msn());
            if (m == null && u.mo() != 0) m = continuedWithOtherIds(s, d, frame, u, ulpdu);
            started = m == null;
            if (started) {
                m = startUntagged(s, d, frame, u, ulpdu);
            } else {
                continueUntagged(s, d, frame, m, u);
            }
            growUntagged(s, d, frame, m, u, len, ulpdu);
        } else {
            TaggedHeader t = (TaggedHeader) h;
            m = findTagged(s, d, frame, t, len);
            started = m == null;
            if (started) {
                m = startTagged(s, d, frame, t, len);
            } else if (t.rsvdUlp() != m.rsvdUlp && !m.rsvdUlpReported) {
                m.rsvdUlpReported = true;
                reporter.emit(s, dir, Check.DDP_RSVDULP, Severity.ERROR, null, "RFC 5041", "§4.2", frame,
                        new long[]{m.firstFrame}, "RsvdULP 0x" + Integer.toHexString(t.rsvdUlp()) + " differs from 0x"
                                + Long.toHexString(m.rsvdUlp) + " of the first segment of " + m.describe());
            }
            growTagged(s, d, frame, m, t, len, ulpdu);
        }
        if (started) rdmap.onMessageStart(s, d, frame, m, seg);
        if (!h.tagged() && h.offset() == 0 && !m.firstSegmentDone) {
            rdmap.onFirstSegment(s, d, frame, m, seg, pdu, decodeError);
        }
        if (h.tagged()) rdmap.onTaggedSegment(s, d, frame, m, (TaggedHeader) h, len, ulpdu);
        d.previous = m;
        if (h.last()) complete(s, d, frame, m, h, len);
    }

    // ---- untagged (RFC 5041 §4.3) ----

    private static OpenMessage findUntagged(DirectionState d, long qn, long msn) {
        OpenMessage p = d.previous;
        if (p != null && !p.done && !p.tagged && p.qn == qn && p.msn == msn) return p;
        for (int i = d.open.size() - 1; i >= 0; i--) {
            OpenMessage o = d.open.get(i);
            if (!o.tagged && o.qn == qn && o.msn == msn) return o;
        }
        return null;
    }

    /**
     * A segment with MO != 0 that no open message of its (QN, MSN) takes, but whose MO continues an open message of
     * the same QN or the same MSN exactly: the QN or MSN changed inside that message (RFC 5041 §4.3: "Each DDP
     * segment within a specific DDP message MUST contain the same value"). Joined to it; null when there is none.
     */
    private OpenMessage continuedWithOtherIds(StreamState s, DirectionState d, long frame, UntaggedHeader u,
                                              int ulpdu) {
        for (int i = d.open.size() - 1; i >= 0; i--) {
            OpenMessage o = d.open.get(i);
            if (o.tagged || o.nextOffset != u.mo() || o.qn != u.qn() && o.msn != u.msn()) continue;
            if (u.qn() >= DirectionState.QUEUES) {
                // RFC 5041 §7.1 check 1 is made on every non-zero-length segment: an invalid QN is that error first
                reporter.report(s, d.direction, Check.DDP_QN, frame, "QN " + u.qn() + " (MSN " + u.msn() + ") in the"
                        + " middle of " + o.describe() + "; RDMAP queues are 0 Send, 1 Read Request, 2 Terminate,"
                        + " 3 Atomic Response");
                reporter.expect(s, d.direction, frame, Check.DDP_QN, Expectation.Level.MUST, u, ulpdu, null,
                        Reporter.accept(ErrorType.DDP_U_INVALID_QN));
            }
            reporter.report(s, d.direction, Check.DDP_QN_MSN_CHANGED, frame, "segment at MO " + u.mo() + " continues "
                    + o.describe() + " but carries QN " + u.qn() + " MSN " + u.msn(), o.lastFrame);
            // a receiver checking every segment (as siw does) sees an MSN or QN error; RFC 5041 §7.1 does not
            // make it check this one
            reporter.expect(s, d.direction, frame, Check.DDP_QN_MSN_CHANGED, Expectation.Level.MAY, u, ulpdu, null,
                    Reporter.accept(ErrorType.DDP_U_MSN_RANGE), Reporter.accept(ErrorType.DDP_U_INVALID_QN),
                    Reporter.accept(ErrorType.DDP_U_INVALID_MO));
            return o;
        }
        return null;
    }

    private OpenMessage startUntagged(StreamState s, DirectionState d, long frame, UntaggedHeader u, int ulpdu) {
        Direction dir = d.direction;
        long qn = u.qn(), msn = u.msn();
        if (qn >= DirectionState.QUEUES) {
            // RFC 5041 §7.1 untagged check 1; RDMAP uses QN 0-2 (RFC 5040 §3.1) and 3 (RFC 7306 §10.2)
            reporter.report(s, dir, Check.DDP_QN, frame, "QN " + qn + " (MSN " + msn + "); RDMAP queues are 0 Send,"
                    + " 1 Read Request, 2 Terminate, 3 Atomic Response");
            reporter.expect(s, dir, frame, Check.DDP_QN, Expectation.Level.MUST, u, ulpdu, null,
                    Reporter.accept(ErrorType.DDP_U_INVALID_QN));
        } else {
            int q = (int) qn;
            if (d.msnKnown[q] && msn != d.nextMsn[q]) {
                long expected = d.nextMsn[q];
                boolean back = ((expected - msn) & U32) < 0x8000_0000L;
                // RFC 5041 §4.3: "The initial value for MSN MUST be one", increased by one per message mod 2^32;
                // §7.1 untagged check 5 makes the receiver detect it
                reporter.report(s, dir, Check.DDP_MSN, frame, "MSN " + msn + " on QN " + qn + " ("
                        + queueName(q) + "), expected " + expected + (back ? ": it repeats an earlier message"
                        : ": messages are missing") + (q == 2 ? "; a Terminate carries MSN 1" : ""));
                reporter.expect(s, dir, frame, Check.DDP_MSN, Expectation.Level.MUST, u, ulpdu, null,
                        Reporter.accept(ErrorType.DDP_U_MSN_RANGE), Reporter.accept(ErrorType.DDP_U_NO_BUFFER));
            }
            d.nextMsn[q] = (msn + 1) & U32;
            d.msnKnown[q] = true;
        }
        interleaveCheck(s, d, frame, false, qn, msn);
        OpenMessage m = new OpenMessage(false, qn, msn, -1, frame, u, u.rsvdUlp(), RdmapControl.of(u),
                u.rsvdUlpLow32());
        if (qn < DirectionState.QUEUES) m.bufferLength = buffers.length(s.index, Side.receiverOf(dir), qn, msn);
        if (u.mo() != 0) {
            m.orderReported = true;
            reporter.report(s, dir, Check.DDP_MO_ORDER, frame, "first segment of " + m.describe() + " has MO "
                    + u.mo() + "; MO 0 comes first when segments are sent in increasing MO order");
        }
        addOpen(s, d, frame, m);
        return m;
    }

    private void continueUntagged(StreamState s, DirectionState d, long frame, OpenMessage m, UntaggedHeader u) {
        if (u.mo() != m.nextOffset && !m.orderReported) {
            m.orderReported = true;
            reporter.report(s, d.direction, Check.DDP_MO_ORDER, frame, "segment of " + m.describe() + " has MO "
                    + u.mo() + " where the previous one ended at " + m.nextOffset, m.lastFrame);
        }
        if (u.rsvdUlp() != m.rsvdUlp && !m.rsvdUlpReported) {
            m.rsvdUlpReported = true;
            // RFC 5041 §4.3: "Each DDP Segment within a specific DDP Message MUST contain the same value"; the Data
            // Sink is NOT REQUIRED to verify it, so no Terminate is owed
            reporter.report(s, d.direction, Check.DDP_RSVDULP, frame, "RsvdULP 0x" + Long.toHexString(u.rsvdUlp())
                    + " differs from 0x" + Long.toHexString(m.rsvdUlp) + " of the first segment of " + m.describe(),
                    m.firstFrame);
        }
    }

    private void growUntagged(StreamState s, DirectionState d, long frame, OpenMessage m, UntaggedHeader u, int len,
                              int ulpdu) {
        long mo = u.mo(), end = mo + len;
        if (end > U32 && !m.lengthReported) {
            m.lengthReported = true;
            // RFC 5041 §5.2 "The ULP Message Length MUST be less than 2^32"; §7.1 untagged checks 3-4
            reporter.report(s, d.direction, Check.DDP_MESSAGE_LENGTH, frame, "MO " + mo + " + " + len
                    + " payload octets of " + m.describe() + " reach " + end + ", past 2^32 - 1");
            reporter.expect(s, d.direction, frame, Check.DDP_MESSAGE_LENGTH, Expectation.Level.MUST, u, ulpdu, null,
                    Reporter.accept(ErrorType.DDP_U_INVALID_MO), Reporter.accept(ErrorType.DDP_U_TOO_LONG));
        }
        if (len > 0 && m.bufferLength != ReceiveBuffers.UNKNOWN && !m.bufferReported) bufferCheck(s, d, frame, m, u,
                len, ulpdu);
        boolean inOrder = m.coverage == null && mo == m.nextOffset && (m.segments > 0 || mo == 0);
        if (!inOrder) {
            if (m.coverage == null) {
                m.coverage = new RangeSet(coverageRanges);
                if (m.segments > 0) m.coverage.add(0, m.nextOffset);
            }
            long again = m.coverage.overlap(mo, end);
            if (again > 0 && !m.coverageReported) {
                m.coverageReported = true;
                // RFC 5041 §5.2: each segment's MO is the offset of its first octet in the message, and every octet
                // is sent once. §7.1 names no check for it; a receiver that tracks what it placed reports an MO that
                // does not follow (Invalid MO, §7.2), so the Terminate is only MAY
                reporter.report(s, d.direction, Check.DDP_MO_COVERAGE, frame, "segment [" + mo + ", " + end + ") of "
                        + m.describe() + " overlaps " + Plural.of(again, "octet") + " already sent in this message");
                reporter.expect(s, d.direction, frame, Check.DDP_MO_COVERAGE, Expectation.Level.MAY, u, ulpdu, null,
                        Reporter.accept(ErrorType.DDP_U_INVALID_MO));
            }
            m.coverage.add(mo, end);
        }
        m.nextOffset = end;
        if (end > m.maxEnd) m.maxEnd = end;
        m.bytes += len;
        m.segments++;
        m.lastFrame = frame;
    }

    // RFC 5041 §7.1 untagged checks 2-4, made "for non-zero-length Untagged DDP Segments" before placement
    private void bufferCheck(StreamState s, DirectionState d, long frame, OpenMessage m, UntaggedHeader u, int len,
                             int ulpdu) {
        long mo = u.mo(), end = mo + len;
        if (m.bufferLength == ReceiveBuffers.NONE) {
            m.bufferReported = true;
            reporter.report(s, d.direction, Check.DDP_NO_BUFFER, frame, m.describe() + ": no receive buffer is posted"
                    + " for it");
            reporter.expect(s, d.direction, frame, Check.DDP_NO_BUFFER, Expectation.Level.MUST, u, ulpdu, null,
                    Reporter.accept(ErrorType.DDP_U_NO_BUFFER), Reporter.accept(ErrorType.DDP_U_MSN_RANGE));
        } else if (end > m.bufferLength) {
            m.bufferReported = true;
            // check 3 (MO inside the buffer) failing is an Invalid MO, check 4 (MO + length) a message too long
            boolean moOutside = mo >= m.bufferLength && mo > 0;
            reporter.report(s, d.direction, Check.DDP_TOO_LONG, frame, "segment [" + mo + ", " + end + ") of "
                    + m.describe() + " does not fit the " + m.bufferLength + "-octet receive buffer posted for it");
            reporter.expect(s, d.direction, frame, Check.DDP_TOO_LONG, Expectation.Level.MUST, u, ulpdu, null,
                    moOutside ? Reporter.accept(ErrorType.DDP_U_INVALID_MO) : Reporter.accept(ErrorType.DDP_U_TOO_LONG),
                    moOutside ? Reporter.accept(ErrorType.DDP_U_TOO_LONG) : Reporter.accept(ErrorType.DDP_U_INVALID_MO));
        }
    }

    private static String queueName(int q) {
        return switch (q) {
            case 0 -> "Send";
            case 1 -> "Read Request";
            case 2 -> "Terminate";
            default -> "Atomic Response";
        };
    }

    // ---- tagged (RFC 5041 §4.2) ----

    private OpenMessage findTagged(StreamState s, DirectionState d, long frame, TaggedHeader t, int len) {
        OpenMessage p = d.previous;
        if (p != null && !p.done && p.tagged && p.stag == t.stag() && p.nextOffset == t.to()) return p;
        for (int i = d.open.size() - 1; i >= 0; i--) {
            OpenMessage o = d.open.get(i);
            if (o.tagged && o.stag == t.stag() && o.nextOffset == t.to()) return o;
        }
        if (len == 0 && t.last()) return null;
        for (int i = d.open.size() - 1; i >= 0; i--) {
            OpenMessage o = d.open.get(i);
            if (o.tagged && o.stag == t.stag()) {
                if (!o.orderReported) {
                    o.orderReported = true;
                    reporter.report(s, d.direction, Check.DDP_TO_ORDER, frame, "segment of " + o.describe()
                            + " has TO 0x" + Long.toHexString(t.to()) + " where the previous one ended at 0x"
                            + Long.toHexString(o.nextOffset), o.lastFrame);
                }
                return o;
            }
        }
        for (int i = d.open.size() - 1; i >= 0; i--) {
            OpenMessage o = d.open.get(i);
            if (o.tagged && o.nextOffset == t.to()) {
                // its TO continues that message exactly: the STag changed inside it
                reporter.report(s, d.direction, Check.DDP_STAG_CHANGED, frame, "segment continues " + o.describe()
                        + " at TO 0x" + Long.toHexString(t.to()) + " but carries STag 0x"
                        + Long.toHexString(t.stag()), o.lastFrame);
                return o;
            }
        }
        return null;
    }

    private OpenMessage startTagged(StreamState s, DirectionState d, long frame, TaggedHeader t, int len) {
        interleaveCheck(s, d, frame, true, t.stag(), 0);
        OpenMessage m = new OpenMessage(true, -1, -1, t.stag(), frame, t, t.rsvdUlp(), RdmapControl.of(t), -1);
        m.zeroLength = len == 0 && t.last();
        addOpen(s, d, frame, m);
        return m;
    }

    private void growTagged(StreamState s, DirectionState d, long frame, OpenMessage m, TaggedHeader t, int len,
                            int ulpdu) {
        long end = t.to() + len;
        if (len > 0 && Long.compareUnsigned(end, t.to()) < 0) {
            // RFC 5041 §7.1 tagged check 5
            reporter.report(s, d.direction, Check.DDP_TO_WRAP, frame, "TO 0x" + Long.toHexString(t.to()) + " + "
                    + len + " payload octets of " + m.describe() + " passes 2^64");
            reporter.expect(s, d.direction, frame, Check.DDP_TO_WRAP, Expectation.Level.MUST, t, ulpdu, null,
                    Reporter.accept(ErrorType.DDP_T_TO_WRAP));
        }
        m.nextOffset = end;
        m.bytes += len;
        m.segments++;
        m.lastFrame = frame;
    }

    // ---- both ----

    // RFC 5041 §5.3: messages are transmitted in the order submitted. Tagged and untagged messages interleaved is
    // tolerated by receivers (siw: "a WRITE can get intersected by a SEND"); two of one model cannot be told apart
    /** @param a the STag of a tagged message, the QN of an untagged one; {@code b} its MSN */
    private void interleaveCheck(StreamState s, DirectionState d, long frame, boolean tagged, long a, long b) {
        for (OpenMessage o : d.open) {
            if (o.tagged == tagged && !o.done) {
                // the message is named only here: building the name for every message costs more than the check
                String what = tagged ? "STag 0x" + Long.toHexString(a) : "QN " + a + " MSN " + b;
                reporter.report(s, d.direction, Check.DDP_INTERLEAVED, frame, "message " + what + " starts before "
                        + o.describe() + " got its last segment", o.lastFrame);
                return;
            }
        }
    }

    private void addOpen(StreamState s, DirectionState d, long frame, OpenMessage m) {
        if (d.open.size() >= maxOpen) {
            OpenMessage old = d.open.remove(0);
            old.done = true;
            if (!d.openDropNoticed) {
                d.openDropNoticed = true;
                reporter.notice(Notice.Severity.WARNING, frame, s.index, "more than " + maxOpen + " open messages in "
                        + d.direction + ": the oldest (" + old.describe() + ") is forgotten");
            }
        }
        d.open.add(m);
    }

    private void complete(StreamState s, DirectionState d, long frame, OpenMessage m, DdpHeader h, int len) {
        m.done = true;
        d.open.remove(m);
        if (!m.tagged) {
            long end = h.offset() + len;
            if (end < m.maxEnd) {
                // RFC 5041 §4.1: "the DDP Segment with the L bit set to 1 MUST carry the highest MO"
                reporter.report(s, d.direction, Check.DDP_LAST_FLAG, frame, "L set on the segment [" + h.offset()
                        + ", " + end + ") of " + m.describe() + ", which already reached " + m.maxEnd);
            }
            if (m.coverage != null && !m.coverage.coarsened() && !m.coverageReported
                    && !m.coverage.coversExactly(0, m.maxEnd)) {
                m.coverageReported = true;
                // RFC 5041 §5.2: "the DDP layer MUST send all the data contained in the ULP message"
                reporter.report(s, d.direction, Check.DDP_MO_COVERAGE, frame, "segments of " + m.describe()
                        + " cover " + m.coverage + " of its " + m.maxEnd + " octets: some were never sent",
                        m.firstFrame);
                // RFC 5041 §5.4: the message cannot be Delivered (not all its segments were Placed); the L segment
                // went out after all others (§4.1), so the hole stays. §7.1 names no check for it: a receiver may
                // wait, or report the MO that does not follow what it placed (Invalid MO, §7.2), as siw does
                reporter.expect(s, d.direction, frame, Check.DDP_MO_COVERAGE, Expectation.Level.MAY, h,
                        h.headerLength() + len, null, Reporter.accept(ErrorType.DDP_U_INVALID_MO));
            }
        }
        long length = m.tagged ? m.bytes : m.maxEnd;
        d.messages++;
        d.byOpcode.add(m.control.opcode(), m.segments, 1, length, 0);
        if (!m.tagged) d.bytesDelivered += m.bytes; // tagged octets are counted as placed, per segment
        rdmap.onMessageComplete(s, d, frame, m, length);
        reporter.deliver(new Delivery(s.index, d.direction, d.deliveries++, m.firstFrame, frame, m.tagged,
                m.control.opcode(), m.qn, m.msn, m.stag, m.tagged ? m.baseOffset : 0, length, m.segments));
    }

    /** Open messages of a direction given up (gap, end of stream or capture): reported as incomplete. */
    void abandon(StreamState s, DirectionState d, long frame, String why) {
        for (OpenMessage m : d.open) {
            m.done = true;
            reporter.report(s, d.direction, Check.DDP_INCOMPLETE, frame, m.describe() + " has "
                    + Plural.of(m.segments, "segment")
                    + " (" + Plural.of(m.bytes, "octet") + ", last frame " + m.lastFrame + ") and no last segment: "
                    + why, m.lastFrame);
        }
        d.open.clear();
        d.previous = null;
    }
}
