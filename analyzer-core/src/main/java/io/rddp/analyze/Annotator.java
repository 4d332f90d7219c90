package io.rddp.analyze;

import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapngWriter;
import io.rddp.sink.Violation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Writes a capture again as pcapng with every violation as a packet comment on its frame (Wireshark shows them). */
public final class Annotator {
    private Annotator() {
    }

    /**
     * Copies {@code in} to {@code out}, commenting the frames {@code violations} name. A capture that turns bad part
     * way is copied up to the damage (the analysis already said where).
     *
     * @return the number of frames annotated
     */
    public static int annotate(Path in, Path out, List<Violation> violations) throws IOException {
        Map<Long, List<String>> comments = new TreeMap<>();
        for (Violation v : violations) {
            if (v.frame() > 0) comments.computeIfAbsent(v.frame(), k -> new ArrayList<>()).add("rddp: " + v);
        }
        try (CaptureReader reader = CaptureReaders.open(in);
             PcapngWriter w = PcapngWriter.create(out, LinkType.ETHERNET)) {
            Frame f = new Frame();
            try {
                while (reader.next(f)) {
                    List<String> c = comments.get(f.number);
                    // a comment the frame already has (e.g. a recorder's truncation mark) stays first
                    w.writeFrame(f, c == null ? f.comment
                            : (f.comment == null ? "" : f.comment + "\n") + String.join("\n", c));
                }
            } catch (CaptureException e) {
                // keep the frames before the damage
            }
        }
        return comments.size();
    }
}
