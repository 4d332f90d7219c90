package io.rddp.decode;

import io.rddp.testing.RepoPaths;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A capture that starts after the MPA handshake decodes to the same PDUs as the whole capture, marked inferred. */
class MidConnectionDecodeTest {

    private record Row(long frame, String fields, boolean inferred) {
    }

    private static List<Row> decode(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (CaptureReader r = CaptureReaders.open(file)) {
            new DecodePipeline(pdu -> {
                if (pdu.fpdu() == null) return;
                Map<String, String> ddpAndRdmap = new LinkedHashMap<>();
                PduFields.describe(pdu.ddp().header(), io.rddp.field.DdpField.DDP, "DDP", new MapSink(ddpAndRdmap));
                PduFields.describe(pdu.rdmap(), new MapSink(ddpAndRdmap));
                rows.add(new Row(pdu.frame(), pdu.fpdu().ulpduLength() + " " + ddpAndRdmap, pdu.fpdu().inferred()));
            }).run(r);
        }
        return rows;
    }

    private static void assertSameAsWhole(String whole, String cut, long firstKeptFrame) throws IOException {
        Path root = RepoPaths.root().resolve("pcaps");
        List<Row> all = decode(root.resolve(whole));
        List<Row> part = decode(root.resolve(cut));
        List<String> expected = all.stream().filter(r -> r.frame() >= firstKeptFrame)
                .map(r -> (r.frame() - firstKeptFrame + 1) + " " + r.fields()).sorted().toList();
        assertThat(part).isNotEmpty().allSatisfy(r -> assertThat(r.inferred()).isTrue());
        assertThat(part.stream().map(r -> r.frame() + " " + r.fields()).sorted().toList()).containsExactlyElementsOf(expected);
    }

    @Test
    void rpingCutAfterTheHandshakeGivesEveryLaterPduWithItsFrame() throws IOException {
        assertSameAsWhole("siw/siw-rping-lo.pcap", "siw-cut/siw-rping-from-frame-9.pcap", 9);
    }

    @Test
    void crcIsInferredOnFromTheFpdusThemselves() throws IOException {
        assertSameAsWhole("siw/host-to-siw-mpa-rev2-crc.pcap", "siw-cut/host-to-siw-mpa-rev2-crc-from-frame-9.pcap", 9);
        try (CaptureReader r = CaptureReaders.open(RepoPaths.root().resolve("pcaps/siw-cut/host-to-siw-mpa-rev2-crc-from-frame-9.pcap"))) {
            List<Boolean> crcs = new ArrayList<>();
            new DecodePipeline(pdu -> crcs.add(pdu.fpdu().crcOk())).run(r);
            assertThat(crcs).isNotEmpty().containsOnly(true);
        }
    }

    private record MapSink(Map<String, String> out) implements FieldSink {
        public void begin(String key, String label) { }

        public void end() { }

        public void number(String key, String label, long value) {
            out.put(key, Long.toString(value));
        }

        public void unsigned64(String key, String label, long value) {
            out.put(key, Long.toUnsignedString(value));
        }

        public void bool(String key, String label, boolean value) {
            out.put(key, Boolean.toString(value));
        }

        public void text(String key, String label, String value) {
            out.put(key, value);
        }

        public void hex(String key, String label, byte[] value) {
            out.put(key, java.util.HexFormat.of().formatHex(value));
        }
    }
}
