package io.rddp.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rddp.Notice;
import io.rddp.mpa.Fpdu;
import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaDecoder;
import io.rddp.mpa.MpaListener;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpConnection;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both byte streams of one connection fed to {@link MpaDecoder}, with forced or inferred Markers and CRC and
 * fuzzer-chosen lock and search settings. A stream is a sequence of events in either direction: raw bytes (seeds
 * carry real captures' streams cut as their TCP segments were), FPDUs encoded with Markers and CRC and then
 * optionally damaged and split, MPA Request/Reply frames from fuzzer-chosen fields, TCP gaps, FIN/RST; then the
 * end of the capture or of the connection. Properties: nothing throws; FPDUs and start frames come in stream order
 * per direction, each FPDU's ULPDU holds exactly ULPDU_Length octets; the decoder forgets the connection at the end.
 * {@link FuzzSeeds} writes seeds in the order {@link #frameStreams} consumes.
 */
class MpaDecoderFuzzTest {
    static final int MAX_EVENTS = 300;
    static final int MAX_RAW = 4096;
    static final int MAX_ULPDU = 2100;
    static final int RAW = 0, FPDU = 1, START = 2, GAP = 3, CLOSE = 4;

    @FuzzTest(maxDuration = "10s")
    void frameStreams(FuzzedDataProvider in) {
        Boolean markers = tri(in.consumeInt(0, 2));
        Boolean crc = tri(in.consumeInt(0, 2));
        int maxWire = MpaDecoder.Options.DEFAULT.searchWindow() / 4;
        MpaDecoder.Options options = new MpaDecoder.Options(markers, crc, in.consumeInt(1, 16),
                2 * maxWire + in.consumeInt(0, 2 * maxWire));
        boolean[] encodeMarkers = {in.consumeBoolean(), in.consumeBoolean()};
        boolean encodeCrc = in.consumeBoolean();
        Checker checker = new Checker();
        MpaDecoder mpa = new MpaDecoder(checker, options);
        Connection conn = new Connection();
        mpa.onConnection(conn);
        long[] offset = new long[2];
        long[] markerBase = {-1, -1};
        long frame = 0;
        while (in.remainingBytes() > 0 && frame < MAX_EVENTS) {
            frame++;
            Direction d = in.consumeBoolean() ? Direction.SERVER_TO_CLIENT : Direction.CLIENT_TO_SERVER;
            int i = d.ordinal();
            switch (in.consumeInt(RAW, CLOSE)) {
                case RAW -> {
                    byte[] bytes = in.consumeBytes(in.consumeInt(0, MAX_RAW));
                    mpa.onData(conn, d, offset[i], ByteBuffer.wrap(bytes), frame);
                    offset[i] += bytes.length;
                }
                case FPDU -> {
                    if (markerBase[i] < 0) markerBase[i] = offset[i];
                    FpduEncoder enc = new FpduEncoder(encodeMarkers[i], encodeCrc, markerBase[i], offset[i]);
                    byte[] wire = enc.encode(in.consumeBytes(in.consumeInt(0, MAX_ULPDU)));
                    int damage = in.consumeInt(0, wire.length);
                    if (damage < wire.length) wire[damage] ^= (byte) in.consumeInt(1, 255);
                    int cut = in.consumeInt(0, wire.length);
                    mpa.onData(conn, d, offset[i], ByteBuffer.wrap(wire, 0, cut).slice(), frame);
                    mpa.onData(conn, d, offset[i] + cut, ByteBuffer.wrap(wire, cut, wire.length - cut).slice(),
                            frame);
                    offset[i] += wire.length;
                }
                case START -> {
                    MpaStartFrame.Enhanced enhanced = in.consumeBoolean()
                            ? new MpaStartFrame.Enhanced(in.consumeInt(0, 0x3FFF), in.consumeInt(0, 0x3FFF),
                            in.consumeBoolean(), in.consumeBoolean(), in.consumeBoolean(), in.consumeBoolean())
                            : null;
                    boolean m = in.consumeBoolean(), c = in.consumeBoolean(), reject = in.consumeBoolean();
                    int revision = in.consumeInt(0, 255);
                    byte[] pd = in.consumeBytes(in.consumeInt(0, 600));
                    MpaStartFrame f = in.consumeBoolean()
                            ? MpaStartFrame.reply(m, c, reject, revision, enhanced, pd)
                            : MpaStartFrame.request(m, c, revision, enhanced, pd);
                    byte[] bytes = f.toBytes();
                    mpa.onData(conn, d, offset[i], ByteBuffer.wrap(bytes), frame);
                    offset[i] += bytes.length;
                }
                case GAP -> {
                    int length = in.consumeInt(1, 1 << 17);
                    mpa.onGap(conn, d, offset[i], length, frame);
                    offset[i] += length;
                }
                default -> mpa.onClose(conn, d, offset[i], in.consumeBoolean(), frame);
            }
        }
        if (in.consumeBoolean()) mpa.onConnectionEnd(conn, frame);
        else mpa.finish();
        assertThat(mpa.openConnections()).isZero();
        assertThat(mpa.negotiation(conn)).isNull();
    }

    private static Boolean tri(int v) {
        return v == 0 ? null : v == 1;
    }

    static final class Connection implements TcpConnection {
        private static final Endpoint CLIENT = new Endpoint(new byte[]{10, 0, 0, 1}, 40000);
        private static final Endpoint SERVER = new Endpoint(new byte[]{10, 0, 0, 2}, 4791);

        @Override
        public int index() {
            return 0;
        }

        @Override
        public Endpoint client() {
            return CLIENT;
        }

        @Override
        public Endpoint server() {
            return SERVER;
        }

        @Override
        public boolean synSeen(Direction d) {
            return true;
        }

        @Override
        public long initialSequence(Direction d) {
            return 1;
        }
    }

    static final class Checker implements MpaListener {
        private final long[] last = {-1, -1};

        private void ordered(Direction d, long offset) {
            if (offset <= last[d.ordinal()]) {
                throw new AssertionError("unit at offset " + offset + " of " + d + " after one at " + last[d.ordinal()]);
            }
            last[d.ordinal()] = offset;
        }

        @Override
        public void onStartFrame(TcpConnection c, Direction d, MpaStartFrame start, long offset, long firstFrame,
                                 long frame) {
            ordered(d, offset);
            assertThat(start.toString()).isNotEmpty();
            assertThat(firstFrame).isLessThanOrEqualTo(frame);
        }

        @Override
        public void onFpdu(TcpConnection c, Direction d, Fpdu fpdu) {
            ordered(d, fpdu.offset());
            if (fpdu.ulpduLength() < 0 || fpdu.ulpduLength() > 0xFFFF || fpdu.ulpdu().remaining() != fpdu.ulpduLength()
                    || fpdu.padLength() < 0 || fpdu.padLength() > 3 || fpdu.firstFrame() > fpdu.frame()) {
                throw new AssertionError("inconsistent " + fpdu);
            }
        }

        @Override
        public void onNotice(Notice notice) {
            assertThat(notice.toString()).isNotEmpty();
        }
    }
}
