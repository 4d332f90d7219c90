package io.rddp.rnic;

import io.rddp.decode.Pdu;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.sink.Check;
import io.rddp.sink.ErrorType;
import io.rddp.sink.Severity;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A queue pair's connection set-up (Linux siw's siw_cm.c): the MPA start-up of RFC 5044 §7 with the enhanced
 * negotiation of RFC 6581, from the start frames sent and received to the move to RTS. {@link MpaSetup} decides what
 * to answer; this class carries it out on the queue pair: the early check of the peer's fixed part, the Reply, the
 * Initiator's Terminate for a Reply it cannot live with, and the start-up knobs that read the stream differently.
 * Guarded by the queue pair's lock.
 */
final class ConnectionSetup {

    private final QueuePair qp;
    private final RnicConfig config;
    private final long mpaDeadline;
    MpaSetup.AcceptSettings acceptSettings;
    private MpaSetup.AcceptSettings replyPending;
    /** the peer's first 20 octets, judged before the decoder has the whole start frame */
    private final byte[] startHeader = new byte[MpaStartFrame.HEADER_LENGTH];
    private int startHeaderLength;
    private boolean keyChecked;
    /** knob mpa-frame-per-read: the peer's octets while its start frame's header is incomplete */
    private final java.io.ByteArrayOutputStream startOctets = new java.io.ByteArrayOutputStream();
    /** knob mpa-frame-per-read: the start frame the current read made, not yet handed on */
    private MpaStartFrame frameOfRead;
    /** knob mpa-frame-per-read: the peer's start frame was taken from a read; the decoder's is passed over */
    private boolean frameOfReadTaken;
    /** knob mpa-frame-per-read: the PDUs the decoder finds in the current read were taken as Private Data */
    boolean swallowRead;
    /** the listener still has to admit it as established (see {@link RnicListener#admitEstablished}) */
    private boolean admissionDue;
    /** the IRD this side set up the connection with (RFC 5040 §6.1), for the model when MPA negotiated none */
    private int ownIrd = -1;

    ConnectionSetup(QueuePair qp) {
        this.qp = qp;
        this.config = qp.config;
        this.mpaDeadline = System.nanoTime() + config.mpaTimeout().toNanos();
    }

    /** Initiator: sends the MPA Request (the queue pair starts its threads after). */
    void startInitiator(int ird, int ord, byte[] privateData) throws IOException {
        synchronized (qp.lock) {
            ownIrd = ird;
            qp.ourStart = MpaSetup.request(config, ird, ord, privateData);
            sendStartFrame(qp.ourStart);
        }
    }

    /** Responder: waits for the peer's MPA Request with these settings for an automatic accept (null: manual). */
    void startResponder(MpaSetup.AcceptSettings auto) {
        synchronized (qp.lock) {
            acceptSettings = auto;
        }
    }

    /** Manual accept: posts receives, sends the Reply (rejecting when asked). */
    void accept(MpaSetup.AcceptSettings settings) {
        synchronized (qp.lock) {
            if (qp.state != QueuePair.State.PENDING_ACCEPT) {
                throw new RnicException(RnicException.Kind.STATE, "connection is " + qp.state.wireName()
                        + ", not waiting for an accept" + (qp.failure != null ? ": " + qp.failure : ""));
            }
            reply(settings);
        }
    }

    private void sendStartFrame(MpaStartFrame f) throws IOException {
        byte[] bytes = f.toBytes();
        qp.link.write(bytes);
        qp.lastActivityNs = System.nanoTime();
        qp.decoder.data(qp.out, ByteBuffer.wrap(bytes), ++qp.frame, QueuePair.now());
    }

    // ---- the receive loop's read, under the lock

    /** A read of {@code n} octets is about to go to the decoder: the start-up's own look at it first. */
    void beforeDecoding(byte[] buf, int n) {
        String early = earlyStartCheck(buf, n);
        if (early != null) fail(early, AsyncEvent.Type.CONNECT_ERROR);
        frameOfRead = takeFrameOfRead(buf, n);
        swallowRead = frameOfRead != null;
    }

    /** The decoder took the read: a start frame it did not finish, and a Reply owed, are dealt with now. */
    void afterDecoding() {
        if (frameOfRead != null) {
            // the decoder waits for the rest of the frame; this side does not
            MpaStartFrame f = frameOfRead;
            frameOfRead = null;
            onPeerStartFrame(f, f.enhancedFlag() && f.revision() >= 2 && f.enhanced() == null);
        }
        if (replyPending != null) {
            MpaSetup.AcceptSettings s = replyPending;
            replyPending = null;
            reply(s);
        }
    }

    /** The MPA exchange took too long: the start-up fails (or, under a knob, ends in a Terminate). */
    void checkDeadline(long nowNs) {
        if ((qp.state == QueuePair.State.CONNECTING || qp.state == QueuePair.State.PENDING_ACCEPT)
                && nowNs > mpaDeadline) {
            String why = "the MPA exchange did not finish within " + QueuePair.seconds(config.mpaTimeout());
            if (qp.initiator && config.has(Bug.MPA_TERMINATE_WITHOUT_REPLY)) terminateWithoutReply(why);
            else fail(why, AsyncEvent.Type.CONNECT_ERROR);
        }
    }

    /** Whether the listener is to admit the connection as established now (once). */
    boolean takeAdmission() {
        boolean admit = admissionDue;
        admissionDue = false;
        return admit;
    }

    /**
     * The decoder delivered the peer's start frame. Improperly formatted (RFC 5044 §7.1.2): the key, PD_Length, an S
     * flag without IRD/ORD (RFC 6581 §6), the frame's place in the exchange. Not Rev (MpaSetup decides what it can
     * interoperate with), Res bits ("not checked on reception", §7.1.1), RTR flags with A = 0 ("MUST be ignored",
     * RFC 6581 §9.2) or IRD/ORD values (§9.1 says what to do with them).
     */
    void peerStartFrameDecoded(Pdu pdu) {
        // Knob mpa-lax-key: the other frame's key passes, so the first start frame is never out of sequence (the
        // model calls a Request key from the Responder an Initiator/Initiator start-up); knob mpa-pd-buffer-256 does
        // not validate PD_Length
        boolean laxSequence = MpaSetup.laxKey(config) && qp.peerStart == null;
        boolean malformed = !config.has(Bug.ACCEPT_ALL) && qp.verdicts.pduViolations.stream()
                .anyMatch(v -> v.severity() == Severity.ERROR
                && (v.check() == Check.MPA_KEY && !config.has(Bug.MPA_LAX_KEY)
                || v.check() == Check.MPA_PD_LENGTH && !config.has(Bug.MPA_PD_BUFFER_256)
                || v.check() == Check.MPA_SEQUENCE && !laxSequence
                || v.check() == Check.MPA_ENHANCED && pdu.startFrame().enhancedFlag()
                && pdu.startFrame().revision() >= 2 && pdu.startFrame().enhanced() == null));
        if (frameOfRead != null) {
            // knob mpa-frame-per-read: the frame is what the read brought, not what the decoder framed
            MpaStartFrame f = frameOfRead;
            frameOfRead = null;
            onPeerStartFrame(f, malformed);
        } else if (!frameOfReadTaken) {
            onPeerStartFrame(pdu.startFrame(), malformed);
        }
    }

    private void onPeerStartFrame(MpaStartFrame f, boolean malformed) {
        if (qp.state != QueuePair.State.CONNECTING && qp.state != QueuePair.State.PENDING_ACCEPT) {
            return; // already failed by the early check
        }
        if (qp.peerStart != null) {
            fail("a second MPA start frame arrived (RFC 5044 §7.1.2)", AsyncEvent.Type.CONNECT_ERROR);
            return;
        }
        f = MpaSetup.asRead(config, f);
        qp.peerStart = f;
        if (!qp.initiator) {
            MpaSetup.Answer probe = MpaSetup.answer(config, f, malformed,
                    new MpaSetup.AcceptSettings(config.ird(), config.ord(), null, false));
            if (probe.reply() == null) {
                fail(probe.closeReason(), AsyncEvent.Type.CONNECT_ERROR);
                return;
            }
            if (acceptSettings != null) {
                replyPending = acceptSettings; // sent once the decoder call that delivered the Request returns
            } else {
                qp.state = QueuePair.State.PENDING_ACCEPT;
                if (qp.listener != null) qp.listener.ready(qp);
                qp.lock.notifyAll();
            }
            return;
        }
        MpaSetup.ReplyOutcome o = MpaSetup.onReply(config, qp.ourStart, f, malformed);
        if (o.params() == null) {
            fail(o.why(), f.reject() ? AsyncEvent.Type.REJECTED : AsyncEvent.Type.CONNECT_ERROR);
            return;
        }
        if (o.terminate() != null) {
            // RFC 6581 §9.1, §9.2: the Initiator answers a Reply it cannot live with by a TERM message, the first
            // and only FPDU it sends, then the connection closes
            qp.params = o.params();
            qp.tx.established(o.params(), qp.decoder.offset(qp.out));
            qp.txAllowed = true;
            qp.rnic.event(new AsyncEvent(AsyncEvent.Type.CONNECT_ERROR, qp.qpn, o.terminate(), o.why()));
            qp.termination.terminate(o.terminate(), null, -1, null, o.why());
            return;
        }
        establish(o.params());
    }

    /**
     * The MPA start frame's fixed part, judged as soon as it is in (RFC 5044 §7.1.1): a key other than the one this
     * side expects ("Responder mode receivers MUST check this field for the same value, and close the connection"),
     * or a PD_Length over 512 ("the receiver MUST close the connection"), closes at once, without waiting for Private
     * Data that may never come. Null when the octets so far are fine.
     */
    private String earlyStartCheck(byte[] data, int n) {
        if (qp.peerStart != null
                || (qp.state != QueuePair.State.CONNECTING && qp.state != QueuePair.State.PENDING_ACCEPT)) {
            return null;
        }
        if (config.has(Bug.ACCEPT_ALL)) return null;
        int take = Math.min(n, MpaStartFrame.HEADER_LENGTH - startHeaderLength);
        if (take <= 0) return null;
        System.arraycopy(data, 0, startHeader, startHeaderLength, take);
        startHeaderLength += take;
        if (startHeaderLength >= MpaStartFrame.KEY_LENGTH && !keyChecked && !config.has(Bug.MPA_LAX_KEY)) {
            keyChecked = true;
            String want = qp.initiator ? "MPA ID Rep Frame" : "MPA ID Req Frame";
            String got = new String(startHeader, 0, MpaStartFrame.KEY_LENGTH, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (!got.equals(want)) {
                return "the MPA " + (qp.initiator ? "Reply" : "Request") + " key is \"" + got.replaceAll("[^ -~]", ".")
                        + "\", not \"" + want + "\" (RFC 5044 §7.1.1)";
            }
        }
        if (startHeaderLength >= MpaStartFrame.HEADER_LENGTH && !config.has(Bug.MPA_PD_BUFFER_256)) {
            int pdLength = ((startHeader[18] & 0xFF) << 8) | (startHeader[19] & 0xFF);
            if (pdLength > MpaStartFrame.MAX_PRIVATE_DATA) {
                return "PD_Length " + pdLength + " exceeds " + MpaStartFrame.MAX_PRIVATE_DATA + " (RFC 5044 §7.1.1)";
            }
        }
        return null;
    }

    /**
     * Knob mpa-frame-per-read: the start frame as a receiver that takes TCP for datagrams reads it, once the read
     * that completes its 20-octet header is in: its Private Data is whatever that read brought after the header,
     * shorter or longer than PD_Length. Null when there is no such frame to take from this read.
     */
    private MpaStartFrame takeFrameOfRead(byte[] data, int n) {
        if (!config.has(Bug.MPA_FRAME_PER_READ) || frameOfReadTaken || qp.peerStart != null
                || (qp.state != QueuePair.State.CONNECTING && qp.state != QueuePair.State.PENDING_ACCEPT)) {
            return null;
        }
        startOctets.write(data, 0, n);
        if (startOctets.size() < MpaStartFrame.HEADER_LENGTH) return null;
        byte[] all = startOctets.toByteArray();
        startOctets.reset();
        frameOfReadTaken = true; // one frame is taken, whatever it is
        MpaStartFrame f;
        try {
            f = MpaStartFrame.parse(ByteBuffer.wrap(all));
        } catch (io.rddp.MalformedException e) {
            return null; // no key at all: the decoder's verdict (and the early check) stand
        }
        byte[] pd = java.util.Arrays.copyOfRange(all, MpaStartFrame.HEADER_LENGTH, all.length);
        MpaStartFrame.Enhanced e = null;
        if (f.enhancedFlag() && pd.length >= MpaStartFrame.Enhanced.LENGTH) {
            try {
                e = MpaStartFrame.Enhanced.parse(ByteBuffer.wrap(pd));
            } catch (io.rddp.MalformedException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        return new MpaStartFrame(f.kind(), f.keyValid(), f.markers(), f.crc(), f.reject(), f.reserved(),
                f.revision(), f.pdLength(), pd, e);
    }

    /**
     * Knob mpa-terminate-without-reply: the Initiator gives up its start-up (no valid Reply in time) with a
     * Terminate 2/0/4, framed as its Request asked, then closes.
     */
    void terminateWithoutReply(String why) {
        synchronized (qp.lock) {
            if (qp.state != QueuePair.State.CONNECTING || !qp.initiator || qp.ourStart == null) return;
            MpaStartFrame ours = qp.ourStart;
            MpaSetup.Params p = new MpaSetup.Params(ours.revision(), ours.crc(), false, ours.markers(),
                    config.ird(), config.ord(), null, Set.of());
            qp.params = p;
            qp.tx.established(p, qp.decoder.offset(qp.out));
            qp.txAllowed = true;
            qp.rnic.event(new AsyncEvent(AsyncEvent.Type.CONNECT_ERROR, qp.qpn, ErrorType.MPA_INVALID_START_FRAME, why));
            qp.termination.terminate(ErrorType.MPA_INVALID_START_FRAME, null, -1, null,
                    why + " (knob mpa-terminate-without-reply)");
        }
    }

    private void reply(MpaSetup.AcceptSettings settings) {
        MpaSetup.Answer a = MpaSetup.answer(config, qp.peerStart, false, settings);
        if (a.reply() == null) {
            fail(a.closeReason(), AsyncEvent.Type.CONNECT_ERROR);
            return;
        }
        qp.ourStart = a.reply();
        byte[] bytes = a.reply().toBytes();
        try {
            qp.link.write(bytes);
        } catch (IOException e) {
            fail("the MPA Reply could not be sent: " + e.getMessage(), AsyncEvent.Type.CONNECT_ERROR);
            return;
        }
        if (!a.accepted()) {
            qp.decoder.data(qp.out, ByteBuffer.wrap(bytes), ++qp.frame, QueuePair.now());
            // RFC 5044 §7.1.2 rule 2: after a Reply with R set the connection is closed
            fail(a.closeReason(), AsyncEvent.Type.REJECTED);
            return;
        }
        // established before the decoder sees the Reply, which releases what the Initiator sent behind its Request:
        // "the Responder SHOULD prepare to interpret any data received as FPDUs" (RFC 5044 §7.1.2 rule 2)
        establish(a.params(), qp.decoder.offset(qp.out) + bytes.length);
        qp.decoder.data(qp.out, ByteBuffer.wrap(bytes), ++qp.frame, QueuePair.now());
    }

    private void establish(MpaSetup.Params p) {
        establish(p, qp.decoder.offset(qp.out));
    }

    private void establish(MpaSetup.Params p, long firstFpduOffset) {
        qp.params = p;
        qp.state = QueuePair.State.RTS;
        // RFC 5040 §6.1: inbound Read/Atomic Requests MUST NOT exceed this side's IRD; MPA Rev 1 negotiates no IRD
        // (RFC 5044), nor does 0x3FFF (RFC 6581 §9.1): then the model holds the peer to the IRD this side set up the
        // connection with (a limit the negotiation gave stays)
        qp.model.knownInboundLimit(0, qp.in, qp.initiator && ownIrd >= 0 && p.revision() < 2 ? ownIrd : p.ird());
        // RFC 5044 §7.1.2 rule 4: the Responder sends no FPDU before it received one; the Initiator of a
        // peer-to-peer connection starts with its RTR (RFC 6581 §9.2)
        qp.txAllowed = qp.initiator || config.has(Bug.EARLY_FPDU);
        qp.stalled = config.has(Bug.STALL_AFTER_MPA);
        qp.tx.established(p, firstFpduOffset);
        qp.rnic.event(new AsyncEvent(AsyncEvent.Type.ESTABLISHED, qp.qpn, null, "MPA rev " + p.revision() + ", CRC "
                + (p.crc() ? "on" : "off") + ", Markers " + (p.markersTx() ? "sent" : "not sent") + "/"
                + (p.markersRx() ? "received" : "not received") + ", IRD " + p.ird() + ", ORD " + p.ord()
                + (p.rtr() != null ? ", RTR " + p.rtr().wireName() : "")));
        // an automatic accept is handed out once the listener admitted it as established (receive loop, no lock)
        if (qp.listener != null && acceptSettings != null) admissionDue = true;
        qp.lock.notifyAll();
    }

    /** The start-up failed: the connection closes without a Terminate (RFC 5044 §7.1.2). */
    private void fail(String why, AsyncEvent.Type type) {
        qp.failure = why;
        qp.rnic.event(new AsyncEvent(type, qp.qpn, null, why));
        qp.enterError(why);
        qp.link.finish();
        qp.linger();
    }
}
