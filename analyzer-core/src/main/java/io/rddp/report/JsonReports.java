package io.rddp.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * How every JSON report of rddp is written ({@code rddp analyze --format json}, {@code rddp stats --format json},
 * conform's report.json and baselines): Jackson's streaming generator, fields in the order written, indented by
 * Jackson's default pretty printer (two spaces, {@code "key" : value}). Streaming rather than a tree: a capture's
 * report is written as it is walked, and one convention serves reports to files and to strings alike.
 */
public final class JsonReports {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    /** The body of a report: writes its values to the generator. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator j) throws IOException;
    }

    private JsonReports() {
    }

    /** The report to {@code os} in UTF-8, then a line break; {@code os} stays open. */
    public static void write(OutputStream os, Body body) throws IOException {
        try (JsonGenerator j = FACTORY.createGenerator(os, JsonEncoding.UTF8)) {
            j.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            j.setPrettyPrinter(new DefaultPrettyPrinter());
            body.write(j);
            j.writeRaw('\n');
        }
    }

    /** The report as a string, without a final line break. */
    public static String render(Body body) {
        StringWriter sw = new StringWriter();
        try (JsonGenerator j = FACTORY.createGenerator(sw)) {
            j.setPrettyPrinter(new DefaultPrettyPrinter());
            body.write(j);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail; the body's own errors are bugs
        }
        return sw.toString();
    }
}
