package io.rddp.mpa;

import io.rddp.MalformedException;
import io.rddp.Notice;
import io.rddp.Notice.Severity;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpListener;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.CRC32C;

import static io.rddp.mpa.MpaFraming.CRC_LENGTH;
import static io.rddp.mpa.MpaFraming.LENGTH_FIELD;
import static io.rddp.mpa.MpaFraming.MARKER_INTERVAL;
import static io.rddp.mpa.MpaFraming.MARKER_LENGTH;
import static io.rddp.mpa.MpaFraming.MARKER_SPAN;
import static io.rddp.mpa.MpaFraming.MAX_WIRE;
import static io.rddp.mpa.MpaFraming.NO_MARKERS;
import static io.rddp.mpa.MpaFraming.logicalLength;
import static io.rddp.mpa.MpaFraming.markerCount;
import static io.rddp.mpa.MpaFraming.markerDistance;
import static io.rddp.mpa.MpaFraming.padLength;
import static io.rddp.mpa.MpaFraming.wireIndex;

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
            if (lockFpdus < 1 || lockFpdus > MAX_CHAIN) {
                throw new IllegalArgumentException("lockFpdus must be 1.." + MAX_CHAIN + ", was " + lockFpdus);
            }
            if (searchWindow < 2 * MAX_WIRE) {
                throw new IllegalArgumentException("searchWindow must hold two largest FPDUs (" + 2 * MAX_WIRE
                        + "), was " + searchWindow);
            }
        }
    }

    private static final String LAYER = "mpa";
    private static final int MAX_CHAIN = 16;
    /** Octets searched for FPDU framing without finding it before a direction is given up (not MPA). */
    public static final int MAX_SEARCH = 1 << 20;
    private static final int NO_PHASE = -1;
    private static final int SKIP = -2;
    /** A Marker-free chain this long crosses two Marker positions, so Markers would have broken it. */
    private static final int STRONG_SPAN = 2 * MARKER_INTERVAL + 76;
    /** Smallest DDP header: tagged, RFC 5041 §4.2. */
    private static final int MIN_ULPDU = 14;
    private static final int KEEP_BUFFER = 2 * MAX_WIRE;
    private static final byte[] NO_BYTES = new byte[0];
    private static final ByteBuffer EMPTY = ByteBuffer.wrap(NO_BYTES);

    private static final int FAIL = 0, INCOMPLETE = 1, TILED = 2, ENOUGH = 3;

    private enum State { START, HOLD, FRAMING, SEARCH, IDLE }

    private final MpaListener listener;
    private final Options options;
    private boolean detached;
    private final Map<TcpConnection, Conn> conns = new HashMap<>();
    private final io.rddp.tcp.ConnectionCache<Conn> cache = new io.rddp.tcp.ConnectionCache<>();
    private final CRC32C crc32c = new CRC32C();
    private final Chain chain = new Chain();
    private final Chain best = new Chain();
    private final Chain weak = new Chain();

    /**
     * Whether the ULPDU views of the FPDUs this decoder hands out must stay valid after the call (another thread
     * reads them later): an FPDU framed from this decoder's own buffers (one that spanned segments, or one with
     * Markers taken out) then gets an array of its own. Views of the input are handed out as they are either way.
     */
    public void detachViews(boolean detached) {
        this.detached = detached;
    }

    public MpaDecoder(MpaListener listener) {
        this(listener, Options.DEFAULT);
    }

    public MpaDecoder(MpaListener listener, Options options) {
        this.listener = listener;
        this.options = options;
    }

    /** Connections whose MPA state is held now (for memory accounting and tests). */
    public int openConnections() {
        return conns.size();
    }

    /** What is known of the connection's MPA parameters, or null when it is unknown or already closed. */
    public MpaNegotiation negotiation(TcpConnection connection) {
        Conn c = conns.get(connection);
        if (c == null) {
            return null;
        }
        MpaStartFrame request = null, reply = null;
        Direction initiator = null;
        for (Side s : c.sides) {
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

    private static MpaNegotiation.Params params(Side s) {
        if (!s.paramsKnown) return null;
        return new MpaNegotiation.Params(s.markers, s.markers ? s.markerBase : -1, s.crc, s.inferred);
    }

    /**
     * End of the capture: settles every open direction as if it had closed (pending searches lock on weaker
     * evidence, incomplete units are reported) and forgets all connections.
     */
    public void finish() {
        for (Conn c : new ArrayList<>(conns.values())) {
            settle(c);
        }
        conns.clear();
        cache.clear();
    }

    /** TCP forgets the connection (evicted, 4-tuple reused, end of capture): settle it and free its state. */
    @Override
    public void onConnectionEnd(TcpConnection connection, long frame) {
        Conn c = conns.get(connection);
        if (c == null) return;
        settle(c);
        conns.remove(connection);
        cache.remove(connection);
    }

    private void settle(Conn c) {
        for (Side s : c.sides) {
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
        Conn c = conn(connection);
        Side s = c.side(direction);
        if (s.closed) return;
        s.lastFrame = frame;
        if (!s.seen) {
            s.seen = true;
            s.next = offset;
            s.rcvEnd = offset;
            if (offset != 0) {
                startUnseen(c, s, frame, "the first " + offset + " octets of the direction were not captured");
            }
        }
        drive(c, s, data, offset, frame);
        flushKicks(c);
    }

    @Override
    public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
        Conn c = conn(connection);
        Side s = c.side(direction);
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
        Conn c = conns.get(connection);
        if (c == null) return;
        Side s = c.side(direction);
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

    private Conn conn(TcpConnection connection) {
        Conn c = cache.get(connection);
        if (c == null) {
            c = conns.computeIfAbsent(connection, Conn::new);
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
    private void drive(Conn c, Side s, ByteBuffer data, long dOff, long frame) {
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
                append(s, data, pos, lim - pos, dOff, frame);
                return;
            }
            r = step(c, s, s.view, 0, s.len);
            if (r > 0) {
                consume(s, r);
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
            append(s, data, pos, take, dOff, frame);
            pos += take;
            dOff += take;
        }
        // Only reachable through a decoder bug; never spin on bad input.
        notice(c, Severity.ERROR, frame, s.next, "MPA decoder made no progress in state " + s.state
                + "; rest of the direction not framed");
        dropAcc(s);
        s.state = State.IDLE;
        s.idleNoticed = true;
    }

    private void append(Side s, ByteBuffer data, int pos, int n, long dOff, long frame) {
        int need = s.len + n;
        if (need > s.buf.length) {
            int cap = Math.max(need, Math.min(Math.max(2 * s.buf.length, 4096), options.searchWindow()));
            byte[] nb = new byte[cap];
            System.arraycopy(s.buf, 0, nb, 0, s.len);
            s.buf = nb;
            s.view = ByteBuffer.wrap(nb);
        }
        data.get(pos, s.buf, s.len, n);
        if (s.fCnt == 0 || s.fFrm[s.fCnt - 1] != frame) {
            if (s.fCnt == s.fOff.length) {
                s.fOff = java.util.Arrays.copyOf(s.fOff, 2 * s.fCnt);
                s.fFrm = java.util.Arrays.copyOf(s.fFrm, 2 * s.fCnt);
            }
            s.fOff[s.fCnt] = dOff;
            s.fFrm[s.fCnt++] = frame;
        }
        s.len = need;
    }

    private void consume(Side s, int r) {
        System.arraycopy(s.buf, r, s.buf, 0, s.len - r);
        s.len -= r;
        s.next += r;
        if (s.len == 0) {
            dropAcc(s);
            return;
        }
        int k = 0;
        while (k + 1 < s.fCnt && s.fOff[k + 1] <= s.next) k++;
        if (k > 0) {
            System.arraycopy(s.fOff, k, s.fOff, 0, s.fCnt - k);
            System.arraycopy(s.fFrm, k, s.fFrm, 0, s.fCnt - k);
            s.fCnt -= k;
        }
    }

    private static void dropAcc(Side s) {
        s.len = 0;
        s.fCnt = 0;
        if (s.buf.length > KEEP_BUFFER) {
            s.buf = NO_BYTES;
            s.view = EMPTY;
        }
    }

    /** Frame that carried the octet at {@code offset}. */
    private static long frameAt(Side s, long offset) {
        if (offset >= s.curOff) return s.curFrame;
        for (int i = s.fCnt - 1; i >= 0; i--) {
            if (s.fOff[i] <= offset) return s.fFrm[i];
        }
        return s.fCnt > 0 ? s.fFrm[0] : s.curFrame;
    }

    private void flushKicks(Conn c) {
        for (int round = 0; round < 4 && (c.c2s.kick || c.s2c.kick); round++) {
            for (Side x : c.sides) {
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
    private int step(Conn c, Side s, ByteBuffer w, int wp, int wl) {
        switch (s.state) {
            case START:
                return stepStart(c, s, w, wp, wl);
            case HOLD:
                if (wl >= options.searchWindow()) {
                    toSearch(c, s, true, "no MPA start frame from the other side after " + wl
                            + " octets of this one; inferring its FPDU parameters");
                    return 0;
                }
                return -options.searchWindow();
            case FRAMING:
                return stepFraming(c, s, w, wp, wl);
            case SEARCH:
                return stepSearch(c, s, w, wp, wl);
            default:
                if (!s.idleNoticed) {
                    s.idleNoticed = true;
                    notice(c, Severity.WARNING, frameAt(s, s.next), s.next, "octets after the MPA connection was "
                            + "rejected are not framed");
                }
                return wl;
        }
    }

    private int stepStart(Conn c, Side s, ByteBuffer w, int wp, int wl) {
        if (wl < MpaStartFrame.KEY_LENGTH) return -MpaStartFrame.KEY_LENGTH;
        int match = MpaStartFrame.matchKey(w, wp);
        if (match == 0) {
            startUnseen(c, s, frameAt(s, s.next), "the direction does not start with an MPA key");
            return 0;
        }
        if (wl < MpaStartFrame.HEADER_LENGTH) return -MpaStartFrame.HEADER_LENGTH;
        int total = MpaStartFrame.HEADER_LENGTH + (w.getShort(wp + 18) & 0xFFFF);   // RFC 5044 §7.1.1 PD_Length
        if (wl < total) return -total;
        MpaStartFrame f;
        try {
            f = MpaStartFrame.parse(w.slice(wp, total));
        } catch (MalformedException e) {
            startUnseen(c, s, frameAt(s, s.next), e.getMessage());
            return 0;
        }
        Side peer = c.peer(s);
        if (!f.keyValid() && f.kind() == MpaStartFrame.Kind.REQUEST && peer.sent != null
                && peer.sent.kind() == MpaStartFrame.Kind.REQUEST) {
            f = new MpaStartFrame(MpaStartFrame.Kind.REPLY, false, f.markers(), f.crc(), f.reject(), f.reserved(),
                    f.revision(), f.pdLength(), f.privateData(), f.enhanced());
        }
        long at = s.next;
        long first = frameAt(s, at), last = frameAt(s, at + total - 1);
        s.sent = f;
        s.fpduStart = at + total;
        s.state = State.HOLD;
        listener.onStartFrame(c.tcp, s.dir, f, at, first, last);
        if (!f.keyValid()) {
            notice(c, Severity.WARNING, first, at, "MPA key \"" + ascii(w, wp, MpaStartFrame.KEY_LENGTH)
                    + "\" is not the exact " + f.kind().name().toLowerCase() + " key (RFC 5044 §7.1.1)");
        }
        if (f.pdLength() > MpaStartFrame.MAX_PRIVATE_DATA) {
            notice(c, Severity.WARNING, first, at, "PD_Length " + f.pdLength() + " exceeds "
                    + MpaStartFrame.MAX_PRIVATE_DATA + " (RFC 5044 §7.1.1)");
        }
        if (f.kind() == MpaStartFrame.Kind.REPLY && f.reject()) {
            notice(c, Severity.INFO, last, at, "MPA Reply rejects the connection (R bit)");
        }
        resolve(c);
        return total;
    }

    /** Settles the FPDU rules of each side whose start frame is known, once the other side's frame is known too. */
    private void resolve(Conn c) {
        resolveSide(c, c.c2s);
        resolveSide(c, c.s2c);
    }

    private void resolveSide(Conn c, Side x) {
        if (x.sent == null || x.paramsKnown || (x.state != State.HOLD && x.state != State.SEARCH)) return;
        Side y = c.peer(x);
        if (y.sent != null) {
            if (y.sent.kind() == x.sent.kind()) {
                if (!c.pairNoticed) {
                    c.pairNoticed = true;
                    notice(c, Severity.WARNING, x.lastFrame, -1, "both directions sent an MPA "
                            + (x.sent.kind() == MpaStartFrame.Kind.REQUEST ? "Request" : "Reply"));
                }
                if (x.state == State.HOLD) {
                    toSearch(c, x, true, "FPDU parameters of this direction cannot be negotiated; inferring");
                }
                return;
            }
            MpaStartFrame req = x.sent.kind() == MpaStartFrame.Kind.REQUEST ? x.sent : y.sent;
            MpaStartFrame rep = req == x.sent ? y.sent : x.sent;
            if (rep.reject()) {
                x.state = State.IDLE;
                return;
            }
            // RFC 5044 §7.1.1: M in the frame the peer sent asks for Markers on what this side sends; C in either
            // frame switches CRCs on for both directions. §4.3: first Marker right before the first FPDU.
            x.markers = y.sent.markers();
            x.markerBase = x.fpduStart;
            x.crc = req.crc() || rep.crc();
            x.crcKnown = true;
            x.paramsKnown = true;
            x.inferred = false;
            if (x.state == State.HOLD) {
                x.state = State.FRAMING;
                x.kick = true;
            }
            return;
        }
        if (x.state == State.HOLD && (y.closed || y.state == State.SEARCH || y.state == State.FRAMING
                || y.state == State.IDLE)) {
            toSearch(c, x, true, "the other direction has no MPA start frame; inferring this direction's FPDU "
                    + "parameters");
        }
    }

    private void startUnseen(Conn c, Side s, long frame, String why) {
        s.state = State.SEARCH;
        s.knownStart = false;
        s.scanFrom = s.next;
        notice(c, Severity.INFO, frame, s.next, why + ": no MPA handshake, inferring MPA parameters from the FPDUs");
        resolve(c);
    }

    private void toSearch(Conn c, Side s, boolean knownStart, String why) {
        s.state = State.SEARCH;
        s.knownStart = knownStart;
        s.scanFrom = s.next;
        s.kick = true;
        if (!s.paramsKnown && !s.crcKnown && s.sent != null && s.sent.crc()) {
            s.crcKnown = true;      // C = 1 in either frame means CRCs in both directions (RFC 5044 §7.1.1)
            s.crc = true;
        }
        if (why != null) {
            notice(c, Severity.INFO, s.lastFrame, s.next, why);
        }
    }

    private int stepFraming(Conn c, Side s, ByteBuffer w, int wp, int wl) {
        long p = s.next;
        int d0 = s.markers ? markerDistance(p, s.markerBase) : NO_MARKERS;
        int i1 = wireIndex(1, d0);
        if (wl <= i1) return -(i1 + 1);
        // RFC 5044 §4.1, network order. Any value frames a well-formed FPDU, so with known parameters the field
        // is trusted; a wrong one shows up as a bad CRC or Marker on a header DDP could not have sent (below).
        int ulpduLength = (u8(w, wp + wireIndex(0, d0)) << 8) | u8(w, wp + i1);
        int logical = logicalLength(ulpduLength);
        int markers = markerCount(logical, d0);
        int wire = logical + MARKER_LENGTH * markers;
        if (wl < wire) return -wire;
        return emitFpdu(c, s, w, wp, p, d0, ulpduLength, logical, markers, wire);
    }

    private int emitFpdu(Conn c, Side s, ByteBuffer w, int wp, long p, int d0, int ulpduLength, int logical,
                         int markers, int wire) {
        int hdr = wireIndex(0, d0);
        long offset = p + hdr;
        long lastFrame = frameAt(s, p + wire - 1);
        int crcAt = wireIndex(logical - CRC_LENGTH, d0);
        long field = crcField(w, wp, logical, d0);
        Boolean ok = null;
        long computed = 0;
        if (s.crc) {
            // RFC 5044 §4.4: over the whole FPDU before the CRC field, Markers included
            computed = MpaFraming.crc32c(crc32c, w, wp, crcAt);
            ok = computed == field;
        }
        int badMarkers = 0;
        for (int j = 0; j < markers; j++) {
            int m = d0 + j * MARKER_INTERVAL;
            int ptr = w.getShort(wp + m + 2) & 0xFFFF;
            // RFC 5044 §4.2: FPDUPTR counts from ULPDU_Length back to the Marker, low 2 bits taken as zero;
            // §4.3: a Marker between FPDUs is zero
            int expected = m == 0 ? 0 : m - hdr;
            if ((ptr & ~3) != expected) {
                badMarkers++;
                String detail = "Marker FPDUPTR " + ptr + " should be " + expected + " for the FPDU at offset "
                        + offset + " (RFC 5044 §4.2, §4.3)";
                notice(c, Severity.WARNING, frameAt(s, p + m), p + m, detail);
                // RFC 5044 §8 code 3 is the error "In the event that the CRC is valid": an FPDU whose CRC fails is
                // code 2 (its Markers are part of what the CRC rejects), reported when the FPDU is passed on
                if (!Boolean.FALSE.equals(ok)) listener.onMarkerError(c.tcp, s.dir, p + m, frameAt(s, p + m), detail);
            }
        }
        if ((Boolean.FALSE.equals(ok) || badMarkers > 0) && !plausibleHeader(w, wp, d0, ulpduLength)) {
            notice(c, Severity.WARNING, frameAt(s, offset), offset, "FPDU at offset " + offset + " fails its "
                    + (badMarkers > 0 ? "Markers" : "CRC") + " and carries no DDP header: framing lost, searching "
                    + "for the next FPDU");
            toSearch(c, s, false, null);
            return 0;
        }
        if (Boolean.FALSE.equals(ok)) {
            notice(c, Severity.WARNING, lastFrame, offset, String.format("FPDU at offset %d: CRC field 0x%08x, "
                    + "computed CRC32c 0x%08x (RFC 5044 §4.4)", offset, field, computed));
        }
        int pad = padLength(ulpduLength);
        boolean padZero = true;
        for (int k = LENGTH_FIELD + ulpduLength; k < LENGTH_FIELD + ulpduLength + pad; k++) {
            if (w.get(wp + wireIndex(k, d0)) != 0) {
                padZero = false;
                break;
            }
        }
        if (!padZero && !s.padNoticed) {
            s.padNoticed = true;
            notice(c, Severity.WARNING, lastFrame, offset, "FPDU at offset " + offset + ": PAD octets are not "
                    + "zero (RFC 5044 §4.1); later ones in this direction are not reported");
        }
        ByteBuffer ulpdu;
        if (markers == 0) {
            ulpdu = w.slice(wp + hdr + LENGTH_FIELD, ulpduLength);
            if (detached && w == s.view) { // the side buffer is rewritten by the next FPDU
                byte[] own = new byte[ulpduLength];
                ulpdu.get(0, own);
                ulpdu = ByteBuffer.wrap(own);
            }
        } else {
            if (s.ulpduBuf == null || detached) {
                s.ulpduBuf = new byte[detached ? ulpduLength : MpaFraming.MAX_ULPDU];
            }
            int k = LENGTH_FIELD, dst = 0;
            while (dst < ulpduLength) {
                int run = k < d0 ? d0 - k : MARKER_SPAN - (k - d0) % MARKER_SPAN;
                run = Math.min(run, ulpduLength - dst);
                w.get(wp + wireIndex(k, d0), s.ulpduBuf, dst, run);
                k += run;
                dst += run;
            }
            ulpdu = ByteBuffer.wrap(s.ulpduBuf).slice(0, ulpduLength);
        }
        Fpdu f = new Fpdu(offset, frameAt(s, offset), lastFrame, ulpduLength, ulpdu, pad, markers, s.crc, field,
                ok, s.inferred, padZero);
        listener.onFpdu(c.tcp, s.dir, f);
        return wire;
    }

    /** The CRC field read least significant octet first (RFC 5044 §4.4 via iSCSI; see {@link Fpdu}). */
    private static long crcField(ByteBuffer w, int base, int logical, int d0) {
        long v = 0;
        for (int i = 0; i < CRC_LENGTH; i++) {
            v |= (long) u8(w, base + wireIndex(logical - CRC_LENGTH + i, d0)) << (8 * i);
        }
        return v;
    }

    // ---------------------------------------------------------------- gaps and ends

    private void gap(Conn c, Side s, long offset, long length, long frame) {
        long from = s.rcvEnd;
        long end = Math.max(from, offset + length);
        s.rcvEnd = end;
        if (end <= s.next || end == from) return;          // lies inside an FPDU already given up on
        long lost = end - Math.max(from, s.next);
        switch (s.state) {
            case START -> {
                dropAcc(s);
                s.next = end;
                startUnseen(c, s, frame, "MPA start frame not captured (" + lost + " octets missing)");
            }
            case HOLD -> {
                notice(c, Severity.WARNING, frame, from, lost + " octets missing before the MPA start frame of the "
                        + "other side was seen; " + s.len + " held octets dropped");
                dropAcc(s);
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
                        notice(c, Severity.WARNING, frame, at, "FPDU at offset " + at + " lost " + lost
                                + " octets in a TCP gap; not delivered, framing continues after it");
                        dropAcc(s);
                        s.next = fpduEnd;
                        return;
                    }
                }
                notice(c, Severity.WARNING, frame, from, "TCP gap of " + lost + " octets at offset " + from
                        + " broke FPDU framing" + (s.len > 0 ? " (" + s.len + " octets of an FPDU dropped)" : "")
                        + "; searching for the next FPDU");
                dropAcc(s);
                s.next = end;
                s.state = State.SEARCH;
                s.knownStart = false;
                s.scanFrom = end;
            }
            case SEARCH -> {
                s.skipped += s.len;
                dropAcc(s);
                s.next = end;
                s.knownStart = false;
                s.scanFrom = end;
            }
            default -> {
                dropAcc(s);
                s.next = end;
            }
        }
    }

    private void closeSide(Conn c, Side s, long frame) {
        s.finishing = true;
        if (s.state == State.HOLD) {
            toSearch(c, s, true, null);
            s.kick = false;
        }
        if (s.len > 0) {
            drive(c, s, EMPTY, Long.MAX_VALUE, frame);
        }
        if (s.len > 0) {
            String unit = s.state == State.START ? "an MPA start frame" : "an FPDU";
            notice(c, Severity.WARNING, frameAt(s, s.next), s.next, s.len + " octets at the end of the direction "
                    + "do not complete " + unit + "; not delivered");
        }
        dropAcc(s);
        s.buf = NO_BYTES;
        s.view = EMPTY;
        s.ulpduBuf = null;
        s.closed = true;
        resolve(c);
    }

    // ---------------------------------------------------------------- inference

    private int stepSearch(Conn c, Side s, ByteBuffer w, int wp, int wl) {
        int cap = options.searchWindow();
        boolean full = wl >= cap, fin = s.finishing;
        long ws = s.next;
        if (s.knownStart) {
            boolean open = false;
            for (int h = 0; h < 2; h++) {
                int phase = knownStartPhase(s, ws, h);
                if (phase == SKIP) continue;
                runChain(w, wp, wl, ws, 0, phase, null, chain);
                if (chain.count >= 1) {
                    lock(c, s, ws, 0, phase, chain, false);
                    return 0;
                }
                open |= chain.status == INCOMPLETE;
            }
            if (open && !full && !fin) return -cap;
            notice(c, Severity.WARNING, frameAt(s, ws), ws, "no plausible FPDU at offset " + ws
                    + " where the first one should start; searching");
            s.knownStart = false;
            s.scanFrom = ws;
            return 0;
        }

        Boolean crcRule = s.crcKnown ? Boolean.valueOf(s.crc) : options.crc();
        int foundRel = -1, foundPhase = NO_PHASE, weakRel = -1, weakPhase = NO_PHASE, undecided = -1;

        // Boundaries under "no Markers" or under the Marker phase already known, tried at every offset.
        int linPhase = s.paramsKnown ? (s.markers ? phaseOf(s.markerBase) : NO_PHASE)
                : Boolean.TRUE.equals(options.markers()) ? SKIP : NO_PHASE;
        if (linPhase != SKIP) {
            boolean advancing = true;
            for (int rel = (int) Math.max(0, s.scanFrom - ws); rel < wl; rel++) {
                if (linPhase != NO_PHASE) {
                    int d = markerDistance(ws + rel, linPhase);
                    if (d >= MARKER_SPAN) {   // inside a Marker or right after it: no FPDU extent starts there
                        if (advancing) s.scanFrom = ws + rel + 1;
                        continue;
                    }
                }
                runChain(w, wp, wl, ws, rel, linPhase, crcRule, chain);
                if (strong(chain, linPhase, s.paramsKnown)) {
                    foundRel = rel;
                    foundPhase = linPhase;
                    best.copy(chain);
                    break;
                }
                boolean open = chain.status == INCOMPLETE || chain.status == TILED;
                if (open) {
                    if (chain.count >= 1 && weakRel < 0) {
                        weakRel = rel;
                        weakPhase = linPhase;
                        weak.copy(chain);
                    }
                    if (undecided < 0) undecided = rel;
                    advancing = false;
                    if (!full && !fin) break;     // an earlier boundary may still prove itself
                } else if (advancing) {
                    s.scanFrom = ws + rel + 1;
                }
            }
        }

        // Unknown Marker phase: Markers show themselves as zero reserved halves every 512 octets, and their
        // FPDUPTRs name FPDU starts (RFC 5044 §4.2, §4.3).
        if (!s.paramsKnown && !Boolean.FALSE.equals(options.markers())
                && wl >= MARKER_INTERVAL + MARKER_LENGTH) {
            for (int phase = 0; phase < MARKER_INTERVAL; phase++) {
                int r0 = markerDistance(ws, phase);
                if (r0 + MARKER_INTERVAL + MARKER_LENGTH > wl || !markerSignature(w, wp, wl, r0)) continue;
                int tried = 0;
                for (int m = r0; m + MARKER_LENGTH <= wl && tried < 4; m += MARKER_INTERVAL) {
                    int ptr = w.getShort(wp + m + 2) & 0xFFFF;
                    int rel;
                    if (ptr == 0) {
                        rel = m;
                    } else {
                        int hdr = m - ptr;
                        if (hdr < 0) continue;
                        rel = hdr >= MARKER_LENGTH && markerDistance(ws + hdr - MARKER_LENGTH, phase) == 0
                                ? hdr - MARKER_LENGTH : hdr;
                    }
                    if (foundRel >= 0 && rel >= foundRel) break;
                    tried++;
                    runChain(w, wp, wl, ws, rel, phase, crcRule, chain);
                    if (strong(chain, phase, false)) {
                        foundRel = rel;
                        foundPhase = phase;
                        best.copy(chain);
                        break;
                    }
                    if (chain.status == INCOMPLETE || chain.status == TILED) {
                        if (chain.count >= 1 && (weakRel < 0 || rel < weakRel)) {
                            weakRel = rel;
                            weakPhase = phase;
                            weak.copy(chain);
                        }
                        if (undecided < 0 || rel < undecided) undecided = rel;
                    }
                }
            }
        }

        if (foundRel >= 0 && (undecided < 0 || foundRel <= undecided || full || fin)) {
            lock(c, s, ws, foundRel, foundPhase, best, false);
            return foundRel;
        }
        if (!full && !fin) return -cap;
        if (weakRel >= 0) {
            lock(c, s, ws, weakRel, weakPhase, weak, true);
            return weakRel;
        }
        int drop = fin ? wl : undecided > 0 ? undecided : Math.max(1, wl - MAX_WIRE);
        s.skipped += drop;
        if (!fin && s.skipped > MAX_SEARCH) {
            // Not MPA (or MPA lost beyond recovery): searching every offset of endless non-FPDU bytes would cost
            // far more than decoding, so the direction is let go, as after a rejected connection.
            notice(c, Severity.WARNING, frameAt(s, ws), ws, "no FPDU framing found in " + s.skipped
                    + " octets (search cap " + MAX_SEARCH + "): the rest of this direction is not decoded as MPA");
            s.skipped = 0;
            s.state = State.IDLE;
            s.idleNoticed = true;
        }
        if (fin) {
            notice(c, Severity.WARNING, frameAt(s, ws), ws, s.skipped + " octets could not be framed as FPDUs");
            s.skipped = 0;
        }
        return drop;
    }

    private int knownStartPhase(Side s, long ws, int h) {
        if (s.paramsKnown) {
            return h == 0 ? (s.markers ? phaseOf(s.markerBase) : NO_PHASE) : SKIP;
        }
        if (h == 0) return Boolean.TRUE.equals(options.markers()) ? SKIP : NO_PHASE;
        return Boolean.FALSE.equals(options.markers()) ? SKIP : phaseOf(ws);
    }

    private static int phaseOf(long markerBase) {
        return (int) Math.floorMod(markerBase, (long) MARKER_INTERVAL);
    }

    private boolean strong(Chain ch, int phase, boolean paramsKnown) {
        if (ch.count >= MAX_CHAIN || ch.validCrc >= 2) return true;
        if (ch.count < options.lockFpdus()) return false;
        if (paramsKnown) return true;
        return phase != NO_PHASE ? ch.markersVerified >= 1 : ch.span >= STRONG_SPAN;
    }

    /** Every 4-octet word at a candidate Marker position in the window has a zero reserved half, FPDUPTR % 4 == 0. */
    private static boolean markerSignature(ByteBuffer w, int wp, int wl, int r0) {
        for (int m = r0; m + MARKER_LENGTH <= wl; m += MARKER_INTERVAL) {
            if (w.getShort(wp + m) != 0 || (w.get(wp + m + 3) & 3) != 0) return false;
        }
        return true;
    }

    private void lock(Conn c, Side s, long ws, int rel, int phase, Chain ch, boolean weakEvidence) {
        long at = ws + rel;
        boolean guessed = !s.paramsKnown;
        if (guessed) {
            s.markers = phase != NO_PHASE;
            s.markerBase = s.markers ? at + markerDistance(at, phase) : -1;
            if (!s.crcKnown) {
                s.crc = options.crc() != null ? options.crc() : 2 * ch.validCrc > ch.count;
                s.crcKnown = true;
            }
            s.paramsKnown = true;
            s.inferred = true;
        }
        s.state = State.FRAMING;
        s.knownStart = false;
        long skipped = s.skipped + rel;
        s.skipped = 0;
        StringBuilder msg = new StringBuilder();
        if (guessed) {
            msg.append("MPA parameters inferred from ").append(ch.count).append(" FPDU(s)")
                    .append(weakEvidence ? " (weak evidence)" : "").append(": markers ")
                    .append(s.markers ? "on, first at offset " + s.markerBase : "off")
                    .append(", CRC ").append(s.crc ? "on" : "off");
        } else {
            msg.append("FPDU framing regained");
        }
        msg.append("; first FPDU at offset ").append(at);
        if (skipped > 0) msg.append(", ").append(skipped).append(" octets skipped");
        notice(c, Severity.INFO, frameAt(s, at), at, msg.toString());
    }

    /**
     * Follows FPDUs from window offset {@code rel} under one hypothesis (Marker phase or none) while each looks like
     * an FPDU DDP could have sent, up to {@link #MAX_CHAIN}.
     *
     * @param crcRule TRUE: a bad CRC ends the chain; FALSE: CRCs not looked at; null: counted only
     */
    private void runChain(ByteBuffer w, int wp, int wl, long ws, int rel, int phase, Boolean crcRule, Chain ch) {
        ch.reset();
        while (true) {
            int avail = wl - rel;
            int d0 = phase == NO_PHASE ? NO_MARKERS : markerDistance(ws + rel, phase);
            int base = wp + rel;
            if (avail <= wireIndex(11, d0)) {        // ULPDU_Length and DDP header up to the QN
                ch.status = INCOMPLETE;
                return;
            }
            int ulpduLength = (u8(w, base + wireIndex(0, d0)) << 8) | u8(w, base + wireIndex(1, d0));
            if (ulpduLength < MIN_ULPDU) {
                ch.status = FAIL;
                return;
            }
            long qn = 0;
            for (int k = 8; k < 12; k++) qn = (qn << 8) | u8(w, base + wireIndex(k, d0));
            if (!plausibleDdp(u8(w, base + wireIndex(2, d0)), u8(w, base + wireIndex(3, d0)), ulpduLength, qn)) {
                ch.status = FAIL;
                return;
            }
            int logical = logicalLength(ulpduLength);
            int markers = markerCount(logical, d0);
            int wire = logical + MARKER_LENGTH * markers;
            int hdr = wireIndex(0, d0);
            for (int j = 0; j < markers; j++) {
                int m = d0 + j * MARKER_INTERVAL;
                if (m + MARKER_LENGTH > avail) break;
                int ptr = w.getShort(base + m + 2) & 0xFFFF;
                if (w.getShort(base + m) != 0 || (ptr & ~3) != (m == 0 ? 0 : m - hdr)) {
                    ch.status = FAIL;
                    return;
                }
                ch.markersVerified++;
            }
            if (wire > avail) {
                ch.status = INCOMPLETE;
                return;
            }
            if (!Boolean.FALSE.equals(crcRule)) {
                int crcAt = wireIndex(logical - CRC_LENGTH, d0);
                boolean ok = MpaFraming.crc32c(crc32c, w, base, crcAt) == crcField(w, base, logical, d0);
                if (ok) {
                    ch.validCrc++;
                } else if (Boolean.TRUE.equals(crcRule)) {
                    ch.status = FAIL;
                    return;
                }
            }
            ch.count++;
            ch.span += wire;
            rel += wire;
            if (rel == wl) {
                ch.status = TILED;
                return;
            }
            if (ch.count >= MAX_CHAIN) {
                ch.status = ENOUGH;
                return;
            }
        }
    }

    private static boolean plausibleHeader(ByteBuffer w, int wp, int d0, int ulpduLength) {
        if (ulpduLength < MIN_ULPDU) return false;
        long qn = 0;
        for (int k = 8; k < 12; k++) qn = (qn << 8) | u8(w, wp + wireIndex(k, d0));
        return plausibleDdp(u8(w, wp + wireIndex(2, d0)), u8(w, wp + wireIndex(3, d0)), ulpduLength, qn);
    }

    /**
     * Whether a ULPDU could start with this DDP/RDMAP header. RFC 5041 §4.1: DV = 1, Rsvd zero; RFC 5040 §4 (RDMAP
     * control, carried in DDP's RsvdULP): RV = 1, RSV zero, opcode 0..11 (RFC 5040, RFC 7306). Tagged (RFC 5041
     * §4.2, 14-octet header): RDMA Write or Read Response; untagged (§4.3, 18 octets): the rest, QN 0..3.
     */
    static boolean plausibleDdp(int ddpControl, int rdmapControl, int ulpduLength, long qn) {
        if ((ddpControl & 0x03) != 1 || (ddpControl & 0x3C) != 0) return false;
        if ((rdmapControl & 0xC0) != 0x40 || (rdmapControl & 0x30) != 0) return false;
        int opcode = rdmapControl & 0x0F;
        if ((ddpControl & 0x80) != 0) {
            return (opcode == 0 || opcode == 2) && ulpduLength >= 14;
        }
        return opcode != 0 && opcode != 2 && opcode <= 11 && ulpduLength >= 18 && qn <= 3;
    }

    // ---------------------------------------------------------------- helpers

    private void notice(Conn c, Severity severity, long frame, long offset, String message) {
        listener.onNotice(new Notice(severity, LAYER, frame, c.tcp.index(), offset, message));
    }

    private static int u8(ByteBuffer w, int index) {
        return w.get(index) & 0xFF;
    }

    private static String ascii(ByteBuffer w, int p, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int ch = u8(w, p + i);
            sb.append(ch >= 0x20 && ch < 0x7F ? String.valueOf((char) ch) : "\\x" + HexFormat.of().toHexDigits((byte) ch));
        }
        return sb.toString();
    }

    private static final class Chain {
        int count, validCrc, markersVerified, status;
        long span;

        void reset() {
            count = validCrc = markersVerified = 0;
            status = FAIL;
            span = 0;
        }

        void copy(Chain o) {
            count = o.count;
            validCrc = o.validCrc;
            markersVerified = o.markersVerified;
            status = o.status;
            span = o.span;
        }
    }

    private static final class Conn {
        final TcpConnection tcp;
        final Side c2s = new Side(Direction.CLIENT_TO_SERVER);
        final Side s2c = new Side(Direction.SERVER_TO_CLIENT);
        final Side[] sides = {c2s, s2c};
        boolean pairNoticed;

        Conn(TcpConnection tcp) {
            this.tcp = tcp;
        }

        Side side(Direction d) {
            return d == Direction.CLIENT_TO_SERVER ? c2s : s2c;
        }

        Side peer(Side s) {
            return s == c2s ? s2c : c2s;
        }
    }

    /** One direction: where it is in the stream, what it holds, which rules apply. */
    private static final class Side {
        final Direction dir;
        State state = State.START;
        boolean seen, closed, kick, finishing, idleNoticed, padNoticed;
        /** Stream offset of the first octet not yet consumed (= first octet of {@link #buf}). */
        long next;
        /** Stream offset after the last octet received (or declared lost). */
        long rcvEnd;
        byte[] buf = NO_BYTES;
        ByteBuffer view = EMPTY;
        int len;
        /** Stream offset from which octets of {@link #buf} came in frame {@link #fFrm}. */
        long[] fOff = new long[4];
        long[] fFrm = new long[4];
        int fCnt;
        long curOff = Long.MAX_VALUE, curFrame, lastFrame;
        boolean paramsKnown, markers, crcKnown, crc, inferred, knownStart;
        long markerBase = -1, fpduStart = -1, scanFrom, skipped;
        MpaStartFrame sent;
        byte[] ulpduBuf;

        Side(Direction dir) {
            this.dir = dir;
        }
    }
}
