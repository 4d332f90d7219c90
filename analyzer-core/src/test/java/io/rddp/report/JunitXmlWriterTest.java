package io.rddp.report;

import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The shared JUnit XML conventions: elements, attributes, times, and characters XML cannot carry. */
class JunitXmlWriterTest {

    @Test
    void writesSuitesCasesOutcomesAndPropertiesInTheCallersLayout() throws Exception {
        StringWriter sw = new StringWriter();
        JunitTotals t = new JunitTotals("s", 3, 1, 0, 1, 1500L);
        JunitXmlWriter.to(sw).startDocument().startSuites(null).space("\n").startSuite(t, "2026-11-26T10:00:00")
                .properties(List.of(Map.entry("k", "v\u0001")), "\n ").space("\n")
                .testcase(new JunitCase("c", "a", 1234L, JunitOutcome.failure("m <&>", "t", "x"), "out"))
                .testcase(new JunitCase("c", "b", null, JunitOutcome.skipped("why"), null))
                .testcase(new JunitCase("c", "e", null, JunitOutcome.error("boom", null, null), null))
                .end().end().finish();
        assertThat(sw.toString()).isEqualTo("""
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites>
                <testsuite name="s" tests="3" failures="1" errors="0" skipped="1" time="1.500" \
                timestamp="2026-11-26T10:00:00"><properties>
                 <property name="k" value="v "/></properties>
                <testcase classname="c" name="a" time="1.234"><failure message="m &lt;&amp;&gt;" type="t">x</failure>\
                <system-out>out</system-out></testcase><testcase classname="c" name="b"><skipped message="why"/>\
                </testcase><testcase classname="c" name="e"><error message="boom"></error></testcase></testsuite>\
                </testsuites>""");
    }

    @Test
    void cleanKeepsWhatXmlCarriesAndBlanksTheRest() {
        assertThat(JunitXmlWriter.clean("a\tb\nc")).isEqualTo("a\tb\nc");
        assertThat(JunitXmlWriter.clean("a\u0000b\uFFFE\uD800")).isEqualTo("a b  ");
        assertThat(JunitXmlWriter.clean("\uD83D\uDE00")).isEqualTo("\uD83D\uDE00");
        assertThat(JunitXmlWriter.clean(null)).isEmpty();
    }
}
