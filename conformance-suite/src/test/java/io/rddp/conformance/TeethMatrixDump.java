package io.rddp.conformance;

import io.rddp.testing.RepoPaths;
import io.rddp.rnic.Bug;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * While iterating on knobs and scenarios: {@code -Drddp.teeth.dump=FILE} writes which scenarios each knob fails (TSV:
 * knob, scenario, verdict, neg/pos, ms, observed, first note); {@code -Drddp.teeth.knobs=a,b} runs only those;
 * {@code -Drddp.teeth.write=true} (with every knob) also writes each scenario's {@code catches:} line from what
 * failed it, for review in the diff.
 */
@EnabledIfSystemProperty(named = "rddp.teeth.dump", matches = ".+")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class TeethMatrixDump {

    @Test
    void dump() throws Exception {
        List<Bug> knobs = new ArrayList<>();
        String only = System.getProperty("rddp.teeth.knobs", "");
        for (Bug b : Bug.values()) if (only.isBlank() || Arrays.asList(only.split(",")).contains(b.knob())) knobs.add(b);
        List<Scenario> scenarios = PeerSuiteTest.scenarios();
        long t0 = System.nanoTime();
        Map<Bug, List<Result>> m = KnobRuns.run(knobs, scenarios, TeethTest.FAST, TeethTest.THREADS,
                TeethTest.SHARD);
        StringBuilder sb = new StringBuilder();
        Map<String, Set<String>> failedBy = new TreeMap<>();
        for (Map.Entry<Bug, List<Result>> e : m.entrySet()) {
            for (Result r : e.getValue()) {
                if (r.verdict() == Result.Verdict.FAIL) {
                    failedBy.computeIfAbsent(r.id(), x -> new TreeSet<>()).add(e.getKey().knob());
                }
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
        if (Boolean.getBoolean("rddp.teeth.write") && only.isBlank()) writeCatches(failedBy);
    }

    private static final Pattern ID = Pattern.compile("^- id: (\\S+)\\s*$");

    /** "  catches: [a, b, ...]" in lines of at most 118 characters, the later ones indented by four. */
    static List<String> wrapped(List<String> knobs) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder("  catches: [");
        for (int i = 0; i < knobs.size(); i++) {
            String item = knobs.get(i) + (i + 1 < knobs.size() ? "," : "]");
            if (line.length() + 1 + item.length() > 118 && !line.toString().endsWith("[")) {
                lines.add(line.toString());
                line = new StringBuilder("    ");
            } else if (!line.toString().endsWith("[")) {
                line.append(' ');
            }
            line.append(item);
        }
        lines.add(line.toString());
        return lines;
    }

    /** Puts {@code catches: [...]} before each scenario's requires (replacing the one it had). */
    private static void writeCatches(Map<String, Set<String>> failedBy) throws Exception {
        Path dir = RepoPaths.root().resolve(
                "conformance-suite/src/main/resources/io/rddp/conformance/scenarios");
        for (String file : Catalog.index()) {
            Path f = dir.resolve(file);
            List<String> out = new ArrayList<>();
            String id = null;
            boolean inCatches = false;
            for (String line : Files.readAllLines(f)) {
                Matcher mi = ID.matcher(line);
                if (mi.matches()) id = mi.group(1);
                if (line.startsWith("  catches:")) {
                    inCatches = !line.endsWith("]");
                    continue;
                }
                if (inCatches) {
                    inCatches = !line.endsWith("]");
                    continue;
                }
                if (id != null && line.startsWith("  requires:")) {
                    Set<String> ks = failedBy.getOrDefault(id, Set.of());
                    if (!ks.isEmpty()) out.addAll(wrapped(new ArrayList<>(ks)));
                }
                out.add(line);
            }
            Files.write(f, out);
        }
    }
}
