package io.rddp.generate;

import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Writes one iWARP connection as frames: TCP handshake, MPA Request/Reply, then RDMAP messages segmented to the
 * direction's MULPDU, framed as FPDUs (Markers and CRC as negotiated) and cut into TCP segments. The encoder half
 * of the analyzer: the generator, the conformance tester and an emulated RNIC build traffic with it.
 *
 * <p>Untagged MSNs are counted per direction and queue (RFC 5041 §5.1: each queue starts at 1). Every builder
 * method returns the {@link RdmapEncoder.Builder} defaults; {@link #message} takes any builder, so any field can be
 * set to any value for fault injection.
 */
public final class IwarpConnectionWriter {

    /**
     * @param mss               TCP maximum segment size
     * @param markersToClient   Markers on FPDUs sent toward the client (the client's Request had M=1)
     * @param markersToServer   Markers on FPDUs sent toward the server (the server's Reply had M=1)
     * @param crc               CRC32c on FPDUs (C=1 in Request and Reply)
     * @param revision          MPA revision; 2 sends RFC 6581 enhanced data with ird/ord
     */
    public record Config(int mss, boolean markersToClient, boolean markersToServer, boolean crc, int revision,
                         int ird, int ord) {
        public static Config defaults() {
            return new Config(1460, false, false, false, 2, 16, 16);
        }

        public Config withMss(int v) {
            return new Config(v, markersToClient, markersToServer, crc, revision, ird, ord);
        }

        public Config withMarkers(boolean toClient, boolean toServer) {
            return new Config(mss, toClient, toServer, crc, revision, ird, ord);
        }

        public Config withCrc(boolean v) {
            return new Config(mss, markersToClient, markersToServer, v, revision, ird, ord);
        }

        /**
         * The largest ULPDU whose FPDU fits one segment (RFC 5044 §4.1 and §8: MULPDU from EMSS), leaving room for
         * ULPDU_Length, CRC and the Markers one segment can hold; a multiple of 4 so no PAD is needed.
         */
        public int mulpdu(Direction d) {
            boolean markers = d == Direction.SERVER_TO_CLIENT ? markersToClient : markersToServer;
            int room = mss - 2 - 4 - (markers ? 4 * ((mss + 511) / 512) : 0);
            return Math.max(4, Math.min(room & ~3, RdmapEncoder.MAX_ULPDU & ~3));
        }
    }

    private final TcpSessionWriter tcp;
    private final Config config;
    private final FpduEncoder[] fpdus = new FpduEncoder[2];
    private final long[] markerBase = new long[2];
    private final long[][] msn = new long[2][4];

    public IwarpConnectionWriter(Endpoint client, Endpoint server, Config config, TcpSessionWriter.Options options,
                                 TcpSessionWriter.FrameSink sink) {
        this.tcp = new TcpSessionWriter(client, server, options.withAckEvery(0), sink);
        this.config = config;
        for (long[] q : msn) java.util.Arrays.fill(q, 1);
    }

    public Config config() {
        return config;
    }

    public TcpSessionWriter tcp() {
        return tcp;
    }

    /** TCP handshake, then the MPA Request from the client and the Reply from the server (RFC 5044 §7.1). */
    public void open() {
        open(new byte[0], new byte[0]);
    }

    /** As {@link #open()}, with ULP private data in the Request and the Reply (e.g. RFC 8797's). */
    public void open(byte[] requestPrivateData, byte[] replyPrivateData) {
        tcp.handshake();
        MpaStartFrame.Enhanced enhanced = config.revision() >= 2
                ? new MpaStartFrame.Enhanced(config.ird(), config.ord(), false, false, false, false) : null;
        MpaStartFrame request = MpaStartFrame.request(config.markersToClient(), config.crc(), config.revision(),
                enhanced, requestPrivateData);
        MpaStartFrame reply = MpaStartFrame.reply(config.markersToServer(), config.crc(), false, config.revision(),
                enhanced, replyPrivateData);
        startFrame(Direction.CLIENT_TO_SERVER, request);
        startFrame(Direction.SERVER_TO_CLIENT, reply);
        tcp.ack(Direction.CLIENT_TO_SERVER);
    }

    /** Writes a start frame as is (for handshake faults); FPDUs of that direction follow it. */
    public void startFrame(Direction d, MpaStartFrame frame) {
        ByteBuffer b = ByteBuffer.allocate(frame.length());
        frame.writeTo(b);
        b.flip();
        tcp.send(d, b, config.mss());
        boolean markers = d == Direction.SERVER_TO_CLIENT ? config.markersToClient() : config.markersToServer();
        markerBase[d.ordinal()] = tcp.nextOffset(d);
        fpdus[d.ordinal()] = new FpduEncoder(markers, config.crc(), markerBase[d.ordinal()]);
    }

    public RdmapEncoder.Builder send(Direction d, ByteBuffer data) {
        return RdmapEncoder.send(nextMsn(d, 0), data, config.mulpdu(d));
    }

    public RdmapEncoder.Builder sendWithInvalidate(Direction d, ByteBuffer data, long stag) {
        return RdmapEncoder.sendWithInvalidate(nextMsn(d, 0), data, config.mulpdu(d), stag);
    }

    public RdmapEncoder.Builder write(Direction d, long stag, long to, ByteBuffer data) {
        return RdmapEncoder.write(stag, to, data, config.mulpdu(d));
    }

    public RdmapEncoder.Builder readRequest(Direction d, ReadRequest request) {
        return RdmapEncoder.readRequest(nextMsn(d, 1), request);
    }

    public RdmapEncoder.Builder readResponse(Direction d, long stag, long to, ByteBuffer data) {
        return RdmapEncoder.readResponse(stag, to, data, config.mulpdu(d));
    }

    public RdmapEncoder.Builder terminate(Direction d, Terminate terminate) {
        return RdmapEncoder.terminate(nextMsn(d, 2), terminate);
    }

    public RdmapEncoder.Builder immediateData(Direction d, long value) {
        return RdmapEncoder.immediateData(nextMsn(d, 0), value);
    }

    public RdmapEncoder.Builder atomicRequest(Direction d, AtomicRequest request) {
        return RdmapEncoder.atomicRequest(nextMsn(d, Opcode.ATOMIC_REQUEST.queueNumber()), request);
    }

    public RdmapEncoder.Builder atomicResponse(Direction d, AtomicResponse response) {
        return RdmapEncoder.atomicResponse(nextMsn(d, Opcode.ATOMIC_RESPONSE.queueNumber()), response);
    }

    /** Frames and writes the message a builder describes; the builder's fields may have been overridden. */
    public void message(Direction d, RdmapEncoder.Builder message) {
        ulpdus(d, message.ulpdus());
    }

    /** Frames each ULPDU as one FPDU and sends each FPDU in its own TCP segment(s), as RFC 5044 §5 recommends. */
    public void ulpdus(Direction d, List<ByteBuffer> ulpdus) {
        ulpdus(d, ulpdus, (fpdu, offset) -> fpdu);
    }

    /** Changes the octets of an encoded FPDU before it is sent: bad CRCs, wrong Marker pointers, any fault. */
    @FunctionalInterface
    public interface FpduMutation {
        /**
         * @param fpdu   the FPDU as encoded (Markers and CRC included), to change in place or replace
         * @param offset TCP stream offset of its first octet
         */
        byte[] apply(byte[] fpdu, long offset);
    }

    /** As {@link #ulpdus(Direction, List)}, passing each encoded FPDU through {@code mutation} first. */
    public void ulpdus(Direction d, List<ByteBuffer> ulpdus, FpduMutation mutation) {
        FpduEncoder enc = fpdus[d.ordinal()];
        if (enc == null) throw new IllegalStateException("no MPA start frame was sent in direction " + d);
        for (ByteBuffer u : ulpdus) {
            long offset = enc.offset();
            tcp.send(d, ByteBuffer.wrap(mutation.apply(enc.encode(u), offset)), config.mss());
        }
    }

    /**
     * Stream offset of the direction's first FPDU: Markers sit at offsets congruent to it modulo 512
     * (RFC 5044 §4.3).
     */
    public long markerBase(Direction d) {
        return markerBase[d.ordinal()];
    }

    /** Both FINs. */
    public void close() {
        tcp.close(Direction.CLIENT_TO_SERVER);
        tcp.close(Direction.SERVER_TO_CLIENT);
    }

    private long nextMsn(Direction d, int qn) {
        long[] q = msn[d.ordinal()];
        long m = q[qn];
        q[qn] = (m + 1) & 0xFFFF_FFFFL;
        return m;
    }
}
