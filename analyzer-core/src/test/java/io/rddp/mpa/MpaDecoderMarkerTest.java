package io.rddp.mpa;

import io.rddp.Notice;
import io.rddp.tcp.Direction;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Marker errors (RFC 5044 §8 code 3) are errors only "In the event that the CRC is valid". */
class MpaDecoderMarkerTest {

    /** The client's stream: its MPA Request, then one 1300-octet FPDU with a Marker in front and two inside. */
    private static Recorder decode(FpduEncoder.Faults faults) {
        Synthetic s = Synthetic.of(false, true, true, 0, 0);
        byte[] ulpdu = Synthetic.ddpLike(1300, new Random(7));
        s.bytes.get(Direction.CLIENT_TO_SERVER).writeBytes(s.encoders.get(Direction.CLIENT_TO_SERVER)
                .encode(ByteBuffer.wrap(ulpdu), faults));
        Recorder r = new Recorder();
        MpaDecoder d = new MpaDecoder(r);
        TestConnection c = TestConnection.of(0);
        d.onConnection(c);
        d.onData(c, Direction.SERVER_TO_CLIENT, 0, ByteBuffer.wrap(s.stream(Direction.SERVER_TO_CLIENT)), 1);
        d.onData(c, Direction.CLIENT_TO_SERVER, 0, ByteBuffer.wrap(s.stream(Direction.CLIENT_TO_SERVER)), 2);
        return r;
    }

    @Test
    void aWrongMarkerInAnFpduWithAValidCrcIsAMarkerError() {
        Recorder r = decode(FpduEncoder.Faults.NONE.withMarkerPointerDelta(4));
        assertThat(r.markerErrors).hasSize(3); // the one in front of the FPDU and two inside it
        assertThat(r.fpdus(Direction.CLIENT_TO_SERVER)).singleElement().satisfies(g -> assertThat(g.fpdu().crcOk())
                .isTrue());
    }

    @Test
    void aWrongMarkerInAnFpduWhoseCrcFailsIsOnlyANoticeTheCrcIsTheError() {
        Recorder r = decode(FpduEncoder.Faults.NONE.withMarkerPointerDelta(4).withCrc(FpduEncoder.Crc.WRONG));
        assertThat(r.markerErrors).isEmpty();
        assertThat(r.notices(Notice.Severity.WARNING)).anySatisfy(n -> assertThat(n.message()).contains("Marker FPDUPTR"));
        assertThat(r.fpdus(Direction.CLIENT_TO_SERVER)).singleElement().satisfies(g -> assertThat(g.fpdu().crcOk())
                .isFalse());
    }
}
