package io.rddp.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpConnection;
import io.rddp.tcp.TcpHeader;
import io.rddp.tcp.TcpListener;
import io.rddp.tcp.TcpReassembler;
import io.rddp.tcp.TcpSegment;

import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Segments with fuzzer-chosen 4-tuples, flags, sequence and acknowledgment numbers (in order, near, anywhere, just
 * below the wrap), windows, payloads and snaplen cuts, under small fuzzer-chosen {@link TcpReassembler.Limits}.
 * Properties: nothing throws; every direction's deliveries are contiguous except across reported gaps
 * ({@link TcpListener#onData}); each connection ends exactly once and gets no calls after its end; and where the
 * fuzzer never sent conflicting bytes, every delivered byte is the byte sent at its sequence number.
 *
 * <p>Payload bytes are a function of their sequence number unless a segment is marked corrupt, when they come from
 * the input. {@link #segment} is the one place the input is consumed; {@link FuzzSeeds} writes seeds in that order.
 */
class TcpReassemblerFuzzTest {
    static final int MAX_SEGMENTS = 400;
    static final int MAX_PAYLOAD = 2048;
    static final long MASK = 0xFFFF_FFFFL;
    static final Endpoint[][] PAIRS = {
            {new Endpoint(new byte[]{10, 0, 0, 1}, 40000), new Endpoint(new byte[]{10, 0, 0, 2}, 4791)},
            {new Endpoint(new byte[]{10, 0, 0, 1}, 40001), new Endpoint(new byte[]{10, 0, 0, 2}, 4791)},
            {new Endpoint(ipv6(1), 50000), new Endpoint(ipv6(2), 4791)},
    };

    @FuzzTest(maxDuration = "10s")
    void reassemble(FuzzedDataProvider in) {
        TcpReassembler.Limits limits = new TcpReassembler.Limits(in.consumeInt(1, 4), in.consumeInt(1, 1 << 16),
                in.consumeInt(1, 64), in.consumeInt(0, 1 << 12));
        Checker checker = new Checker();
        TcpReassembler tcp = new TcpReassembler(checker, limits);
        long[][] next = new long[PAIRS.length][2];
        TcpSegment seg = new TcpSegment();
        long frame = 0;
        while (in.remainingBytes() > 0 && frame < MAX_SEGMENTS) {
            frame++;
            segment(in, next, seg, frame, checker);
            TcpConnection c = tcp.accept(seg);
            if (checker.ended.containsKey(c)) throw new AssertionError("segment accepted by ended " + c);
        }
        tcp.finish(frame);
        for (Map.Entry<TcpConnection, Integer> e : checker.ended.entrySet()) {
            assertThat(e.getValue()).as("ends of " + e.getKey()).isEqualTo(1);
        }
        assertThat(checker.ended.keySet()).containsExactlyInAnyOrderElementsOf(checker.opened.keySet());
    }

    /** Consumes one segment's choices (in this order: see FuzzSeeds.tcpSegment). */
    static void segment(FuzzedDataProvider in, long[][] next, TcpSegment seg, long frame, Checker checker) {
        int pair = in.consumeInt(0, PAIRS.length - 1);
        int dir = in.consumeBoolean() ? 1 : 0;
        int flags = in.consumeInt(0, 0xFF);
        long seq = switch (in.consumeInt(0, 3)) {
            case 0 -> next[pair][dir];
            case 1 -> next[pair][dir] + in.consumeInt(0, 8192) - 4096;
            case 2 -> in.consumeLong(0, MASK);
            default -> MASK - in.consumeInt(0, 4096);
        } & MASK;
        long ack = switch (in.consumeInt(0, 2)) {
            case 0 -> next[pair][1 - dir];
            case 1 -> next[pair][1 - dir] + in.consumeInt(0, 8192) - 4096;
            default -> in.consumeLong(0, MASK);
        } & MASK;
        int window = in.consumeInt(0, 0xFFFF);
        int length = in.consumeInt(0, MAX_PAYLOAD);
        int captured = length - in.consumeInt(0, length);
        boolean corrupt = in.consumeBoolean();
        boolean syn = (flags & TcpHeader.SYN) != 0;
        // the first payload byte follows the SYN's sequence number (RFC 9293 §3.4)
        long first = seq + (syn ? 1 : 0);
        byte[] payload;
        if (corrupt) {
            payload = in.consumeBytes(captured);
            checker.corrupt[pair][dir] = true;
        } else {
            payload = new byte[captured];
            for (int i = 0; i < captured; i++) payload[i] = contentAt(first + i);
        }
        Endpoint src = PAIRS[pair][dir], dst = PAIRS[pair][1 - dir];
        seg.set(src, dst, seq, ack, flags, window, ByteBuffer.wrap(payload), Math.max(length, payload.length),
                frame, frame * 1000);
        next[pair][dir] = (first + Math.max(length, payload.length) + ((flags & TcpHeader.FIN) != 0 ? 1 : 0)) & MASK;
    }

    /** The byte every uncorrupted segment carries at sequence number {@code seq}. */
    static byte contentAt(long seq) {
        return (byte) (((seq & MASK) * 0x9E3779B1L) >>> 13);
    }

    private static byte[] ipv6(int last) {
        byte[] a = new byte[16];
        a[0] = (byte) 0xfd;
        a[15] = (byte) last;
        return a;
    }

    static final class Checker implements TcpListener {
        final Map<TcpConnection, Integer> ended = new IdentityHashMap<>();
        final Map<TcpConnection, Boolean> opened = new IdentityHashMap<>();
        final Map<TcpConnection, long[]> nextOffset = new IdentityHashMap<>();
        final boolean[][] corrupt = new boolean[PAIRS.length][2];

        @Override
        public void onConnection(TcpConnection connection) {
            assertThat(opened.put(connection, true)).as("onConnection twice").isNull();
            nextOffset.put(connection, new long[]{-1, -1});
        }

        private void live(TcpConnection c) {
            if (!opened.containsKey(c) || ended.containsKey(c)) {
                throw new AssertionError("call for " + c + " before onConnection or after onConnectionEnd");
            }
        }

        private void contiguous(TcpConnection c, Direction d, long offset, long length) {
            long[] n = nextOffset.get(c);
            if (offset < 0 || n[d.ordinal()] >= 0 && offset != n[d.ordinal()]) {
                throw new AssertionError("offset " + offset + " of " + d + " of " + c + ", expected "
                        + n[d.ordinal()]);
            }
            n[d.ordinal()] = offset + length;
        }

        @Override
        public void onData(TcpConnection c, Direction d, long offset, ByteBuffer data, long frame) {
            live(c);
            contiguous(c, d, offset, data.remaining());
            int pair = pairOf(c.source(d), c.destination(d));
            int dir = PAIRS[pair][0].equals(c.source(d)) ? 0 : 1;
            if (!corrupt[pair][dir]) {
                long base = c.initialSequence(d);
                for (int i = data.position(); i < data.limit(); i++) {
                    long seq = base + offset + (i - data.position());
                    if (data.get(i) != contentAt(seq)) {
                        throw new AssertionError("byte at offset " + (offset + i - data.position()) + " of " + d
                                + " of " + c + " is " + data.get(i) + ", the byte sent at sequence number "
                                + (seq & MASK) + " was " + contentAt(seq));
                    }
                }
            }
        }

        @Override
        public void onGap(TcpConnection c, Direction d, long offset, long length, long frame) {
            live(c);
            assertThat(length).isPositive();
            contiguous(c, d, offset, length);
        }

        @Override
        public void onClose(TcpConnection c, Direction d, long offset, boolean reset, long frame) {
            live(c);
        }

        @Override
        public void onConnectionEnd(TcpConnection c, long frame) {
            assertThat(opened).containsKey(c);
            ended.merge(c, 1, Integer::sum);
        }

        private static int pairOf(Endpoint src, Endpoint dst) {
            for (int p = 0; p < PAIRS.length; p++) {
                if (PAIRS[p][0].equals(src) && PAIRS[p][1].equals(dst)
                        || PAIRS[p][1].equals(src) && PAIRS[p][0].equals(dst)) return p;
            }
            throw new AssertionError("unknown endpoints " + src + " " + dst);
        }
    }
}
