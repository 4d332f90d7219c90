package io.rddp.analyze;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.CaptureWriter;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.Generator;
import io.rddp.generate.Scenario;
import io.rddp.sink.StagRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the layers above MPA on a second thread ({@link Analyzer#threads} 2) the report is the single-threaded one, event for event: the same
 * violations in the same order, notices, stream summaries and counts. Every bundled capture, under both profiles.
 */
class AnalyzerThreadsTest {

    static Stream<Path> bundledCaptures() throws IOException {
        try (Stream<Path> files = Files.walk(AnalyzerTest.pcaps())) {
            List<Path> list = files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().matches(".*\\.(pcap|pcapng)(\\.gz)?$")).sorted().toList();
            assertThat(list).hasSizeGreaterThan(100);
            return list.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bundledCaptures")
    void secondThreadGivesTheSingleThreadedReportOnEveryBundledCapture(Path capture) throws IOException {
        for (UlpProfile profile : UlpProfile.values()) {
            Analysis one = analyze(capture, profile, 1);
            Analysis two = analyze(capture, profile, 2);
            assertThat(two).as("%s, profile %s", capture, profile).isEqualTo(one);
        }
    }

    /**
     * Read windows are recycled (pooled buffers reused once released, {@link CaptureReader#recycleWindows}): with
     * windows so small that every capture moves through many, one thread and two give the report of a reader that
     * never reuses a buffer. A window reused too early would show as bytes of a later frame in an earlier PDU.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bundledCaptures")
    void recycledReadWindowsGiveTheReportOfFreshOnesOnEveryBundledCapture(Path capture) throws IOException {
        for (UlpProfile profile : UlpProfile.values()) {
            Analysis fresh;
            try (CaptureReader reader = CaptureReaders.open(Files.newInputStream(capture), capture.toString())) {
                fresh = new Analyzer(AnalysisLimits.defaults(), StagRegistry.empty(), profile).run(reader, () -> { });
            }
            for (int threads = 1; threads <= 2; threads++) {
                assertThat(analyzeInWindows(capture, profile, threads)).as("%s, profile %s, %d threads", capture,
                        profile, threads).isEqualTo(fresh);
            }
        }
    }

    /**
     * Payload read on the second thread, long after the reader moved on: rping's advertisements (the rping profile
     * learns STags from them) and RPC-over-RDMA messages. Windows of 8 KiB, so that thousands are recycled while
     * batches that refer to them are in flight.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(value = Scenario.class, names = {"RPING", "NFS_RDMA", "BUSY_RNIC"})
    void recycledReadWindowsGiveTheReportOfFreshOnesWhenPayloadIsReadOnTheSecondThread(Scenario scenario,
                                                                                     @TempDir Path dir)
            throws IOException {
        Path capture = dir.resolve("c.pcap");
        try (CaptureWriter w = PcapWriter.create(capture, LinkType.ETHERNET, false)) {
            Generator.generate(scenario, new Generator.Options(6 << 20, 0, 4096, 0, true, 12, 16), w);
        }
        for (UlpProfile profile : UlpProfile.values()) {
            Analysis one = analyze(capture, profile, 1);
            assertThat(one.pdus()).as("several batches of 1024 events").isGreaterThan(4 * 1024L);
            assertThat(analyzeInWindows(capture, profile, 1, 8 << 10)).as("one thread, %s", profile).isEqualTo(one);
            assertThat(analyzeInWindows(capture, profile, 2, 8 << 10)).as("two threads, %s", profile).isEqualTo(one);
        }
    }

    private static Analysis analyzeInWindows(Path capture, UlpProfile profile, int threads) throws IOException {
        return analyzeInWindows(capture, profile, threads, 64 << 10);
    }

    // windows of the given size (larger where a capture has larger records), recycled by the analyzer
    private static Analysis analyzeInWindows(Path capture, UlpProfile profile, int threads, long smallest)
            throws IOException {
        for (long window = smallest; ; window *= 4) {
            try (CaptureReader reader = CaptureReaders.open(capture, window)) {
                Analysis a = new Analyzer(AnalysisLimits.defaults(), StagRegistry.empty(), profile).threads(threads)
                        .run(reader, () -> { });
                if (a.error() == null || !a.error().contains("larger than the read window")) return a;
            }
        }
    }

    @Test
    void secondThreadGivesTheSingleThreadedReportOnABusyRnicOfManyBatches(@TempDir Path dir) throws IOException {
        // many batches and a full queue: 16 connections, ~8 MB, more events than the hand-over holds at once
        Path capture = dir.resolve("busy.pcap");
        try (CaptureWriter w = PcapWriter.create(capture, LinkType.ETHERNET, false)) {
            Generator.generate(Scenario.BUSY_RNIC, new Generator.Options(8 << 20, 0, 0, 0, true, 11, 16), w);
        }
        Analysis one = analyze(capture, UlpProfile.NONE, 1);
        Analysis two = analyze(capture, UlpProfile.NONE, 2);
        assertThat(one.pdus()).as("several batches of 1024 events").isGreaterThan(4 * 1024L);
        assertThat(two).isEqualTo(one);
    }

    @Test
    void onlyFilesReadInFreshWindowsAreSplitOverTwoThreads(@TempDir Path dir) throws IOException {
        // the second thread reads FPDU views after the reader moved on: only sources that never reuse a buffer
        Path plain = dir.resolve("c.pcap"), gz = dir.resolve("c.pcap.gz");
        try (CaptureWriter w = PcapWriter.create(plain, LinkType.ETHERNET, false)) {
            Generator.generate(Scenario.RPING, new Generator.Options(0, 2, 0, 0, false, 1), w);
        }
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(plain, out);
        }
        try (CaptureReader r = CaptureReaders.open(plain)) {
            assertThat(r.stableViews()).isTrue();
        }
        try (CaptureReader r = CaptureReaders.open(gz)) {
            assertThat(r.stableViews()).isFalse();
        }
        assertThat(analyze(gz, UlpProfile.RPING, 2)).isEqualTo(analyze(plain, UlpProfile.RPING, 1));
    }

    private static Analysis analyze(Path capture, UlpProfile profile, int threads) throws IOException {
        try (CaptureReader reader = CaptureReaders.open(capture)) {
            return new Analyzer(AnalysisLimits.defaults(), StagRegistry.empty(), profile).threads(threads)
                    .run(reader, () -> { });
        }
    }
}
