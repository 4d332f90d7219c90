package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rddp.rnic.Bug;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An honest catalogue: a scenario lists a requirement in {@code requires} only where a knob in its {@code catches}
 * breaks that requirement, so that each mapping is backed by a wrong DUT that breaks the rule and fails the scenario
 * (TeethTest proves the failing half). Which requirements each knob breaks is {@code knobs.yaml}, judged from the
 * knob's effect in the emulated RNIC; the tester never reads it. Needs no knob run.
 */
class KnobBackingTest {

    /** knob name to the requirement ids (or {@code prefix.*} patterns) it breaks, as written. */
    static Map<String, List<String>> knobs() throws IOException {
        try (InputStream in = KnobBackingTest.class.getResourceAsStream("knobs.yaml")) {
            assertThat(in).as("knobs.yaml on the test classpath").isNotNull();
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(in);
            Map<String, List<String>> out = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                List<String> ids = new ArrayList<>();
                assertThat(e.getValue().isArray()).as("knobs.yaml: " + e.getKey() + " is a list of ids").isTrue();
                e.getValue().forEach(v -> ids.add(v.asText()));
                out.put(e.getKey(), ids);
            }
            return out;
        }
    }

    /** The ids {@code entry} names: itself, or every id with the prefix of a {@code prefix.*} pattern. */
    private static Set<String> expand(String entry, Set<String> ids) {
        if (!entry.endsWith(".*")) return ids.contains(entry) ? Set.of(entry) : Set.of();
        String prefix = entry.substring(0, entry.length() - 1);
        Set<String> out = new TreeSet<>();
        for (String id : ids) if (id.startsWith(prefix)) out.add(id);
        return out;
    }

    /** knob name to the requirement ids it breaks, patterns expanded. */
    static Map<String, Set<String>> broken(Catalog catalog) throws IOException {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : knobs().entrySet()) {
            Set<String> ids = new LinkedHashSet<>();
            for (String entry : e.getValue()) ids.addAll(expand(entry, catalog.requirements().keySet()));
            out.put(e.getKey(), ids);
        }
        return out;
    }

    @Test
    void everyKnobHasAnEntryAndEveryEntryNamesKnownRequirements() throws IOException {
        Map<String, List<String>> knobs = knobs();
        Set<String> ids = Catalog.load().requirements().keySet();
        Set<String> names = new TreeSet<>();
        for (Bug b : Bug.values()) names.add(b.knob());
        assertThat(new TreeSet<>(knobs.keySet())).as("knobs.yaml has an entry for every knob of io.rddp.rnic.Bug and"
                + " no other").isEqualTo(names);
        List<String> unknown = new ArrayList<>(), duplicate = new ArrayList<>(), empty = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : knobs.entrySet()) {
            if (e.getValue().isEmpty()) empty.add(e.getKey());
            Set<String> seen = new TreeSet<>();
            for (String entry : e.getValue()) {
                if (expand(entry, ids).isEmpty()) unknown.add(e.getKey() + ": " + entry);
                if (!seen.add(entry)) duplicate.add(e.getKey() + ": " + entry);
            }
        }
        assertThat(unknown).as("knobs.yaml ids (or prefix.* patterns) that match no requirement of"
                + " requirements.yaml").isEmpty();
        assertThat(duplicate).as("knobs.yaml ids listed twice for a knob").isEmpty();
        assertThat(empty).as("knobs that break no requirement").isEmpty();
    }

    @Test
    void everyRequirementAScenarioProvesIsBrokenByAKnobThatFailsIt() throws IOException {
        Catalog catalog = Catalog.load();
        Map<String, Set<String>> broken = broken(catalog);
        List<String> unbacked = new ArrayList<>();
        for (Scenario s : catalog.scenarios()) {
            ScenarioInfo info = s.info();
            for (Requirement q : info.requirements()) {
                boolean backed = false;
                for (String k : info.catches()) backed |= broken.getOrDefault(k, Set.of()).contains(q.id());
                if (!backed) unbacked.add(info.id() + " requires " + q.id() + ", broken by none of its catches "
                        + info.catches());
            }
        }
        assertThat(unbacked).as("requirements a scenario lists in requires that no knob in its catches breaks"
                + " (knobs.yaml): add the id to a knob that really breaks it, move it to partly saying what is"
                + " missing, or give the RNIC the knob that breaks it").isEmpty();
    }
}
