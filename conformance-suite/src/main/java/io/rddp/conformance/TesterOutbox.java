package io.rddp.conformance;

import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rnic.link.Link;
import io.rddp.tcp.Direction;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The send side of a scripted connection: exactly the octets a scenario asks for, with defaults from the
 * connection's state (next MSN, negotiated CRC and Markers), framed as FPDUs with fault hooks, cut into TCP writes
 * anywhere or held back to go out in one. Every octet reaches the {@link WireFeed} before the DUT can answer it.
 * Guarded by the connection's lock, never held while writing to the DUT (which may not read).
 */
final class TesterOutbox {

    private final Object lock;
    private final Link link;
    private final Direction out;
    private final WireFeed feed;
    private final WireMarks marks;

    // ---- guarded by lock ----
    private MpaStartFrame ourStart;
    private FpduEncoder encoder;
    private boolean markersTx;
    private final long[] msn = {1, 1, 1, 1};
    private IOException writeFailure;
    /** octets written while held (see {@link #hold()}), or null when writes go out at once */
    private ByteArrayOutputStream held;

    TesterOutbox(Object lock, Link link, WireFeed feed, WireMarks marks) {
        this.lock = lock;
        this.link = link;
        this.out = link.outbound();
        this.feed = feed;
        this.marks = marks;
    }

    // ------------------------------------------------------------------ MPA

    /** Writes an MPA start frame as given (any key, flags, Rev, PD_Length). */
    void sendStartFrame(MpaStartFrame f) throws IOException {
        synchronized (lock) {
            ourStart = f;
        }
        write(f.toBytes());
    }

    /** Writes an MPA start frame's octets as given ({@code wire}, e.g. with a key of the scenario's), cut into writes. */
    void sendStartFrame(MpaStartFrame f, byte[] wire, int[] cuts, int pauseMs) throws IOException {
        synchronized (lock) {
            ourStart = f;
        }
        write(wire, cuts, pauseMs);
    }

    MpaStartFrame ourStart() {
        synchronized (lock) {
            return ourStart;
        }
    }

    /**
     * Enters Full Operation with the parameters both start frames give (RFC 5044 §7.1.1: CRC when either side set C;
     * Markers toward the side whose frame set M). Without a peer frame the tester's own frame decides.
     */
    void fullOperation(MpaStartFrame peerStart) {
        synchronized (lock) {
            boolean c = ourStart != null && ourStart.crc() || peerStart != null && peerStart.crc();
            boolean m = peerStart != null && peerStart.markers();
            fullOperation(c, m);
        }
    }

    /** Enters Full Operation with explicit parameters (to send FPDUs the DUT does not expect). */
    void fullOperation(boolean crcOn, boolean markersToDut) {
        synchronized (lock) {
            markersTx = markersToDut;
            encoder = new FpduEncoder(markersToDut, crcOn, next());
        }
    }

    /** Stream offset of the tester's next octet, held ones counted. */
    private long next() {
        return feed.offset(out) + (held == null ? 0 : held.size());
    }

    // ------------------------------------------------------------------ FPDUs

    /** The next MSN of queue {@code qn} (RFC 5041 §4.3), counted up. */
    long nextMsn(int qn) {
        synchronized (lock) {
            long m = msn[qn];
            msn[qn] = (m + 1) & 0xFFFF_FFFFL;
            return m;
        }
    }

    long peekMsn(int qn) {
        synchronized (lock) {
            return msn[qn];
        }
    }

    /** Largest ULPDU for a segment of {@code mss} octets with this direction's Markers (RFC 5044 §8 MULPDU). */
    int mulpdu(int mss) {
        synchronized (lock) {
            int room = mss - 2 - 4 - (markersTx ? 4 * ((mss + 511) / 512) : 0);
            return Math.max(64, Math.min(room & ~3, RdmapEncoder.MAX_ULPDU & ~3));
        }
    }

    /** The FPDU for {@code ulpdu} at the next stream position, marked with {@code injected} faults (null: none). */
    byte[] fpdu(ByteBuffer ulpdu, FpduEncoder.Faults faults, WireMark.Faults injected) {
        synchronized (lock) {
            if (encoder == null) throw new IllegalStateException("not in Full Operation: call fullOperation() first");
            long from = encoder.offset();
            byte[] bytes = encoder.encode(ulpdu, faults);
            if (injected != null && !injected.isEmpty()) {
                marks.mark(WireMark.Kind.INJECTED, from, encoder.offset(), injected.fields(), injected.what());
            }
            return bytes;
        }
    }

    /** The tester's next {@code length} octets carry fields the scenario set to a faulty value. */
    void injectNext(int length, WireMark.Faults injected) {
        if (injected == null || injected.isEmpty()) return;
        synchronized (lock) {
            long at = next();
            marks.mark(WireMark.Kind.INJECTED, at, at + length, injected.fields(), injected.what());
        }
    }

    // ------------------------------------------------------------------ octets

    /**
     * Writes raw octets cut at the given offsets into separate writes (TCP segments on loopback with Nagle off),
     * waiting {@code pauseMs} between them.
     */
    void write(byte[] bytes, int[] cuts, int pauseMs) throws IOException {
        synchronized (lock) {
            if (held != null) {
                held.writeBytes(bytes);
                return;
            }
        }
        int from = 0;
        int[] ends = Arrays.copyOf(cuts, cuts.length + 1);
        ends[cuts.length] = bytes.length;
        for (int end : ends) {
            if (end <= from || end > bytes.length) continue;
            byte[] part = Arrays.copyOfRange(bytes, from, end);
            synchronized (lock) {
                // the judge sees the tester's octets before the DUT can answer them
                feed.data(out, ByteBuffer.wrap(part));
            }
            try {
                link.write(part);
            } catch (IOException e) {
                synchronized (lock) {
                    writeFailure = e;
                }
                throw e;
            }
            from = end;
            if (pauseMs > 0 && from < bytes.length) sleep(pauseMs);
        }
    }

    void write(byte[] bytes) throws IOException {
        write(bytes, new int[0], 0);
    }

    /** From now on writes are collected instead of sent, until {@link #release()}. */
    void hold() {
        synchronized (lock) {
            if (held == null) held = new ByteArrayOutputStream();
        }
    }

    /** Sends what was written since {@link #hold()} in one write. */
    void release() throws IOException {
        byte[] bytes;
        synchronized (lock) {
            if (held == null) return;
            bytes = held.toByteArray();
            held = null;
        }
        if (bytes.length > 0) write(bytes);
    }

    /** FIN from the tester. */
    void finish() {
        synchronized (lock) {
            feed.close(out, false);
        }
        link.finish();
    }

    IOException writeFailure() {
        synchronized (lock) {
            return writeFailure;
        }
    }

    private static void sleep(int ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
