package io.rddp.tcp;

import io.rddp.Notice;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Frames collected from a {@link TcpSessionWriter} (or built by hand), numbered from 1, fed through the decoder. */
final class Capture implements TcpSessionWriter.FrameSink {
    final List<byte[]> frames = new ArrayList<>();
    final List<Long> timestamps = new ArrayList<>();
    /** tcp.stream of each frame after {@link #feed}, -1 when not decoded. */
    final List<Integer> streams = new ArrayList<>();
    /** Frames are cut to this many bytes when fed, as a capture's snaplen would. */
    int snaplen = Integer.MAX_VALUE;

    @Override
    public void frame(byte[] bytes, long timestampNanos) {
        frames.add(bytes);
        timestamps.add(timestampNanos);
    }

    static Frame frame(long number, int linkType, byte[] bytes) {
        return frame(number, linkType, bytes, bytes.length);
    }

    static Frame frame(long number, int linkType, byte[] bytes, int originalLength) {
        Frame f = new Frame();
        f.number = number;
        f.linkType = linkType;
        f.data = ByteBuffer.wrap(bytes);
        f.originalLength = originalLength;
        f.timestampNanos = 1_000_000_000L * number;
        return f;
    }

    /** Decodes every frame (Ethernet) and feeds the TCP segments to a reassembler, then finishes it. */
    Recorder reassemble(TcpReassembler.Limits limits) {
        Recorder r = new Recorder();
        TcpReassembler reassembler = new TcpReassembler(r, limits);
        feed(reassembler, r.notices);
        reassembler.finish(frames.size());
        return r;
    }

    Recorder reassemble() {
        return reassemble(TcpReassembler.Limits.defaults());
    }

    void feed(TcpReassembler reassembler, List<Notice> notices) {
        PacketDecoder decoder = new PacketDecoder(notices::add);
        TcpSegment seg = new TcpSegment();
        streams.clear();
        for (int i = 0; i < frames.size(); i++) {
            byte[] bytes = frames.get(i);
            Frame f = frame(i + 1, LinkType.ETHERNET, Arrays.copyOf(bytes, Math.min(snaplen, bytes.length)),
                    bytes.length);
            f.timestampNanos = timestamps.get(i);
            streams.add(decoder.decode(f, seg) ? reassembler.accept(seg).index() : -1);
        }
    }
}
