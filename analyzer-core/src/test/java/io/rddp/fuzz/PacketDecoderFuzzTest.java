package io.rddp.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import io.rddp.tcp.PacketDecoder;
import io.rddp.tcp.TcpSegment;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any frame bytes under any link type: {@link PacketDecoder#decode} never throws (its contract: bad frames return
 * false with a notice) and a decoded segment's payload lies inside the frame.
 *
 * <p>Input: byte 0 picks the link type, bytes 1-2 shift the original length around the captured one, byte 3 is how
 * many leading bytes of the backing array the frame view skips, the rest is the frame.
 */
class PacketDecoderFuzzTest {
    static final int[] LINK_TYPES = {LinkType.ETHERNET, LinkType.NULL, LinkType.RAW, LinkType.LOOP,
            LinkType.LINUX_SLL, LinkType.IPV4, LinkType.IPV6, LinkType.LINUX_SLL2};
    static final int HEADER = 4;

    @FuzzTest(maxDuration = "10s")
    void decodeFrame(byte[] data) {
        if (data.length < HEADER) return;
        int selector = data[0] & 0xFF;
        int linkType = selector < LINK_TYPES.length ? LINK_TYPES[selector] : selector;
        int skip = Math.min(data[3] & 0x0F, data.length - HEADER);
        int captured = data.length - HEADER - skip;
        ByteBuffer view = ByteBuffer.wrap(data, HEADER + skip, captured).slice();
        Frame frame = new Frame();
        frame.number = 7;
        frame.linkType = linkType;
        frame.originalLength = Math.max(0, captured + ((data[1] & 0xFF) << 8 | (data[2] & 0xFF)) - 0x100);
        frame.data = view;
        List<String> notices = new ArrayList<>();
        PacketDecoder decoder = new PacketDecoder(n -> notices.add(n.toString()));
        TcpSegment seg = new TcpSegment();
        // twice on the same buffer: the decoder reuses its payload view for the same frame buffer
        for (int round = 0; round < 2; round++) {
            if (decoder.decode(frame, seg)) {
                ByteBuffer p = seg.payload();
                assertThat(p.remaining()).isEqualTo(seg.capturedPayloadLength());
                assertThat(seg.payloadLength()).isGreaterThanOrEqualTo(seg.capturedPayloadLength());
                assertThat(p.limit()).isLessThanOrEqualTo(p.capacity());
                if (p.remaining() > 0) {
                    // the payload is a view of the frame's bytes, not of anything else
                    byte last = p.get(p.limit() - 1);
                    assertThat(view.capacity()).isGreaterThanOrEqualTo(p.remaining());
                    assertThat(last).isEqualTo(p.get(p.limit() - 1));
                }
                assertThat(seg.source().port()).isBetween(0, 0xFFFF);
                assertThat(seg.destination().port()).isBetween(0, 0xFFFF);
                assertThat(seg.frame()).isEqualTo(7);
                seg.toString();
            }
            assertThat(view.position()).isZero();
            assertThat(view.limit()).isEqualTo(captured);
        }
    }
}
