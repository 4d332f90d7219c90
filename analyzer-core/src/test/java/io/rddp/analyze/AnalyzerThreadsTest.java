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
 * With a judge thread ({@link Analyzer#threads} 2) the report is the single-threaded one, event for event: the same
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
    void judgeThreadGivesTheSingleThreadedReportOnEveryBundledCapture(Path capture) throws IOException {
        for (UlpProfile profile : UlpProfile.values()) {
            Analysis one = analyze(capture, profile, 1);
            Analysis two = analyze(capture, profile, 2);
            assertThat(two).as("%s, profile %s", capture, profile).isEqualTo(one);
        }
    }

    @Test
    void judgeThreadGivesTheSingleThreadedReportOnABusyRnicOfManyBatches(@TempDir Path dir) throws IOException {
        // many batches and a full queue: 16 connections, ~4 MB, far more events than JudgeThread holds at once
        Path capture = dir.resolve("busy.pcap");
        try (CaptureWriter w = PcapWriter.create(capture, LinkType.ETHERNET, false)) {
            Generator.generate(Scenario.BUSY_RNIC, new Generator.Options(4 << 20, 0, 0, 0, true, 11, 16), w);
        }
        Analysis one = analyze(capture, UlpProfile.NONE, 1);
        Analysis two = analyze(capture, UlpProfile.NONE, 2);
        assertThat(one.pdus()).isGreaterThan(2L * JudgeThread.BATCH);
        assertThat(two).isEqualTo(one);
    }

    private static Analysis analyze(Path capture, UlpProfile profile, int threads) throws IOException {
        try (CaptureReader reader = CaptureReaders.open(capture)) {
            return new Analyzer(AnalysisLimits.defaults(), StagRegistry.empty(), profile).threads(threads)
                    .run(reader, () -> { });
        }
    }
}
