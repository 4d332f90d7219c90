package io.rddp.sink;

import io.rddp.Plural;
import io.rddp.Notice;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapHeader;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.tcp.Direction;

/**
 * RDMAP semantics (RFC 5040, RFC 7306) on top of the DDP messages {@link DdpRules} follows: opcode, version and
 * queue; Read and Atomic Requests and their responses; Send with Invalidate. The Terminate, what it must report and
 * whether a peer that should have sent one did, is {@link TerminateRules}'.
 */
final class RdmapRules {

    private final Reporter reporter;
    private final StagRules stags;
    private final int maxOutstanding;
    private final TerminateRules terminates;

    RdmapRules(Reporter reporter, StagRules stags, int maxOutstanding) {
        this.reporter = reporter;
        this.stags = stags;
        this.maxOutstanding = maxOutstanding;
        this.terminates = new TerminateRules(reporter);
    }

    /** Checks that hold for the whole message, made on its first segment. */
    void onMessageStart(StreamState s, DirectionState d, long frame, OpenMessage m, DdpSegment seg) {
        Direction dir = d.direction;
        DdpHeader h = seg.header();
        int ulpdu = seg.length();
        RdmapControl c = m.control;
        Opcode op = c.kind();
        if (d.terminateFrame >= 0 && op != Opcode.TERMINATE && !d.afterTerminateReported) {
            d.afterTerminateReported = true;
            // RFC 5040 §5.4: "After sending a Terminate Message ... MUST NOT send any more Messages"
            reporter.report(s, dir, Check.RDMAP_TERMINATE_AFTER, frame, m.describe() + " sent after this side's"
                    + " Terminate of frame " + d.terminateFrame, d.terminateFrame);
        }
        if (c.version() != 1 && !d.rdmapVersionReported) {
            d.rdmapVersionReported = true;
            if (c.version() == 0 && rdmacConnection(s)) {
                // RV 0 is the RDMA Consortium's RDMAP; on a connection both sides opened with MPA Rev 0 (RFC 5044
                // Appendix C) the peers run the RDMAC protocols, which RFC 5040 does not judge: only a warning
                reporter.report(s, dir, Check.RDMAP_VERSION, Severity.WARNING, frame, "RDMAP version 0 (the RDMA"
                        + " Consortium's RDMAP) in " + m.describe() + " on an MPA Rev 0 (RDMAC) connection");
            } else {
                // RFC 5040 §4.1: RV is one for this specification; §7.2 item 3 "the RDMA Version MUST be valid",
                // Terminate 0/2/5 Invalid RDMAP version
                reporter.report(s, dir, Check.RDMAP_VERSION, frame, "RDMAP version " + c.version() + " in "
                        + m.describe() + " (RFC 5040: 1" + (c.version() == 0 ? "; 0 is the RDMA Consortium's RDMAP,"
                        + " valid only between RDMAC peers, which open with MPA Rev 0)" : ")"));
                reporter.expect(s, dir, frame, Check.RDMAP_VERSION, Expectation.Level.MUST, h, ulpdu, null,
                        Reporter.accept(ErrorType.RDMA_INVALID_VERSION));
            }
        }
        if (c.reserved() != 0 && !d.rdmapReservedReported) {
            d.rdmapReservedReported = true;
            reporter.report(s, dir, Check.RDMAP_RESERVED, frame, "RDMAP control Rsv bits " + c.reserved()
                    + " not zero in " + m.describe());
        }
        if (op == null) {
            m.placementOk = false;
            reporter.report(s, dir, Check.RDMAP_OPCODE, frame, "opcode " + c.opcode() + " is reserved (RFC 5040"
                    + " §4.1 Figure 4, RFC 7306 §4.1)");
            reporter.expect(s, dir, frame, Check.RDMAP_OPCODE, Expectation.Level.MUST, h, ulpdu, null,
                    Reporter.accept(ErrorType.RDMA_UNEXPECTED_OPCODE));
            return;
        }
        if (op.tagged() != h.tagged()) {
            m.placementOk = false;
            // RFC 5040 §4.1 Figure 4 fixes the Tagged flag of every opcode; the receiver's DDP may also fail first
            reporter.report(s, dir, Check.RDMAP_OPCODE_PLACEMENT, frame, op.rfcName() + " must use the "
                    + (op.tagged() ? "tagged" : "untagged") + " buffer model (T = " + (op.tagged() ? 1 : 0)
                    + "), sent with T = " + (h.tagged() ? 1 : 0));
            reporter.expect(s, dir, frame, Check.RDMAP_OPCODE_PLACEMENT, Expectation.Level.MUST, h, ulpdu, null,
                    Reporter.accept(ErrorType.RDMA_UNEXPECTED_OPCODE), Reporter.acceptAny(1, h.tagged() ? 1 : 2));
            return;
        }
        if (!h.tagged()) {
            if (m.qn >= DirectionState.QUEUES) {
                m.placementOk = false; // reported by DDP as an invalid QN
                return;
            }
            if (op.queueNumber() != m.qn) {
                m.placementOk = false;
                reporter.report(s, dir, Check.RDMAP_OPCODE_PLACEMENT, frame, op.rfcName() + " belongs on QN "
                        + op.queueNumber() + " (" + op.rfc() + "), sent on QN " + m.qn);
                reporter.expect(s, dir, frame, Check.RDMAP_OPCODE_PLACEMENT, Expectation.Level.MUST, h, ulpdu, null,
                        Reporter.accept(ErrorType.RDMA_UNEXPECTED_OPCODE));
                return;
            }
            if (zeroInvalidateStag(op) && m.invalidateStag != 0) {
                // RFC 5040 §4.1: for these "the Invalidate STag field MUST be set to zero on transmit"
                reporter.report(s, dir, Check.RDMAP_RESERVED, frame, "Invalidate STag field 0x"
                        + Long.toHexString(m.invalidateStag) + " not zero in " + m.describe());
            }
        } else if (op == Opcode.RDMA_READ_RESPONSE) {
            startReadResponse(s, d, frame, m, (TaggedHeader) h, ulpdu);
        } else if (!m.zeroLength) {
            // RFC 5041 §5.2: the STag and TO of a zero-length tagged message are not checked
            m.registration = stags.resolve(s, dir, frame, m.stag, StagRules.Use.WRITE, h, ulpdu, null);
        }
    }

    // both start frames (those seen) say MPA Rev 0: the RDMA Consortium's protocols (RFC 5044 Appendix C)
    private static boolean rdmacConnection(StreamState s) {
        return s.request != null && s.request.revision() == 0 && (s.reply == null || s.reply.revision() == 0);
    }

    private static boolean zeroInvalidateStag(Opcode op) {
        return op == Opcode.SEND || op == Opcode.SEND_WITH_SE || op == Opcode.RDMA_READ_REQUEST
                || op == Opcode.TERMINATE;
    }

    /** The segment at MO 0 of an untagged message: the opcode-specific header (RFC 5040 §4.4, §4.8; RFC 7306). */
    void onFirstSegment(StreamState s, DirectionState d, long frame, OpenMessage m, DdpSegment seg, RdmapPdu pdu,
                        String decodeError) {
        m.firstSegmentDone = true;
        if (!m.placementOk) return;
        Opcode op = m.opcode();
        if (op.headerLength() == 0) return;
        RdmapHeader body = pdu != null ? pdu.body() : null;
        if (decodeError != null || body == null) {
            reporter.emit(s, d.direction, Check.RDMAP_HEADER, Severity.ERROR, null, op.rfc(), headerSection(op),
                    frame, new long[0],
                    op.rfcName() + " segment at MO 0 has " + Plural.of(seg.payloadLength(), "octet") + "; "
                            + (decodeError != null ? decodeError : "its " + op.headerLength()
                            + "-octet header follows the DDP header"));
            return;
        }
        m.body = body;
        switch (op) {
            case RDMA_READ_REQUEST -> onReadRequest(s, d, frame, (ReadRequest) body, seg);
            case TERMINATE -> terminates.onTerminate(s, d, frame, (Terminate) body, seg);
            case ATOMIC_REQUEST -> onAtomicRequest(s, d, frame, (AtomicRequest) body, seg);
            case ATOMIC_RESPONSE -> onAtomicResponse(s, d, frame, (AtomicResponse) body);
            default -> {
            }
        }
    }

    // where the RFCs define the header each opcode starts with
    private static String headerSection(Opcode op) {
        return switch (op) {
            case RDMA_READ_REQUEST -> "§4.4";
            case TERMINATE -> "§4.8";
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> "§6.2";
            case ATOMIC_REQUEST -> "§5.2.1";
            case ATOMIC_RESPONSE -> "§5.2.2";
            default -> "§4.2";
        };
    }

    /** Every tagged segment with payload, after DDP accounted for it. */
    void onTaggedSegment(StreamState s, DirectionState d, long frame, OpenMessage m, TaggedHeader t, int len,
                         int ulpdu) {
        if (len == 0) return;
        Opcode op = m.opcode();
        if (m.placementOk) {
            StagRules.Use use = op == Opcode.RDMA_READ_RESPONSE ? StagRules.Use.READ_RESPONSE : StagRules.Use.WRITE;
            if (m.registration != null && !m.boundsReported) {
                m.boundsReported = !stags.checkBounds(s, d.direction, frame, m.registration, t.stag(), t.to(), len,
                        use, t, ulpdu, null);
            }
            if (m.answers != null && !m.sizeReported && Long.compareUnsigned(m.bytes, m.answers.read.size()) > 0) {
                m.sizeReported = true;
                readResponseSize(s, d, frame, m, "carries more than the " + m.answers.read.size()
                        + " octets requested");
            }
        }
        stags.place(s, d, frame, t.stag(), t.to(), len);
    }

    void onMessageComplete(StreamState s, DirectionState d, long frame, OpenMessage m, long length) {
        Opcode op = m.opcode();
        if (op == null || !m.placementOk) return;
        Direction dir = d.direction;
        switch (op) {
            case RDMA_READ_REQUEST -> {
                if (m.body != null && length > ReadRequest.LENGTH) {
                    reporter.report(s, dir, Check.RDMAP_PAYLOAD, frame, "RDMA Read Request message is " + length
                            + " octets; its 28-octet header allows no ULP payload (Figure 5)", m.firstFrame);
                }
            }
            case TERMINATE -> {
                if (m.body instanceof Terminate t && length > t.length()) {
                    reporter.report(s, dir, Check.RDMAP_PAYLOAD, frame, "Terminate message is " + length
                            + " octets; its header is " + t.length() + " and no ULP payload is allowed (Figure 5)",
                            m.firstFrame);
                }
            }
            case ATOMIC_REQUEST, ATOMIC_RESPONSE -> {
                int expected = op == Opcode.ATOMIC_REQUEST ? AtomicRequest.LENGTH : AtomicResponse.LENGTH;
                if (m.body != null && length > expected) {
                    reporter.emit(s, dir, Check.RDMAP_PAYLOAD, Severity.ERROR, null, "RFC 7306",
                            op == Opcode.ATOMIC_REQUEST ? "§5.2.1" : "§5.2.2", frame, new long[]{m.firstFrame},
                            op.rfcName() + " message is " + Plural.of(length, "octet") + "; its header is " + expected);
                }
            }
            case IMMEDIATE_DATA, IMMEDIATE_DATA_WITH_SE -> {
                // shorter than 8 was reported as a cut header already
                if (m.body != null && length != 8) {
                    reporter.report(s, dir, Check.RDMAP_IMMEDIATE_LENGTH, frame, op.rfcName() + " message is "
                            + Plural.of(length, "octet") + "; it carries exactly 8", m.firstFrame);
                }
            }
            case SEND_WITH_INVALIDATE, SEND_WITH_SE_AND_INVALIDATE ->
                    stags.invalidate(s, dir, frame, m.invalidateStag, m.firstHeader, -1);
            case RDMA_READ_RESPONSE -> {
                DirectionState requester = s.dir(dir.reverse());
                if (m.answers != null) {
                    if (requester.responsesInProgress > 0) requester.responsesInProgress--;
                    if (!m.sizeReported && m.bytes != m.answers.read.size()) {
                        readResponseSize(s, d, frame, m, "is " + Plural.of(m.bytes, "octet") + ", "
                                + m.answers.read.size() + " were requested");
                    }
                }
                // RFC 5040 §5.5 rule 6: the sink buffer's content is determinate once the response is delivered
                d.forgetPlaced(m.stag);
            }
            default -> {
            }
        }
        if (isSendType(op)) {
            // RFC 5040 §5.5 rule 5: a later Send tells the peer earlier RDMA Writes are placed
            d.lastSendFrame = frame;
            d.forgetAllPlaced();
        }
    }

    private static boolean isSendType(Opcode op) {
        return switch (op) {
            case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE, IMMEDIATE_DATA,
                    IMMEDIATE_DATA_WITH_SE -> true;
            default -> false;
        };
    }

    // ---- RDMA Read (RFC 5040 §5.2) and Atomics (RFC 7306 §5) ----

    private void onReadRequest(StreamState s, DirectionState d, long frame, ReadRequest rr, DdpSegment seg) {
        Direction dir = d.direction;
        DdpHeader h = seg.header();
        int ulpdu = seg.length();
        addOutstanding(s, d, frame, new Outstanding(frame, rr, null, h, ulpdu));
        stags.advertise(s, dir, frame, rr.sinkStag());
        if (rr.size() == 0) return; // RFC 5040 §5.2.1: "MUST NOT validate the Data Source STag and ... TO"
        long end = rr.sourceTo() + rr.size();
        if (Long.compareUnsigned(end, rr.sourceTo()) < 0) {
            // RFC 5040 §7.2 4e
            reporter.report(s, dir, Check.RDMAP_READ_TO_WRAP, frame, "Data Source TO 0x"
                    + Long.toHexString(rr.sourceTo()) + " + RDMA Read Message Size " + rr.size()
                    + " passes 2^64");
            reporter.expect(s, dir, frame, Check.RDMAP_READ_TO_WRAP, Expectation.Level.MUST, h, ulpdu, rr,
                    Reporter.accept(ErrorType.RDMA_TO_WRAP));
        }
        StagRegistration reg = stags.resolve(s, dir, frame, rr.sourceStag(), StagRules.Use.READ_SOURCE, h, ulpdu,
                rr);
        stags.checkBounds(s, dir, frame, reg, rr.sourceStag(), rr.sourceTo(), rr.size(),
                StagRules.Use.READ_SOURCE, h, ulpdu, rr);
    }

    private void onAtomicRequest(StreamState s, DirectionState d, long frame, AtomicRequest ar, DdpSegment seg) {
        Direction dir = d.direction;
        DdpHeader h = seg.header();
        int ulpdu = seg.length();
        // RFC 7306 §5.2: Atomic Requests share queue 1 and the ORD/IRD flow control with RDMA Read Requests
        addOutstanding(s, d, frame, new Outstanding(frame, null, ar, h, ulpdu));
        if (ar.atomicOpcode() != AtomicRequest.FETCH_ADD && ar.atomicOpcode() != AtomicRequest.CMP_SWAP) {
            reporter.report(s, dir, Check.RDMAP_ATOMIC_OPCODE, frame, "AOpCode " + ar.atomicOpcode() + " ("
                    + ar.operationName() + "); RFC 7306 §10.1 defines FetchAdd (0) and CmpSwap (2)");
        }
        if (ar.reserved() != 0) {
            reporter.emit(s, dir, Check.RDMAP_RESERVED, Severity.ERROR, null, "RFC 7306", "§5.2.1", frame,
                    new long[0], "Atomic Request Reserved bits 0x" + Integer.toHexString(ar.reserved()) + " not zero");
        }
        if ((ar.remoteTo() & 7) != 0) {
            // RFC 7306 §5.1: atomics target 64-bit aligned ULP Buffer addresses; with a TO that is an address
            // (as with siw) the target is misaligned, with a zero-based TO it depends on the buffer's base
            reporter.report(s, dir, Check.RDMAP_ATOMIC_ALIGNMENT, frame, "Remote Tagged Offset 0x"
                    + Long.toHexString(ar.remoteTo()) + " is not a multiple of 8");
        }
        StagRegistration reg = stags.resolve(s, dir, frame, ar.remoteStag(), StagRules.Use.ATOMIC, h, ulpdu, null);
        stags.checkBounds(s, dir, frame, reg, ar.remoteStag(), ar.remoteTo(), 8, StagRules.Use.ATOMIC, h, ulpdu,
                null);
    }

    private void addOutstanding(StreamState s, DirectionState d, long frame, Outstanding o) {
        if (d.outstanding.size() >= maxOutstanding) {
            d.outstanding.removeFirst();
            if (!d.outstandingDropNoticed) {
                d.outstandingDropNoticed = true;
                s.readsUncertain = true;
                reporter.notice(Notice.Severity.WARNING, frame, s.index, "more than " + maxOutstanding
                        + " unanswered requests in " + d.direction + ": the oldest are forgotten, request/response"
                        + " matching on this stream is no longer certain");
            }
        }
        d.outstanding.addLast(o);
        int n = d.outstandingCount();
        if (d.outstandingLimit >= 0) {
            if (n > d.outstandingLimit) {
                boolean sure = s.readsReliable();
                // RFC 5040 §6.1: "the RDMAP layer MUST NOT exceed the maximum number of outstanding ... RDMA Read
                // Requests"; RFC 6581 §9.1 gives the numbers; RFC 7306 §5.2 counts Atomic Requests too
                String allows = d.outstandingLimitOwn
                        ? "the receiver's own IRD allows " + d.outstandingLimit + " (RFC 5040 §6.1; no IRD/ORD was"
                                + " negotiated in the MPA exchange)"
                        : "the MPA negotiation (frame " + s.replyFrame + ") allows " + d.outstandingLimit
                                + " (the peer's IRD, RFC 6581 §9.1)";
                reporter.report(s, d.direction, Check.RDMAP_OUTSTANDING, sure ? Severity.ERROR : Severity.INFO,
                        frame, n + " Read/Atomic Requests outstanding after the " + o.describe() + "; " + allows
                                + (sure ? "" : "; uncertain after a gap"),
                        s.replyFrame);
                if (sure) {
                    // RFC 5040 §5.2.2: the Data Source keeps Untagged Buffers on QN 1 "to support the maximum number
                    // of RDMA Read Requests negotiated"; the request past them fails RFC 5041 §7.1 untagged checks
                    // 5 and 2 (1/2/3, 1/2/2). An RDMAP that counts the requests itself may end the stream with
                    // Figure 9's "Catastrophic error, localized to RDMAP Stream" (RFC 5042 §6.4.3.3: "the RDMAP
                    // Stream is terminated"), which no RFC names for it
                    reporter.expect(s, d.direction, frame, Check.RDMAP_OUTSTANDING, Expectation.Level.MAY, o.header,
                            o.segmentLength, o.read, Reporter.accept(ErrorType.DDP_U_MSN_RANGE),
                            Reporter.accept(ErrorType.DDP_U_NO_BUFFER),
                            Reporter.accept(ErrorType.RDMA_CATASTROPHIC_STREAM));
                }
            }
        } else if (!d.limitUnknownReported) {
            d.limitUnknownReported = true;
            reporter.report(s, d.direction, Check.RDMAP_OUTSTANDING, Severity.INFO, frame, "no IRD/ORD from an"
                    + " enhanced MPA exchange (RFC 6581) is known for this stream: the number of outstanding"
                    + " Read/Atomic Requests is unverifiable");
        }
    }

    private void startReadResponse(StreamState s, DirectionState d, long frame, OpenMessage m, TaggedHeader t,
                                   int ulpdu) {
        Direction dir = d.direction;
        DirectionState requester = s.dir(dir.reverse());
        boolean sure = s.readsReliable();
        Outstanding head = requester.outstanding.peekFirst();
        Outstanding firstRead = null, match = null;
        for (Outstanding o : requester.outstanding) {
            if (!o.isRead()) continue;
            if (firstRead == null) firstRead = o;
            boolean same = m.zeroLength ? o.read.size() == 0
                    : o.read.sinkStag() == t.stag() && o.read.sinkTo() == t.to();
            if (same) {
                match = o;
                break;
            }
        }
        if (firstRead == null) {
            reporter.report(s, dir, Check.SECURITY_UNSOLICITED_READ_RESPONSE, sure ? Severity.ERROR : Severity.INFO,
                    frame, "RDMA Read Response to STag 0x" + Long.toHexString(t.stag()) + " TO 0x"
                            + Long.toHexString(t.to()) + " with no outstanding RDMA Read Request"
                            + (sure ? "" : " seen (the capture may have missed it)"));
            if (sure) {
                reporter.expect(s, dir, frame, Check.SECURITY_UNSOLICITED_READ_RESPONSE, Expectation.Level.MAY, t,
                        ulpdu, null, Reporter.accept(ErrorType.RDMA_UNEXPECTED_OPCODE),
                        Reporter.accept(ErrorType.DDP_T_INVALID_STAG), Reporter.acceptAny(1, 0));
            }
            return;
        }
        Outstanding chosen = match != null ? match : firstRead;
        Severity sev = sure ? Severity.ERROR : Severity.INFO;
        if (match != null && match != head) {
            // RFC 5040 §5.2.2 and §5.5 rule 20: responses in the order the requests were delivered
            reporter.report(s, dir, Check.RDMAP_READ_RESPONSE_ORDER, sev, frame, "RDMA Read Response answers the "
                    + match.describe() + " while the older " + head.describe() + " is unanswered",
                    head.frame, match.frame);
        } else if (match == null && !m.zeroLength) {
            if (t.stag() != chosen.read.sinkStag()) {
                reporter.report(s, dir, Check.RDMAP_READ_RESPONSE_STAG, sev, frame, "RDMA Read Response to STag 0x"
                        + Long.toHexString(t.stag()) + " answers the " + chosen.describe() + " whose Data Sink STag"
                        + " is 0x" + Long.toHexString(chosen.read.sinkStag()), chosen.frame);
                if (sure) {
                    // RFC 5040 §5.2.2: "The Data Sink MAY validate": explains a Terminate, owes none
                    reporter.expect(s, dir, frame, Check.RDMAP_READ_RESPONSE_STAG, Expectation.Level.MAY, t, ulpdu,
                            null, Reporter.accept(ErrorType.DDP_T_INVALID_STAG));
                }
            } else {
                reporter.report(s, dir, Check.RDMAP_READ_RESPONSE_TO, sev, frame, "RDMA Read Response starts at TO 0x"
                        + Long.toHexString(t.to()) + "; the " + chosen.describe() + " asked for Data Sink TO 0x"
                        + Long.toHexString(chosen.read.sinkTo()), chosen.frame);
                if (sure) {
                    reporter.expect(s, dir, frame, Check.RDMAP_READ_RESPONSE_TO, Expectation.Level.MAY, t, ulpdu,
                            null, Reporter.accept(ErrorType.DDP_T_BASE_BOUNDS));
                }
            }
        }
        requester.outstanding.remove(chosen);
        requester.responsesInProgress++;
        m.answers = chosen;
        if (!m.zeroLength) {
            m.registration = stags.resolve(s, dir, frame, t.stag(), StagRules.Use.READ_RESPONSE, t, ulpdu, null);
        }
    }

    private void readResponseSize(StreamState s, DirectionState d, long frame, OpenMessage m, String what) {
        boolean sure = s.readsReliable();
        // RFC 5040 §4.4: RDMARDSZ is "the amount of data, in octets, read from the Data Source"; §5.2.1: a
        // zero-length request is answered by a zero-length response
        reporter.report(s, d.direction, Check.RDMAP_READ_RESPONSE_SIZE, sure ? Severity.ERROR : Severity.INFO, frame,
                "RDMA Read Response to STag 0x" + Long.toHexString(m.stag) + " " + what + " by the "
                        + m.answers.describe(), m.answers.frame, m.firstFrame);
        if (sure) {
            reporter.expect(s, d.direction, frame, Check.RDMAP_READ_RESPONSE_SIZE, Expectation.Level.MAY,
                    m.firstHeader, -1, null, Reporter.accept(ErrorType.DDP_T_BASE_BOUNDS));
        }
    }

    private void onAtomicResponse(StreamState s, DirectionState d, long frame, AtomicResponse resp) {
        Direction dir = d.direction;
        DirectionState requester = s.dir(dir.reverse());
        Severity sev = s.readsReliable() ? Severity.ERROR : Severity.INFO;
        Outstanding head = requester.outstanding.peekFirst();
        Outstanding entry = null;
        for (Outstanding o : requester.outstanding) {
            if (!o.isRead()) {
                entry = o;
                break;
            }
        }
        if (entry == null) {
            reporter.report(s, dir, Check.RDMAP_ATOMIC_RESPONSE, sev, frame, "Atomic Response (Original Request"
                    + " Identifier " + resp.originalRequestId() + ") with no outstanding Atomic Request");
            return;
        }
        if (entry != head) {
            // RFC 7306 §5.4 rule 8 and §7: responses follow the order of the requests, RDMA Reads included
            reporter.report(s, dir, Check.RDMAP_ATOMIC_RESPONSE, sev, frame, "Atomic Response answers the "
                    + entry.describe() + " while the older " + head.describe() + " is unanswered", head.frame,
                    entry.frame);
        }
        requester.outstanding.remove(entry);
        if (resp.originalRequestId() != entry.atomic.requestId()) {
            reporter.report(s, dir, Check.RDMAP_ATOMIC_RESPONSE, sev, frame, "Original Request Identifier "
                    + resp.originalRequestId() + " is not the Request Identifier " + entry.atomic.requestId()
                    + " of the " + entry.describe(), entry.frame);
        }
    }

    /** See {@link TerminateRules#settleOwed}. */
    void settleOwed(StreamState s, DirectionState d, String how) {
        terminates.settleOwed(s, d, how);
    }

    /**
     * Requests of {@code d} still unanswered when the stream ends. RFC 5040 §5.2.1: a Data Source that receives a
     * valid RDMA Read Request "MUST respond"; RFC 7306 §5.2.1 likewise for atomics. Responses may come after later
     * messages (RFC 5040 §5.5), so an unanswered request is only a warning, and only when the responder sent
     * something after it.
     */
    void unanswered(StreamState s, DirectionState d, long frame, String why) {
        DirectionState responder = s.dir(d.direction.reverse());
        if (d.outstanding.isEmpty() || d.terminateFrame >= 0 || responder.terminateFrame >= 0) {
            // after a Terminate outstanding operations complete in error (RFC 5040 §6.2.1): nothing is owed
            d.outstanding.clear();
            return;
        }
        Outstanding first = d.outstanding.peekFirst();
        int n = d.outstanding.size();
        boolean kept = responder.lastFrame > first.frame;
        if (s.readsReliable()) {
            reporter.report(s, d.direction, Check.RDMAP_READ_UNANSWERED, kept ? Severity.WARNING : Severity.INFO,
                    first.frame, n + " request(s) never answered, the oldest the " + first.describe() + "; "
                            + (kept ? "the responder sent on (last frame " + responder.lastFrame + ") until "
                            : "nothing came back before ") + why, responder.lastFrame);
        }
        d.outstanding.clear();
    }
}
