package io.rddp.rnic;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.sink.Violation;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Analyses a recorded pcapng as `rddp analyze` does. */
final class Recordings {
    private Recordings() {
    }

    static Analysis analyze(Path pcap) throws Exception {
        try (CaptureReader r = CaptureReaders.open(pcap)) {
            return new Analyzer(SinkModel.Options.defaults(), StagRegistry.empty()).run(r, () -> { });
        }
    }

    static List<String> ids(Analysis a, io.rddp.sink.Severity atLeast) {
        return a.violations().stream().filter(v -> v.severity().atLeast(atLeast)).map(Violation::id).distinct()
                .collect(Collectors.toList());
    }

    static String dump(Analysis a) {
        StringBuilder sb = new StringBuilder();
        a.violations().forEach(v -> sb.append(v).append('\n'));
        a.notices().forEach(n -> sb.append(n).append('\n'));
        if (a.error() != null) sb.append("error: ").append(a.error());
        return sb.toString();
    }
}
