package io.rddp.capture;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.rddp.capture.TestCaptures.*;
import static org.assertj.core.api.Assertions.assertThat;

/** The shared real captures read exactly as tshark 4.0 reads them (golden files written from tshark). */
class RealCaptureTest {

    private static Path capture(String name) {
        Path shared = sharedPcaps();
        Path p = shared.resolve("siw").resolve(name + ".pcap");
        return Files.exists(p) ? p : shared.resolve("public").resolve(name + ".pcap");
    }

    @ParameterizedTest
    @ValueSource(strings = {"host-to-siw-mpa-rev1", "host-to-siw-mpa-rev2-crc", "host-to-siw-mpa-rev2-p2p-write",
            "host-to-siw-mpa-rev2", "siw-rdma-server-client-lo", "siw-read-bw-lo", "siw-rping-lo", "siw-send-bw-lo",
            "siw-write-bw-lo", "softuiwarp-uiwarp"})
    void framesNumbersTimestampsLengthsAndBytesEqualTsharks(String name) throws IOException {
        Path file = capture(name);
        try (CaptureReader reader = CaptureReaders.open(file)) {
            List<Got> frames = frames(reader);
            assertThat(goldenOf(frames)).containsExactlyElementsOf(golden(name));
            assertThat(frames).allSatisfy(g -> assertThat(g.linkType()).isEqualTo(LinkType.ETHERNET));
            assertThat(reader.format()).isEqualTo("pcap");
            assertThat(reader.size()).isEqualTo(Files.size(file));
            assertThat(reader.bytesRead()).isEqualTo(Files.size(file));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"siw-read-bw-lo", "siw-rping-lo", "softuiwarp-uiwarp"})
    void streamReadingGivesTheSameFramesAsMapping(String name) throws IOException {
        Path file = capture(name);
        List<Got> mapped = frames(CaptureReaders.open(file));
        // A tiny initial array makes the stream source grow and compact many times.
        List<Got> streamed = frames(CaptureReaders.open(Files.newInputStream(file), "-", 16));
        assertThat(streamed).containsExactlyElementsOf(mapped);
    }

    @ParameterizedTest
    @ValueSource(strings = {"siw-read-bw-lo", "siw-write-bw-lo", "siw-rping-lo"})
    void aWindowJustLargerThanTheBiggestRecordReadsTheWholeFile(String name) throws IOException {
        Path file = capture(name);
        List<Got> mapped = frames(CaptureReaders.open(file));
        int biggest = mapped.stream().mapToInt(Got::capturedLength).max().orElseThrow();
        for (int window : new int[]{biggest + 16, biggest + 17, biggest + 1000, 3 * biggest}) {
            assertThat(frames(CaptureReaders.open(file, window))).as("window %d", window)
                    .containsExactlyElementsOf(mapped);
        }
    }
}
