package io.rddp.mpa;

import io.rddp.Plural;
import io.rddp.Notice;
import io.rddp.Notice.Severity;
import io.rddp.mpa.MpaSide.State;
import io.rddp.tcp.ConnectionCache;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpListener;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

import static io.rddp.mpa.MpaFraming.MAX_WIRE;
import static io.rddp.mpa.MpaFraming.NO_MARKERS;
import static io.rddp.mpa.MpaFraming.markerDistance;
import static io.rddp.mpa.MpaFraming.u8;
import static io.rddp.mpa.MpaFraming.wireIndex;
import static io.rddp.mpa.MpaSide.EMPTY;
import static io.rddp.mpa.MpaSide.NO_BYTES;

/**
 * Frames the two byte streams of each TCP connection into MPA start frames and FPDUs (RFC 5044).
 *
 * <p>Per direction: when its first octets carry an MPA key they are the MPA Request or Reply (RFC 5044 §7.1.1);
 * the sender of the Request is the Initiator. A direction's FPDU rules come from the frame the <em>other</em> side
 * sent: Markers when that frame's M bit is set (M declares what its sender wants to receive), CRC checking when the
 * C bit is set in the Request or the Reply (§7.1.1). Wireshark 4.0 applies the M bit the other way round; this
 * follows the RFC. Markers sit every 512 octets from the first octet of the direction's first FPDU (§4.3).
 *
 * <p>When the handshake was not captured, FPDU boundaries and parameters are inferred: a candidate boundary must
 * hold a ULPDU_Length followed by a DDP/RDMAP header DDP could send, and several consecutive FPDUs must agree
 * (Markers pointing where they should, CRCs matching) before the decoder locks on; the FPDUs are then marked
 * {@link Fpdu#inferred()} and an info {@link Notice} states the guess. After a TCP gap the same search resynchronises
 * with the known parameters, unless the gap fell inside one FPDU whose length is already known.
 *
 * <p>FPDUs that lie whole in one {@code onData} buffer and hold no Marker are handed up as views of that buffer;
 * others are copied into a per-direction buffer (at most one search window, {@link Options#searchWindow()}).
 * Nothing is sized from a length field before that field is checked against the 16 bits it can hold. Per-connection
 * state is dropped when both directions have closed.
 *
 * <p>This class routes the TCP events and holds each direction's octets until a unit is complete; the units are
 * decoded by one part per concern: {@link MpaStartup} (MPA Request/Reply, §7), {@link FpduFramer} (FPDUs under
 * known rules, §4) and {@link FpduSearch} (finding FPDU boundaries when the rules or the position are not known).
 * {@link MpaConn} and {@link MpaSide} hold the state they share.
 */
public final class MpaDecoder implements TcpListener {


    /**
     * Tuning and forced parameters.
     *
     * @param markers      force Markers on or off for directions whose handshake was not seen (null: infer)
     * @param crc          force CRC checking on or off for such directions (null: infer)
     * @param lockFpdus    consecutive plausible FPDUs needed before locking onto inferred framing (1..16)
     * @param searchWindow octets buffered at most while searching or waiting for the peer's start frame
     */
    public record Options(Boolean markers, Boolean crc, int lockFpdus, int searchWindow) {
        public static final Options DEFAULT = new Options(null, null, 3, 4 * MAX_WIRE);

        public Options {
            if (lockFpdus < 1 || lockFpdus > FpduSearch.MAX_CHAIN) {
                throw new IllegalArgumentException("lockFpdus must be 1.." + FpduSearch.MAX_CHAIN + ", was "
                        + lockFpdus);
            }
            if (searchWindow < 2 * MAX_WIRE) {
                throw new IllegalArgumentException("searchWindow must hold two largest FPDUs (" + 2 * MAX_WIRE
                        + "), was " + searchWindow);
            }
        }
    }

    /** Octets searched for FPDU framing without finding it before a direction is given up (not MPA). */
    public static final int MAX_SEARCH = 1 << 20;

    private final MpaListener listener;
    private final Options options;
    private final Map<TcpConnection, MpaConn> conns = new HashMap<>();
    private final ConnectionCache<MpaConn> cache = new ConnectionCache<>();
    // one per concern, all final classes: the per-state calls below are monomorphic and inline
    private final FpduSearch search;
    private final FpduFramer framer;
    private final MpaStartup startup;

    /**
     * Whether the ULPDU views of the FPDUs this decoder hands out must stay valid after the call (another thread
     * reads them later): an FPDU framed from this decoder's own buffers (one that spanned segments, or one with
     * Markers taken out) then gets an array of its own. Views of the input are handed out as they are either way.
     */
    public void detachViews(boolean detached) {
        framer.detached = detached;
    }

    public MpaDecoder(MpaListener listener) {
        this(listener, Options.DEFAULT);
    }

    public MpaDecoder(MpaListener listener, Options options) {
        this.listener = listener;
        this.options = options;
        this.search = new FpduSearch(listener, options);
        this.framer = new FpduFramer(listener, search);
        this.startup = new MpaStartup(listener, options, search);
    }

    /** Connections whose MPA state is held now (for memory accounting and tests). */
    public int openConnections() {
        return conns.size();
    }

    /** What is known of the connection's MPA parameters, or null when it is unknown or already closed. */
    public MpaNegotiation negotiation(TcpConnection connection) {
        MpaConn c = conns.get(connection);
        if (c == null) {
            return null;
        }
        MpaStartFrame request = null, reply = null;
        Direction initiator = null;
        for (MpaSide s : c.sides) {
            if (s.sent == null) continue;
            if (s.sent.kind() == MpaStartFrame.Kind.REQUEST && request == null) {
                request = s.sent;
                initiator = s.dir;
            } else if (s.sent.kind() == MpaStartFrame.Kind.REPLY && reply == null) {
                reply = s.sent;
            }
        }
        return new MpaNegotiation(initiator, request, reply, params(c.c2s), params(c.s2c));
    }

    private static MpaNegotiation.Params params(MpaSide s) {
        if (!s.paramsKnown) return null;
        return new MpaNegotiation.Params(s.markers, s.markers ? s.markerBase : -1, s.crc, s.inferred);
    }

    /**
     * End of the capture: settles every open direction as if it had closed (pending searches lock on weaker
     * evidence, incomplete units are reported) and forgets all connections.
     */
    public void finish() {
        for (MpaConn c : new ArrayList<>(conns.values())) {
            settle(c);
        }
        conns.clear();
        cache.clear();
    }

    /** TCP forgets the connection (evicted, 4-tuple reused, end of capture): settle it and free its state. */
    @Override
    public void onConnectionEnd(TcpConnection connection, long frame) {
        MpaConn c = conns.get(connection);
        if (c == null) return;
        settle(c);
        conns.remove(connection);
        cache.remove(connection);
    }

    private void settle(MpaConn c) {
        for (MpaSide s : c.sides) {
            if (!s.closed) {
                closeSide(c, s, s.lastFrame);
                flushKicks(c);
            }
        }
    }

    @Override
    public void onConnection(TcpConnection connection) {
        conn(connection);
    }

    @Override
    public void onData(TcpConnection connection, Direction direction, long offset, ByteBuffer data, long frame) {
        MpaConn c = conn(connection);
        MpaSide s = c.side(direction);
        if (s.closed) return;
        s.lastFrame = frame;
        if (!s.seen) {
            s.seen = true;
            s.next = offset;
            s.rcvEnd = offset;
            if (offset != 0) {
                startup.startUnseen(c, s, frame, "the first " + Plural.of(offset, "octet") + " of the direction "
                        + (offset == 1 ? "was" : "were") + " not captured");
            }
        }
        drive(c, s, data, offset, frame);
        flushKicks(c);
    }

    @Override
    public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
        MpaConn c = conn(connection);
        MpaSide s = c.side(direction);
        if (s.closed) return;
        s.lastFrame = frame;
        if (!s.seen) {
            s.seen = true;
            s.next = offset;
            s.rcvEnd = offset;
        }
        gap(c, s, offset, length, frame);
        flushKicks(c);
    }

    @Override
    public void onClose(TcpConnection connection, Direction direction, long offset, boolean reset, long frame) {
        MpaConn c = conns.get(connection);
        if (c == null) return;
        MpaSide s = c.side(direction);
        if (!s.closed) {
            closeSide(c, s, frame);
            flushKicks(c);
        }
        if (c.c2s.closed && c.s2c.closed) {
            conns.remove(connection);
            cache.remove(connection);
        }
    }

    /** TCP-layer facts pass through to the same listener. */
    @Override
    public void onNotice(Notice notice) {
        listener.onNotice(notice);
    }

    private MpaConn conn(TcpConnection connection) {
        MpaConn c = cache.get(connection);
        if (c == null) {
            c = conns.computeIfAbsent(connection, MpaConn::new);
            cache.put(connection, c);
        }
        return c;
    }

    // ---------------------------------------------------------------- byte plumbing

    /**
     * Feeds {@code data} (position to limit, not moved) at stream offset {@code dOff}. Whole units are decoded
     * straight from {@code data}; an incomplete one is copied to the side's buffer, which is then topped up with
     * exactly what the unit still needs before decoding carries on from {@code data} again.
     */
    private void drive(MpaConn c, MpaSide s, ByteBuffer data, long dOff, long frame) {
        s.curOff = dOff;
        s.curFrame = frame;
        int pos = data.position(), lim = data.limit();
        if (pos < lim) {
            if (dOff < s.rcvEnd) {                // overlap with what we already had: keep the first copy
                int dup = (int) Math.min(s.rcvEnd - dOff, lim - pos);
                pos += dup;
                dOff += dup;
            }
            if (pos < lim && dOff > s.rcvEnd) {   // missing octets the TCP layer did not report as a gap
                gap(c, s, s.rcvEnd, dOff - s.rcvEnd, frame);
            }
            if (pos < lim) {
                s.rcvEnd = dOff + (lim - pos);
            }
            if (pos < lim && s.len == 0 && dOff < s.next) {     // inside an FPDU already given up on
                int skip = (int) Math.min(s.next - dOff, lim - pos);
                pos += skip;
                dOff += skip;
            }
        }
        int stalls = 0;
        while (true) {
            int r;
            if (s.len == 0) {
                if (pos >= lim) return;
                r = step(c, s, data, pos, lim - pos);
                if (r > 0) {
                    pos += r;
                    dOff += r;
                    s.next += r;
                    stalls = 0;
                    continue;
                }
                if (r == 0) {
                    if (++stalls > 8) break;
                    continue;
                }
                s.append(data, pos, lim - pos, dOff, frame, options.searchWindow());
                return;
            }
            r = step(c, s, s.view, 0, s.len);
            if (r > 0) {
                s.consume(r);
                stalls = 0;
                continue;
            }
            if (r == 0) {
                if (++stalls > 8) break;
                continue;
            }
            if (pos >= lim) return;
            int take = (int) Math.min(lim - pos, (long) -r - s.len);
            if (take <= 0) break;
            s.append(data, pos, take, dOff, frame, options.searchWindow());
            pos += take;
            dOff += take;
        }
        // Only reachable through a decoder bug; never spin on bad input.
        c.notice(listener, Severity.ERROR, frame, s.next, "MPA decoder made no progress in state " + s.state
                + "; rest of the direction not framed");
        s.dropAcc();
        s.state = State.IDLE;
        s.idleNoticed = true;
    }

    private void flushKicks(MpaConn c) {
        for (int round = 0; round < 4 && (c.c2s.kick || c.s2c.kick); round++) {
            for (MpaSide x : c.sides) {
                if (x.kick) {
                    x.kick = false;
                    if (!x.closed && x.len > 0) drive(c, x, EMPTY, Long.MAX_VALUE, x.lastFrame);
                }
            }
        }
    }

    // ---------------------------------------------------------------- state machine

    /**
     * Tries to take one unit off the window {@code w[wp, wp+wl)}, which starts at stream offset {@code s.next}.
     *
     * @return octets consumed (> 0); 0 when only the state changed; -n when at least n window octets are needed
     */
    private int step(MpaConn c, MpaSide s, ByteBuffer w, int wp, int wl) {
        switch (s.state) {
            case START:
                return startup.step(c, s, w, wp, wl);
            case HOLD:
                return startup.hold(c, s, wl);
            case FRAMING:
                return framer.step(c, s, w, wp, wl);
            case SEARCH:
                return search.step(c, s, w, wp, wl);
            default:
                if (!s.idleNoticed) {
                    s.idleNoticed = true;
                    c.notice(listener, Severity.WARNING, s.frameAt(s.next), s.next, "octets after the MPA "
                            + "connection was "
                            + "rejected are not framed");
                }
                return wl;
        }
    }

    // ---------------------------------------------------------------- gaps and ends

    private void gap(MpaConn c, MpaSide s, long offset, long length, long frame) {
        long from = s.rcvEnd;
        long end = Math.max(from, offset + length);
        s.rcvEnd = end;
        if (end <= s.next || end == from) return;          // lies inside an FPDU already given up on
        long lost = end - Math.max(from, s.next);
        switch (s.state) {
            case START -> {
                s.dropAcc();
                s.next = end;
                startup.startUnseen(c, s, frame,
                        "MPA start frame not captured (" + Plural.of(lost, "octet") + " missing)");
            }
            case HOLD -> {
                c.notice(listener, Severity.WARNING, frame, from,
                        Plural.of(lost, "octet") + " missing before the MPA start "
                        + "frame of the "
                        + "other side was seen; " + s.len + " held octets dropped");
                s.dropAcc();
                s.next = end;
                s.state = State.SEARCH;
                s.knownStart = false;
                s.scanFrom = end;
            }
            case FRAMING -> {
                int d0 = s.markers ? markerDistance(s.next, s.markerBase) : NO_MARKERS;
                int i1 = wireIndex(1, d0);
                if (s.len > i1) {
                    int ulpduLength = (u8(s.view, wireIndex(0, d0)) << 8) | u8(s.view, i1);
                    long fpduEnd = s.next + MpaFraming.wireLength(ulpduLength, d0);
                    if (fpduEnd >= end) {
                        long at = s.next + wireIndex(0, d0);
                        c.notice(listener, Severity.WARNING, frame, at, "FPDU at offset " + at + " lost " + lost
                                + " octets in a TCP gap; not delivered, framing continues after it");
                        s.dropAcc();
                        s.next = fpduEnd;
                        return;
                    }
                }
                c.notice(listener, Severity.WARNING, frame, from, "TCP gap of " + Plural.of(lost, "octet")
                        + " at offset " + from + " broke FPDU framing"
                        + (s.len > 0 ? " (" + Plural.of(s.len, "octet") + " of an FPDU dropped)" : "")
                        + "; searching for the next FPDU");
                s.dropAcc();
                s.next = end;
                s.state = State.SEARCH;
                s.knownStart = false;
                s.scanFrom = end;
            }
            case SEARCH -> {
                s.skipped += s.len;
                s.dropAcc();
                s.next = end;
                s.knownStart = false;
                s.scanFrom = end;
            }
            default -> {
                s.dropAcc();
                s.next = end;
            }
        }
    }

    private void closeSide(MpaConn c, MpaSide s, long frame) {
        s.finishing = true;
        if (s.state == State.HOLD) {
            search.enter(c, s, true, null);
            s.kick = false;
        }
        if (s.len > 0) {
            drive(c, s, EMPTY, Long.MAX_VALUE, frame);
        }
        if (s.len > 0) {
            String unit = s.state == State.START ? "an MPA start frame" : "an FPDU";
            c.notice(listener, Severity.WARNING, s.frameAt(s.next), s.next,
                    Plural.of(s.len, "octet") + " at the end of the "
                    + "direction "
                    + "do not complete " + unit + "; not delivered");
        }
        s.dropAcc();
        s.buf = NO_BYTES;
        s.view = EMPTY;
        s.ulpduBuf = null;
        s.closed = true;
        startup.resolve(c);
    }
}
