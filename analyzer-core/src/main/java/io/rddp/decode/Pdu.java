package io.rddp.decode;

import io.rddp.ddp.DdpSegment;
import io.rddp.mpa.Fpdu;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.FrameHeaders;
import io.rddp.tcp.TcpConnection;

/**
 * One decoded PDU: an MPA Request/Reply, or an FPDU with the DDP segment and RDMAP header it carries.
 * Views inside ({@code fpdu.ulpdu()}, {@code ddp.payload()}) are valid only during {@link PduListener#onPdu}.
 *
 * @param frame          the frame that completed the PDU in capture order (tshark shows the PDU in this frame)
 * @param timestampNanos capture time of that frame
 * @param relativeNanos  time since the first frame of the capture
 * @param connection     the TCP connection; {@code connection.index()} is the stream number
 * @param direction      which way the PDU went
 * @param startFrame     the MPA Request or Reply, else null
 * @param fpdu           the FPDU, else null
 * @param ddp            the DDP segment in the FPDU, null when it did not parse (see {@code problem})
 * @param rdmap          the RDMAP header(s) of the segment, null when they did not parse (see {@code problem})
 * @param problem        why ddp or rdmap is missing, or null
 * @param headers        the link, IP and TCP headers of {@code frame}, when the pipeline was asked for them
 *                       ({@link DecodePipeline#frameHeaders}) and that frame carried a segment of this direction;
 *                       else null
 */
public record Pdu(long frame, long timestampNanos, long relativeNanos, TcpConnection connection,
                  Direction direction, MpaStartFrame startFrame, Fpdu fpdu, DdpSegment ddp, RdmapPdu rdmap,
                  String problem, FrameHeaders headers) {

    /**
     * The PDU an FPDU makes, its DDP segment and RDMAP header(s) parsed as the pipeline parses them: how a viewer
     * that kept an FPDU's header octets (not its decoded fields) shows it again.
     */
    public static Pdu ofFpdu(long frame, long timestampNanos, long relativeNanos, TcpConnection connection,
                             Direction direction, Fpdu fpdu, FrameHeaders headers) {
        PduEmitter.Parsed p = PduEmitter.Parsed.of(fpdu);
        return new Pdu(frame, timestampNanos, relativeNanos, connection, direction, null, fpdu, p.seg(),
                p.problem() == null ? p.rdmap() : null, p.problem(), headers);
    }

    public int stream() {
        return connection.index();
    }

    public Endpoint source() {
        return connection.source(direction);
    }

    public Endpoint destination() {
        return connection.destination(direction);
    }

    /** Frame that carried the PDU's first byte. */
    public long firstFrame() {
        return startFrame != null ? frame : fpdu.firstFrame();
    }
}
