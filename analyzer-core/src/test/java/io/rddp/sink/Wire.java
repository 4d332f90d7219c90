package io.rddp.sink;

import io.rddp.ddp.DdpSegment;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.tcp.Direction;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * A conversation on one stream, built message by message with the encoder and fed to a {@link SinkModel} with
 * consecutive frame numbers. Stream 0 unless changed.
 */
final class Wire {
    static final Direction C2S = Direction.CLIENT_TO_SERVER;
    static final Direction S2C = Direction.SERVER_TO_CLIENT;
    static final Set<StagRegistration.Access> RW = Set.of(StagRegistration.Access.READ,
            StagRegistration.Access.WRITE);
    static final Set<StagRegistration.Access> ALL = Set.of(StagRegistration.Access.values());

    final Recorder rec = new Recorder();
    SinkModel model;
    private StagRegistry registry = StagRegistry.empty();
    int stream;
    long frame;

    Wire() {
        this(StagRegistry.empty(), false);
    }

    Wire(StagRegistry registry, boolean strict) {
        this.registry = registry;
        model = new SinkModel(SinkModel.Options.defaults().withStrict(strict), registry, rec);
    }

    /** The same conversation against a model with other limits (call before feeding anything). */
    Wire with(SinkModel.Options options) {
        model = new SinkModel(options, registry, rec);
        return this;
    }

    /** A registry with the given STags registered for every access, [0, 1 MiB), any stream, either side. */
    static StagRegistry registered(long... stags) {
        StagRegistry r = StagRegistry.empty();
        for (long s : stags) r.add(StagRegistration.of(s, 0, 1 << 20, ALL));
        return r;
    }

    /** MPA Rev 2 exchange with IRD/ORD 4/4 (client is the Initiator). */
    Wire started() {
        return startup(StartFrames.irdOrd(4, 4), StartFrames.irdOrd(4, 4));
    }

    Wire startup(MpaStartFrame.Enhanced request, MpaStartFrame.Enhanced reply) {
        start(C2S, StartFrames.request(request));
        return start(S2C, StartFrames.reply(reply));
    }

    Wire start(Direction d, MpaStartFrame f) {
        model.onStartFrame(stream, d, f, ++frame);
        return this;
    }

    Wire send(Direction d, RdmapEncoder.Builder message) {
        for (DdpSegment s : message.segments()) seg(d, s);
        return this;
    }

    Wire seg(Direction d, DdpSegment s) {
        model.onSegment(stream, d, ++frame, null, s, null);
        return this;
    }

    /** Each segment as an FPDU whose PAD octets are not zero (RFC 5044 §4.1), as the MPA layer hands it over. */
    Wire unzeroedPad(Direction d, RdmapEncoder.Builder message) {
        for (DdpSegment s : message.segments()) {
            java.nio.ByteBuffer ulpdu = s.toByteBuffer();
            int len = ulpdu.remaining();
            int pad = io.rddp.mpa.Fpdu.padLength(len);
            long f = ++frame;
            model.onFpdu(stream, d, new io.rddp.mpa.Fpdu(100L * f, f, f, len, ulpdu, pad, 0, true, 0, true, false,
                    pad == 0), s, null);
        }
        return this;
    }

    Wire badCrc(Direction d, RdmapEncoder.Builder message) {
        for (DdpSegment s : message.segments()) model.onSegment(stream, d, ++frame, false, s, null);
        return this;
    }

    /** The client's first message, so that the server may send (RFC 5044 §7.1.2 rule 4). */
    Wire hello() {
        return send(C2S, RdmapEncoder.send(1, data(8), 1000));
    }

    Wire terminate(Direction d, Terminate t) {
        return send(d, RdmapEncoder.terminate(1, t));
    }

    Wire close(Direction d) {
        model.onClose(stream, d, false, ++frame);
        return this;
    }

    Recorder end() {
        model.onEnd();
        return rec;
    }

    static ByteBuffer data(int n) {
        ByteBuffer b = ByteBuffer.allocate(n);
        for (int i = 0; i < n; i++) b.put(i, (byte) i);
        return b;
    }

    static ReadRequest read(long sinkStag, long sinkTo, long size, long srcStag, long srcTo) {
        return new ReadRequest(sinkStag, sinkTo, size, srcStag, srcTo);
    }
}
