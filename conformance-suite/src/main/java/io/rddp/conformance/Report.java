package io.rddp.conformance;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The certification report of one run: {@code report.json}, {@code junit.xml} and a self-contained
 * {@code report.html}. All three render the same {@link Gate} decisions, {@link Tally} and {@link Coverage}, so a
 * verdict, a waiver or a coverage figure reads the same in each, and the same as on the console and in the exit code.
 */
public final class Report {

    /**
     * What was run, against what, how.
     *
     * @param dut          one line about the DUT
     * @param profile      agent, rping or rping-client
     * @param suiteVersion rddp's version
     * @param started      when
     * @param options      the run's options as given (profile, capabilities, timeout scale, filters, baseline...)
     */
    public record Run(String dut, String profile, String suiteVersion, Instant started, Map<String, String> options) {
        public Run {
            options = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(options));
        }
    }

    private final Run run;
    private final Catalog catalog;
    private final Gate gate;
    private final Coverage coverage;
    private final Tally tally;

    public Report(Run run, Catalog catalog, Gate gate) {
        this.run = run;
        this.catalog = catalog;
        this.gate = gate;
        this.coverage = Coverage.of(catalog, results());
        this.tally = Tally.of(results());
    }

    public List<Result> results() {
        return gate.lines().stream().map(Gate.Line::result).toList();
    }

    public Run run() {
        return run;
    }

    public Catalog catalog() {
        return catalog;
    }

    public Gate gate() {
        return gate;
    }

    public Coverage coverage() {
        return coverage;
    }

    public Tally tally() {
        return tally;
    }

    /** Writes report.json, junit.xml and report.html into {@code dir}. */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("report.json"), ReportJson.render(this));
        Files.writeString(dir.resolve("junit.xml"), JunitXml.render(this));
        Files.writeString(dir.resolve("report.html"), ReportHtml.render(this, dir));
    }

    /**
     * Checks before the first scenario that the report can be written into {@code dir}: creates it and a file in
     * it. Null when it can, else why not.
     */
    public static String writable(Path dir) {
        try {
            Files.createDirectories(dir.resolve("pcaps"));
            Path probe = Files.createTempFile(dir, ".rddp-write-check", ".tmp");
            Files.delete(probe);
            return null;
        } catch (AccessDeniedException e) {
            return "permission denied: " + e.getFile();
        } catch (IOException | SecurityException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    /** The layer a scenario belongs to, for the report's filter: the first part of its id (mpa, ddp, rdmap...). */
    static String layer(Result r) {
        String id = r.id();
        int dot = id.indexOf('.');
        return dot < 0 ? id : id.substring(0, dot);
    }
}
