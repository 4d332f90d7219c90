package io.rddp.mpa;

import io.rddp.Notice;
import io.rddp.tcp.Direction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static io.rddp.tcp.Direction.CLIENT_TO_SERVER;
import static io.rddp.tcp.Direction.SERVER_TO_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

/** Real siw and softiwarp traffic (fixtures extracted with tshark), checked against tshark's own dissection. */
class MpaDecoderCaptureTest {

    private static Recorder decode(Fixture f) {
        Recorder r = new Recorder();
        f.feed(new MpaDecoder(r), TestConnection.of(0));
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"host-to-siw-mpa-rev1.txt", "host-to-siw-mpa-rev2.txt", "host-to-siw-mpa-rev2-crc.txt",
            "host-to-siw-mpa-rev2-p2p-write.txt", "siw-rping-lo.txt", "siw-rdma-server-client-lo.txt",
            "softuiwarp-uiwarp.txt", "siw-write-bw-lo-stream0.txt"})
    void everyFpduTsharkSeesIsFramedWithTheSameLengthCrcAndFrame(String name) {
        Fixture f = Fixture.load(name);
        Recorder r = decode(f);
        assertThat(f.fpdus).isNotEmpty();
        assertThat(r.fpdus).hasSize(f.fpdus.size());
        for (int i = 0; i < f.fpdus.size(); i++) {
            Fixture.TsharkFpdu want = f.fpdus.get(i);
            Recorder.Got got = r.fpdus.stream().filter(g -> g.fpdu().frame() == want.frame()).findFirst()
                    .orElseThrow(() -> new AssertionError("no FPDU completed in frame " + want.frame()));
            assertThat(got.dir()).isEqualTo(want.dir());
            assertThat(got.fpdu().firstFrame()).isEqualTo(want.frame());
            assertThat(got.fpdu().ulpduLength()).isEqualTo(want.ulpduLength());
            assertThat(got.ulpdu()).hasSize(want.ulpduLength());
            assertThat(got.fpdu().crcWireOrder()).as("CRC of frame %d", want.frame()).isEqualTo(want.crc());
            assertThat(got.fpdu().markerCount()).isZero();
            assertThat(got.fpdu().inferred()).isFalse();
        }
        assertThat(r.starts).extracting(s -> s.frame().kind())
                .containsExactlyElementsOf(f.starts.stream().map(Fixture.TsharkStart::kind).toList());
        assertThat(r.starts).extracting(Recorder.Start::lastFrame)
                .containsExactlyElementsOf(f.starts.stream().map(Fixture.TsharkStart::frame).toList());
        assertThat(r.notices(Notice.Severity.ERROR)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"host-to-siw-mpa-rev1.txt", "host-to-siw-mpa-rev2.txt", "host-to-siw-mpa-rev2-crc.txt",
            "host-to-siw-mpa-rev2-p2p-write.txt", "siw-rping-lo.txt", "siw-rdma-server-client-lo.txt",
            "softuiwarp-uiwarp.txt"})
    void cleanCapturesRaiseNoWarnings(String name) {
        assertThat(decode(Fixture.load(name)).notices).isEmpty();
    }

    @Test
    void everyCrcOfTheCrcCaptureIsGood() {
        Recorder r = decode(Fixture.load("host-to-siw-mpa-rev2-crc.txt"));
        assertThat(r.fpdus).hasSize(7);
        assertThat(r.fpdus).allSatisfy(g -> {
            assertThat(g.fpdu().crcPresent()).isTrue();
            assertThat(g.fpdu().crcOk()).isTrue();
        });
    }

    @Test
    void withoutNegotiatedCrcNothingIsChecked() {
        Recorder r = decode(Fixture.load("host-to-siw-mpa-rev2.txt"));
        assertThat(r.fpdus).allSatisfy(g -> {
            assertThat(g.fpdu().crcPresent()).isFalse();
            assertThat(g.fpdu().crcOk()).isNull();
            assertThat(g.fpdu().crc()).isZero();       // siw sends zeros
        });
    }

    @Test
    void negotiationOfTheCrcCaptureNamesTheClientAsInitiator() {
        Fixture f = Fixture.load("host-to-siw-mpa-rev2-crc.txt");
        Recorder r = new Recorder();
        MpaDecoder d = new MpaDecoder(r);
        TestConnection c = TestConnection.of(0);
        for (Fixture.Segment s : f.segments) {
            d.onData(c, s.dir(), s.offset(), ByteBuffer.wrap(s.payload()), s.frame());
        }
        MpaNegotiation n = d.negotiation(c);
        assertThat(n.initiator()).isEqualTo(CLIENT_TO_SERVER);
        assertThat(n.revision()).isEqualTo(2);
        assertThat(n.rejected()).isFalse();
        assertThat(n.inferred()).isFalse();
        assertThat(n.initiatorEnhanced().ird()).isEqualTo(1);
        assertThat(n.responderEnhanced().ord()).isEqualTo(1);
        assertThat(n.params(CLIENT_TO_SERVER)).isEqualTo(new MpaNegotiation.Params(false, -1, true, false));
        assertThat(n.params(SERVER_TO_CLIENT)).isEqualTo(new MpaNegotiation.Params(false, -1, true, false));
        d.onClose(c, CLIENT_TO_SERVER, 0, false, 17);
        d.onClose(c, SERVER_TO_CLIENT, 0, false, 18);
        assertThat(d.negotiation(c)).isNull();     // state is dropped once both directions closed
    }

    @Test
    void peerToPeerRtrIsTheInitiatorsFirstFpduAZeroLengthWrite() {
        Recorder r = decode(Fixture.load("host-to-siw-mpa-rev2-p2p-write.txt"));
        Recorder.Got rtr = r.fpdus(CLIENT_TO_SERVER).get(0);
        assertThat(rtr.fpdu().frame()).isEqualTo(8);
        assertThat(rtr.fpdu().ulpduLength()).isEqualTo(14);
        assertThat(rtr.fpdu().offset()).isEqualTo(24);
        assertThat(rtr.ulpdu()[0] & 0xFF).isEqualTo(0xC1);   // tagged, last, DV 1
        assertThat(rtr.ulpdu()[1] & 0xFF).isEqualTo(0x40);   // RV 1, RDMA Write
        assertThat(r.starts.get(1).frame().enhanced().zeroLengthWriteRtr()).isTrue();
    }

    @Test
    void siwSendsNonZeroPadWhichIsReportedOncePerDirection() {
        // siw-write-bw-lo.pcap frames 15 and 16: ULPDU_Length 20, PAD "00 40"
        Fixture f = Fixture.load("siw-write-bw-lo-stream0.txt");
        Recorder r = decode(f);
        List<Notice> pad = r.notices.stream().filter(n -> n.message().contains("PAD")).toList();
        assertThat(pad).extracting(Notice::frame).containsExactly(15L, 16L);
        assertThat(pad).allSatisfy(n -> assertThat(n.severity()).isEqualTo(Notice.Severity.WARNING));
        assertThat(r.notices).hasSize(2);
    }

    @Test
    void fpduInsideOneSegmentIsAViewOfThatSegment() {
        Fixture f = Fixture.load("host-to-siw-mpa-rev1.txt");
        Recorder r = decode(f);
        Fixture.Segment seg = f.segments.stream().filter(s -> s.frame() == 8).findFirst().orElseThrow();
        ByteBuffer view = r.fpdus.get(0).view();
        assertThat(view.hasArray()).isTrue();
        assertThat(view.array()).isSameAs(seg.payload());
        assertThat(view.arrayOffset()).isEqualTo(2);
    }

    @Test
    void capturedWithoutTheHandshakeTheRpingStreamIsStillFramed() {
        Fixture f = Fixture.load("siw-rping-lo.txt");
        Recorder r = new Recorder();
        MpaDecoder d = new MpaDecoder(r);
        TestConnection c = new TestConnection(3, TestConnection.of(0).client(), TestConnection.of(0).server(),
                false, 0xFFFFFF00L, 7);
        // drop the first three segments of each direction, renumber offsets from the first one kept
        long[] base = {-1, -1};
        int[] skipped = {0, 0};
        java.util.Set<Long> kept = new java.util.HashSet<>();
        for (Fixture.Segment s : f.segments) {
            int i = s.dir().ordinal();
            if (skipped[i] < 3) {
                skipped[i]++;
                continue;
            }
            if (base[i] < 0) base[i] = s.offset();
            kept.add(s.frame());
            d.onData(c, s.dir(), s.offset() - base[i], ByteBuffer.wrap(s.payload()), s.frame());
        }
        d.finish();
        List<Fixture.TsharkFpdu> expected = f.fpdus.stream().filter(t -> kept.contains(t.frame())).toList();
        assertThat(expected).hasSize(f.fpdus.size() - 4);
        assertThat(r.fpdus).extracting(g -> g.fpdu().frame())
                .containsExactlyInAnyOrderElementsOf(expected.stream().map(Fixture.TsharkFpdu::frame).toList());
        assertThat(r.fpdus).allSatisfy(g -> assertThat(g.fpdu().firstFrame()).isEqualTo(g.fpdu().frame()));
        assertThat(r.fpdus).allSatisfy(g -> assertThat(g.fpdu().inferred()).isTrue());
        assertThat(r.fpdus).allSatisfy(g -> assertThat(g.fpdu().crcPresent()).isFalse());
        assertThat(r.notices(Notice.Severity.INFO)).anySatisfy(n ->
                assertThat(n.message()).contains("inferred").contains("markers off").contains("CRC off"));
        assertThat(r.notices(Notice.Severity.WARNING)).isEmpty();
    }

    @Test
    void capturedWithoutTheHandshakeTheCrcStreamInfersCrcOn() {
        Fixture f = Fixture.load("host-to-siw-mpa-rev2-crc.txt");
        Recorder r = new Recorder();
        MpaDecoder d = new MpaDecoder(r);
        TestConnection c = new TestConnection(0, TestConnection.of(0).client(), TestConnection.of(0).server(),
                false, 0, 0);
        for (Fixture.Segment s : f.segments) {
            if (s.offset() < 24) continue;                       // Request and Reply not captured
            d.onData(c, s.dir(), s.offset() - 24, ByteBuffer.wrap(s.payload()), s.frame());
        }
        d.finish();
        assertThat(r.starts).isEmpty();
        assertThat(r.fpdus).hasSize(7);
        assertThat(r.fpdus).allSatisfy(g -> {
            assertThat(g.fpdu().inferred()).isTrue();
            assertThat(g.fpdu().crcOk()).isTrue();
        });
    }
}
