package io.rddp.analyze;

import io.rddp.testing.RepoPaths;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.Generator;
import io.rddp.generate.Scenario;
import io.rddp.sink.Severity;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.Violation;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class AnalyzerTest {

    static Path pcaps() {
        return RepoPaths.pcaps();
    }

    static Analysis analyze(Path file) throws IOException {
        try (CaptureReader r = CaptureReaders.open(file)) {
            return new Analyzer(SinkModel.Options.defaults(), StagRegistry.empty()).run(r, () -> { });
        }
    }

    private static List<String> problems(Analysis a) {
        return a.violations().stream().filter(v -> v.severity().atLeast(Severity.WARNING)).map(Violation::toString).toList();
    }

    /**
     * siw's departures from the RFCs in the real captures, and nothing else: in perftest's 2-octet MTU message
     * (ULPDU_Length 20) siw leaves its two PAD octets unzeroed, both ways (RFC 5044 §4.1: the sender MUST zero them).
     */
    private static final Map<String, List<String>> SIW_DEVIATIONS = Map.of(
            "siw-read-bw-lo.pcap", List.of("mpa.pad frame 14 c>s", "mpa.pad frame 15 s>c"),
            "siw-send-bw-lo.pcap", List.of("mpa.pad frame 14 c>s", "mpa.pad frame 15 s>c"),
            "siw-write-bw-lo.pcap", List.of("mpa.pad frame 15 c>s", "mpa.pad frame 16 s>c"));

    /**
     * The real siw captures follow the RFCs except for the known deviations above: no other error and no warning
     * (unknown STags are only "unverifiable").
     */
    @TestFactory
    Stream<DynamicTest> everySiwCaptureAnalyzesCleanButForItsKnownDeviations() throws IOException {
        try (Stream<Path> files = Files.list(pcaps().resolve("siw"))) {
            List<Path> caps = files.sorted().toList();
            assertThat(caps).hasSizeGreaterThanOrEqualTo(9);
            return caps.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
                Analysis a = analyze(f);
                assertThat(a.error()).isNull();
                List<String> found = a.violations().stream().filter(v -> v.severity().atLeast(Severity.WARNING))
                        .map(v -> v.id() + " frame " + v.frame() + " "
                                + (v.direction() == io.rddp.tcp.Direction.CLIENT_TO_SERVER ? "c>s" : "s>c"))
                        .toList();
                assertThat(found).as(problems(a).toString())
                        .containsExactlyElementsOf(SIW_DEVIATIONS.getOrDefault(f.getFileName().toString(), List.of()));
                assertThat(a.pdus()).isPositive();
            }));
        }
    }

    @Test
    void rpingCountsMessagesPerStreamAndOpcode() throws IOException {
        Analysis a = analyze(pcaps().resolve("siw/siw-rping-lo.pcap"));
        assertThat(a.frames()).isEqualTo(90);
        assertThat(a.pdus()).isEqualTo(72);
        assertThat(a.streams()).hasSize(1);
        var c2s = a.streams().get(0).summary().clientToServer();
        // rping -C 10: per round the client sends 2 Sends and 1 Read Response
        assertThat(c2s.messages()).isEqualTo(30);
        assertThat(c2s.bytesPlaced()).isEqualTo(10 * 64);
    }

    @Test
    void theRpingProfileTurnsAdvertisedStagsIntoCheckedOnes() throws IOException {
        Path rping = pcaps().resolve("siw/siw-rping-lo.pcap");
        SinkModel.Options strict = SinkModel.Options.defaults().withStrict(true);
        Analysis without;
        try (CaptureReader r = CaptureReaders.open(rping)) {
            without = new Analyzer(strict, StagRegistry.empty()).run(r, () -> { });
        }
        // strict, with no knowledge: the client's advertised buffers (frames 8 and 12) are unknown STags
        assertThat(without.violations()).extracting(Violation::id).contains("rdmap.remote-access.stag", "ddp.tagged.stag");
        assertThat(without.count(Severity.ERROR)).isPositive();
        Analysis with;
        try (CaptureReader r = CaptureReaders.open(rping)) {
            with = new Analyzer(strict, StagRegistry.empty(), UlpProfile.RPING).run(r, () -> { });
        }
        assertThat(with.violations()).isEmpty();
    }

    @Test
    void aReadBeyondTheRegisteredLengthIsABoundsError() throws IOException {
        // the client's buffer registered one octet shorter than the 64 octets the server reads (frame 9)
        StagRegistry reg = StagRegistry.empty();
        try (CaptureReader r = CaptureReaders.open(pcaps().resolve("siw/siw-rping-lo.pcap"))) {
            reg.add(new io.rddp.sink.StagRegistration(0x2e281c00L, 0x562fd6d96370L, 63,
                    java.util.Set.of(io.rddp.sink.StagRegistration.Access.READ), io.rddp.sink.Side.CLIENT,
                    java.util.Set.of(), 0, Long.MAX_VALUE));
            Analysis a = new Analyzer(SinkModel.Options.defaults(), reg).run(r, () -> { });
            assertThat(a.violations()).extracting(Violation::id).contains("rdmap.remote-access.bounds");
        }
    }

    @Test
    void theTerminateCaptureHasExactlyTheSkippedMsnAndItsTerminateMatches() throws IOException {
        Analysis a = analyze(pcaps().resolve("generated/terminate.pcap"));
        assertThat(a.violations()).filteredOn(v -> v.severity().atLeast(Severity.WARNING))
                .extracting(Violation::id, Violation::frame)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ddp.untagged.msn", 10L));
        assertThat(a.violations().get(0).errorType().triple()).isEqualTo("1/2/3");
    }

    /** What our encoder writes, the model accepts: every scenario but terminate is clean. */
    @ParameterizedTest
    @EnumSource(value = Scenario.class, names = "TERMINATE", mode = EnumSource.Mode.EXCLUDE)
    void everyGeneratedScenarioIsCleanForTheSinkModel(Scenario s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, LinkType.ETHERNET, true)) {
            Generator.generate(s, new Generator.Options(0, 6, 3000, 1460, true, 5), w);
        }
        Path f = Files.createTempFile("scenario", ".pcap");
        try {
            Files.write(f, bytes.toByteArray());
            Analysis a = analyze(f);
            assertThat(problems(a)).isEmpty();
            assertThat(a.messages()).isPositive();
        } finally {
            Files.delete(f);
        }
    }

    @Test
    void aTruncatedCaptureIsAnalysedUpToWhereItBreaksAndSaysWhere() throws IOException {
        byte[] whole = Files.readAllBytes(pcaps().resolve("siw/siw-rping-lo.pcap"));
        Path cut = Files.createTempFile("cut", ".pcap");
        try {
            Files.write(cut, java.util.Arrays.copyOf(whole, whole.length / 2));
            Analysis a = analyze(cut);
            assertThat(a.error()).contains("offset").contains("frame");
            assertThat(a.frames()).isBetween(10L, 89L);
            assertThat(a.pdus()).isPositive();
        } finally {
            Files.delete(cut);
        }
    }
}
