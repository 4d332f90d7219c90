package io.rddp.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A baseline is checked when read, and names what is wrong and where; a written one reads back. */
class BaselineTest {

    private static final Set<String> KNOWN = Set.of("ddp.a", "ddp.b");

    @TempDir
    Path tmp;

    private Path file(String text) throws Exception {
        Path f = tmp.resolve("baseline.json");
        Files.writeString(f, text);
        return f;
    }

    private void invalid(String text, String message) throws Exception {
        Path f = file(text);
        assertThatThrownBy(() -> Baseline.read(f, KNOWN)).isInstanceOf(Baseline.Invalid.class)
                .hasMessage(f + message);
    }

    @Test
    void aValidBaselineReadsWithItsWaivers() throws Exception {
        Baseline b = Baseline.read(file("{\"scenarios\": {\"ddp.a\": \"pass\",\n \"ddp.b\": {\"verdict\": \"fail\","
                + " \"reason\": \"answers 1/2/2\"}}}"), KNOWN);
        assertThat(b.entry("ddp.a")).isEqualTo(new Baseline.Entry(Result.Verdict.PASS, null, null));
        assertThat(b.entry("ddp.b").reason()).isEqualTo("answers 1/2/2");
    }

    @Test
    void anUnknownVerdictIsNamedWithItsLineAndColumn() throws Exception {
        invalid("{\"scenarios\": {\n  \"ddp.a\": {\"verdict\": \"passs\"}}}",
                ":2:12: ddp.a: unknown verdict \"passs\" (known: pass, fail, skip, error)");
    }

    @Test
    void anUnknownScenarioIsAnError() throws Exception {
        invalid("{\"scenarios\": {\"ddp.zzz\": \"pass\"}}", ":1:16: unknown scenario \"ddp.zzz\"");
    }

    @Test
    void aValueOfTheWrongTypeIsAnError() throws Exception {
        invalid("{\"scenarios\": {\"ddp.a\": {\"verdict\": 1}}}", ":1:37: ddp.a: \"verdict\" must be a string, not a"
                + " number");
        invalid("{\"scenarios\": [\"ddp.a\"]}", ":1:15: expected \"scenarios\": an object of scenario id to verdict,"
                + " found an array");
    }

    @Test
    void aGradeOfAnotherVerdictIsAnError() throws Exception {
        invalid("{\"scenarios\": {\"ddp.a\": {\"verdict\": \"pass\", \"grade\": \"not-supported\"}}}",
                ":1:25: ddp.a: \"not-supported\" is not a grade of pass (known: strict, lenient, non-strict,"
                        + " informational)");
    }

    @Test
    void aFailureWithoutAReasonIsNotAWaiver() throws Exception {
        invalid("{\"scenarios\": {\"ddp.a\": \"fail\"}}", ":1:25: ddp.a: a fail in a baseline is a waiver and needs its"
                + " \"reason\"");
    }

    @Test
    void anUnknownKeyIsAnError() throws Exception {
        invalid("{\"scenarios\": {\"ddp.a\": {\"verdict\": \"pass\", \"why\": \"x\"}}}", ":1:45: ddp.a: unknown key"
                + " \"why\" (known: verdict, grade, reason)");
        invalid("{\"scenario\": {}}", ":1:2: unknown key \"scenario\" (a baseline has \"scenarios\")");
    }

    @Test
    void aFileThatIsNotJsonSaysWhereWithoutTheParsersInternals() throws Exception {
        Path f = file("verdicts:\n  ddp.a: pass\n");
        assertThatThrownBy(() -> Baseline.read(f, KNOWN)).isInstanceOf(Baseline.Invalid.class)
                .hasMessageStartingWith(f + ":1:")
                .hasMessageContaining("not JSON: Unrecognized token 'verdicts'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("Source:").doesNotContain("\n"));
    }

    @Test
    void aWrittenBaselineRecordsFailuresAsWaiversAndReadsBack() throws Exception {
        Path f = tmp.resolve("written.json");
        int waivers = Baseline.write(f, List.of(GateTest.result("ddp.a", Result.Verdict.PASS, Result.Grade.STRICT),
                GateTest.result("ddp.b", Result.Verdict.FAIL, null)), null);
        assertThat(waivers).isEqualTo(1);
        Baseline b = Baseline.read(f, KNOWN);
        assertThat(b.entry("ddp.a").text()).isEqualTo("pass/strict");
        assertThat(b.entry("ddp.b").reason()).isEqualTo("recorded: observed ddp.b");
    }
}
