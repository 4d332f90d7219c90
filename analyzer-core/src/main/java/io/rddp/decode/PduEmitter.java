package io.rddp.decode;

import io.rddp.MalformedException;
import io.rddp.Notice;
import io.rddp.ddp.DdpSegment;
import io.rddp.mpa.Fpdu;
import io.rddp.mpa.MpaListener;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapDecoder;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.tcp.Direction;
import io.rddp.tcp.FrameHeaders;
import io.rddp.tcp.TcpConnection;

/**
 * Turns what the MPA layer framed into {@link Pdu}s: parses each ULPDU as a DDP segment and its RDMAP header, and
 * hands the segment to the DDP message assembler. Shared by the capture pipeline and the live stream decoder, which
 * differ only in where frame numbers and times come from.
 */
final class PduEmitter implements Downstream {

    /** Where the frame being processed, and the times of recent frames, come from. */
    interface Clock {
        long frame();

        long timestamp();

        long firstTimestamp();

        /** Whether the time of an earlier frame is still known. */
        boolean remembers(long frame);

        /** Time of an earlier frame that {@link #remembers} says is known. */
        long timestampOf(long frame);

        /** The headers of {@code frame} for a PDU of {@code c} going {@code d}, or null (not wanted, not known). */
        default FrameHeaders headers(TcpConnection c, Direction d, long frame) {
            return null;
        }
    }

    private final PduListener listener;
    private final DdpStage ddp;
    private final Clock clock;

    PduEmitter(PduListener listener, DdpStage ddp, Clock clock) {
        this.listener = listener;
        this.ddp = ddp;
        this.clock = clock;
    }

    @Override
    public void onStartFrame(TcpConnection c, Direction d, MpaStartFrame start, long offset, long firstFrame,
                             long frameNo) {
        long now = clock.timestamp();
        listener.onPdu(new Pdu(clock.frame(), now, now - clock.firstTimestamp(), c, d, start, null, null, null,
                null, clock.headers(c, d, clock.frame())));
    }

    /** The DDP segment and RDMAP header(s) of an FPDU, or why they did not parse (then {@code layer} says where). */
    record Parsed(DdpSegment seg, RdmapPdu rdmap, String problem, String layer) {
        static Parsed of(Fpdu fpdu) {
            DdpSegment seg = null;
            try {
                seg = DdpSegment.parse(fpdu.ulpdu());
                return new Parsed(seg, RdmapDecoder.decode(seg), null, null);
            } catch (MalformedException e) {
                return new Parsed(seg, null, e.getMessage(), seg == null ? "ddp" : "rdmap");
            }
        }
    }

    @Override
    public void onFpdu(TcpConnection c, Direction d, Fpdu fpdu) {
        onFpdu(c, d, fpdu, Parsed.of(fpdu));
    }

    /**
     * As {@link #onFpdu(TcpConnection, Direction, Fpdu)} with the headers already parsed: {@link AboveMpaThread}
     * parses them on the reading thread, whose cache still holds the octets it just framed and checked.
     */
    void onFpdu(TcpConnection c, Direction d, Fpdu fpdu, Parsed parsed) {
        long frameNumber = clock.frame();
        DdpSegment seg = parsed.seg();
        RdmapPdu rdmap = parsed.rdmap();
        String problem = parsed.problem();
        if (problem != null) {
            listener.onNotice(new Notice(Notice.Severity.WARNING, parsed.layer(), frameNumber, c.index(),
                    fpdu.offset(), problem));
            rdmap = null;
        }
        long pduFrame = frameNumber, pduTime = clock.timestamp();
        // an FPDU held back while MPA parameters were inferred carries the frame (and time) of its last byte
        if (fpdu.inferred() && fpdu.frame() < frameNumber && clock.remembers(fpdu.frame())) {
            pduFrame = fpdu.frame();
            pduTime = clock.timestampOf(pduFrame);
        }
        listener.onPdu(new Pdu(pduFrame, pduTime, pduTime - clock.firstTimestamp(), c, d, null, fpdu, seg, rdmap,
                problem, clock.headers(c, d, pduFrame)));
        if (seg != null) ddp.accept(c, d, seg, pduFrame);
    }

    @Override
    public void onMarkerError(TcpConnection c, Direction d, long offset, long frame, String detail) {
        listener.onFramingError(c, d, frame, detail);
    }

    @Override
    public void onNotice(Notice notice) {
        listener.onNotice(notice);
    }

    @Override
    public void onConnection(TcpConnection connection) {
        listener.onConnection(connection);
    }

    @Override
    public void onGap(TcpConnection connection, Direction direction, long offset, long length, long frame) {
        listener.onGap(connection, direction, offset, length, frame);
    }

    @Override
    public void onClose(TcpConnection connection, Direction direction, boolean reset, long frame) {
        listener.onClose(connection, direction, reset, frame);
    }

    @Override
    public void onConnectionEnd(TcpConnection connection, long frame, boolean captureEnded) {
        ddp.end(connection);
        listener.onConnectionEnd(connection, frame, captureEnded);
    }

    @Override
    public void endAll() {
        ddp.endAll();
    }
}
