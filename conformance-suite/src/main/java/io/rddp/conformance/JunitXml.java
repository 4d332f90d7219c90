package io.rddp.conformance;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;
import java.util.Locale;

/**
 * {@code junit.xml} as Jenkins, GitLab and other CI systems read it (one {@code <testsuite>} in
 * {@code <testsuites>}), carrying the gate's decisions: a scenario that fails the gate is a {@code <failure>} (a
 * regression says what the baseline had), a waived one is {@code <skipped>} with the waiver's reason (what those
 * systems read as not failed), a scenario the suite could not judge is an {@code <error>}.
 */
final class JunitXml {

    private JunitXml() {
    }

    static String render(Report rep) {
        StringWriter sw = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
            w.writeStartDocument("UTF-8", "1.0");
            w.writeCharacters("\n");
            int failures = 0, errors = 0, skipped = 0;
            long ms = 0;
            for (Gate.Line l : rep.gate().lines()) {
                switch (kind(l)) {
                    case "failure" -> failures++;
                    case "error" -> errors++;
                    case "skipped" -> skipped++;
                    default -> {
                    }
                }
                ms += l.result().millis();
            }
            String name = "rddp conform (" + rep.run().profile() + ")";
            w.writeStartElement("testsuites");
            counts(w, name, rep.gate().lines().size(), failures, errors, skipped, ms);
            w.writeCharacters("\n  ");
            w.writeStartElement("testsuite");
            counts(w, name, rep.gate().lines().size(), failures, errors, skipped, ms);
            w.writeAttribute("timestamp", rep.run().started().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                    .toString().replace("Z", ""));
            w.writeCharacters("\n    ");
            w.writeStartElement("properties");
            property(w, "dut", rep.run().dut());
            rep.run().options().forEach((k, v) -> property(w, k, v));
            property(w, "summary", rep.tally().text());
            property(w, "coverage", rep.coverage().headline(rep.catalog()));
            property(w, "exit", Integer.toString(rep.gate().exitCode()));
            w.writeEndElement();
            for (Gate.Line l : rep.gate().lines()) testcase(w, l);
            w.writeCharacters("\n  ");
            w.writeEndElement();
            w.writeCharacters("\n");
            w.writeEndElement();
            w.writeCharacters("\n");
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("junit.xml: " + e.getMessage(), e);
        }
        return sw.toString();
    }

    /** failure, error, skipped or passed: how a CI system is to read the line. */
    static String kind(Gate.Line l) {
        if (l.failing()) return "failure";
        return switch (l.status()) {
            case ERROR -> "error";
            case SKIPPED, WAIVED -> "skipped";
            default -> "passed";
        };
    }

    private static void counts(XMLStreamWriter w, String name, int tests, int failures, int errors, int skipped,
                               long ms) throws XMLStreamException {
        w.writeAttribute("name", name);
        w.writeAttribute("tests", Integer.toString(tests));
        w.writeAttribute("failures", Integer.toString(failures));
        w.writeAttribute("errors", Integer.toString(errors));
        w.writeAttribute("skipped", Integer.toString(skipped));
        w.writeAttribute("time", seconds(ms));
    }

    private static void property(XMLStreamWriter w, String name, String value) {
        try {
            w.writeCharacters("\n      ");
            w.writeEmptyElement("property");
            w.writeAttribute("name", name);
            w.writeAttribute("value", clean(value));
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void testcase(XMLStreamWriter w, Gate.Line l) throws XMLStreamException {
        Result r = l.result();
        w.writeCharacters("\n    ");
        w.writeStartElement("testcase");
        String cls = r.id().contains(".") ? r.id().substring(0, r.id().lastIndexOf('.')) : r.id();
        w.writeAttribute("classname", cls);
        w.writeAttribute("name", r.id());
        w.writeAttribute("time", seconds(r.millis()));
        String detail = detail(l);
        switch (kind(l)) {
            case "failure" -> {
                w.writeStartElement("failure");
                w.writeAttribute("message", clean(headline(l)));
                w.writeAttribute("type", l.status().wireName());
                w.writeCharacters(clean(detail));
                w.writeEndElement();
            }
            case "error" -> {
                w.writeStartElement("error");
                w.writeAttribute("message", clean(r.notes().isEmpty() ? "the suite could not judge it"
                        : r.notes().get(0)));
                w.writeAttribute("type", "suite-error");
                w.writeCharacters(clean(detail));
                w.writeEndElement();
            }
            case "skipped" -> {
                w.writeEmptyElement("skipped");
                w.writeAttribute("message", clean(l.status() == Gate.Status.WAIVED
                        ? "waived (" + r.verdictText() + "): " + l.why()
                        : r.grade().wireName() + ": " + r.observed()));
            }
            default -> {
            }
        }
        w.writeStartElement("system-out");
        w.writeCharacters(clean(r.verdictText() + "\n" + detail));
        w.writeEndElement();
        w.writeEndElement();
    }

    /** The one-line message of a failing line. */
    private static String headline(Gate.Line l) {
        Result r = l.result();
        return switch (l.status()) {
            case REGRESSION -> "regression: " + l.why() + ": " + r.observed();
            case IMPROVEMENT -> "improvement over a stale baseline: " + l.why();
            default -> (l.why() != null ? l.why() + ": " : "") + r.observed();
        };
    }

    private static String detail(Gate.Line l) {
        Result r = l.result();
        StringBuilder sb = new StringBuilder();
        sb.append("gate: ").append(l.status().wireName());
        if (l.baseline() != null) sb.append(" (baseline: ").append(l.baseline()).append(')');
        if (l.why() != null) sb.append(": ").append(l.why());
        sb.append("\nexpected: ").append(r.info().expectedText()).append("\nobserved: ").append(r.observed());
        for (String n : r.notes()) sb.append('\n').append(n);
        if (!r.findings().isEmpty()) sb.append("\nfindings:\n").append(String.join("\n", r.findings()));
        java.util.Set<String> injected = new java.util.LinkedHashSet<>();
        for (WireMark m : r.marks()) if (m.kind() == WireMark.Kind.INJECTED) injected.add(m.what());
        for (String i : injected) sb.append("\ninjected: ").append(i);
        for (String c : r.compared()) sb.append("\ncompared: ").append(c);
        if (r.pcap() != null) sb.append("\nrecording: ").append(r.pcap());
        return sb.toString();
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.3f", ms / 1000.0);
    }

    /** Characters XML 1.0 cannot carry (control characters from a DUT's bytes) become spaces. */
    static String clean(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            boolean ok = ch == '\n' || ch == '\t' || ch == '\r' || ch >= 0x20 && ch < 0xFFFE
                    && !(Character.isSurrogate(ch) && !validSurrogate(s, i));
            sb.append(ok ? ch : ' ');
        }
        return sb.toString();
    }

    private static boolean validSurrogate(String s, int i) {
        char ch = s.charAt(i);
        if (Character.isHighSurrogate(ch)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
