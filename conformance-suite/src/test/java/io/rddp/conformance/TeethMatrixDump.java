package io.rddp.conformance;

import io.rddp.rnic.Bug;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** While iterating: -Drddp.teeth.dump=FILE writes which scenarios each knob fails (TSV). */
@EnabledIfSystemProperty(named = "rddp.teeth.dump", matches = ".+")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class TeethMatrixDump {

    @Test
    void dump() throws Exception {
        List<Bug> knobs = new ArrayList<>();
        String only = System.getProperty("rddp.teeth.knobs", "");
        for (Bug b : Bug.values()) if (only.isBlank() || Arrays.asList(only.split(",")).contains(b.knob())) knobs.add(b);
        List<Scenario> scenarios = PeerSuiteTest.scenarios().stream()
                .filter(s -> s.info().profiles().contains("agent")).toList();
        int threads = Integer.getInteger("rddp.teeth.threads", 6);
        long t0 = System.nanoTime();
        Map<Bug, List<Result>> m = KnobRuns.run(knobs, scenarios, Timeouts.defaults(), threads, 30);
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Bug, List<Result>> e : m.entrySet()) {
            for (Result r : e.getValue()) {
                sb.append(e.getKey().knob()).append('\t').append(r.id()).append('\t').append(r.verdictText())
                        .append('\t').append(r.info().negative() ? "neg" : "pos").append('\t')
                        .append(r.millis()).append('\t').append(r.observed()).append('\t')
                        .append(r.notes().isEmpty() ? "" : r.notes().get(0).replace('\t', ' ').replace('\n', ' '))
                        .append('\n');
            }
        }
        Files.writeString(Path.of(System.getProperty("rddp.teeth.dump")), sb);
        System.out.println("teeth matrix: " + knobs.size() + " knobs in " + (System.nanoTime() - t0) / 1_000_000
                + " ms");
    }
}
