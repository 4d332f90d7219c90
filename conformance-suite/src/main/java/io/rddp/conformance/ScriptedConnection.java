package io.rddp.conformance;

import io.rddp.ddp.DdpSegment;
import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rnic.link.Link;
import io.rddp.rnic.link.Recorder;
import io.rddp.sink.OwedTerminate;
import io.rddp.sink.Side;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistration;
import io.rddp.sink.Violation;
import io.rddp.tcp.Direction;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
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
 *
 * <p>The concerns live apart, all under one lock: what the tester sends ({@link TesterOutbox}), what the DUT sends
 * ({@link DutInbox}), the decoder both feed ({@link WireFeed}), what the judge found ({@link JudgeFindings}), what the
 * tester knows of both ends' memory ({@link DutResources}) and the marks for the report ({@link WireMarks}); this
 * class joins them and waits for what a scenario expects.
 */
public final class ScriptedConnection implements Closeable {

    /** PDUs of the DUT kept for the report, at most (start frames and the first Terminate are always kept). */
    static final int MAX_PDUS = 4096;
    /** Violations kept, at most; the rest are counted per check. */
    static final int MAX_VIOLATIONS = 1000;
    /** How long one write may wait on a DUT that reads nothing before the connection is reset. */
    static final int WRITE_TIMEOUT_MS = 60_000;

    private final Link link;
    private final Direction out, in;
    private final Side dutSide;
    /** guards every part's state; notified on every PDU of the DUT's and on its close */
    private final Object lock = new Object();
    private final long startNanos = System.nanoTime();
    private final long cap;
    private final WireMarks marks;
    private final JudgeFindings findings;
    private final DutResources resources;
    private final SinkModel judge;
    private final DutInbox inbox;
    private final WireFeed feed;
    private final TesterOutbox outbox;
    private final Thread reader;

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
        this(link, recorder, false);
    }

    /** @param rpcrdma every Send is read as RPC-over-RDMA (RFC 8166) and judged by its rules too */
    private ScriptedConnection(Link link, Recorder recorder, boolean rpcrdma) {
        this.link = link.writeTimeout(WRITE_TIMEOUT_MS);
        this.cap = recorder != null && recorder.cap() != Recorder.UNCAPPED ? recorder.cap()
                : RecordingCap.DEFAULT_OCTETS;
        this.out = link.outbound();
        this.in = link.inbound();
        this.dutSide = Side.senderOf(in);
        this.marks = new WireMarks(link.local().getPort(), link.remote().getPort());
        this.findings = new JudgeFindings(in, out, marks, this::keptPdus);
        this.resources = new DutResources(dutSide);
        this.judge = new SinkModel(SinkModel.Options.defaults().withStrict(true), resources.stags(), findings);
        judge.receiveBuffers(this::dutBuffer);
        this.inbox = new DutInbox(lock, link, judge, findings, recorder, cap, startNanos);
        boolean weConnected = link.weConnected();
        this.feed = new WireFeed(weConnected ? link.local() : link.remote(), weConnected ? link.remote()
                : link.local(), rpcrdma ? new io.rddp.rpcrdma.RpcRdmaStage(inbox,
                io.rddp.rpcrdma.RpcRdmaStage.DecodeAs.RPCRDMA) : inbox);
        judge.onConnection(feed.connection());
        this.outbox = new TesterOutbox(lock, link, feed, marks);
        this.reader = inbox.start(feed);
    }

    /** The DUT's PDUs kept so far, for findings about frames already kept (under the lock; the inbox is built later). */
    private List<DutPdu> keptPdus() {
        return inbox.kept();
    }

    /** Connects to a passive DUT. */
    public static ScriptedConnection connect(InetSocketAddress dut, int timeoutMs, Recorder recorder)
            throws IOException {
        return new ScriptedConnection(Link.connect(dut, timeoutMs, recorder), recorder);
    }

    /**
     * Connects to a passive RPC-over-RDMA Responder: the judge runs the analyzer's RPC-over-RDMA layer and rules
     * (RFC 8166) over both directions as well as its DDP and RDMAP ones.
     */
    public static ScriptedConnection connectRpcRdma(InetSocketAddress dut, int timeoutMs, Recorder recorder)
            throws IOException {
        return new ScriptedConnection(Link.connect(dut, timeoutMs, recorder), recorder, true);
    }

    /** Accepts an active DUT's connection on {@code server}. */
    public static ScriptedConnection accept(ServerSocket server, int timeoutMs, Recorder recorder) throws IOException {
        server.setSoTimeout(timeoutMs);
        Socket s = server.accept();
        return new ScriptedConnection(new Link(s, false, recorder), recorder);
    }

    // ------------------------------------------------------------------ what the tester knows

    /** The DUT's STags the tester knows of (registered through the control channel, or learned): the judge runs strict. */
    public void dutStag(long stag, long baseTo, long length, Set<StagRegistration.Access> rights) {
        synchronized (lock) {
            resources.dutStag(stag, baseTo, length, rights);
        }
    }

    /**
     * A DUT STag registered in another protection domain than this connection's (RFC 5042 §6.1.1): the judge holds it
     * "not associated with this stream", so an access to it is owed a Terminate 1/1/2 or 0/1/3.
     */
    public void dutStagOtherDomain(long stag, long baseTo, long length, Set<StagRegistration.Access> rights) {
        synchronized (lock) {
            resources.dutStagOtherDomain(stag, baseTo, length, rights);
        }
    }

    /** The DUT revoked remote access to one of its STags (deregistration, local invalidation): later uses are invalid. */
    public void revokeDutStag(long stag) {
        synchronized (lock) {
            resources.revokeDutStag(stag, feed.frame());
        }
    }

    /** The tester's own STags (Data Sinks of its Reads, buffers it advertised), so the DUT's accesses are judged. */
    public void testerStag(long stag, long baseTo, long length, Set<StagRegistration.Access> rights) {
        synchronized (lock) {
            resources.testerStag(stag, baseTo, length, rights);
        }
    }

    /** Receives the DUT posted for the tester's Sends (count, then -1: unknown), so the judge checks RFC 5041 §7.1. */
    public void dutReceives(long count, long length) {
        synchronized (lock) {
            resources.dutReceives(count, length);
        }
    }

    /** The DUT's registration of {@code stag} the tester knows of (the first, if several), or null. */
    public StagRegistration dutRegistration(long stag) {
        synchronized (lock) {
            return resources.dutRegistration(stag);
        }
    }

    /** The judge asks (under the lock, while decoding) for the receive buffer of an untagged message. */
    private long dutBuffer(int stream, Side receiver, long qn, long m) {
        return receiver == dutSide ? resources.dutReceive(qn, m) : inbox.testerReceive(qn);
    }

    // ------------------------------------------------------------------ MPA

    /** Writes an MPA start frame as given (any key, flags, Rev, PD_Length). */
    public void sendStartFrame(MpaStartFrame f) throws IOException {
        outbox.sendStartFrame(f);
    }

    /** Writes an MPA start frame's octets as given ({@code wire}, e.g. with a key of the scenario's), cut into writes. */
    public void sendStartFrame(MpaStartFrame f, byte[] wire, int[] cuts, int pauseMs) throws IOException {
        outbox.sendStartFrame(f, wire, cuts, pauseMs);
    }

    /** Waits for the DUT's MPA Reply (or Request), null when none came in time. */
    public MpaStartFrame awaitStartFrame(long timeoutMs) throws InterruptedException {
        await(c -> c.inbox.peerStart() != null || c.inbox.peerClose() != Link.PeerClose.OPEN, timeoutMs);
        return peerStartFrame();
    }

    public MpaStartFrame ourStartFrame() {
        return outbox.ourStart();
    }

    public MpaStartFrame peerStartFrame() {
        synchronized (lock) {
            return inbox.peerStart();
        }
    }

    /**
     * Enters Full Operation with the parameters both start frames give (RFC 5044 §7.1.1: CRC when either side set C;
     * Markers toward the side whose frame set M). Without a peer frame (a scenario that sends FPDUs early) the
     * tester's own frame decides.
     */
    public void fullOperation() {
        synchronized (lock) {
            outbox.fullOperation(inbox.peerStart());
        }
    }

    /** Enters Full Operation with explicit parameters (to send FPDUs the DUT does not expect). */
    public void fullOperation(boolean crcOn, boolean markersToDut) {
        outbox.fullOperation(crcOn, markersToDut);
    }

    // ------------------------------------------------------------------ FPDUs

    /** The next MSN of queue {@code qn} (RFC 5041 §4.3), counted up. */
    public long nextMsn(int qn) {
        return outbox.nextMsn(qn);
    }

    /** The next MSN of queue {@code qn} without counting it. */
    public long peekMsn(int qn) {
        return outbox.peekMsn(qn);
    }

    /** Largest ULPDU for a segment of {@code mss} octets with this direction's Markers (RFC 5044 §8 MULPDU). */
    public int mulpdu(int mss) {
        return outbox.mulpdu(mss);
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
        return outbox.fpdu(ulpdu, faults, injected);
    }

    /**
     * The tester's next {@code length} octets (e.g. a start frame about to be written) carry fields the scenario set
     * to a faulty value: the report marks the PDU there.
     */
    public void injectNext(int length, WireMark.Faults injected) {
        outbox.injectNext(length, injected);
    }

    /** The tester's start frame, sent when the connection opened, had faulty fields (see {@link #injectNext}). */
    public void injectedStartFrame(WireMark.Faults injected) {
        if (injected == null || injected.isEmpty()) return;
        synchronized (lock) {
            marks.mark(WireMark.Kind.INJECTED, 0, 1, injected.fields(), injected.what());
        }
    }

    /** A PDU of the DUT's, at {@code offset} in its direction, is at fault in {@code fields} (see {@link #marks()}). */
    WireMark dutMark(long offset, List<String> fields, String what) {
        return marks.dutMark(offset, fields, what);
    }

    /** Marks on this connection's PDUs: its ends, the tester's injected fields, the DUT's faulty ones. */
    public List<WireMark> marks() {
        synchronized (lock) {
            return marks.list();
        }
    }

    /** The tester's RDMA Read Requests on this connection, in the order sent. */
    public List<ReadRequest> testerReads() {
        synchronized (lock) {
            return inbox.testerReads();
        }
    }

    /** Writes raw octets in one write. */
    public void write(byte[] bytes) throws IOException {
        outbox.write(bytes);
    }

    /**
     * Writes raw octets cut at the given offsets into separate writes (TCP segments on loopback with Nagle off),
     * waiting {@code pauseMs} between them.
     */
    public void write(byte[] bytes, int[] cuts, int pauseMs) throws IOException {
        outbox.write(bytes, cuts, pauseMs);
    }

    /**
     * From now on writes are collected instead of sent, until {@link #release()} sends them all in one write: an MPA
     * frame and FPDUs in one TCP segment.
     */
    public void hold() {
        outbox.hold();
    }

    /** Sends what was written since {@link #hold()} in one write. */
    public void release() throws IOException {
        outbox.release();
    }

    /** FIN from the tester. */
    public void finish() {
        outbox.finish();
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
        return await(c -> c.inbox.fpdus() >= n || c.inbox.peerClose() != Link.PeerClose.OPEN, timeoutMs);
    }

    /** Waits for the DUT to close (FIN or RST). */
    public boolean awaitClose(long timeoutMs) throws InterruptedException {
        return await(c -> c.inbox.peerClose() != Link.PeerClose.OPEN, timeoutMs);
    }

    public List<DutPdu> dutPdus() {
        synchronized (lock) {
            return inbox.dutPdus();
        }
    }

    /** What the judge found so far, both directions: the first {@link #MAX_VIOLATIONS}. */
    public List<Violation> violations() {
        synchronized (lock) {
            return findings.violations();
        }
    }

    /** Every check the judge found broken so far, both directions, with its first violation and count. */
    public List<Tally> tallies() {
        synchronized (lock) {
            return findings.tallies();
        }
    }

    /** Violations found in all, kept or not. */
    public long violationCount() {
        synchronized (lock) {
            return findings.violationCount();
        }
    }

    /**
     * Whether the DUT sent more than the record cap (on this connection, or the scenario's other ones through their
     * shared recorder): what came after it was read and judged but not kept.
     */
    public boolean truncated() {
        synchronized (lock) {
            return inbox.truncated();
        }
    }

    /** The DUT octets this connection records and keeps at most (with a capped recorder: over the scenario). */
    public long cap() {
        return cap;
    }

    /** What the DUT sent, counted. */
    public DutTraffic dutTraffic() {
        synchronized (lock) {
            return inbox.traffic();
        }
    }

    /** Terminates the judge says the DUT owes for what the tester sent. */
    public List<OwedTerminate> owedByDut() {
        synchronized (lock) {
            return findings.owedByDut();
        }
    }

    /** How the DUT's side ended so far: OPEN, FIN or RST. */
    public Link.PeerClose peerClose() {
        synchronized (lock) {
            return inbox.peerClose();
        }
    }

    /** Milliseconds from the connection's start to the DUT's close, or -1. */
    public long closeAtMs() {
        synchronized (lock) {
            long at = inbox.closeNanos();
            return at < 0 ? -1 : (at - startNanos) / 1_000_000L;
        }
    }

    /** Whether the DUT sent any octet before it reset the connection. */
    public boolean dataBeforeClose() {
        synchronized (lock) {
            return inbox.dataBeforeClose();
        }
    }

    public long dutBytes() {
        synchronized (lock) {
            return inbox.dutBytes();
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
        return outbox.writeFailure();
    }

    public long elapsedMs() {
        return (System.nanoTime() - startNanos) / 1_000_000L;
    }

    /** Ends the judging: unfinished business is settled (e.g. a Terminate the DUT still owes). */
    public void settle() {
        synchronized (lock) {
            feed.end();
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
}
