package io.rddp.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rddp.MalformedException;
import io.rddp.ddp.DdpHeader;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.TaggedHeader;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.ImmediateData;
import io.rddp.rdmap.RdmapDecoder;
import io.rddp.rdmap.RdmapHeader;
import io.rddp.rdmap.RdmapPdu;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.rdmap.TerminateCodes;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any ULPDU bytes: the DDP and RDMAP header parsers (and the MPA start frame parser) either return a header or throw
 * {@link MalformedException}, leave the buffer's position where it was, and describe what they parsed without
 * failing. Input: the ULPDU (for the start frame parser, the same bytes as stream bytes).
 */
class RdmapDecoderFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void decodeUlpdu(byte[] data) {
        ByteBuffer buf = ByteBuffer.wrap(data).asReadOnlyBuffer();
        try {
            RdmapPdu pdu = RdmapDecoder.decode(buf);
            assertThat(pdu.toString()).isNotEmpty();
            assertThat(pdu.ddp().toString()).isNotEmpty();
            if (pdu.body() instanceof Terminate t) {
                assertThat(t.describe()).isNotEmpty();
                assertThat(TerminateCodes.describe(t.layer(), t.errorType(), t.errorCode())).isNotEmpty();
            }
        } catch (MalformedException expected) {
            assertThat(expected.getMessage()).isNotEmpty();
        }
        assertThat(buf.position()).isZero();
        parse(() -> DdpSegment.parse(buf.duplicate()));
        // one definition of every field serves decoder and encoder: what was parsed writes back the same octets
        parse(() -> roundTrip(data, TaggedHeader.parse(buf.duplicate())));
        parse(() -> roundTrip(data, UntaggedHeader.parse(buf.duplicate())));
        parse(() -> roundTrip(data, ReadRequest.parse(buf.duplicate())));
        parse(() -> roundTrip(data, Terminate.parse(buf.duplicate())));
        parse(() -> roundTrip(data, ImmediateData.parse(buf.duplicate())));
        parse(() -> roundTrip(data, AtomicRequest.parse(buf.duplicate())));
        parse(() -> roundTrip(data, AtomicResponse.parse(buf.duplicate())));
        parse(() -> MpaStartFrame.parse(buf.duplicate()));
        parse(() -> MpaStartFrame.Enhanced.parse(buf.duplicate()));
    }

    private static Object roundTrip(byte[] data, DdpHeader h) {
        ByteBuffer out = ByteBuffer.allocate(h.headerLength());
        h.writeTo(out);
        assertThat(out.array()).isEqualTo(Arrays.copyOf(data, h.headerLength()));
        return h;
    }

    private static Object roundTrip(byte[] data, RdmapHeader h) {
        ByteBuffer out = ByteBuffer.allocate(h.length());
        h.writeTo(out);
        assertThat(out.array()).isEqualTo(Arrays.copyOf(data, h.length()));
        return h;
    }

    private interface Parser {
        Object parse() throws MalformedException;
    }

    private static void parse(Parser p) {
        try {
            assertThat(p.parse().toString()).isNotEmpty();
        } catch (MalformedException expected) {
            assertThat(expected.getMessage()).isNotEmpty();
        }
    }
}
