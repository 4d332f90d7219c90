package io.rddp.tcp;

import io.rddp.Notice;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import io.rddp.tcp.TcpSessionWriter.Faults;
import io.rddp.tcp.TcpSessionWriter.Options;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.rddp.tcp.Direction.CLIENT_TO_SERVER;
import static io.rddp.tcp.Direction.SERVER_TO_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

class TcpReassemblerTest {
    static final Endpoint CLIENT = new Endpoint(new byte[]{10, 0, 0, 1}, 40000);
    static final Endpoint SERVER = new Endpoint(new byte[]{10, 0, 0, 2}, 4420);

    final Capture cap = new Capture();

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static ByteBuffer buf(byte[] b) {
        return ByteBuffer.wrap(b);
    }

    static ByteBuffer buf(byte[] b, int from, int to) {
        return ByteBuffer.wrap(Arrays.copyOfRange(b, from, to));
    }

    TcpSessionWriter writer() {
        return new TcpSessionWriter(CLIENT, SERVER, cap);
    }

    TcpSessionWriter writer(Options o) {
        return new TcpSessionWriter(CLIENT, SERVER, o, cap);
    }

    // ---------------------------------------------------------------- in order, out of order, retransmissions

    @Test
    void inOrderBytesAreDeliveredAtOnceWithTheFrameThatCarriedThem() {
        byte[] data = random(3000, 1);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1000);
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::offset, Recorder.Data::frame)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 4L),
                        org.assertj.core.groups.Tuple.tuple(1000L, 5L),
                        org.assertj.core.groups.Tuple.tuple(2000L, 6L));
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).isEmpty();
        assertThat(r.connections.get(0).synSeen(CLIENT_TO_SERVER)).isTrue();
        assertThat(r.connections.get(0).initialSequence(CLIENT_TO_SERVER))
                .isEqualTo(Options.defaults().clientIsn() + 1);
    }

    @Test
    void inOrderBytesAreAViewOfTheFrameNotACopy() {
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(random(500, 2)), 1000);
        byte[] frameBytes = cap.frames.get(3);
        List<Boolean> sameArray = new ArrayList<>();
        TcpReassembler reassembler = new TcpReassembler(new TcpListener() {
            @Override
            public void onData(TcpConnection c, Direction d, long offset, ByteBuffer data, long frame) {
                sameArray.add(data.hasArray() && data.array() == frameBytes);
            }

            @Override
            public void onGap(TcpConnection c, Direction d, long offset, long length, long frame) {
            }
        });
        PacketDecoder decoder = new PacketDecoder(n -> { });
        TcpSegment seg = new TcpSegment();
        for (int i = 0; i < cap.frames.size(); i++) {
            Frame f = Capture.frame(i + 1, LinkType.ETHERNET, cap.frames.get(i));
            if (decoder.decode(f, seg)) reassembler.accept(seg);
        }
        assertThat(sameArray).containsExactly(true);
    }

    @Test
    void outOfOrderBytesAreReleasedWhenTheHoleFillsWithTheirOriginalFrames() {
        byte[] data = random(4000, 3);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1000, Faults.sequence(2, 3, 0, 1)); // frames 4..7
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::offset, Recorder.Data::frame)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 6L),
                        org.assertj.core.groups.Tuple.tuple(1000L, 7L),
                        org.assertj.core.groups.Tuple.tuple(2000L, 4L),
                        org.assertj.core.groups.Tuple.tuple(3000L, 5L));
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).isEmpty();
    }

    @Test
    void exactRetransmissionsAreDeliveredOnce() {
        byte[] data = random(3000, 4);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1000, Faults.none().duplicate(0, 1, 2));
        w.retransmit(CLIENT_TO_SERVER, 1000, buf(data, 1000, 2000));
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::frame).containsExactly(4L, 6L, 8L);
        assertThat(r.notices).isEmpty();
    }

    @Test
    void partialRetransmissionsAreTrimmedToTheirNewBytes() {
        byte[] data = random(3000, 5);
        TcpSessionWriter w = writer();
        w.handshake();
        w.retransmit(CLIENT_TO_SERVER, 0, buf(data, 0, 1500));      // frame 4
        w.retransmit(CLIENT_TO_SERVER, 1000, buf(data, 1000, 2200)); // frame 5: 500 old, 700 new
        w.retransmit(CLIENT_TO_SERVER, 2100, buf(data, 2100, 3000)); // frame 6: 100 old
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::offset, Recorder.Data::frame)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 4L),
                        org.assertj.core.groups.Tuple.tuple(1500L, 5L),
                        org.assertj.core.groups.Tuple.tuple(2200L, 6L));
        assertThat(r.notices).isEmpty();
    }

    @Test
    void retransmissionWithDifferentBytesIsReportedAndTheFirstCopyWins() {
        byte[] data = random(2000, 6);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 2000);                    // frame 4, delivered at once
        byte[] other = Arrays.copyOfRange(data, 1000, 2500 > data.length ? data.length : 2500);
        other[200] ^= 0x55;                                           // offset 1200
        other[300] ^= 0x01;                                           // offset 1300
        w.retransmit(CLIENT_TO_SERVER, 1000, buf(other));            // frame 5
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.notices).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Notice.Severity.WARNING);
            assertThat(n.frame()).isEqualTo(5);
            assertThat(n.stream()).isZero();
            assertThat(n.offset()).isEqualTo(1200);
            assertThat(n.message()).contains("2 of 1000 overlapping bytes differ", "first copy already delivered");
        });
    }

    @Test
    void overlapWithBufferedBytesThatDifferIsReportedWithTheFrameOfTheFirstCopy() {
        byte[] data = random(3000, 7);
        TcpSessionWriter w = writer();
        w.handshake();
        w.retransmit(CLIENT_TO_SERVER, 2000, buf(data, 2000, 3000));  // frame 4: buffered
        byte[] changed = Arrays.copyOfRange(data, 1500, 2500);
        changed[700] = (byte) ~changed[700];                          // offset 2200
        w.retransmit(CLIENT_TO_SERVER, 1500, buf(changed));           // frame 5: buffered, overlaps frame 4
        byte[] changedAgain = Arrays.copyOfRange(data, 0, 1800);
        changedAgain[1600] = (byte) ~changedAgain[1600];              // offset 1600, overlaps frame 5
        w.retransmit(CLIENT_TO_SERVER, 0, buf(changedAgain));         // frame 6: in order, joins both
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::offset, Recorder.Data::frame)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 6L),
                        org.assertj.core.groups.Tuple.tuple(1500L, 5L),
                        org.assertj.core.groups.Tuple.tuple(2000L, 4L));
        assertThat(r.notices).hasSize(2);
        assertThat(r.notices.get(0)).satisfies(n -> {
            assertThat(n.frame()).isEqualTo(5);
            assertThat(n.offset()).isEqualTo(2200);
            assertThat(n.message()).contains("1 of 500 overlapping", "first copy in frame 4");
        });
        assertThat(r.notices.get(1)).satisfies(n -> {
            assertThat(n.frame()).isEqualTo(6);
            assertThat(n.offset()).isEqualTo(1600);
            assertThat(n.message()).contains("1 of 300 overlapping", "first copy in frame 5");
        });
    }

    @Test
    void withoutHistoryRetransmittedDeliveredBytesAreNotCompared() {
        byte[] data = random(2000, 6);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 2000);
        byte[] other = Arrays.copyOfRange(data, 1000, 2000);
        other[5] ^= 1;
        w.retransmit(CLIENT_TO_SERVER, 1000, buf(other));
        Recorder r = cap.reassemble(TcpReassembler.Limits.defaults().withRetransmitCheckBytes(0));
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.notices).isEmpty();
    }

    @Test
    void historyComparesOnlyTheBytesItStillHolds() {
        byte[] data = random(8192, 8);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1024);
        byte[] other = data.clone();
        other[100] ^= 1;   // fell out of a 4 KiB history
        other[5000] ^= 1;  // still in it
        w.retransmit(CLIENT_TO_SERVER, 0, buf(other));
        Recorder r = cap.reassemble(TcpReassembler.Limits.defaults().withRetransmitCheckBytes(4096));
        assertThat(r.notices).singleElement().satisfies(n -> {
            assertThat(n.offset()).isEqualTo(5000);
            assertThat(n.message()).contains("1 of 4096 overlapping");
        });
    }

    // ---------------------------------------------------------------- sequence space

    @Test
    void sequenceNumbersWrapAt2To32WithOffsetsGrowingOn() {
        byte[] data = random(6000, 9);
        Options o = Options.defaults().withIsn(CLIENT_TO_SERVER, 0xffffffffL - 2500)
                .withIsn(SERVER_TO_CLIENT, 0xffffffffL);
        TcpSessionWriter w = writer(o);
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1000, Faults.sequence(0, 3, 1, 2, 2, 5, 4));
        w.send(SERVER_TO_CLIENT, buf(data, 0, 1500), 700);
        w.close(CLIENT_TO_SERVER);
        w.close(SERVER_TO_CLIENT);
        w.ack(CLIENT_TO_SERVER);
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.bytes(0, SERVER_TO_CLIENT)).isEqualTo(Arrays.copyOf(data, 1500));
        assertThat(r.connections.get(0).initialSequence(SERVER_TO_CLIENT)).isZero(); // ISN 2^32-1, +1 wraps
        assertThat(r.closes).containsExactly(new Recorder.Close(0, CLIENT_TO_SERVER, 6000, false, 14),
                new Recorder.Close(0, SERVER_TO_CLIENT, 1500, false, 15));
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).isEmpty();
    }

    @Test
    void aStreamLongerThanSeveralWrapsKeepsCountingItsOffsets() {
        // 3 wraps of the 32-bit sequence space, delivered as views of one 64 KiB buffer
        byte[] chunk = random(65536, 10);
        long total = 3L << 32;
        long[] delivered = {0};
        long[] nextOffset = {0};
        int[] checksum = {0};
        TcpReassembler reassembler = new TcpReassembler(new TcpListener() {
            @Override
            public void onData(TcpConnection c, Direction d, long offset, ByteBuffer data, long frame) {
                assertThat(offset).isEqualTo(nextOffset[0]);
                nextOffset[0] += data.remaining();
                delivered[0] += data.remaining();
                checksum[0] += data.get(data.position());
            }

            @Override
            public void onGap(TcpConnection c, Direction d, long offset, long length, long frame) {
                throw new AssertionError("gap at " + offset);
            }

            @Override
            public void onNotice(Notice n) {
                throw new AssertionError(n.toString());
            }
        }, TcpReassembler.Limits.defaults().withRetransmitCheckBytes(0));
        TcpSegment seg = new TcpSegment();
        ByteBuffer payload = ByteBuffer.wrap(chunk);
        long isn = 0xfff00000L;
        reassembler.accept(seg.set(CLIENT, SERVER, isn, 0, TcpHeader.SYN, 65535, ByteBuffer.allocate(0), 0, 1, 0));
        long frame = 2;
        for (long off = 0; off < total; off += chunk.length) {
            payload.clear();
            reassembler.accept(seg.set(CLIENT, SERVER, isn + 1 + off, 1, TcpHeader.ACK, 65535, payload,
                    chunk.length, frame++, 0));
        }
        assertThat(delivered[0]).isEqualTo(total);
        assertThat(checksum[0]).isEqualTo((int) (total / chunk.length) * chunk[0]);
    }

    @Test
    void keepAlivesAreIgnoredSilently() {
        byte[] data = random(1000, 11);
        TcpSessionWriter w = writer();
        w.handshake();
        w.keepAlive(CLIENT_TO_SERVER, true); // before any data: SND.NXT - 1 is the SYN's sequence number
        w.send(CLIENT_TO_SERVER, buf(data), 1000);
        w.keepAlive(CLIENT_TO_SERVER, false);
        w.keepAlive(CLIENT_TO_SERVER, true);
        w.keepAlive(SERVER_TO_CLIENT, true);
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.bytes(0, SERVER_TO_CLIENT)).isEmpty();
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).isEmpty();
    }

    @Test
    void zeroWindowProbesAreReportedAndTheirByteDeliveredOnce() {
        byte[] data = random(101, 12);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data, 0, 100), 100);         // frame 4
        w.advertiseWindow(SERVER_TO_CLIENT, 0);                    // frame 5
        w.keepAlive(CLIENT_TO_SERVER, false);                      // frame 6: a Linux-style probe
        w.retransmit(CLIENT_TO_SERVER, 100, buf(data, 100, 101));  // frame 7: a BSD-style probe, one new byte
        w.retransmit(CLIENT_TO_SERVER, 100, buf(data, 100, 101));  // frame 8: the same probe again
        Recorder r = cap.reassemble();
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.notices).extracting(Notice::frame).containsExactly(6L, 7L, 8L);
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::frame).containsExactly(4L, 7L);
        assertThat(r.notices).allSatisfy(n -> {
            assertThat(n.severity()).isEqualTo(Notice.Severity.INFO);
            assertThat(n.message()).contains("zero-window probe");
        });
    }

    // ---------------------------------------------------------------- gaps

    @Test
    void gapIsDeclaredWhenThePeerAcknowledgesPastTheHoleAndDeliveryResumesAfterIt() {
        byte[] data = random(5000, 13);
        TcpSessionWriter w = writer(Options.defaults().withAckEvery(1));
        w.handshake();
        // frames: 4 seg0, 5 ack 1000, 6 seg1, 7 ack 3000 (the peer got the dropped seg2), 8 seg3, 9 ack, 10 seg4
        w.send(CLIENT_TO_SERVER, buf(data), 1000, Faults.none().drop(2));
        Recorder r = cap.reassemble();
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 2000, 1000, 7));
        byte[] expected = new byte[4000];
        System.arraycopy(data, 0, expected, 0, 2000);
        System.arraycopy(data, 3000, expected, 2000, 2000);
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(expected);
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::offset).containsExactly(0L, 1000L, 3000L,
                4000L);
    }

    @Test
    void gapIsDeclaredAtTheEndOfTheCapture() {
        byte[] data = random(3000, 14);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1000, Faults.none().drop(1)); // frames 4, 5
        Recorder r = cap.reassemble();
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 1000, 1000, 5));
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::offset, Recorder.Data::frame)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 4L),
                        org.assertj.core.groups.Tuple.tuple(2000L, 5L));
    }

    @Test
    void gapIsDeclaredAtAFinWithAHoleBeforeIt() {
        byte[] data = random(3000, 15);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1000, Faults.none().drop(1)); // frames 4, 5
        w.close(CLIENT_TO_SERVER);                                         // frame 6
        Recorder r = cap.reassemble();
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 1000, 1000, 6));
        assertThat(r.closes).containsExactly(new Recorder.Close(0, CLIENT_TO_SERVER, 3000, false, 6));
    }

    @Test
    void gapIsDeclaredWhenBufferedBytesExceedTheLimit() {
        byte[] data = random(6000, 16);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1000, Faults.none().drop(0)); // frames 4..8 carry 1000..6000
        Recorder r = cap.reassemble(TcpReassembler.Limits.defaults().withMaxBufferedBytes(2500));
        // the third buffered chunk (frame 6) exceeds 2500 bytes
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 0, 1000, 6));
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(Arrays.copyOfRange(data, 1000, 6000));
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::frame).containsExactly(4L, 5L, 6L, 7L, 8L);
        assertThat(r.notices).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Notice.Severity.WARNING);
            assertThat(n.frame()).isEqualTo(6);
            assertThat(n.message()).contains("3000 bytes in 3 chunks", "[0, 1000)");
        });
    }

    @Test
    void gapIsDeclaredWhenBufferedChunksExceedTheirCountLimit() {
        byte[] data = random(600, 17);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 100, Faults.sequence(5, 3, 1, 0, 2, 4)); // frames 4..9
        Recorder r = cap.reassemble(TcpReassembler.Limits.defaults().withMaxBufferedSegments(2));
        // frame 6 (segment 1) is the third chunk: the hole [0, 100) is given up, 100..200 released, then
        // [200, 300) waits; segment 0 (frame 7) then arrives after its bytes were declared missing
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 0, 100, 6));
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(Arrays.copyOfRange(data, 100, 600));
        assertThat(r.notices).extracting(Notice::frame).containsExactly(6L, 7L);
        assertThat(r.notices.get(1).message()).contains("100 bytes at offsets [0, 100) arrived after they had been"
                + " declared a gap");
    }

    @Test
    void bytesCutOffBySnaplenAreAGapAndTheCapturedOnesAreDelivered() {
        byte[] data = random(3000, 18);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data, 0, 1000), 1000);                             // frame 4, in order
        w.send(CLIENT_TO_SERVER, buf(data, 1000, 3000), 1000, Faults.sequence(1, 0));  // frames 5, 6
        cap.snaplen = 14 + 20 + 20 + 600;
        Recorder r = cap.reassemble();
        assertThat(r.data(0, CLIENT_TO_SERVER)).extracting(Recorder.Data::offset, Recorder.Data::frame)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 4L),
                        org.assertj.core.groups.Tuple.tuple(1000L, 6L),
                        org.assertj.core.groups.Tuple.tuple(2000L, 5L));
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 600, 400, 4),
                new Recorder.Gap(0, CLIENT_TO_SERVER, 1600, 400, 6),
                new Recorder.Gap(0, CLIENT_TO_SERVER, 2600, 400, 5));
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(concat(Arrays.copyOfRange(data, 0, 600),
                Arrays.copyOfRange(data, 1000, 1600), Arrays.copyOfRange(data, 2000, 2600)));
        assertThat(r.notices).hasSize(3).allSatisfy(n -> assertThat(n.message()).contains("snaplen"));
    }

    static byte[] concat(byte[]... parts) {
        return PacketDecoderTest.concat(parts);
    }

    // ---------------------------------------------------------------- close

    @Test
    void finAndRstCloseTheirDirectionAtTheRightOffsets() {
        byte[] data = random(700, 19);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 300);   // frames 4-6
        w.send(SERVER_TO_CLIENT, buf(data, 0, 10), 300); // frame 7
        w.close(CLIENT_TO_SERVER);                  // frame 8
        w.segment(CLIENT_TO_SERVER, w.sequenceAt(CLIENT_TO_SERVER, 700), w.sequenceAt(SERVER_TO_CLIENT, 10),
                TcpHeader.FIN | TcpHeader.ACK, ByteBuffer.allocate(0)); // frame 9, retransmitted FIN
        w.ack(SERVER_TO_CLIENT);                    // frame 10, acknowledges the FIN: no gap
        w.reset(SERVER_TO_CLIENT);                  // frame 11
        Recorder r = cap.reassemble();
        assertThat(r.closes).containsExactly(new Recorder.Close(0, CLIENT_TO_SERVER, 700, false, 8),
                new Recorder.Close(0, SERVER_TO_CLIENT, 10, true, 11));
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).isEmpty();
    }

    @Test
    void rstGivesUpTheHolesOfBothDirections() {
        byte[] data = random(3000, 20);
        TcpSessionWriter w = writer();
        w.handshake();
        w.send(CLIENT_TO_SERVER, buf(data), 1000, Faults.none().drop(0)); // frames 4, 5
        // frame 6: server bytes after a hole, acknowledging none of the client's
        w.segment(SERVER_TO_CLIENT, w.sequenceAt(SERVER_TO_CLIENT, 1000), w.sequenceAt(CLIENT_TO_SERVER, 0),
                TcpHeader.ACK, buf(data, 0, 500));
        w.reset(CLIENT_TO_SERVER);                                         // frame 7
        Recorder r = cap.reassemble();
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 0, 1000, 7),
                new Recorder.Gap(0, SERVER_TO_CLIENT, 0, 1000, 7));
        assertThat(r.closes).containsExactly(new Recorder.Close(0, CLIENT_TO_SERVER, 3000, true, 7));
        assertThat(r.bytes(0, SERVER_TO_CLIENT)).isEqualTo(Arrays.copyOf(data, 500));
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(Arrays.copyOfRange(data, 1000, 3000));
    }

    // ---------------------------------------------------------------- connections

    @Test
    void aCaptureStartingMidConnectionCountsFromTheFirstByteSeen() {
        byte[] data = random(3000, 21);
        TcpSessionWriter w = writer();
        w.send(SERVER_TO_CLIENT, buf(data, 0, 1000), 1000); // the server speaks first: it becomes the "client"
        w.send(CLIENT_TO_SERVER, buf(data), 1000);
        // 300 bytes from before the capture began and 200 it saw
        w.retransmit(SERVER_TO_CLIENT, -300, buf(concat(random(300, 99), Arrays.copyOf(data, 200))));
        Recorder r = cap.reassemble();
        TcpConnection c = r.connections.get(0);
        assertThat(c.client()).isEqualTo(SERVER);
        assertThat(c.server()).isEqualTo(CLIENT);
        assertThat(c.synSeen(CLIENT_TO_SERVER)).isFalse();
        assertThat(c.initialSequence(CLIENT_TO_SERVER)).isEqualTo(Options.defaults().serverIsn() + 1);
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(Arrays.copyOf(data, 1000));
        assertThat(r.bytes(0, SERVER_TO_CLIENT)).isEqualTo(data);
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).isEmpty();
    }

    @Test
    void aSynAckSeenFirstMakesItsDestinationTheClient() {
        TcpSessionWriter w = writer();
        w.segment(SERVER_TO_CLIENT, 500, 101, TcpHeader.SYN | TcpHeader.ACK, ByteBuffer.allocate(0));
        Recorder r = cap.reassemble();
        assertThat(r.connections.get(0).client()).isEqualTo(CLIENT);
        assertThat(r.connections.get(0).synSeen(SERVER_TO_CLIENT)).isTrue();
    }

    @Test
    void streamsAreNumberedInOrderOfFirstAppearance() {
        Endpoint other = new Endpoint(new byte[]{10, 0, 0, 3}, 40001);
        TcpSessionWriter a = new TcpSessionWriter(CLIENT, SERVER, cap);
        TcpSessionWriter b = new TcpSessionWriter(other, SERVER, cap);
        TcpSessionWriter v6 = new TcpSessionWriter(new Endpoint(PacketDecoderTest.V6_A, 1),
                new Endpoint(PacketDecoderTest.V6_B, 2), cap);
        b.handshake();
        a.handshake();
        v6.handshake();
        a.send(CLIENT_TO_SERVER, buf(new byte[]{1, 2, 3}), 100);
        v6.send(SERVER_TO_CLIENT, buf(new byte[]{4, 5}), 100);
        b.send(CLIENT_TO_SERVER, buf(new byte[]{6}), 100);
        Recorder r = cap.reassemble();
        assertThat(r.connections).extracting(TcpConnection::client).containsExactly(other, CLIENT,
                new Endpoint(PacketDecoderTest.V6_A, 1));
        assertThat(cap.streams).containsExactly(0, 0, 0, 1, 1, 1, 2, 2, 2, 1, 2, 0);
        assertThat(r.bytes(1, CLIENT_TO_SERVER)).containsExactly(1, 2, 3);
        assertThat(r.bytes(2, SERVER_TO_CLIENT)).containsExactly(4, 5);
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).containsExactly(6);
    }

    // The same packet sequences as probes run through tshark 4.0.17 (see the class comment of TcpReassembler);
    // expected: tshark's tcp.stream of each frame.

    void c(long seq, long ack, int flags, int len) {
        probe(CLIENT_TO_SERVER, seq, ack, flags, len);
    }

    void s(long seq, long ack, int flags, int len) {
        probe(SERVER_TO_CLIENT, seq, ack, flags, len);
    }

    private TcpSessionWriter probeWriter;

    void probe(Direction d, long seq, long ack, int flags, int len) {
        if (probeWriter == null) probeWriter = writer();
        probeWriter.segment(d, seq, ack, flags, ByteBuffer.allocate(len));
    }

    static final int S = TcpHeader.SYN, A = TcpHeader.ACK, F = TcpHeader.FIN, R = TcpHeader.RST, P = TcpHeader.PSH;

    void handshake(long ci, long si) {
        c(ci, 0, S, 0);
        s(si, ci + 1, S | A, 0);
        c(ci + 1, si + 1, A, 0);
    }

    List<Integer> streams() {
        cap.reassemble();
        return cap.streams;
    }

    @Test
    void synWithANewSequenceNumberOnAnOpenFourTupleStartsANewStream() {
        handshake(100, 500);
        c(101, 501, P | A, 5);
        handshake(7000, 900);
        assertThat(streams()).containsExactly(0, 0, 0, 0, 1, 1, 1);
    }

    @Test
    void retransmittedSynStaysInItsStream() {
        handshake(100, 500);
        c(101, 501, P | A, 5);
        c(100, 0, S, 0);
        assertThat(streams()).containsExactly(0, 0, 0, 0, 0);
    }

    @Test
    void synReusingTheIsnAfterACloseStaysInTheOldStreamLikeTshark40() {
        handshake(100, 500);
        c(101, 501, P | A, 5);
        c(106, 501, F | A, 0);
        s(501, 107, F | A, 0);
        c(107, 502, A, 0);
        handshake(100, 900);
        assertThat(streams()).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void synAfterResetWithTheSameIsnStaysInTheOldStream() {
        handshake(100, 500);
        c(101, 501, P | A, 5);
        s(501, 106, R | A, 0);
        c(100, 0, S, 0);
        assertThat(streams()).containsExactly(0, 0, 0, 0, 0, 0);
    }

    @Test
    void midConnectionBaseIsOneBelowTheFirstSequenceNumber() {
        c(101, 501, P | A, 5);
        s(501, 106, A, 0);
        c(100, 0, S, 0); // = base: same stream
        c(101, 0, S, 0); // differs: new stream
        assertThat(streams()).containsExactly(0, 0, 0, 1);
    }

    @Test
    void reverseDirectionSynWithANewSequenceNumberStartsANewStream() {
        handshake(100, 500);
        c(101, 501, P | A, 5);
        s(3000, 0, S, 0);
        List<Integer> streams = streams();
        assertThat(streams).containsExactly(0, 0, 0, 0, 1);
    }

    @Test
    void reverseBaseComesFromThePeersFirstAcknowledgment() {
        c(101, 501, P | A, 5);
        s(500, 0, S, 0);  // ack 501 - 1: same stream
        s(501, 0, S, 0);  // new
        assertThat(streams()).containsExactly(0, 0, 1);
    }

    @Test
    void withoutAnyBaseForItsDirectionASynStaysInTheStream() {
        c(101, 0, P, 5);  // no ACK flag: the reverse direction gets no base
        s(3000, 0, S, 0);
        assertThat(streams()).containsExactly(0, 0);
    }

    @Test
    void synAckWithADifferentSequenceNumberDoesNotStartAStream() {
        handshake(100, 500);
        c(5000, 0, S | A, 0);
        assertThat(streams()).containsExactly(0, 0, 0, 0);
        assertThat(cap.reassemble().notices).singleElement()
                .satisfies(n -> assertThat(n.message()).contains("does not match"));
    }

    @Test
    void aSynAckResetsTheBaseOfItsDirection() {
        c(101, 501, P | A, 5);
        c(7000, 0, S | A, 0);
        c(7000, 0, S, 0);   // = the SYN-ACK's: same stream
        handshake(100, 500);
        s(900, 0, S | A, 0);
        s(900, 0, S, 0);    // same
        c(7000, 0, S, 0);   // the client's base is 100 since its SYN: new stream
        assertThat(streams()).containsExactly(0, 0, 0, 1, 1, 1, 1, 1, 2);
    }

    @Test
    void segmentsOfAReusedFourTupleGoToTheNewestStream() {
        handshake(100, 500);
        handshake(7000, 900);
        c(101, 501, P | A, 2);
        assertThat(streams()).containsExactly(0, 0, 0, 1, 1, 1, 1);
    }

    @Test
    void reuseEndsTheOldStreamGivingUpItsHoles() {
        handshake(100, 500);
        c(201, 501, P | A, 5); // 100 bytes missing before it
        handshake(7000, 900);
        Recorder r = cap.reassemble();
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 0, 100, 5));
        assertThat(r.data(0, CLIENT_TO_SERVER)).singleElement().satisfies(d -> assertThat(d.frame()).isEqualTo(4));
        assertThat(r.notices).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Notice.Severity.INFO);
            assertThat(n.message()).contains("4-tuple reused", "starts stream 1");
        });
    }

    @Test
    void theLeastRecentlyActiveConnectionIsEvictedWithANotice() {
        Endpoint c2 = new Endpoint(new byte[]{10, 0, 0, 4}, 1);
        Endpoint c3 = new Endpoint(new byte[]{10, 0, 0, 5}, 1);
        TcpSessionWriter a = new TcpSessionWriter(CLIENT, SERVER, cap);
        TcpSessionWriter b = new TcpSessionWriter(c2, SERVER, cap);
        TcpSessionWriter d = new TcpSessionWriter(c3, SERVER, cap);
        byte[] data = random(300, 22);
        a.handshake();                                                       // 1-3: stream 0
        a.send(CLIENT_TO_SERVER, buf(data), 100, Faults.none().drop(0));    // 4-5: 200 bytes buffered
        b.handshake();                                                       // 6-8: stream 1
        a.ack(CLIENT_TO_SERVER);                                             // 9: stream 0 active again
        d.handshake();                                                       // 10-12: evicts stream 1
        b.send(CLIENT_TO_SERVER, buf(data, 0, 10), 100);                     // 13: new stream 3, evicts 0
        Recorder r = cap.reassemble(TcpReassembler.Limits.defaults().withMaxConnections(2));
        assertThat(cap.streams).containsExactly(0, 0, 0, 0, 0, 1, 1, 1, 0, 2, 2, 2, 3);
        assertThat(r.notices).hasSize(2);
        assertThat(r.notices.get(0)).satisfies(n -> {
            assertThat(n.stream()).isEqualTo(1);
            assertThat(n.frame()).isEqualTo(10);
            assertThat(n.message()).contains("evicted", "0 out-of-order bytes");
        });
        assertThat(r.notices.get(1)).satisfies(n -> {
            assertThat(n.stream()).isZero();
            assertThat(n.frame()).isEqualTo(13);
            assertThat(n.message()).contains("evicted", "200 out-of-order bytes in 2 chunks");
        });
        assertThat(r.gaps).containsExactly(new Recorder.Gap(0, CLIENT_TO_SERVER, 0, 100, 13));
        assertThat(r.bytes(0, CLIENT_TO_SERVER)).isEqualTo(Arrays.copyOfRange(data, 100, 300));
        assertThat(r.connections.get(3).client()).isEqualTo(c2);
        assertThat(r.connections.get(3).synSeen(CLIENT_TO_SERVER)).isFalse();
    }

    @Test
    void closedConnectionsAreEvictedQuietly() {
        TcpSessionWriter a = new TcpSessionWriter(CLIENT, SERVER, cap);
        TcpSessionWriter b = new TcpSessionWriter(new Endpoint(new byte[]{10, 0, 0, 9}, 9), SERVER, cap);
        a.handshake();
        a.close(CLIENT_TO_SERVER);
        a.close(SERVER_TO_CLIENT);
        b.handshake();
        TcpReassembler reassembler;
        Recorder r = new Recorder();
        reassembler = new TcpReassembler(r, TcpReassembler.Limits.defaults().withMaxConnections(1));
        cap.feed(reassembler, r.notices);
        assertThat(r.connections).hasSize(2);
        assertThat(reassembler.connectionCount()).isEqualTo(1);
        assertThat(reassembler.streamCount()).isEqualTo(2);
        assertThat(r.notices).isEmpty();
        reassembler.finish(cap.frames.size());
        assertThat(reassembler.connectionCount()).isZero();
    }

    @Test
    void segmentsFarOutsideAnyWindowAreReportedAndIgnored() {
        handshake(100, 500);
        c(101 + (1L << 31) - 10, 501, P | A, 5);
        Recorder r = cap.reassemble();
        assertThat(r.data).isEmpty();
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).singleElement().satisfies(n -> assertThat(n.message()).contains("outside any TCP"
                + " window"));
    }
}
