package io.rddp.conformance;

import io.rddp.ddp.DdpSegment;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rnic.link.Link;
import io.rddp.rnic.link.Recorder;
import io.rddp.sink.ReceiveBuffers;
import io.rddp.sink.SinkModel;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The receive side of a scripted connection: a reader thread takes what the DUT sends into the {@link WireFeed}, and
 * as the decoder's listener this hands every PDU of both directions to the judge and counts and keeps the DUT's.
 * Everything the DUT sends is kept until FIN or RST (bytes before a reset are never lost), bounded: past the record
 * cap the connection is truncated and keeps reading, decoding, judging and counting (so the DUT is never blocked and
 * its Terminate and close are still seen) but keeps no more PDUs, its start frames and first Terminate aside.
 * Guarded by the connection's lock, which it notifies on every PDU and on the DUT's close.
 */
final class DutInbox implements io.rddp.rpcrdma.RpcRdmaListener {

    private final Object lock;
    private final Link link;
    private final Direction in, out;
    private final SinkModel judge;
    private final JudgeFindings findings;
    /** the scenario's recorder (its cap spans the scenario's connections), or null */
    private final Recorder recorder;
    private final long cap;
    private final long startNanos;
    private WireFeed feed;

    // ---- guarded by lock ----
    private final List<ScriptedConnection.DutPdu> dutPdus = new ArrayList<>();
    private long dutBytes;
    private boolean truncated;
    private long truncatedAtMs = -1, firstDutNanos = -1, lastDutNanos = -1;
    private long startFrames, fpdus, undecodable, pdusNotKept, sendsPastCap;
    private final long[] byOpcode = new long[16];
    private boolean terminateKept;
    private MpaStartFrame peerStart;
    private Link.PeerClose close = Link.PeerClose.OPEN;
    private long closeNanos = -1;
    private boolean dataBeforeClose;
    /** the tester's RDMA Read Requests, in the order sent (at most {@link ScriptedConnection#MAX_PDUS}) */
    private final List<ReadRequest> testerReads = new ArrayList<>();

    DutInbox(Object lock, Link link, SinkModel judge, JudgeFindings findings, Recorder recorder, long cap,
             long startNanos) {
        this.lock = lock;
        this.link = link;
        this.in = link.inbound();
        this.out = link.outbound();
        this.judge = judge;
        this.findings = findings;
        this.recorder = recorder;
        this.cap = cap;
        this.startNanos = startNanos;
    }

    /** Starts reading the DUT's octets into {@code feed} (whose listener this is). */
    Thread start(WireFeed feed) {
        this.feed = feed;
        Thread reader = new Thread(this::readLoop, "tester-read-" + link.local().getPort());
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

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
                        feed.data(in, ByteBuffer.wrap(buf, 0, n));
                        lock.notifyAll();
                    } else if (n < 0) {
                        close = link.peerClose() == Link.PeerClose.OPEN ? Link.PeerClose.FIN : link.peerClose();
                        closeNanos = System.nanoTime();
                        feed.close(in, close == Link.PeerClose.RST);
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

    // ------------------------------------------------------------------ the decoder's listener (under lock)

    @Override
    public void onPdu(Pdu pdu) {
        onPdu(pdu, null, null);
    }

    /**
     * A PDU, with what the RPC-over-RDMA layer made of it when the connection runs one (the rpcrdma profile): the
     * judge's RPC-over-RDMA rules see it right after the PDU's own, as in an analysis of the capture.
     */
    @Override
    public void onPdu(Pdu pdu, io.rddp.rpcrdma.RpcRdmaMessage message, io.rddp.rpcrdma.ChunkMove move) {
        findings.judging(pdu.direction(), pdu.frame(), pdu.startFrame() != null ? 0 : pdu.fpdu().offset());
        try {
            judge(pdu);
            if ((message != null || move != null) && pdu.ddp() != null) {
                judge.onRpcRdma(0, pdu.direction(), pdu.frame(), message, move);
            }
        } finally {
            findings.judged();
        }
    }

    private void judge(Pdu pdu) {
        if (pdu.startFrame() != null) {
            judge.onStartFrame(0, pdu.direction(), pdu.startFrame(), pdu.frame());
            if (pdu.direction() == in) {
                peerStart = pdu.startFrame();
                startFrames++;
                // always kept: the judgement needs them (a decoder reads at most one per direction)
                dutPdus.add(new ScriptedConnection.DutPdu(pdu.frame(), elapsedMs(), pdu.startFrame(), null, null,
                        null, null, null));
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
        if (pdu.direction() == out && pdu.rdmap() != null && pdu.rdmap().body() instanceof ReadRequest rr
                && testerReads.size() < ScriptedConnection.MAX_PDUS) {
            testerReads.add(rr);
        }
        if (pdu.direction() == in) keep(pdu);
    }

    /** Counts one FPDU of the DUT's and keeps it, within the cap and {@link ScriptedConnection#MAX_PDUS}. */
    private void keep(Pdu pdu) {
        fpdus++;
        if (pdu.ddp() == null) undecodable++;
        Opcode op = pdu.rdmap() == null ? null : pdu.rdmap().opcode(); // null: a reserved opcode
        if (op != null) byOpcode[op.code()]++;
        // the first Terminate is kept whatever came before it: the reaction is judged on it
        boolean firstTerminate = !terminateKept && op == Opcode.TERMINATE;
        if (!firstTerminate && (truncated || dutPdus.size() >= ScriptedConnection.MAX_PDUS)) {
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
        dutPdus.add(new ScriptedConnection.DutPdu(pdu.frame(), elapsedMs(), null, seg, pdu.rdmap(),
                pdu.fpdu().crcOk(), pdu.problem(), payload, pdu.fpdu().offset()));
        lock.notifyAll();
    }

    @Override
    public void onFramingError(TcpConnection c, Direction d, long f, String detail) {
        judge.onFramingError(0, d, f, detail);
    }

    @Override
    public void onClose(TcpConnection c, Direction d, boolean reset, long f) {
        judge.onClose(0, d, reset, f);
    }

    /**
     * The receive the tester has for a DUT message on queue {@code qn}: past the cap it keeps nothing, so it has none
     * for a Send begun there (asked once per message; RFC 5041 §7.1).
     */
    long testerReceive(long qn) {
        if (!truncated || qn != 0) return ReceiveBuffers.UNKNOWN;
        sendsPastCap++;
        return ReceiveBuffers.NONE;
    }

    // ------------------------------------------------------------------ what came in (under lock)

    /** The DUT's PDUs kept, as they are (not a copy: read under the lock). */
    List<ScriptedConnection.DutPdu> kept() {
        return Collections.unmodifiableList(dutPdus);
    }

    List<ScriptedConnection.DutPdu> dutPdus() {
        return new ArrayList<>(dutPdus);
    }

    List<ReadRequest> testerReads() {
        return new ArrayList<>(testerReads);
    }

    MpaStartFrame peerStart() {
        return peerStart;
    }

    long fpdus() {
        return fpdus;
    }

    /** Truncated on this connection, or by the scenario's other ones through their shared recorder. */
    boolean truncated() {
        return truncated || recorder != null && recorder.truncated();
    }

    Link.PeerClose peerClose() {
        return close;
    }

    long closeNanos() {
        return closeNanos;
    }

    boolean dataBeforeClose() {
        return dataBeforeClose;
    }

    long dutBytes() {
        return dutBytes;
    }

    ScriptedConnection.DutTraffic traffic() {
        Map<String, Long> ops = new LinkedHashMap<>();
        for (Opcode o : Opcode.values()) if (byOpcode[o.code()] > 0) ops.put(o.shortName(), byOpcode[o.code()]);
        long span = firstDutNanos < 0 ? 0 : (lastDutNanos - firstDutNanos) / 1_000_000L;
        return new ScriptedConnection.DutTraffic(dutBytes, span, startFrames, fpdus, undecodable, ops, pdusNotKept,
                sendsPastCap, truncatedAtMs);
    }

    private long elapsedMs() {
        return (System.nanoTime() - startNanos) / 1_000_000L;
    }
}
