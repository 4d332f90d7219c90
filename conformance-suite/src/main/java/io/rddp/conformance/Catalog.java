package io.rddp.conformance;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rddp.sink.ErrorType;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scenarios and the requirement catalogue, read from the classpath: {@code requirements.yaml} (every normative
 * statement of RFC 5040, 5041, 5044, 6581 and 7306, with whether a peer can observe it) and the scenario files named
 * in {@code scenarios/INDEX}. A scenario file is a YAML list of declarative scenarios; an entry with {@code java:}
 * names a class for the complex ones.
 */
public final class Catalog {

    private static final String BASE = "/io/rddp/conformance/";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final Set<String> PASSIVE = Set.of("agent", "rping");

    private final Map<String, Requirement> requirements;
    private final Map<String, JsonNode> requirementSpecs;
    private final List<Scenario> scenarios;

    private Catalog(Map<String, Requirement> requirements, Map<String, JsonNode> requirementSpecs,
                    List<Scenario> scenarios) {
        this.requirements = requirements;
        this.requirementSpecs = requirementSpecs;
        this.scenarios = scenarios;
    }

    /** The catalogue bundled with the suite. */
    public static Catalog load() {
        Map<String, Requirement> reqs = new LinkedHashMap<>();
        Map<String, JsonNode> specs = new LinkedHashMap<>();
        JsonNode r = read("requirements.yaml");
        for (JsonNode e : r) {
            Requirement q = new Requirement(e.path("id").asText(), e.path("rfc").asText(), e.path("section").asText(),
                    e.path("level").asText(), e.path("quote").asText());
            if (reqs.put(q.id(), q) != null) throw new IllegalStateException("requirement " + q.id() + " twice");
            specs.put(q.id(), e);
        }
        List<Scenario> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (String file : index()) {
            for (Scenario s : scenarios(file, text("scenarios/" + file), reqs)) {
                if (!ids.add(s.info().id())) {
                    throw new IllegalStateException("scenario id " + s.info().id() + " twice (" + file + ")");
                }
                out.add(s);
            }
        }
        return new Catalog(reqs, specs, out);
    }

    /**
     * The scenarios of one scenario file, checked against the language first: an unknown step or key, or a value of
     * the wrong type, fails with every such problem as {@code file:line: id: what}.
     */
    static List<Scenario> scenarios(String file, String text, Map<String, Requirement> reqs) {
        YamlDocument doc = YamlDocument.parse(file, text);
        if (!doc.tree().isArray()) throw new IllegalStateException(file + ":1: a scenario file is a list of scenarios");
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < doc.tree().size(); i++) {
            JsonNode e = doc.tree().get(i);
            for (Shape.Problem p : ScenarioSchema.check(e, JsonPointer.compile("/" + i))) {
                problems.add(file + ":" + doc.line(p.at()) + ": " + e.path("id").asText("?") + ": " + p.message());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(problems.size() + (problems.size() == 1 ? " problem" : " problems")
                    + " in " + file + ":\n" + String.join("\n", problems));
        }
        List<Scenario> out = new ArrayList<>();
        for (int i = 0; i < doc.tree().size(); i++) {
            out.add(scenario(doc.tree().get(i), reqs, file, doc.line(JsonPointer.compile("/" + i))));
        }
        return out;
    }

    public List<Scenario> scenarios() {
        return scenarios;
    }

    public Map<String, Requirement> requirements() {
        return requirements;
    }

    /** Whether a requirement can be tested from the wire, and why not when it cannot. */
    public boolean observable(String id) {
        JsonNode e = requirementSpecs.get(id);
        return e != null && e.path("observable").asBoolean(false);
    }

    /**
     * The group a requirement belongs to when the suite leaves it out on purpose (e.g. "IPsec": the tester speaks
     * plain TCP), or null when it is in scope.
     */
    public String outOfScope(String id) {
        JsonNode e = requirementSpecs.get(id);
        return e == null || !e.has("out-of-scope") ? null : e.path("out-of-scope").asText();
    }

    public String reason(String id) {
        JsonNode e = requirementSpecs.get(id);
        return e == null ? "" : e.path("reason").asText("");
    }

    static List<String> index() {
        List<String> files = new ArrayList<>();
        try (InputStream in = Catalog.class.getResourceAsStream(BASE + "scenarios/INDEX")) {
            if (in == null) throw new IllegalStateException("scenarios/INDEX is missing from the classpath");
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                line = line.trim();
                if (!line.isEmpty() && !line.startsWith("#")) files.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static JsonNode read(String name) {
        try {
            return YAML.readTree(text(name));
        } catch (IOException e) {
            throw new IllegalStateException(name + ": " + e.getMessage(), e);
        }
    }

    private static String text(String name) {
        try (InputStream in = Catalog.class.getResourceAsStream(BASE + name)) {
            if (in == null) throw new IllegalStateException(name + " is missing from the classpath");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A checked entry of {@code file}, starting at {@code line}, as a scenario. */
    static Scenario scenario(JsonNode e, Map<String, Requirement> reqs, String file, int line) {
        String id = e.path("id").asText();
        String where = file + ":" + line;
        if (id.isEmpty()) throw new IllegalStateException(where + ": a scenario without an id");
        List<Requirement> rs = new ArrayList<>();
        for (JsonNode r : e.path("requires")) {
            Requirement q = reqs.get(r.asText());
            if (q == null) throw new IllegalStateException(where + ": " + id + " requires unknown " + r.asText());
            rs.add(q);
        }
        Map<Requirement, String> partly = new LinkedHashMap<>();
        var pit = e.path("partly").fields();
        while (pit.hasNext()) {
            var p = pit.next();
            Requirement q = reqs.get(p.getKey());
            if (q == null) throw new IllegalStateException(where + ": " + id + " partly proves unknown " + p.getKey());
            if (rs.contains(q)) {
                throw new IllegalStateException(where + ": " + id + " lists " + q.id() + " in requires and partly");
            }
            if (p.getValue().asText().isBlank()) {
                throw new IllegalStateException(where + ": " + id + ": partly " + q.id() + " must say what it leaves"
                        + " out");
            }
            partly.put(q, p.getValue().asText());
        }
        if (rs.isEmpty() && partly.isEmpty()) {
            throw new IllegalStateException(where + ": " + id + " proves no requirement");
        }
        List<String> catches = new ArrayList<>();
        e.path("catches").forEach(k -> catches.add(k.asText()));
        Set<String> needs = new HashSet<>();
        e.path("needs").forEach(n -> needs.add(n.asText()));
        Set<String> profiles = new HashSet<>();
        e.path("profiles").forEach(n -> profiles.add(n.asText()));
        if (profiles.isEmpty()) profiles.addAll(PASSIVE);
        List<Reaction> expected = new ArrayList<>();
        for (JsonNode x : e.path("expect")) expected.add(reaction(x, id, where));
        boolean negative = e.path("negative").asBoolean(!expected.isEmpty());
        ScenarioInfo info = new ScenarioInfo(id, e.path("title").asText(id), rs, needs, profiles, expected, negative,
                file, partly, catches, Alone.why(e));
        if (e.has("java")) {
            try {
                Class<?> k = Class.forName(e.path("java").asText());
                return (Scenario) k.getConstructor(ScenarioInfo.class, JsonNode.class).newInstance(info, e);
            } catch (ReflectiveOperationException ex) {
                throw new IllegalStateException(where + ": " + id + ": cannot load " + e.path("java").asText() + ": "
                        + ex);
            }
        }
        return new DeclarativeScenario(info, e);
    }

    static Reaction reaction(JsonNode x, String id, String where) {
        Reaction.Grade g = x.path("grade").asText("strict").equals("lenient") ? Reaction.Grade.LENIENT
                : Reaction.Grade.STRICT;
        String reason = x.path("reason").asText("");
        if (reason.isEmpty()) throw new IllegalStateException(where + ": " + id + ": every reaction needs a reason");
        if (x.has("terminate")) {
            String[] p = x.path("terminate").asText().split("/");
            if (p.length != 3) throw new IllegalStateException(where + ": " + id + ": terminate is L/E/C, e.g. 1/2/3");
            int code = p[2].equals("*") ? -1 : Integer.decode(p[2]);
            int layer = Integer.parseInt(p[0]), etype = Integer.parseInt(p[1]);
            if (code >= 0 && !new ErrorType(layer, etype, code).isDefined()) {
                throw new IllegalStateException(where + ": " + id + ": " + x.path("terminate").asText()
                        + " is not in the RFC tables");
            }
            return new Reaction(Reaction.Kind.TERMINATE, layer, etype, code, g, reason);
        }
        if (x.has("close")) {
            // close: silent -- nothing at all after the tester's start frame (MPA scenarios)
            return new Reaction("silent".equals(x.path("close").asText()) ? Reaction.Kind.SILENT_CLOSE
                    : Reaction.Kind.CLOSE, 0, 0, 0, g, reason);
        }
        if (x.has("reject")) return new Reaction(Reaction.Kind.REJECT, 0, 0, 0, g, reason);
        if (x.has("continue")) return new Reaction(Reaction.Kind.CONTINUE, 0, 0, 0, g, reason);
        if (x.has("rpc")) {
            RpcReaction r = RpcReaction.byWireName(x.path("rpc").asText());
            if (r == null) throw new IllegalStateException(where + ": " + id + ": rpc: " + x.path("rpc").asText()
                    + " is no RPC-over-RDMA reaction");
            return Reaction.rpc(r, g, reason);
        }
        throw new IllegalStateException(where + ": " + id + ": a reaction is terminate, close, reject, continue or"
                + " rpc");
    }
}
