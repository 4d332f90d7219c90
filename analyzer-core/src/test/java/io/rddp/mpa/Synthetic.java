package io.rddp.mpa;

import io.rddp.tcp.Direction;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Both directions of an MPA connection built with {@link FpduEncoder}, with what each FPDU should decode to. */
final class Synthetic {
    /** One encoded FPDU: wire extent [start, end), ULPDU_Length at {@code offset}. */
    record Sent(long start, long end, long offset, byte[] ulpdu, int markers) {
    }

    final Map<Direction, ByteArrayOutputStream> bytes = new EnumMap<>(Direction.class);
    final Map<Direction, FpduEncoder> encoders = new EnumMap<>(Direction.class);
    final Map<Direction, List<Sent>> sent = new EnumMap<>(Direction.class);
    final Map<Direction, Long> markerBase = new EnumMap<>(Direction.class);
    final MpaStartFrame request, reply;

    /** Client sends the Request; markers/CRC follow RFC 5044 §7.1.1 from the frames. */
    Synthetic(MpaStartFrame request, MpaStartFrame reply) {
        this.request = request;
        this.reply = reply;
        boolean crc = request.crc() || reply.crc();
        init(Direction.CLIENT_TO_SERVER, request, reply.markers(), crc);
        init(Direction.SERVER_TO_CLIENT, reply, request.markers(), crc);
    }

    static Synthetic of(boolean markersToClient, boolean markersToServer, boolean crc, int requestPd, int replyPd) {
        return new Synthetic(MpaStartFrame.request(markersToClient, crc, 1, null, new byte[requestPd]),
                MpaStartFrame.reply(markersToServer, false, false, 1, null, new byte[replyPd]));
    }

    private void init(Direction d, MpaStartFrame frame, boolean markers, boolean crc) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(frame.toBytes());
        bytes.put(d, out);
        encoders.put(d, new FpduEncoder(markers, crc, out.size()));
        markerBase.put(d, (long) out.size());
        sent.put(d, new ArrayList<>());
    }

    Synthetic add(Direction d, byte[] ulpdu) {
        FpduEncoder e = encoders.get(d);
        long start = e.offset();
        byte[] wire = e.encode(ulpdu);
        long base = markerBase.get(d);
        int markers = 0;
        for (long p = start; p < start + wire.length; p++) {
            if (e.markers() && Math.floorMod(p - base, 512L) == 0) markers++;   // brute force, not the formula
        }
        long hdr = e.markers() && Math.floorMod(start - base, 512L) == 0 ? start + 4 : start;
        sent.get(d).add(new Sent(start, start + wire.length, hdr, ulpdu, markers));
        bytes.get(d).writeBytes(wire);
        return this;
    }

    byte[] stream(Direction d) {
        return bytes.get(d).toByteArray();
    }

    /** A ULPDU of {@code len} octets that starts like an RDMA Write (RFC 5041 §4.2 tagged header) when it can. */
    static byte[] ddpLike(int len, Random rnd) {
        byte[] b = new byte[len];
        rnd.nextBytes(b);
        if (len >= 14) {
            ByteBuffer h = ByteBuffer.wrap(b);
            h.put((byte) (rnd.nextBoolean() ? 0xC1 : 0x81));   // T=1, L=?, Rsvd 0, DV=1
            h.put((byte) 0x40);                                 // RV=1, opcode 0 (RDMA Write)
        }
        return b;
    }

    /** A frame-numbered segment of one direction. */
    record Segment(long frame, Direction dir, long offset, byte[] payload) {
    }

    /**
     * Cuts both streams into segments of 1..maxSegment octets and numbers them in a plausible capture order: the
     * Request's segments, then the Reply's, then the rest interleaved at random.
     */
    List<Segment> segments(Random rnd, int maxSegment) {
        Map<Direction, List<Segment>> cut = new EnumMap<>(Direction.class);
        for (Direction d : Direction.values()) {
            byte[] s = stream(d);
            List<Segment> list = new ArrayList<>();
            for (int p = 0; p < s.length; ) {
                int n = Math.min(s.length - p, 1 + rnd.nextInt(maxSegment));
                byte[] part = new byte[n];
                System.arraycopy(s, p, part, 0, n);
                list.add(new Segment(0, d, p, part));
                p += n;
            }
            cut.put(d, list);
        }
        List<Segment> order = new ArrayList<>();
        List<Segment> c = cut.get(Direction.CLIENT_TO_SERVER), s = cut.get(Direction.SERVER_TO_CLIENT);
        int ci = 0, si = 0;
        while (ci < c.size() && c.get(ci).offset() < request.length()) order.add(c.get(ci++));
        while (si < s.size() && s.get(si).offset() < reply.length()) order.add(s.get(si++));
        while (ci < c.size() || si < s.size()) {
            boolean client = si >= s.size() || ci < c.size() && rnd.nextBoolean();
            order.add(client ? c.get(ci++) : s.get(si++));
        }
        List<Segment> numbered = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            Segment g = order.get(i);
            numbered.add(new Segment(i + 1, g.dir(), g.offset(), g.payload()));
        }
        return numbered;
    }

    /** Frame of the segment holding octet {@code offset} of direction {@code d}. */
    static long frameOf(List<Segment> segments, Direction d, long offset) {
        for (Segment g : segments) {
            if (g.dir() == d && offset >= g.offset() && offset < g.offset() + g.payload().length) return g.frame();
        }
        throw new IllegalArgumentException("no segment holds offset " + offset);
    }
}
