package io.rddp.report;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * JUnit XML as Jenkins, GitLab and other CI systems read it, for every report rddp writes ({@code rddp analyze
 * --format junit}, conform's junit.xml): the elements, their attributes and how values are written (times in
 * seconds with three decimals, characters XML 1.0 cannot carry replaced) are decided here once. The layout (line
 * breaks, indentation) is the caller's, through {@link #space}, so each report keeps the shape CI logs already show.
 * Errors of the underlying stream come out as {@link IOException}.
 */
public final class JunitXmlWriter {

    private final XMLStreamWriter x;

    private JunitXmlWriter(XMLStreamWriter x) {
        this.x = x;
    }

    /** UTF-8 to {@code os}, which is not closed. */
    public static JunitXmlWriter to(OutputStream os) throws IOException {
        try {
            return new JunitXmlWriter(XMLOutputFactory.newFactory().createXMLStreamWriter(os, "UTF-8"));
        } catch (XMLStreamException e) {
            throw new IOException(e);
        }
    }

    /** Characters to {@code w} (declared as UTF-8), which is not closed. */
    public static JunitXmlWriter to(Writer w) throws IOException {
        try {
            return new JunitXmlWriter(XMLOutputFactory.newFactory().createXMLStreamWriter(w));
        } catch (XMLStreamException e) {
            throw new IOException(e);
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws XMLStreamException;
    }

    private JunitXmlWriter io(Step s) throws IOException {
        try {
            s.run();
        } catch (XMLStreamException e) {
            throw new IOException("JUnit XML: " + e.getMessage(), e);
        }
        return this;
    }

    /** The XML declaration and a line break. */
    public JunitXmlWriter startDocument() throws IOException {
        return io(() -> {
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
        });
    }

    /** Line breaks and indentation between elements: the caller's layout. */
    public JunitXmlWriter space(String whitespace) throws IOException {
        return io(() -> x.writeCharacters(whitespace));
    }

    /** {@code <testsuites>} with its totals, or with none when {@code totals} is null. */
    public JunitXmlWriter startSuites(JunitTotals totals) throws IOException {
        return io(() -> {
            x.writeStartElement("testsuites");
            if (totals != null) totals(totals);
        });
    }

    /** {@code <testsuite>} with its totals and, when not null, its {@code timestamp} (ISO 8601 without zone). */
    public JunitXmlWriter startSuite(JunitTotals totals, String timestamp) throws IOException {
        return io(() -> {
            x.writeStartElement("testsuite");
            totals(totals);
            if (timestamp != null) x.writeAttribute("timestamp", timestamp);
        });
    }

    private void totals(JunitTotals t) throws XMLStreamException {
        x.writeAttribute("name", clean(t.name()));
        x.writeAttribute("tests", Long.toString(t.tests()));
        x.writeAttribute("failures", Long.toString(t.failures()));
        x.writeAttribute("errors", Long.toString(t.errors()));
        x.writeAttribute("skipped", Long.toString(t.skipped()));
        if (t.millis() != null) x.writeAttribute("time", seconds(t.millis()));
    }

    /** {@code <properties>}: each name and value, in order, as a {@code <property>} after {@code before} (whitespace). */
    public JunitXmlWriter properties(List<Map.Entry<String, String>> properties, String before) throws IOException {
        return io(() -> {
            x.writeStartElement("properties");
            for (Map.Entry<String, String> p : properties) {
                x.writeCharacters(before);
                x.writeEmptyElement("property");
                x.writeAttribute("name", clean(p.getKey()));
                x.writeAttribute("value", clean(p.getValue()));
            }
            x.writeEndElement();
        });
    }

    /** One {@code <testcase>}, on one line: its outcome, then its output. */
    public JunitXmlWriter testcase(JunitCase c) throws IOException {
        return io(() -> {
            x.writeStartElement("testcase");
            x.writeAttribute("classname", clean(c.classname()));
            x.writeAttribute("name", clean(c.name()));
            if (c.millis() != null) x.writeAttribute("time", seconds(c.millis()));
            JunitOutcome o = c.outcome();
            if (o != null) {
                // skipped has no content and is written empty; failure and error are written open and closed
                if (o.kind() == JunitOutcome.Kind.SKIPPED) x.writeEmptyElement(o.kind().element);
                else x.writeStartElement(o.kind().element);
                x.writeAttribute("message", clean(o.message()));
                if (o.type() != null) x.writeAttribute("type", clean(o.type()));
                if (o.kind() != JunitOutcome.Kind.SKIPPED) {
                    if (o.text() != null) x.writeCharacters(clean(o.text()));
                    x.writeEndElement();
                }
            }
            if (c.systemOut() != null) {
                x.writeStartElement("system-out");
                x.writeCharacters(clean(c.systemOut()));
                x.writeEndElement();
            }
            x.writeEndElement();
        });
    }

    /** Closes the innermost open {@code <testsuites>} or {@code <testsuite>}. */
    public JunitXmlWriter end() throws IOException {
        return io(x::writeEndElement);
    }

    /** Ends the document and flushes; the target stays open. */
    public void finish() throws IOException {
        io(() -> {
            x.writeEndDocument();
            x.flush();
        });
    }

    static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.3f", ms / 1000.0);
    }

    /** Characters XML 1.0 cannot carry (control characters from a peer's bytes) become spaces; null becomes "". */
    public static String clean(String s) {
        if (s == null) return "";
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            boolean ok = ch == '\n' || ch == '\t' || ch == '\r' || ch >= 0x20 && ch < 0xFFFE
                    && !(Character.isSurrogate(ch) && !validSurrogate(s, i));
            if (!ok && sb == null) sb = new StringBuilder(s.length()).append(s, 0, i);
            if (sb != null) sb.append(ok ? ch : ' ');
        }
        return sb == null ? s : sb.toString();
    }

    private static boolean validSurrogate(String s, int i) {
        char ch = s.charAt(i);
        if (Character.isHighSurrogate(ch)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
