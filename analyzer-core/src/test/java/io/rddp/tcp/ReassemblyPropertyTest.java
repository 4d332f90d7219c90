package io.rddp.tcp;

import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import io.rddp.tcp.TcpSessionWriter.Faults;
import io.rddp.tcp.TcpSessionWriter.Options;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ReassemblyPropertyTest {
    static final Endpoint CLIENT = new Endpoint(new byte[]{10, 1, 1, 1}, 33333);
    static final Endpoint SERVER = new Endpoint(new byte[]{10, 1, 1, 2}, 4791);

    @Provide
    Arbitrary<Long> isns() {
        // near the wrap, and anywhere
        return Arbitraries.oneOf(Arbitraries.longs().between(0xffffffffL - 20_000, 0xffffffffL),
                Arbitraries.longs().between(0, 0xffffffffL));
    }

    /**
     * Any order and duplication of the segments of a byte stream, without drops, reassembles to exactly the stream,
     * and every delivered byte comes with a frame that carried that very byte at that offset.
     */
    @Property(tries = 300)
    void anyPermutationWithDuplicatesReassemblesTheOriginalBytes(
            // at most 4000 segments + 30 duplicates: within the default cap of 4096 buffered out-of-order chunks,
            // beyond which the reassembler declares a gap on purpose (see Limits)
            @ForAll @Size(min = 1, max = 4000) byte[] data,
            @ForAll @IntRange(min = 1, max = 1460) int mss,
            @ForAll("isns") long isn,
            @ForAll long shuffleSeed,
            @ForAll @IntRange(min = 0, max = 30) int duplicates,
            @ForAll boolean ipv6) {
        int n = (data.length + mss - 1) / mss;
        Random random = new Random(shuffleSeed);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) order.add(i);
        for (int i = 0; i < duplicates; i++) order.add(random.nextInt(n));
        Collections.shuffle(order, random);

        Capture cap = new Capture();
        Endpoint client = ipv6 ? new Endpoint(PacketDecoderTest.V6_A, CLIENT.port()) : CLIENT;
        Endpoint server = ipv6 ? new Endpoint(PacketDecoderTest.V6_B, SERVER.port()) : SERVER;
        TcpSessionWriter w = new TcpSessionWriter(client, server,
                Options.defaults().withIsn(Direction.CLIENT_TO_SERVER, isn), cap);
        w.handshake();
        w.send(Direction.CLIENT_TO_SERVER, ByteBuffer.wrap(data), mss,
                Faults.sequence(order.stream().mapToInt(Integer::intValue).toArray()));
        w.close(Direction.CLIENT_TO_SERVER);
        Recorder r = cap.reassemble();

        assertThat(r.bytes(0, Direction.CLIENT_TO_SERVER)).isEqualTo(data);
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).isEmpty();
        assertThat(r.closes).containsExactly(new Recorder.Close(0, Direction.CLIENT_TO_SERVER, data.length, false,
                cap.frames.size()));
        for (Recorder.Data d : r.data) {
            byte[] carried = carriedAt(cap, d.frame(), isn, d.offset(), d.bytes().length);
            assertThat(carried).as("bytes of frame %d at offset %d", d.frame(), d.offset()).isEqualTo(d.bytes());
        }
    }

    /** The bytes frame {@code number} carried at [offset, offset + length), or null if it did not carry them all. */
    static byte[] carriedAt(Capture cap, long number, long isn, long offset, int length) {
        Frame f = Capture.frame(number, LinkType.ETHERNET, cap.frames.get((int) number - 1));
        TcpSegment seg = new TcpSegment();
        assertThat(new PacketDecoder(n -> { }).decode(f, seg)).isTrue();
        long start = (seg.sequence() - isn - 1) & 0xffffffffL;
        if (offset < start || offset + length > start + seg.payloadLength()) return null;
        ByteBuffer p = seg.payload();
        byte[] out = new byte[length];
        p.get(p.position() + (int) (offset - start), out);
        return out;
    }

    /** The same with drops: the delivered bytes are the stream with exactly the dropped ranges reported as gaps. */
    @Property(tries = 200)
    void droppedSegmentsBecomeExactlyTheGaps(
            @ForAll @Size(min = 1, max = 4000) byte[] data,
            @ForAll @IntRange(min = 1, max = 700) int mss,
            @ForAll("isns") long isn,
            @ForAll long seed,
            @ForAll boolean acks) {
        int n = (data.length + mss - 1) / mss;
        Random random = new Random(seed);
        List<Integer> kept = new ArrayList<>();
        boolean[] dropped = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (random.nextInt(4) == 0) dropped[i] = true;
            else kept.add(i);
        }
        Collections.shuffle(kept, random);
        Capture cap = new Capture();
        Options o = Options.defaults().withIsn(Direction.CLIENT_TO_SERVER, isn).withAckEvery(acks ? 3 : 0);
        TcpSessionWriter w = new TcpSessionWriter(CLIENT, SERVER, o, cap);
        w.handshake();
        w.send(Direction.CLIENT_TO_SERVER, ByteBuffer.wrap(data), mss,
                Faults.sequence(kept.stream().mapToInt(Integer::intValue).toArray()));
        Recorder r = cap.reassemble();

        // expected: runs of dropped segments, except at the very end of the stream when nothing proves them
        List<long[]> expectedGaps = new ArrayList<>();
        for (int i = 0; i < n; ) {
            if (!dropped[i]) {
                i++;
                continue;
            }
            int j = i;
            while (j < n && dropped[j]) j++;
            long from = (long) i * mss;
            long to = Math.min(data.length, (long) j * mss);
            if (j < n || acks) expectedGaps.add(new long[]{from, to - from});
            i = j;
        }
        assertThat(r.gaps).extracting(g -> g.offset() + "+" + g.length())
                .containsExactlyElementsOf(expectedGaps.stream().map(g -> g[0] + "+" + g[1]).toList());
        byte[] expected = new byte[0];
        for (int i = 0; i < n; i++) {
            if (!dropped[i]) {
                byte[] part = Arrays.copyOfRange(data, i * mss, Math.min(data.length, (i + 1) * mss));
                expected = TcpReassemblerTest.concat(expected, part);
            }
        }
        assertThat(r.bytes(0, Direction.CLIENT_TO_SERVER)).isEqualTo(expected);
        assertThat(r.notices).isEmpty();
        for (Recorder.Data d : r.data) {
            assertThat(carriedAt(cap, d.frame(), isn, d.offset(), d.bytes().length)).isEqualTo(d.bytes());
        }
    }
}
