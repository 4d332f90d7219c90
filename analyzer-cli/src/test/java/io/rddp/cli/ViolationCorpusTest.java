package io.rddp.cli;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.sink.Severity;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * pcaps/violations/NAME.pcap breaks one rule; NAME.expected lists, one per line, "severity check-id frame" of every
 * warning and error the analysis must report: exactly those, no more (info lines are not listed). The captures are
 * also checked to be exactly what {@link ViolationCorpus} builds, so the corpus can always be regenerated.
 */
class ViolationCorpusTest {

    @TestFactory
    Stream<DynamicTest> everyCorpusCaptureHasExactlyItsExpectedViolations() throws Exception {
        if (Boolean.getBoolean("rddp.updateCorpus")) ViolationCorpus.writeAll();
        return ViolationCorpus.CASES.keySet().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            Path pcap = ViolationCorpus.dir().resolve(name + ".pcap");
            assertThat(Files.readAllBytes(pcap)).as("%s is what ViolationCorpus builds", pcap).isEqualTo(ViolationCorpus.build(name));
            Analysis a;
            try (CaptureReader r = CaptureReaders.open(pcap)) {
                a = new Analyzer(SinkModel.Options.defaults(), StagRegistry.empty()).run(r, () -> { });
            }
            List<String> actual = a.violations().stream().filter(v -> v.severity().atLeast(Severity.WARNING))
                    .map(v -> v.severity().name().toLowerCase() + " " + v.id() + " " + v.frame()).toList();
            Path expected = ViolationCorpus.dir().resolve(ViolationCorpus.expectedFile(name));
            if (Boolean.getBoolean("rddp.updateCorpus") && !Files.exists(expected)) {
                Files.write(expected, actual); // first version only: review it by hand before committing
            }
            List<String> want = Files.readAllLines(expected).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
            assertThat(actual).as("violations of %s", name).containsExactlyInAnyOrderElementsOf(want);
            assertThat(want).as("the corpus case breaks something").isNotEmpty();
        }));
    }
}
