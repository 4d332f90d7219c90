package io.rddp.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.rddp.capture.TestCaptures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Variants of host-to-siw-mpa-rev2-crc.pcap made with editcap, gzip and a byte swapper, each checked with tshark to
 * hold the same frames (golden files from tshark).
 */
class FormatVariantTest {
    private static final String SOURCE = "host-to-siw-mpa-rev2-crc";

    @ParameterizedTest
    @CsvSource({
            "rev2-crc.pcapng,      pcapng",
            "rev2-crc-be.pcap,     pcap",
            "rev2-crc-be.pcapng,   pcapng",
            "rev2-crc.pcap.gz,     pcap+gzip",
            "rev2-crc.pcapng.gz,   pcapng+gzip",
    })
    void everyVariantHoldsTheFramesTsharkSees(String resource, String format) throws IOException {
        try (CaptureReader reader = CaptureReaders.open(resource(resource))) {
            assertThat(reader.format()).isEqualTo(format);
            assertThat(goldenOf(frames(reader))).containsExactlyElementsOf(golden(SOURCE));
        }
    }

    @ParameterizedTest
    @CsvSource({"rev2-crc.pcap.gz, pcap+gzip", "rev2-crc.pcapng.gz, pcapng+gzip", "rev2-crc-be.pcapng, pcapng"})
    void aStreamIsDetectedAndReadLikeTheFile(String resource, String format) throws IOException {
        try (CaptureReader reader = CaptureReaders.open(Files.newInputStream(resource(resource)), "-")) {
            assertThat(reader.format()).isEqualTo(format);
            assertThat(reader.size()).isEqualTo(-1);
            assertThat(goldenOf(frames(reader))).containsExactlyElementsOf(golden(SOURCE));
        }
    }

    @Test
    void nanosecondPcapKeepsTheNanoseconds() throws IOException {
        List<Got> frames = frames(resource("rev2-crc-nsec.pcap"));
        assertThat(goldenOf(frames)).containsExactlyElementsOf(golden("rev2-crc-nsec"));
        assertThat(frames.get(0).timestampNanos() % 1000).isEqualTo(123);
    }

    @Test
    void gzipProgressCountsCompressedBytesUpToTheWholeFile() throws IOException {
        Path gz = resource("rev2-crc.pcapng.gz");
        try (CaptureReader reader = CaptureReaders.open(gz)) {
            assertThat(reader.size()).isEqualTo(Files.size(gz));
            Frame f = new Frame();
            assertThat(reader.next(f)).isTrue();
            assertThat(reader.bytesRead()).isPositive().isLessThanOrEqualTo(Files.size(gz));
            while (reader.next(f)) {
                assertThat(reader.bytesRead()).isLessThanOrEqualTo(Files.size(gz));
            }
            assertThat(reader.bytesRead()).isEqualTo(Files.size(gz));
        }
    }

    @Test
    void packetCommentsAreTheOnesTsharkShows() throws IOException {
        List<Got> frames = frames(resource("rev2-crc-comments.pcapng"));
        Map<Long, String> comments = frames.stream().filter(g -> g.comment() != null)
                .collect(Collectors.toMap(Got::number, Got::comment));
        assertThat(comments).containsExactlyInAnyOrderEntriesOf(Map.of(3L, "first comment", 7L, "ünïcödé – second"));
        assertThat(goldenOf(frames)).containsExactlyElementsOf(golden(SOURCE));
    }

    @Test
    void concatenatedSectionsOfBothByteOrdersAndResolutionsNumberOnLikeTshark() throws IOException {
        // Section 1: little-endian, default if_tsresol (µs); 2: if_tsresol 9 with ns digits; 3: big-endian.
        try (CaptureReader reader = CaptureReaders.open(resource("three-sections.pcapng"))) {
            List<Got> frames = frames(reader);
            assertThat(goldenOf(frames)).containsExactlyElementsOf(golden("three-sections"));
            assertThat(frames).allSatisfy(g -> {
                assertThat(g.interfaceId()).isZero();
                assertThat(g.linkType()).isEqualTo(LinkType.ETHERNET);
            });
            assertThat(((PcapngReader) reader).sections()).isEqualTo(3);
        }
    }

    @Test
    void fileOffsetsPointAtTheRecords() throws IOException {
        Path pcap = resource("rev2-crc-be.pcap");
        byte[] bytes = Files.readAllBytes(pcap);
        long offset = PcapFileHeader.LENGTH;
        for (Got g : frames(pcap)) {
            assertThat(g.fileOffset()).isEqualTo(offset);
            offset += PcapRecord.HEADER + g.capturedLength();
        }
        assertThat(offset).isEqualTo(bytes.length);
    }
}
