package io.rddp.mpa;

import io.rddp.tcp.Direction;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static io.rddp.mpa.MpaFraming.MAX_WIRE;

/**
 * One direction of an MPA connection: where it is in the stream, which FPDU rules apply, and the octets held back
 * because the unit they start (start frame or FPDU) is not complete yet. State only, plus the plumbing of that
 * buffer; the decisions are {@link MpaDecoder}'s and its parts'.
 */
final class MpaSide {

    /** START: expecting an MPA Request/Reply; HOLD: own start frame seen, waiting for the peer's (RFC 5044 §7.1). */
    enum State { START, HOLD, FRAMING, SEARCH, IDLE }

    /** A buffer grown past this (by a search) is let go once empty rather than kept for the connection's life. */
    private static final int KEEP_BUFFER = 2 * MAX_WIRE;
    static final byte[] NO_BYTES = new byte[0];
    static final ByteBuffer EMPTY = ByteBuffer.wrap(NO_BYTES);

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

    MpaSide(Direction dir) {
        this.dir = dir;
    }

    /** Appends {@code n} octets of {@code data} from index {@code pos}: stream offset {@code dOff}, {@code frame}. */
    void append(ByteBuffer data, int pos, int n, long dOff, long frame, int searchWindow) {
        int need = len + n;
        if (need > buf.length) {
            int cap = Math.max(need, Math.min(Math.max(2 * buf.length, 4096), searchWindow));
            byte[] nb = new byte[cap];
            System.arraycopy(buf, 0, nb, 0, len);
            buf = nb;
            view = ByteBuffer.wrap(nb);
        }
        data.get(pos, buf, len, n);
        if (fCnt == 0 || fFrm[fCnt - 1] != frame) {
            if (fCnt == fOff.length) {
                fOff = Arrays.copyOf(fOff, 2 * fCnt);
                fFrm = Arrays.copyOf(fFrm, 2 * fCnt);
            }
            fOff[fCnt] = dOff;
            fFrm[fCnt++] = frame;
        }
        len = need;
    }

    /** Takes {@code r} octets off the front of the buffer. */
    void consume(int r) {
        System.arraycopy(buf, r, buf, 0, len - r);
        len -= r;
        next += r;
        if (len == 0) {
            dropAcc();
            return;
        }
        int k = 0;
        while (k + 1 < fCnt && fOff[k + 1] <= next) k++;
        if (k > 0) {
            System.arraycopy(fOff, k, fOff, 0, fCnt - k);
            System.arraycopy(fFrm, k, fFrm, 0, fCnt - k);
            fCnt -= k;
        }
    }

    /** Forgets the held octets. */
    void dropAcc() {
        len = 0;
        fCnt = 0;
        if (buf.length > KEEP_BUFFER) {
            buf = NO_BYTES;
            view = EMPTY;
        }
    }

    /** Frame that carried the octet at {@code offset}. */
    long frameAt(long offset) {
        if (offset >= curOff) return curFrame;
        for (int i = fCnt - 1; i >= 0; i--) {
            if (fOff[i] <= offset) return fFrm[i];
        }
        return fCnt > 0 ? fFrm[0] : curFrame;
    }
}
