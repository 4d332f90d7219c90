package io.rddp.sink;

import io.rddp.Plural;
import io.rddp.Notice;
import io.rddp.ddp.DdpHeader;
import io.rddp.rdmap.ReadRequest;
import io.rddp.tcp.Direction;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What is known of STags, from the {@link StagRegistry} and from the traffic, and the checks that need it:
 * validity, stream association, base and bounds, access rights (RFC 5041 §7.1, RFC 5040 §7.2, RFC 5042 §6), and
 * the byte map of what was placed in each tagged buffer (RFC 5040 §5.5).
 * <p>
 * An STag belongs to the side that receives the tagged segments carrying it; its namespace is that side's address
 * when the connection is known (one device, RFC 5042 §2.2.5), so use on another stream to the same host is visible.
 */
final class StagRules {

    /** What an access wants from the buffer. */
    enum Use {
        /** RDMA Write: remote write (RFC 5041 §7.1 tagged checks; RFC 5042 §6.2.1) */
        WRITE,
        /** RDMA Read Response into the requester's Data Sink buffer: window known from the request */
        READ_RESPONSE,
        /** RDMA Read Request's Data Source buffer: remote read (RFC 5040 §7.2 4a-e) */
        READ_SOURCE,
        /** Atomic Request's target: remote atomic access (RFC 7306 §5) */
        ATOMIC;

        boolean tagged() {
            return this == WRITE || this == READ_RESPONSE;
        }
    }

    /** One STag learned from the traffic. */
    static final class Learned {
        final int firstStream;
        final long firstFrame;
        long invalidatedFrame = -1;
        int invalidatedStream = -1;
        /** frame where the owner advertised it as an RDMA Read Data Sink (for the peer to write), or -1 */
        long sinkAdvertisedFrame = -1;

        Learned(int stream, long frame) {
            firstStream = stream;
            firstFrame = frame;
        }
    }

    private final Reporter reporter;
    private final StagDirectory registry;
    private final boolean strict;
    private final int rangesPerBuffer;
    private final int maxBuffers;
    private final LinkedHashMap<Key, Learned> learned;
    private boolean learnedDropNoticed;

    StagRules(Reporter reporter, StagDirectory registry, boolean strict, int maxLearned, int maxBuffers,
              int rangesPerBuffer) {
        this.reporter = reporter;
        this.maxBuffers = maxBuffers;
        this.registry = registry;
        this.strict = strict;
        this.rangesPerBuffer = rangesPerBuffer;
        this.learned = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Learned> eldest) {
                if (size() <= maxLearned) return false;
                if (!learnedDropNoticed) {
                    learnedDropNoticed = true;
                    reporter.notice(Notice.Severity.WARNING, 0, -1, "more than " + maxLearned
                            + " STags seen: the oldest are forgotten, cross-stream and invalidation checks of those"
                            + " are lost");
                }
                return true;
            }
        };
    }

    /**
     * An STag of one owner (STags are the owner's: RFC 5040 §2.4), so no string is built per lookup. A record would
     * do, but its equals and hashCode are bootstrapped through method handles: the JVM spun 59 classes for them at
     * the first lookups, and compiled the JDK's class writer to do it, while the analysis waited for the compiler.
     */
    private record Key(String owner, long stag) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.stag == stag && k.owner.equals(owner);
        }

        @Override
        public int hashCode() {
            return 31 * owner.hashCode() + Long.hashCode(stag);
        }
    }

    private static Key key(String owner, long stag) {
        return new Key(owner, stag);
    }

    /**
     * Checks an access to {@code stag} by the sender of {@code dir} at its first segment (or the request carrying it)
     * and returns the registration that grants it, against which {@link #checkBounds} then checks every part, or
     * null when nothing registered applies.
     */
    StagRegistration resolve(StreamState s, Direction dir, long frame, long stag, Use use, DdpHeader header,
                             int segmentLength, ReadRequest readRequest) {
        Side owner = Side.receiverOf(dir);
        String ownerKey = s.ownerKey(owner);
        Key k = key(ownerKey, stag);
        Learned l = learned.get(k);
        StagDirectory.Resolution r = registry.resolve(stag, owner, s.index, frame);

        if (l != null && l.invalidatedFrame >= 0 && l.invalidatedFrame < frame
                && !(r.registration() != null && r.registration().validFromFrame() > l.invalidatedFrame)) {
            // RFC 5040 §2.4 Invalidate STag: "cannot be accessed remotely until it is explicitly Advertised again"
            boolean maybeReadvertised = maybeReadvertised(s, owner, l);
            Severity sev = maybeReadvertised ? Severity.WARNING : Severity.ERROR;
            reporter.emit(s, dir, Check.SECURITY_STAG_INVALIDATED, sev, invalidType(use),
                    Check.SECURITY_STAG_INVALIDATED.rfc(), Check.SECURITY_STAG_INVALIDATED.section(), frame,
                    new long[]{l.invalidatedFrame}, describe(use, stag) + " after it was invalidated by the Send with Invalidate"
                            + " of frame " + l.invalidatedFrame + " (stream " + l.invalidatedStream + ")"
                            + (maybeReadvertised ? "; the owner sent a Send since, which may have advertised it again"
                            : ""));
            if (!maybeReadvertised) {
                reporter.expect(s, dir, frame, Check.SECURITY_STAG_INVALIDATED, Expectation.Level.MUST, header,
                        segmentLength, readRequest, Reporter.accept(invalidType(use)));
            }
            return null;
        }
        if (l == null) learned.put(k, new Learned(s.index, frame));

        switch (r.verdict()) {
            case VALID -> {
                StagRegistration reg = r.registration();
                StagRegistration.Access need = switch (use) {
                    case WRITE -> StagRegistration.Access.WRITE;
                    case READ_SOURCE -> StagRegistration.Access.READ;
                    case ATOMIC -> StagRegistration.Access.ATOMIC;
                    case READ_RESPONSE -> null; // the Data Sink's own buffer: no remote right needed
                };
                if (need != null && !reg.access().contains(need)) {
                    // RFC 5042 §6.3.5: a buffer meant for remote write only must not be readable (and conversely).
                    // An RDMA Write fails DDP's tagged check 2 ("The STag has an associated buffer that allows
                    // Placement of the payload", RFC 5041 §7.1), for which §7.2 names no code of its own: Invalid
                    // STag; RFC 5040 Figure 10 allows an RDMAP Remote Protection Error "Only" for RDMA Read Requests
                    // and Sends with Invalidate. A Read or Atomic Request is refused by RDMAP: Access rights violation
                    ErrorType et = use == Use.WRITE ? ErrorType.DDP_T_INVALID_STAG : ErrorType.RDMA_ACCESS_RIGHTS;
                    reporter.emit(s, dir, Check.SECURITY_ACCESS, Severity.ERROR, et, Check.SECURITY_ACCESS.rfc(),
                            Check.SECURITY_ACCESS.section(), frame, new long[0], describe(use, stag) + " needs " + need
                                    + " access; the registration grants " + reg.access() + " (" + reg + ")");
                    reporter.expect(s, dir, frame, Check.SECURITY_ACCESS, Expectation.Level.MUST, header,
                            segmentLength, readRequest, Reporter.accept(et));
                }
                return reg;
            }
            case OTHER_STREAM -> {
                // RFC 5042 §6.1.1: "if an STag is limited in scope to a single Stream, no other Stream can use it"
                ErrorType et = use.tagged() ? ErrorType.DDP_T_STAG_NOT_ASSOCIATED
                        : ErrorType.RDMA_STAG_NOT_ASSOCIATED;
                reporter.emit(s, dir, Check.SECURITY_STAG_STREAM, Severity.ERROR, et, Check.SECURITY_STAG_STREAM.rfc(),
                        Check.SECURITY_STAG_STREAM.section(), frame, new long[0], describe(use, stag) + " on stream " + s.index
                                + ": registered only for " + registry.registrations(stag));
                reporter.expect(s, dir, frame, Check.SECURITY_STAG_STREAM, Expectation.Level.MUST, header,
                        segmentLength, readRequest, Reporter.accept(et));
                return null;
            }
            case NOT_VALID_AT_FRAME -> {
                Check c = use.tagged() ? Check.DDP_STAG : Check.RDMAP_REMOTE_STAG;
                reporter.emit(s, dir, c, Severity.ERROR, invalidType(use), c.rfc(), c.section(), frame, new long[0],
                        describe(use, stag) + " is not valid at frame " + frame + ": " + registry.registrations(stag));
                reporter.expect(s, dir, frame, c, Expectation.Level.MUST, header, segmentLength, readRequest,
                        Reporter.accept(invalidType(use)));
                return null;
            }
            default -> {
                if (l != null && l.firstStream != s.index) {
                    DirectionState d = s.dir(dir);
                    if (d.crossStreamReported.size() < 1024 && d.crossStreamReported.add(stag)) {
                        // RFC 5042 §6.1.1: sharing within a Protection Domain may be intended, so only a warning
                        reporter.report(s, dir, Check.SECURITY_STAG_STREAM, Severity.WARNING, frame, describe(use, stag)
                                        + " on stream " + s.index + " was first seen on stream " + l.firstStream
                                        + " (frame " + l.firstFrame + ") of the same owner; an error if the STag is"
                                        + " limited to one stream",
                                l.firstFrame);
                    }
                }
                if (use == Use.READ_SOURCE && l != null && l.sinkAdvertisedFrame >= 0) {
                    // RFC 5042 §6.3.5: a buffer its owner exposed for the peer to write into; whether it also granted
                    // remote read the traffic cannot tell
                    reporter.report(s, dir, Check.SECURITY_ACCESS, Severity.INFO, frame, describe(use, stag) + " was advertised by"
                            + " its owner as an RDMA Read Data Sink (written by the peer) in frame "
                            + l.sinkAdvertisedFrame + "; reading it is an access violation unless it also grants"
                            + " remote read", l.sinkAdvertisedFrame);
                }
                if (use != Use.READ_RESPONSE) unknown(s, dir, frame, stag, use, header, segmentLength, readRequest);
                return null;
            }
        }
    }

    private void unknown(StreamState s, Direction dir, long frame, long stag, Use use, DdpHeader header,
                         int segmentLength, ReadRequest readRequest) {
        Check c = use.tagged() ? Check.DDP_STAG : Check.RDMAP_REMOTE_STAG;
        DirectionState d = s.dir(dir);
        if (d.unknownStagsReported.size() >= 1024) {
            if (!d.unknownCapNoticed) {
                d.unknownCapNoticed = true;
                reporter.notice(Notice.Severity.INFO, frame, s.index, "more than 1024 unknown STags in "
                        + dir + ": no more reports of unknown STags");
            }
            return;
        }
        // once per STag and direction: its first use says all there is to say
        if (!d.unknownStagsReported.add(stag)) return;
        if (strict) {
            reporter.emit(s, dir, c, Severity.ERROR, invalidType(use), c.rfc(), c.section(), frame, new long[0],
                    describe(use, stag) + " is not in the STag registration (strict mode: unknown STags are invalid)");
            reporter.expect(s, dir, frame, c, Expectation.Level.MUST, header, segmentLength, readRequest,
                    Reporter.accept(invalidType(use)));
            return;
        }
        reporter.report(s, dir, c, Severity.INFO, frame, describe(use, stag) + " is not in the STag registration: whether it"
                + " is valid for this stream, its base, bounds and access rights are unverifiable");
    }

    /** Base and bounds of one part [to, to + len) against the registration resolve() returned; false when outside. */
    boolean checkBounds(StreamState s, Direction dir, long frame, StagRegistration reg, long stag, long to, long len,
                     Use use, DdpHeader header, int segmentLength, ReadRequest readRequest) {
        if (reg == null || reg.contains(to, len)) return true;
        Check c = use.tagged() ? Check.DDP_BOUNDS : Check.RDMAP_REMOTE_BOUNDS;
        // RFC 5041 §7.1 tagged checks 3-4, RFC 5040 §7.2 4c-d; RFC 5042 §6.2.1 buffer overrun, §6.3.1 probing
        reporter.report(s, dir, c, frame, describe(use, stag) + " [" + Long.toUnsignedString(to) + ", +" + len
                + ") lies outside the registered buffer [" + Long.toUnsignedString(reg.baseTo()) + ", +"
                + Long.toUnsignedString(reg.length()) + ")");
        reporter.expect(s, dir, frame, c, Expectation.Level.MUST, header, segmentLength, readRequest,
                Reporter.accept(c.errorType()));
        return false;
    }

    /** A Send with Invalidate from the sender of {@code dir} delivered (RFC 5040 §5.3): its STag is invalid now. */
    void invalidate(StreamState s, Direction dir, long frame, long stag, DdpHeader header, int segmentLength) {
        Side owner = Side.receiverOf(dir);
        Key k = key(s.ownerKey(owner), stag);
        Learned l = learned.get(k);
        StagDirectory.Resolution r = registry.resolve(stag, owner, s.index, frame);
        String problem = null;
        Severity sev = Severity.ERROR;
        if (l != null && l.invalidatedFrame >= 0) {
            boolean maybeReadvertised = maybeReadvertised(s, owner, l);
            if (maybeReadvertised) sev = Severity.WARNING;
            problem = "was already invalidated in frame " + l.invalidatedFrame
                    + (maybeReadvertised ? " (a Send of the owner since may have advertised it again)" : "");
        } else if (r.verdict() == StagDirectory.Verdict.OTHER_STREAM) {
            problem = "is registered only for other streams: " + registry.registrations(stag);
        } else if (r.verdict() == StagDirectory.Verdict.NOT_VALID_AT_FRAME) {
            problem = "is not valid at this frame: " + registry.registrations(stag);
        } else if (strict && r.verdict() == StagDirectory.Verdict.UNKNOWN) {
            // RFC 5040 §7.2 item 4: "The Invalidate STag MUST be valid"; strict mode knows every STag there is
            problem = "is not in the STag registration (strict mode: unknown STags are invalid)";
        }
        if (problem != null) {
            // RFC 5040 §5.3: "issue a Terminate Message with the STag Cannot be Invalidated Terminate Error Code";
            // §7.2 4 "The Invalidate STag MUST be valid"
            reporter.report(s, dir, Check.RDMAP_INVALIDATE, sev, frame, "Invalidate STag 0x"
                    + Long.toHexString(stag) + " " + problem);
            if (sev == Severity.ERROR) {
                reporter.expect(s, dir, frame, Check.RDMAP_INVALIDATE, Expectation.Level.MUST, header, segmentLength,
                        null, Reporter.accept(ErrorType.RDMA_PROTECTION_CANNOT_INVALIDATE),
                        Reporter.accept(ErrorType.RDMA_OPERATION_CANNOT_INVALIDATE),
                        Reporter.accept(ErrorType.RDMA_INVALID_STAG));
            }
        }
        if (l == null) {
            l = new Learned(s.index, frame);
            learned.put(k, l);
        }
        l.invalidatedFrame = frame;
        l.invalidatedStream = s.index;
    }

    /**
     * The sender of {@code dir} advertises its own STag (as the Data Sink STag of a Read Request, RFC 5040 §4.4): an
     * earlier invalidation no longer holds.
     */
    void advertise(StreamState s, Direction dir, long frame, long stag) {
        Key k = key(s.ownerKey(Side.senderOf(dir)), stag);
        Learned l = learned.get(k);
        if (l == null) {
            l = new Learned(s.index, frame);
            learned.put(k, l);
        }
        l.invalidatedFrame = -1;
        l.sinkAdvertisedFrame = frame;
    }

    /**
     * Records that the sender of {@code dir} placed [to, to + len) into {@code stag} and reports bytes placed again
     * since the writer last signalled completion (RFC 5040 §5.5 rule 3: the result is indeterminate).
     */
    void place(StreamState s, DirectionState d, long frame, long stag, long to, long len) {
        if (len == 0) return;
        d.bytesPlaced += len;
        DirectionState.Placed p = d.placed(stag);
        if (p == null) {
            if (d.placedBuffers() >= maxBuffers && !d.placementDropNoticed) {
                d.placementDropNoticed = true;
                reporter.notice(Notice.Severity.INFO, frame, s.index, "placement maps of more than "
                        + maxBuffers + " tagged buffers in " + d.direction
                        + ": the least recently written are forgotten (overlaps with them go unseen)");
            }
            p = new DirectionState.Placed(rangesPerBuffer);
            d.placed(stag, p);
        }
        long end = RangeSet.clampedEnd(to, len);
        long again = p.ranges.overlap(to, end);
        if (again > 0 && !p.overlapReported) {
            p.overlapReported = true;
            reporter.report(s, d.direction, Check.DDP_OVERLAP, frame, Plural.of(again, "octet") + " of STag 0x"
                    + Long.toHexString(stag) + " at [" + Long.toUnsignedString(to) + ", +" + len + ") placed again"
                    + " before the writer signalled completion (Send or Read Response delivery); the buffer's"
                    + " content is indeterminate. Further overlaps in this buffer are not reported until then");
        }
        p.ranges.add(to, end);
        if (p.ranges.coarsened() && !d.coarsenNoticed) {
            d.coarsenNoticed = true;
            reporter.notice(Notice.Severity.INFO, frame, s.index, "placement map of STag 0x"
                    + Long.toHexString(stag) + " in " + d.direction + " exceeded " + rangesPerBuffer
                    + " ranges: nearby ranges merged, overlap reports may include gaps");
        }
    }

    // a Send of the owner after the invalidation may have advertised the STag again, which the model cannot read
    private static boolean maybeReadvertised(StreamState s, Side owner, Learned l) {
        return s.dir(owner.sends()).lastSendFrame > l.invalidatedFrame;
    }

    private static ErrorType invalidType(Use use) {
        return use.tagged() ? ErrorType.DDP_T_INVALID_STAG : ErrorType.RDMA_INVALID_STAG;
    }

    private static String describe(Use use, long stag) {
        String h = "STag 0x" + Long.toHexString(stag);
        return switch (use) {
            case WRITE -> "RDMA Write to " + h;
            case READ_RESPONSE -> "Read Response to " + h;
            case READ_SOURCE -> "Read Request from Data Source " + h;
            case ATOMIC -> "Atomic Request on Remote " + h;
        };
    }
}
