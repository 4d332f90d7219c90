package io.rddp.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which requirements a run proved. A requirement is covered by a run only when a scenario that proves it (lists it
 * wholly in {@code requires}) ran to a verdict, pass or fail, in that run; the catalogue's ceiling is the share that
 * has such a scenario at all. Figures count the wire-observable MUSTs (MUST and MUST NOT) in scope.
 */
public final class Coverage {

    public enum Status {
        /** every scenario proving it that ran passed */
        PASSED("passed"),
        /** a scenario proving it failed */
        FAILED("failed"),
        /** scenarios prove it, none ran to a verdict here */
        NOT_RUN("not run"),
        /** no scenario proves it */
        NO_SCENARIO("no scenario");

        private final String text;

        Status(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /**
     * One requirement in this run.
     *
     * @param requirement the statement
     * @param status      what this run showed
     * @param ran         the results that ran to a verdict and prove it
     * @param notRun      the others that prove it, with why they did not run (skip or error), by scenario id
     * @param partly      scenarios that prove it in part, with what they leave out, by scenario id
     */
    public record Row(Requirement requirement, Status status, List<Result> ran, Map<String, String> notRun,
                      Map<String, String> partly) {
    }

    private final Map<String, Row> rows;
    private final int musts;
    private final int mustsWithScenario;
    private final int mustsRun;
    private final List<Requirement> outOfScope;

    private Coverage(Map<String, Row> rows, int musts, int withScenario, int run, List<Requirement> outOfScope) {
        this.rows = rows;
        this.musts = musts;
        this.mustsWithScenario = withScenario;
        this.mustsRun = run;
        this.outOfScope = outOfScope;
    }

    /** The coverage of {@code results}, a run of scenarios of {@code catalog}. */
    public static Coverage of(Catalog catalog, List<Result> results) {
        Map<String, Result> byId = new LinkedHashMap<>();
        for (Result r : results) byId.put(r.id(), r);
        Map<String, Row> rows = new LinkedHashMap<>();
        List<Requirement> out = new ArrayList<>();
        int musts = 0, withScenario = 0, run = 0;
        for (Requirement q : catalog.requirements().values()) {
            if (catalog.outOfScope(q.id()) != null) {
                if (q.mandatory()) out.add(q);
                continue;
            }
            if (!catalog.observable(q.id())) continue;
            List<Result> ran = new ArrayList<>();
            Map<String, String> notRun = new LinkedHashMap<>(), partly = new LinkedHashMap<>();
            boolean proven = false, failed = false;
            for (Scenario s : catalog.scenarios()) {
                ScenarioInfo info = s.info();
                String leaves = info.partly().get(q);
                if (leaves != null) partly.put(info.id(), leaves);
                if (!info.requirements().contains(q)) continue;
                proven = true;
                Result r = byId.get(info.id());
                if (r == null) {
                    notRun.put(info.id(), "not selected in this run");
                } else if (r.verdict() == Result.Verdict.PASS || r.verdict() == Result.Verdict.FAIL) {
                    ran.add(r);
                    failed |= r.verdict() == Result.Verdict.FAIL;
                } else {
                    notRun.put(info.id(), r.verdictText() + ": " + (r.verdict() == Result.Verdict.SKIP ? r.observed()
                            : r.notes().isEmpty() ? "" : r.notes().get(0)));
                }
            }
            Status st = !proven ? Status.NO_SCENARIO : ran.isEmpty() ? Status.NOT_RUN
                    : failed ? Status.FAILED : Status.PASSED;
            rows.put(q.id(), new Row(q, st, ran, notRun, partly));
            if (q.mandatory()) {
                musts++;
                if (proven) withScenario++;
                if (!ran.isEmpty()) run++;
            }
        }
        return new Coverage(rows, musts, withScenario, run, out);
    }

    /** Every wire-observable requirement in scope, in catalogue order. */
    public Map<String, Row> rows() {
        return rows;
    }

    /** Share of the wire-observable MUSTs in scope that a scenario ran to a verdict for in this run, in percent. */
    public double runPercent() {
        return musts == 0 ? 0 : 100.0 * mustsRun / musts;
    }

    /** Share of the wire-observable MUSTs in scope that some scenario of the catalogue proves, in percent. */
    public double cataloguePercent() {
        return musts == 0 ? 0 : 100.0 * mustsWithScenario / musts;
    }

    public int musts() {
        return musts;
    }

    public int mustsRun() {
        return mustsRun;
    }

    public int mustsWithScenario() {
        return mustsWithScenario;
    }

    /** MUSTs the suite leaves out on purpose (IPsec: the tester speaks plain TCP). */
    public List<Requirement> outOfScope() {
        return outOfScope;
    }

    /** "this run: 12.4 % of the wire-observable MUSTs (catalogue: 91.8 %); out of scope: 21 IPsec MUSTs". */
    public String headline(Catalog catalog) {
        return String.format(java.util.Locale.ROOT, "this run: %.1f %% of the %d wire-observable MUSTs (catalogue:"
                + " %.1f %%)", runPercent(), musts, cataloguePercent()) + outOfScopeText(catalog);
    }

    private String outOfScopeText(Catalog catalog) {
        if (outOfScope.isEmpty()) return "";
        Map<String, Integer> groups = new LinkedHashMap<>();
        for (Requirement q : outOfScope) groups.merge(catalog.outOfScope(q.id()), 1, Integer::sum);
        StringBuilder sb = new StringBuilder("; out of scope: ");
        int i = 0;
        for (Map.Entry<String, Integer> e : groups.entrySet()) {
            if (i++ > 0) sb.append(", ");
            sb.append(e.getValue()).append(' ').append(e.getKey()).append(" MUSTs");
        }
        return sb.toString();
    }
}
