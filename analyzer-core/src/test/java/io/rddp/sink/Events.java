package io.rddp.sink;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpSegment;
import io.rddp.tcp.Direction;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The *.events fixtures (see make_fixtures.py beside them): what the MPA layer hands the sink for a real capture.
 * ULPDUs keep their first 96 octets, which hold every DDP and RDMAP header; {@link #replay} pads them with zeros to
 * their real length.
 */
final class Events {

    static final List<String> ALL = List.of("siw-rping-lo.events", "host-to-siw-mpa-rev1.events",
            "host-to-siw-mpa-rev2.events", "host-to-siw-mpa-rev2-crc.events",
            "host-to-siw-mpa-rev2-p2p-write.events", "siw-rdma-server-client-lo.events", "siw-read-bw-lo.events",
            "siw-send-bw-lo.events", "siw-write-bw-lo.events", "softuiwarp-uiwarp.events");

    record Event(String kind, long frame, int stream, Direction dir, String a, String b, byte[] bytes) {
    }

    private Events() {
    }

    static List<Event> load(String name) {
        InputStream in = Events.class.getResourceAsStream(name);
        if (in == null) throw new IllegalStateException("missing test resource io/rddp/sink/" + name);
        List<Event> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            boolean header = true;
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("#")) continue;
                if (header) {
                    header = false;
                    continue;
                }
                String[] c = line.split("\t", -1);
                out.add(new Event(c[0], Long.parseLong(c[1]), Integer.parseInt(c[2]),
                        c[3].equals("C2S") ? Direction.CLIENT_TO_SERVER : Direction.SERVER_TO_CLIENT, c[4], c[5],
                        c[6].equals("-") ? new byte[0] : HexFormat.of().parseHex(c[6])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Feeds every event to the model, then onEnd(). */
    static void replay(List<Event> events, SinkModel model) {
        for (Event e : events) {
            switch (e.kind()) {
                case "START" -> model.onStartFrame(e.stream(), e.dir(), StartFrames.parse(e.bytes()), e.frame());
                case "FPDU" -> {
                    int len = Integer.parseInt(e.a());
                    ByteBuffer ulpdu = ByteBuffer.allocate(len);
                    ulpdu.put(e.bytes(), 0, Math.min(len, e.bytes().length)).clear();
                    Boolean crc = e.b().equals("-") ? null : e.b().equals("1");
                    try {
                        model.onSegment(e.stream(), e.dir(), e.frame(), crc, DdpSegment.parse(ulpdu), null);
                    } catch (MalformedException ex) {
                        model.onMalformed(e.stream(), e.dir(), e.frame(), crc, len, ex.getMessage());
                    }
                }
                case "CLOSE" -> model.onClose(e.stream(), e.dir(), e.a().equals("RST"), e.frame());
                default -> throw new IllegalStateException("unknown event " + e.kind());
            }
        }
        model.onEnd();
    }

    static Recorder run(String name) {
        return run(name, SinkModel.Options.defaults(), StagRegistry.empty());
    }

    static Recorder run(String name, SinkModel.Options options, StagRegistry registry) {
        Recorder rec = new Recorder();
        replay(load(name), new SinkModel(options, registry, rec));
        return rec;
    }
}
