package io.rddp.conformance;

import io.rddp.ddp.DdpSegment;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.decode.StreamDecoder;
import io.rddp.rnic.link.Link;
import io.rddp.rnic.link.Recorder;
import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.sink.OwedTerminate;
import io.rddp.sink.ReceiveBuffers;
import io.rddp.sink.Side;
import io.rddp.sink.SinkListener;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpConnection;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The tester's end of one TCP connection to a device under test. It sends exactly the bytes a scenario asks for —
 * any field at any value, CRCs right, wrong or in the other byte order, Markers present, absent or wrong, TCP writes
 * cut anywhere — with defaults taken from the connection's state (next MSN, negotiated CRC and Markers). Both
 * directions go through the analyzer's decoder and a judging sink model in the order they are on the wire, exactly
 * as a capture would: the DUT is judged by the same rules as a capture. Everything the DUT sends is kept until FIN
 * or RST (bytes before a reset are never lost), bounded.
 *
 * <p>Bounded: a DUT that floods cannot exhaust the tester. Once the DUT sent more than the record cap (the scenario's
 * recorder's, over all its connections; without a capped recorder {@link RecordingCap#DEFAULT_OCTETS} on this
 * connection) the connection is {@link #truncated()}: it keeps reading, decoding, judging and counting (so the DUT is
 * never blocked and its Terminate and close are still seen) but keeps no more PDUs — its start frames and first
 * Terminate aside — and the tester posts no receive for the DUT's Sends begun past the cap, which the judge then
 * finds without a buffer (RFC 5041 §7.1). Violations are kept up to {@link #MAX_VIOLATIONS}, then only counted. A
 * write the DUT does not read within {@link #WRITE_TIMEOUT_MS} resets the connection: no call blocks for ever.
 */
public final class ScriptedConnection implements Closeable {

    /** PDUs of the DUT kept for the report, at most (start frames and the first Terminate are always kept). */
    static final int MAX_PDUS = 4096;
    /** Violations kept, at most; the rest are counted per check. */
    static final int MAX_VIOLATIONS = 1000;
    /** How long one write may wait on a DUT that reads nothing before the connection is reset. */
    static final int WRITE_TIMEOUT_MS = 60_000;
    /** Marks on PDUs of the exchange (injected faults, the DUT's faulty fields) kept for the report, at most. */
    static final int MAX_MARKS = 256;

    private final Link link;
    private final Direction out, in;
    private final Side dutSide;
    private final StreamDecoder decoder;
    private final SinkModel judge;
    private final StagRegistry dutStags = StagRegistry.empty();
    private final Object lock = new Object();
    private final Thread reader;
    private final long startNanos = System.nanoTime();
    /** the scenario's recorder (its cap spans the scenario's connections), or null */
    private final Recorder recorder;
    private final long cap;

    // ---- guarded by lock ----
    private long frame;
    private final List<DutPdu> dutPdus = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();
    private final List<OwedTerminate> owedByDut = new ArrayList<>();
    private long dutBytes;
    private boolean truncated;
    private long truncatedAtMs = -1, firstDutNanos = -1, lastDutNanos = -1;
    private long startFrames, fpdus, undecodable, pdusNotKept, sendsPastCap;
    private final long[] byOpcode = new long[16];
    private boolean terminateKept;
    private long violationCount;
    /** per check id, in the order first seen: the first violation and how many there were */
    private final java.util.Map<String, Tally> tallies = new java.util.LinkedHashMap<>();
    private MpaStartFrame ourStart, peerStart;
    private FpduEncoder encoder;
    private boolean crc, markersTx;
    private final long[] msn = {1, 1, 1, 1};
    private Link.PeerClose close = Link.PeerClose.OPEN;
    private long closeNanos = -1;
    private boolean dataBeforeClose;
    private long postedReceives = -1, receiveLength;
    private IOException writeFailure;
    /** octets written while held (see {@link #hold()}), or null when writes go out at once */
    private java.io.ByteArrayOutputStream held;
    /** marks on PDUs for the report: the connection's ends, the tester's injected fields, the DUT's faulty ones */
    private final List<WireMark> marks = new ArrayList<>();
    /** the tester's RDMA Read Requests, in the order sent (at most {@link #MAX_PDUS}) */
    private final List<io.rddp.rdmap.ReadRequest> testerReads = new ArrayList<>();
    /** the PDU the judge is looking at: its direction, frame and stream offset (violations found now are about it) */
    private Direction judging;
    private long judgingFrame, judgingOffset;

    /**
     * One PDU the DUT sent, as decoded.
     *
     * @param frame   judge frame number
     * @param atMs    milliseconds since the connection started
     * @param start   its MPA start frame, or null
     * @param segment its DDP segment (payload kept up to the caps), or null
     * @param rdmap   its RDMAP decode, or null
     * @param crcOk   the CRC verdict, null when not checked
     * @param problem why it did not decode, or null
     * @param payload payload octets kept (possibly fewer than the segment had)
     * @param offset  stream offset of its first octet in the DUT's direction (a start frame: 0)
     */
    public record DutPdu(long frame, long atMs, MpaStartFrame start, DdpSegment segment, RdmapPdu rdmap,
                         Boolean crcOk, String problem, byte[] payload, long offset) {

        public DutPdu(long frame, long atMs, MpaStartFrame start, DdpSegment segment, RdmapPdu rdmap,
                      Boolean crcOk, String problem, byte[] payload) {
            this(frame, atMs, start, segment, rdmap, crcOk, problem, payload, 0);
        }
    }

    /**
     * One check the judge found broken: its first violation and how often.
     *
     * @param first the first violation of the check
     * @param count all of them, kept or not
     */
    public record Tally(Violation first, long count) {
    }

    /**
     * What the DUT sent on this connection, counted whether it was kept or not: facts a report can state about a
     * flood.
     *
     * @param octets       DUT octets read
     * @param spanMs       milliseconds from its first octet to its last (0: none or one read)
     * @param startFrames  MPA start frames
     * @param fpdus        FPDUs, decodable or not
     * @param undecodable  FPDUs without a decodable DDP segment
     * @param byOpcode     FPDUs per RDMAP opcode, by the opcode's short name, in opcode order
     * @param notKept      PDUs decoded but not kept (past the cap or {@link #MAX_PDUS})
     * @param sendsPastCap untagged messages of queue 0 (Sends) the DUT began past the cap, for which the tester had
     *                     no receive posted
     * @param truncatedAtMs when the cap was passed, from the connection's start, or -1
     */
    public record DutTraffic(long octets, long spanMs, long startFrames, long fpdus, long undecodable,
                             java.util.Map<String, Long> byOpcode, long notKept, long sendsPastCap,
                             long truncatedAtMs) {
    }

    private ScriptedConnection(Link link, Recorder recorder) {
        this.link = link.writeTimeout(WRITE_TIMEOUT_MS);
        this.recorder = recorder;
        this.cap = recorder != null && recorder.cap() != Recorder.UNCAPPED ? recorder.cap()
                : RecordingCap.DEFAULT_OCTETS;
        this.out = link.outbound();
        this.in = link.inbound();
        this.dutSide = Side.senderOf(in);
        this.judge = new SinkModel(SinkModel.Options.defaults().withStrict(true), dutStags, new Judge());
        judge.receiveBuffers(this::dutBuffer);
        Endpoint local = endpoint(link.local()), remote = endpoint(link.remote());
        boolean weConnected = link.weConnected();
        this.decoder = new StreamDecoder(new Conn(weConnected ? local : remote, weConnected ? remote : local),
                new Events());
        judge.onConnection(decoder.connection());
        marks.add(new WireMark(WireMark.Kind.CONNECTION, link.local().getPort(), link.remote().getPort(), 0, 0,
                List.of(), ""));
        this.reader = new Thread(this::readLoop, "tester-read-" + link.local().getPort());
        reader.setDaemon(true);
        reader.start();
    }

    /** Connects to a passive DUT. */
    public static ScriptedConnection connect(InetSocketAddress dut, int timeoutMs, Recorder recorder)
            throws IOException {
        return new ScriptedConnection(Link.connect(dut, timeoutMs, recorder), recorder);
    }

    /** Accepts an active DUT's connection on {@code server}. */
    public static ScriptedConnection accept(ServerSocket server, int timeoutMs, Recorder recorder) throws IOException {
        server.setSoTimeout(timeoutMs);
        Socket s = server.accept();
        return new ScriptedConnection(new Link(s, false, recorder), recorder);
    }

    // ------------------------------------------------------------------ what the tester knows

    /** The DUT's STags the tester knows of (registered through the control channel, or learned): the judge runs strict. */
    public void dutStag(long stag, long baseTo, long length, java.util.Set<io.rddp.sink.StagRegistration.Access> rights) {
        synchronized (lock) {
            dutStags.add(new io.rddp.sink.StagRegistration(stag, baseTo, length, rights, dutSide, java.util.Set.of(),
                    0, Long.MAX_VALUE));
        }
    }

    /**
     * A DUT STag registered in another protection domain than this connection's (RFC 5042 §6.1.1): the judge holds it
     * "not associated with this stream", so an access to it is owed a Terminate 1/1/2 or 0/1/3.
     */
    public void dutStagOtherDomain(long stag, long baseTo, long length,
                                   java.util.Set<io.rddp.sink.StagRegistration.Access> rights) {
        synchronized (lock) {
            dutStags.add(new io.rddp.sink.StagRegistration(stag, baseTo, length, rights, dutSide, java.util.Set.of(-1),
                    0, Long.MAX_VALUE));
        }
    }

    /** The DUT revoked remote access to one of its STags (deregistration, local invalidation): later uses are invalid. */
    public void revokeDutStag(long stag) {
        synchronized (lock) {
            dutStags.revoke(stag, frame);
        }
    }

    /** The tester's own STags (Data Sinks of its Reads, buffers it advertised), so the DUT's accesses are judged. */
    public void testerStag(long stag, long baseTo, long length,
                           java.util.Set<io.rddp.sink.StagRegistration.Access> rights) {
        synchronized (lock) {
            dutStags.add(new io.rddp.sink.StagRegistration(stag, baseTo, length, rights, dutSide == Side.CLIENT
                    ? Side.SERVER : Side.CLIENT, java.util.Set.of(), 0, Long.MAX_VALUE));
        }
    }

    /** Receives the DUT posted for the tester's Sends (count, then -1: unknown), so the judge checks RFC 5041 §7.1. */
    public void dutReceives(long count, long length) {
        synchronized (lock) {
            postedReceives = count;
            receiveLength = length;
        }
    }

    private long dutBuffer(int stream, Side receiver, long qn, long m) {
        // past the cap the tester keeps nothing: it has no receive for a Send begun there (asked once per message)
        if (receiver != dutSide) {
            if (!truncated || qn != 0) return ReceiveBuffers.UNKNOWN;
            sendsPastCap++;
            return ReceiveBuffers.NONE;
        }
        if (qn != 0 || postedReceives < 0) return ReceiveBuffers.UNKNOWN;
        return m >= 1 && m <= postedReceives ? receiveLength : ReceiveBuffers.NONE;
    }

    // ------------------------------------------------------------------ MPA

    /** Writes an MPA start frame as given (any key, flags, Rev, PD_Length). */
    public void sendStartFrame(MpaStartFrame f) throws IOException {
        synchronized (lock) {
            ourStart = f;
        }
        write(f.toBytes());
    }

    /** Waits for the DUT's MPA Reply (or Request), null when none came in time. */
    public MpaStartFrame awaitStartFrame(long timeoutMs) throws InterruptedException {
        await(c -> c.peerStart != null || c.close != Link.PeerClose.OPEN, timeoutMs);
        synchronized (lock) {
            return peerStart;
        }
    }

    public MpaStartFrame ourStartFrame() {
        synchronized (lock) {
            return ourStart;
        }
    }

    public MpaStartFrame peerStartFrame() {
        synchronized (lock) {
            return peerStart;
        }
    }

    /**
     * Enters Full Operation with the parameters both start frames give (RFC 5044 §7.1.1: CRC when either side set C;
     * Markers toward the side whose frame set M). Without a peer frame (a scenario that sends FPDUs early) the
     * tester's own frame decides.
     */
    public void fullOperation() {
        synchronized (lock) {
            boolean c = ourStart != null && ourStart.crc() || peerStart != null && peerStart.crc();
            boolean m = peerStart != null && peerStart.markers();
            fullOperation(c, m);
        }
    }

    /** Enters Full Operation with explicit parameters (to send FPDUs the DUT does not expect). */
    public void fullOperation(boolean crcOn, boolean markersToDut) {
        synchronized (lock) {
            crc = crcOn;
            markersTx = markersToDut;
            long at = decoder.offset(out) + (held == null ? 0 : held.size());
            encoder = new FpduEncoder(markersToDut, crcOn, at);
        }
    }

    // ------------------------------------------------------------------ FPDUs

    /** The next MSN of queue {@code qn} (RFC 5041 §4.3), counted up. */
    public long nextMsn(int qn) {
        synchronized (lock) {
            long m = msn[qn];
            msn[qn] = (m + 1) & 0xFFFF_FFFFL;
            return m;
        }
    }

    /** The next MSN of queue {@code qn} without counting it. */
    public long peekMsn(int qn) {
        synchronized (lock) {
            return msn[qn];
        }
    }

    /** Largest ULPDU for a segment of {@code mss} octets with this direction's Markers (RFC 5044 §8 MULPDU). */
    public int mulpdu(int mss) {
        synchronized (lock) {
            int room = mss - 2 - 4 - (markersTx ? 4 * ((mss + 511) / 512) : 0);
            return Math.max(64, Math.min(room & ~3, RdmapEncoder.MAX_ULPDU & ~3));
        }
    }

    /** Frames every segment of {@code message} as FPDUs with {@code faults} and writes each in its own write. */
    public void send(RdmapEncoder.Builder message, FpduEncoder.Faults faults) throws IOException {
        send(message, faults, null);
    }

    /** As {@link #send(RdmapEncoder.Builder, FpduEncoder.Faults)}, every FPDU marked with the faulty fields. */
    public void send(RdmapEncoder.Builder message, FpduEncoder.Faults faults, WireMark.Faults injected)
            throws IOException {
        for (DdpSegment s : message.segments()) write(fpdu(s.toByteBuffer(), faults, injected));
    }

    public void send(RdmapEncoder.Builder message) throws IOException {
        send(message, FpduEncoder.Faults.NONE);
    }

    /** The FPDU for {@code ulpdu} at the next stream position, advancing the framing state. */
    public byte[] fpdu(ByteBuffer ulpdu, FpduEncoder.Faults faults) {
        return fpdu(ulpdu, faults, null);
    }

    /**
     * As {@link #fpdu(ByteBuffer, FpduEncoder.Faults)}, the FPDU marked for the report with the fields the scenario
     * set to a faulty value ({@code injected}; null or empty: none).
     */
    public byte[] fpdu(ByteBuffer ulpdu, FpduEncoder.Faults faults, WireMark.Faults injected) {
        synchronized (lock) {
            if (encoder == null) throw new IllegalStateException("not in Full Operation: call fullOperation() first");
            long from = encoder.offset();
            byte[] out = encoder.encode(ulpdu, faults);
            if (injected != null && !injected.isEmpty()) mark(WireMark.Kind.INJECTED, from, encoder.offset(),
                    injected.fields(), injected.what());
            return out;
        }
    }

    /**
     * The tester's next {@code length} octets (e.g. a start frame about to be written) carry fields the scenario set
     * to a faulty value: the report marks the PDU there.
     */
    public void injectNext(int length, WireMark.Faults injected) {
        if (injected == null || injected.isEmpty()) return;
        synchronized (lock) {
            long at = decoder.offset(out) + (held == null ? 0 : held.size());
            mark(WireMark.Kind.INJECTED, at, at + length, injected.fields(), injected.what());
        }
    }

    /** The tester's start frame, sent when the connection opened, had faulty fields (see {@link #injectNext}). */
    public void injectedStartFrame(WireMark.Faults injected) {
        if (injected == null || injected.isEmpty()) return;
        synchronized (lock) {
            mark(WireMark.Kind.INJECTED, 0, 1, injected.fields(), injected.what());
        }
    }

    /** A PDU of the DUT's, at {@code offset} in its direction, is at fault in {@code fields} (see {@link #marks()}). */
    WireMark dutMark(long offset, List<String> fields, String what) {
        return new WireMark(WireMark.Kind.OFFENDING, link.local().getPort(), link.remote().getPort(), offset,
                offset + 1, fields, what);
    }

    private void mark(WireMark.Kind kind, long from, long to, List<String> fields, String what) {
        if (marks.size() < MAX_MARKS) {
            marks.add(new WireMark(kind, link.local().getPort(), link.remote().getPort(), from, to, fields, what));
        }
    }

    /** Marks on this connection's PDUs: its ends, the tester's injected fields, the DUT's faulty ones. */
    public List<WireMark> marks() {
        synchronized (lock) {
            return new ArrayList<>(marks);
        }
    }

    /** The tester's RDMA Read Requests on this connection, in the order sent. */
    public List<io.rddp.rdmap.ReadRequest> testerReads() {
        synchronized (lock) {
            return new ArrayList<>(testerReads);
        }
    }

    /** The DUT's registration of {@code stag} the tester knows of (the first, if several), or null. */
    public io.rddp.sink.StagRegistration dutRegistration(long stag) {
        synchronized (lock) {
            for (io.rddp.sink.StagRegistration r : dutStags.registrations(stag)) {
                if (r.owner() == dutSide) return r;
            }
            return null;
        }
    }

    /** Writes raw octets in one write. */
    public void write(byte[] bytes) throws IOException {
        write(bytes, new int[0], 0);
    }

    /**
     * Writes raw octets cut at the given offsets into separate writes (TCP segments on loopback with Nagle off),
     * waiting {@code pauseMs} between them.
     */
    public void write(byte[] bytes, int[] cuts, int pauseMs) throws IOException {
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
                decoder.data(out, ByteBuffer.wrap(part), ++frame, now());
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

    /**
     * From now on writes are collected instead of sent, until {@link #release()} sends them all in one write: an MPA
     * frame and FPDUs in one TCP segment.
     */
    public void hold() {
        synchronized (lock) {
            if (held == null) held = new java.io.ByteArrayOutputStream();
        }
    }

    /** Sends what was written since {@link #hold()} in one write. */
    public void release() throws IOException {
        byte[] bytes;
        synchronized (lock) {
            if (held == null) return;
            bytes = held.toByteArray();
            held = null;
        }
        if (bytes.length > 0) write(bytes);
    }

    /** Writes an MPA start frame's octets as given ({@code wire}, e.g. with a key of the scenario's), cut into writes. */
    public void sendStartFrame(MpaStartFrame f, byte[] wire, int[] cuts, int pauseMs) throws IOException {
        synchronized (lock) {
            ourStart = f;
        }
        write(wire, cuts, pauseMs);
    }

    /** FIN from the tester. */
    public void finish() {
        synchronized (lock) {
            decoder.close(out, false, ++frame, now());
        }
        link.finish();
    }

    /** RST from the tester. */
    public void abort() {
        link.abort();
    }

    // ------------------------------------------------------------------ observation

    /** Waits until {@code condition} holds (checked after every event) or {@code timeoutMs} passed. */
    public boolean await(Predicate<ScriptedConnection> condition, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        synchronized (lock) {
            while (!condition.test(this)) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) return false;
                lock.wait(left);
            }
            return true;
        }
    }

    /** Waits for the DUT to send {@code n} FPDUs in all (start frames not counted). */
    public boolean awaitFpdus(int n, long timeoutMs) throws InterruptedException {
        return await(c -> c.fpdusLocked() >= n || c.close != Link.PeerClose.OPEN, timeoutMs);
    }

    private long fpdusLocked() {
        return fpdus;
    }

    /** Waits for the DUT to close (FIN or RST). */
    public boolean awaitClose(long timeoutMs) throws InterruptedException {
        return await(c -> c.close != Link.PeerClose.OPEN, timeoutMs);
    }

    public List<DutPdu> dutPdus() {
        synchronized (lock) {
            return new ArrayList<>(dutPdus);
        }
    }

    /** What the judge found so far, both directions: the first {@link #MAX_VIOLATIONS}. */
    public List<Violation> violations() {
        synchronized (lock) {
            return new ArrayList<>(violations);
        }
    }

    /** Every check the judge found broken so far, both directions, with its first violation and count. */
    public List<Tally> tallies() {
        synchronized (lock) {
            return new ArrayList<>(tallies.values());
        }
    }

    /** Violations found in all, kept or not. */
    public long violationCount() {
        synchronized (lock) {
            return violationCount;
        }
    }

    /**
     * Whether the DUT sent more than the record cap (on this connection, or the scenario's other ones through their
     * shared recorder): what came after it was read and judged but not kept.
     */
    public boolean truncated() {
        synchronized (lock) {
            return truncated || recorder != null && recorder.truncated();
        }
    }

    /** The DUT octets this connection records and keeps at most (with a capped recorder: over the scenario). */
    public long cap() {
        return cap;
    }

    /** What the DUT sent, counted. */
    public DutTraffic dutTraffic() {
        synchronized (lock) {
            java.util.Map<String, Long> ops = new java.util.LinkedHashMap<>();
            for (Opcode o : Opcode.values()) if (byOpcode[o.code()] > 0) ops.put(o.shortName(), byOpcode[o.code()]);
            long span = firstDutNanos < 0 ? 0 : (lastDutNanos - firstDutNanos) / 1_000_000L;
            return new DutTraffic(dutBytes, span, startFrames, fpdus, undecodable, ops, pdusNotKept, sendsPastCap,
                    truncatedAtMs);
        }
    }

    /** Terminates the judge says the DUT owes for what the tester sent. */
    public List<OwedTerminate> owedByDut() {
        synchronized (lock) {
            return new ArrayList<>(owedByDut);
        }
    }

    /** How the DUT's side ended so far: OPEN, FIN or RST. */
    public Link.PeerClose peerClose() {
        synchronized (lock) {
            return close;
        }
    }

    /** Milliseconds from the connection's start to the DUT's close, or -1. */
    public long closeAtMs() {
        synchronized (lock) {
            return closeNanos < 0 ? -1 : (closeNanos - startNanos) / 1_000_000L;
        }
    }

    /** Whether the DUT sent any octet before it reset the connection. */
    public boolean dataBeforeClose() {
        synchronized (lock) {
            return dataBeforeClose;
        }
    }

    public long dutBytes() {
        synchronized (lock) {
            return dutBytes;
        }
    }

    /** The DUT opened the connection (it is the MPA Initiator; the tester listened). */
    public boolean dutActive() {
        return !link.weConnected();
    }

    /** The tester's end of the TCP connection (the DUT sees it as the peer's address). */
    public InetSocketAddress localAddress() {
        return link.local();
    }

    public Direction testerDirection() {
        return out;
    }

    public Direction dutDirection() {
        return in;
    }

    public IOException writeFailure() {
        synchronized (lock) {
            return writeFailure;
        }
    }

    public long elapsedMs() {
        return (System.nanoTime() - startNanos) / 1_000_000L;
    }

    /** Ends the judging: unfinished business is settled (e.g. a Terminate the DUT still owes). */
    public void settle() {
        synchronized (lock) {
            decoder.end(++frame, now());
            judge.onEnd();
        }
    }

    @Override
    public void close() {
        link.close();
        try {
            reader.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ internals

    private void readLoop() {
        byte[] buf = new byte[64 * 1024];
        try {
            while (true) {
                int n = link.read(buf, 100);
                synchronized (lock) {
                    if (n > 0) {
                        dutBytes += n;
                        lastDutNanos = System.nanoTime();
                        if (firstDutNanos < 0) firstDutNanos = lastDutNanos;
                        if (!truncated && (dutBytes > cap || recorder != null && recorder.truncated())) {
                            truncated = true;
                            truncatedAtMs = elapsedMs();
                        }
                        dataBeforeClose = true;
                        decoder.data(in, ByteBuffer.wrap(buf, 0, n), ++frame, now());
                        lock.notifyAll();
                    } else if (n < 0) {
                        close = link.peerClose() == Link.PeerClose.OPEN ? Link.PeerClose.FIN : link.peerClose();
                        closeNanos = System.nanoTime();
                        decoder.close(in, close == Link.PeerClose.RST, ++frame, now());
                        lock.notifyAll();
                        return;
                    }
                }
                if (link.isClosed()) return;
            }
        } catch (IOException | RuntimeException e) {
            synchronized (lock) {
                if (close == Link.PeerClose.OPEN) {
                    close = Link.PeerClose.RST;
                    closeNanos = System.nanoTime();
                }
                lock.notifyAll();
            }
        }
    }

    private final class Events implements PduListener {
        @Override
        public void onPdu(Pdu pdu) {
            judging = pdu.direction();
            judgingFrame = pdu.frame();
            judgingOffset = pdu.startFrame() != null ? 0 : pdu.fpdu().offset();
            try {
                judge(pdu);
            } finally {
                judging = null;
            }
        }

        private void judge(Pdu pdu) {
            if (pdu.startFrame() != null) {
                judge.onStartFrame(0, pdu.direction(), pdu.startFrame(), pdu.frame());
                if (pdu.direction() == in) {
                    peerStart = pdu.startFrame();
                    startFrames++;
                    // always kept: the judgement needs them (a decoder reads at most one per direction)
                    dutPdus.add(new DutPdu(pdu.frame(), elapsedMs(), pdu.startFrame(), null, null, null, null, null));
                    lock.notifyAll();
                }
                return;
            }
            if (pdu.ddp() == null) {
                judge.onMalformed(0, pdu.direction(), pdu.frame(), pdu.fpdu().crcOk(), pdu.fpdu().ulpduLength(),
                        pdu.problem());
            } else {
                judge.onFpdu(0, pdu.direction(), pdu.fpdu(), pdu.ddp(), pdu.rdmap());
            }
            if (pdu.direction() == out && pdu.rdmap() != null
                    && pdu.rdmap().body() instanceof io.rddp.rdmap.ReadRequest rr && testerReads.size() < MAX_PDUS) {
                testerReads.add(rr);
            }
            if (pdu.direction() == in) {
                fpdus++;
                if (pdu.ddp() == null) undecodable++;
                Opcode op = pdu.rdmap() == null ? null : pdu.rdmap().opcode(); // null: a reserved opcode
                if (op != null) byOpcode[op.code()]++;
                // the first Terminate is kept whatever came before it: the reaction is judged on it
                boolean firstTerminate = !terminateKept && op == Opcode.TERMINATE;
                if (!firstTerminate && (truncated || dutPdus.size() >= MAX_PDUS)) {
                    pdusNotKept++;
                    lock.notifyAll();
                    return;
                }
                terminateKept |= firstTerminate;
                byte[] payload = null;
                DdpSegment seg = pdu.ddp();
                if (seg != null) {
                    // within the cap: what is kept is at most what the DUT sent before passing it
                    payload = new byte[seg.payloadLength()];
                    seg.payload().duplicate().get(payload);
                    seg = new DdpSegment(seg.header(), ByteBuffer.wrap(payload));
                }
                dutPdus.add(new DutPdu(pdu.frame(), elapsedMs(), null, seg, pdu.rdmap(), pdu.fpdu().crcOk(),
                        pdu.problem(), payload, pdu.fpdu().offset()));
                lock.notifyAll();
            }
        }

        @Override
        public void onFramingError(TcpConnection c, Direction d, long f, String detail) {
            judge.onFramingError(0, d, f, detail);
        }

        @Override
        public void onClose(TcpConnection c, Direction d, boolean reset, long f) {
            judge.onClose(0, d, reset, f);
        }
    }

    private final class Judge implements SinkListener {
        @Override
        public void onViolation(Violation v) {
            violationCount++;
            if (violations.size() < MAX_VIOLATIONS) violations.add(v);
            Tally t = tallies.get(v.id());
            tallies.put(v.id(), t == null ? new Tally(v, 1) : new Tally(t.first(), t.count() + 1));
            // a violation of the PDU being judged: the report marks its fields (the DUT's offending ones, or what the
            // judge found wrong in the tester's, which a raw step carries)
            boolean matters = v.severity() == io.rddp.sink.Severity.ERROR
                    || v.severity() == io.rddp.sink.Severity.WARNING;
            if (matters && judging != null && v.direction() == judging && v.frame() == judgingFrame) {
                mark(judging == in ? WireMark.Kind.OFFENDING : WireMark.Kind.TESTER_FAULT, judgingOffset,
                        judgingOffset + 1, WireMark.fieldsOf(v.id()), v.id() + ": " + v.message());
            } else if (matters && v.direction() == in && marks.size() < MAX_MARKS) {
                // found later (e.g. at the stream's end, for all its frames): the DUT's PDUs of its first frames
                List<Long> frames = v.frames().subList(0, Math.min(8, v.frames().size()));
                for (DutPdu p : dutPdus) {
                    if (p.start() == null && frames.contains(p.frame())) {
                        mark(WireMark.Kind.OFFENDING, p.offset(), p.offset() + 1, WireMark.fieldsOf(v.id()),
                                v.id() + ": " + v.message());
                    }
                }
            }
        }

        @Override
        public void onTerminateOwed(OwedTerminate o) {
            if (o.offender() == out && owedByDut.size() < MAX_VIOLATIONS) owedByDut.add(o);
        }
    }

    private static Endpoint endpoint(InetSocketAddress a) {
        return new Endpoint(a.getAddress().getAddress(), a.getPort());
    }

    private record Conn(Endpoint client, Endpoint server) implements TcpConnection {
        @Override
        public int index() {
            return 0;
        }

        @Override
        public boolean synSeen(Direction d) {
            return true;
        }

        @Override
        public long initialSequence(Direction d) {
            return 0;
        }
    }

    static long now() {
        java.time.Instant t = java.time.Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static void sleep(int ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
