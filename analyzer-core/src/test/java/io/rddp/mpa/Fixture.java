package io.rddp.mpa;

import io.rddp.tcp.Direction;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * TCP payloads of tcp.stream 0 of a real capture, extracted with tshark, plus tshark's own MPA dissection of them
 * (see the header of each resource file).
 */
final class Fixture {
    record Segment(long frame, Direction dir, long offset, byte[] payload) {
    }

    record TsharkFpdu(long frame, Direction dir, int ulpduLength, long crc) {
    }

    record TsharkStart(long frame, Direction dir, MpaStartFrame.Kind kind) {
    }

    final List<Segment> segments = new ArrayList<>();
    final List<TsharkFpdu> fpdus = new ArrayList<>();
    final List<TsharkStart> starts = new ArrayList<>();

    static Fixture load(String name) {
        Fixture f = new Fixture();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                Objects.requireNonNull(Fixture.class.getResourceAsStream(name), name), StandardCharsets.US_ASCII))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] t = line.split(" ");
                Direction d = t[2].equals("c") ? Direction.CLIENT_TO_SERVER : Direction.SERVER_TO_CLIENT;
                switch (t[0]) {
                    case "seg" -> f.segments.add(new Segment(Long.parseLong(t[1]), d, Long.parseLong(t[3]),
                            HexFormat.of().parseHex(t[4])));
                    case "fpdu" -> f.fpdus.add(new TsharkFpdu(Long.parseLong(t[1]), d, Integer.parseInt(t[3]),
                            Long.parseLong(t[4].substring(2), 16)));
                    case "start" -> f.starts.add(new TsharkStart(Long.parseLong(t[1]), d,
                            t[3].equals("req") ? MpaStartFrame.Kind.REQUEST : MpaStartFrame.Kind.REPLY));
                    default -> throw new IllegalStateException("bad fixture line: " + line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return f;
    }

    /** Feeds every segment in frame order, each as its own buffer, then closes both directions. */
    void feed(MpaDecoder decoder, TestConnection c) {
        decoder.onConnection(c);
        long last = 0;
        for (Segment s : segments) {
            decoder.onData(c, s.dir(), s.offset(), ByteBuffer.wrap(s.payload()), s.frame());
            last = s.frame();
        }
        decoder.onClose(c, Direction.CLIENT_TO_SERVER, -1, false, last);
        decoder.onClose(c, Direction.SERVER_TO_CLIENT, -1, false, last);
    }

    /** The client's (or server's) whole byte stream. */
    byte[] stream(Direction d) {
        int n = segments.stream().filter(s -> s.dir() == d).mapToInt(s -> s.payload().length).sum();
        ByteBuffer b = ByteBuffer.allocate(n);
        segments.stream().filter(s -> s.dir() == d).forEach(s -> b.put(s.payload()));
        return b.array();
    }
}
