package io.rddp.ddp;

import io.rddp.MalformedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** DDP headers of real siw traffic, checked field by field against tshark's decode of the same FPDU. */
class DdpHeaderCaptureTest {

    static final List<String> CAPTURES = SiwFixtures.ALL;

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void everyCapturedSegmentParsesToTsharksFieldValues(String capture) throws MalformedException {
        List<SiwFixtures.Row> rows = SiwFixtures.load(capture);
        assertThat(rows).isNotEmpty();
        for (SiwFixtures.Row row : rows) {
            DdpSegment s = DdpSegment.parse(row.ulpdu());
            DdpHeader h = s.header();
            assertThat(h.tagged()).as("%s T", row).isEqualTo(row.get("iwarp_ddp.tagged_flag").equals("1"));
            assertThat(h.last()).as("%s L", row).isEqualTo(row.get("iwarp_ddp.last_flag").equals("1"));
            assertThat((long) h.reserved() << 2).as("%s Rsvd", row).isEqualTo(row.number("iwarp_ddp.rsvd"));
            assertThat((long) h.version()).as("%s DV", row).isEqualTo(row.number("iwarp_ddp.dv"));
            assertThat(s.payloadLength()).as("%s payload", row).isEqualTo(row.ulpduLength() - h.headerLength());
            if (h instanceof TaggedHeader t) {
                assertThat(t.stag()).as("%s STag", row).isEqualTo(row.number("iwarp_ddp.stag"));
                assertThat(t.to()).as("%s TO", row).isEqualTo(row.number("iwarp_ddp.tagged_offset"));
            } else {
                UntaggedHeader u = (UntaggedHeader) h;
                assertThat(u.qn()).as("%s QN", row).isEqualTo(row.number("iwarp_ddp.qn"));
                assertThat(u.msn()).as("%s MSN", row).isEqualTo(row.number("iwarp_ddp.msn"));
                assertThat(u.mo()).as("%s MO", row).isEqualTo(row.number("iwarp_ddp.mo"));
                // tshark shows the 5 RsvdULP octets as bytes
                assertThat(String.format("%010x", u.rsvdUlp())).as("%s RsvdULP", row)
                        .isEqualTo(row.get("iwarp_ddp.rsvdulp"));
            }
        }
    }

    @ParameterizedTest
    @FieldSource("CAPTURES")
    void capturedHeadersWriteBackToTheSameBytes(String capture) throws MalformedException {
        for (SiwFixtures.Row row : SiwFixtures.load(capture)) {
            ByteBuffer ulpdu = row.ulpdu();
            DdpHeader h = DdpHeader.parse(ulpdu);
            ByteBuffer out = ByteBuffer.allocate(h.headerLength());
            h.writeTo(out);
            assertThat(out.position()).isEqualTo(h.headerLength());
            assertThat(out.array()).as("%s", row).isEqualTo(Arrays.copyOf(ulpdu.array(), h.headerLength()));
        }
    }

    @Test
    void rpingReadResponseIsTaggedWithTheSinkBufferOfItsRequest() throws MalformedException {
        SiwFixtures.Row response = SiwFixtures.load(SiwFixtures.RPING).stream().filter(r -> r.frame() == 10)
                .findFirst().orElseThrow();
        DdpSegment s = DdpSegment.parse(response.ulpdu());
        assertThat(s.header()).isEqualTo(new TaggedHeader(true, 0, 1, 0x42, 0x5fb74500L, 0x5555a6e24550L));
        assertThat(s.payloadLength()).isEqualTo(64);
        assertThat(new String(s.payload().array(), s.payload().arrayOffset(), 10)).isEqualTo("rdma-ping-");
    }

    @Test
    void rpingSendIsUntaggedOnQueueZeroWithMsnOne() throws MalformedException {
        byte[] bytes = HexFormat.of().parseHex(
                "4143000000000000000000000001000000000000562fd6d963702e281c0000000040");
        DdpSegment s = DdpSegment.parse(ByteBuffer.wrap(bytes));
        assertThat(s.header()).isEqualTo(new UntaggedHeader(true, 0, 1, 0x43_0000_0000L, 0, 1, 0));
        assertThat(s.payloadLength()).isEqualTo(16);
    }

    @Test
    void zeroLengthWriteOfTheP2pCaptureIsAHeaderWithoutPayload() throws MalformedException {
        SiwFixtures.Row write = SiwFixtures.load(SiwFixtures.P2P_WRITE).get(0);
        DdpSegment s = DdpSegment.parse(write.ulpdu());
        assertThat(write.ulpduLength()).isEqualTo(DdpHeader.TAGGED_LENGTH);
        assertThat(s.header().tagged()).isTrue();
        assertThat(s.header().last()).isTrue();
        assertThat(s.payloadLength()).isZero();
    }
}
