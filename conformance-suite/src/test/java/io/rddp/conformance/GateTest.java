package io.rddp.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** What each verdict means at the CI gate, with and without a baseline, under each policy. */
class GateTest {

    @TempDir
    Path tmp;

    static Result result(String id, Result.Verdict v, Result.Grade g) {
        ScenarioInfo info = new ScenarioInfo(id, id, List.of(new Requirement("r", "RFC 5041", "§7.1", "MUST", "q")),
                Set.of(), Set.of("agent"), List.of(), false, "test", Map.of(), List.of());
        return new Result(info, "agent", v, g, null, "observed " + id, List.of(),
                v == Result.Verdict.ERROR ? List.of("the scenario could not run") : List.of(), null, 7, null);
    }

    private Baseline baseline(String json) throws Exception {
        Path f = tmp.resolve("b.json");
        Files.writeString(f, json);
        return Baseline.read(f, Set.of("a", "b", "c"));
    }

    private static Gate.Line only(Result r, Baseline b, Gate.Policy p) {
        return Gate.decide(List.of(r), b, p).lines().get(0);
    }

    @Test
    void withoutABaselineAFailFailsTheRunAndAnErrorMakesItIncomplete() {
        Gate g = Gate.decide(List.of(result("a", Result.Verdict.PASS, Result.Grade.STRICT),
                result("b", Result.Verdict.SKIP, Result.Grade.NOT_SUPPORTED)), null, Gate.Policy.defaults());
        assertThat(g.exitCode()).isZero();
        assertThat(Gate.decide(List.of(result("a", Result.Verdict.ERROR, null)), null, Gate.Policy.defaults())
                .exitCode()).isEqualTo(2);
        Gate failed = Gate.decide(List.of(result("a", Result.Verdict.FAIL, null), result("b", Result.Verdict.ERROR,
                null)), null, Gate.Policy.defaults());
        assertThat(failed.lines().get(0).status()).isEqualTo(Gate.Status.FAILED);
        assertThat(failed.exitCode()).as("a failure outranks an error").isEqualTo(1);
    }

    @Test
    void strictRefusesLenientAndNonStrictPassesAndFailNonStrictOnlyNonStrictOnes() {
        Gate.Policy strict = new Gate.Policy(true, false, false, false);
        Gate.Policy nonStrict = new Gate.Policy(false, true, false, false);
        Result lenient = result("a", Result.Verdict.PASS, Result.Grade.LENIENT);
        Result should = result("a", Result.Verdict.PASS, Result.Grade.NON_STRICT);
        Result may = result("a", Result.Verdict.PASS, Result.Grade.INFORMATIONAL);
        assertThat(only(lenient, null, Gate.Policy.defaults()).failing()).isFalse();
        assertThat(only(should, null, Gate.Policy.defaults()).failing()).isFalse();
        assertThat(only(lenient, null, strict).failing()).isTrue();
        assertThat(only(should, null, strict).why()).contains("--strict");
        assertThat(only(lenient, null, nonStrict).failing()).isFalse();
        assertThat(only(should, null, nonStrict).failing()).isTrue();
        assertThat(only(should, null, nonStrict).why()).isEqualTo("a SHOULD missed (--fail-non-strict)");
        assertThat(only(may, null, strict).failing()).as("a MAY never fails").isFalse();
    }

    @Test
    void aFailureTheBaselineListsIsWaivedWithItsReason() throws Exception {
        Baseline b = baseline("{\"scenarios\": {\"a\": {\"verdict\": \"fail\", \"reason\": \"answers 1/2/2\"}}}");
        Gate.Line l = only(result("a", Result.Verdict.FAIL, null), b, Gate.Policy.defaults());
        assertThat(l.status()).isEqualTo(Gate.Status.WAIVED);
        assertThat(l.failing()).isFalse();
        assertThat(l.why()).isEqualTo("answers 1/2/2");
        assertThat(l.baseline()).isEqualTo("fail");
        assertThat(Gate.decide(List.of(result("a", Result.Verdict.FAIL, null)), b, Gate.Policy.defaults())
                .exitCode()).isZero();
    }

    @Test
    void aVerdictWorseThanTheBaselineIsARegressionThatSaysWhatTheBaselineHad() throws Exception {
        Baseline b = baseline("{\"scenarios\": {\"a\": {\"verdict\": \"pass\", \"grade\": \"strict\"}}}");
        Gate.Line l = only(result("a", Result.Verdict.PASS, Result.Grade.LENIENT), b, Gate.Policy.defaults());
        assertThat(l.status()).isEqualTo(Gate.Status.REGRESSION);
        assertThat(l.failing()).isTrue();
        assertThat(l.why()).isEqualTo("the baseline has pass/strict, this run pass/lenient");
    }

    @Test
    void aFailureNotInTheBaselineFailsTheRun() throws Exception {
        Baseline b = baseline("{\"scenarios\": {}}");
        Gate.Line l = only(result("c", Result.Verdict.FAIL, null), b, Gate.Policy.defaults());
        assertThat(l.status()).isEqualTo(Gate.Status.FAILED);
        assertThat(l.failing()).isTrue();
        assertThat(l.why()).isEqualTo("not in the baseline");
    }

    @Test
    void anImprovementIsNamedAndFailsOnlyWhenAskedOrExact() throws Exception {
        Baseline b = baseline("{\"scenarios\": {\"a\": {\"verdict\": \"fail\", \"reason\": \"known\"}}}");
        Result now = result("a", Result.Verdict.PASS, Result.Grade.STRICT);
        Gate.Line plain = only(now, b, Gate.Policy.defaults());
        assertThat(plain.status()).isEqualTo(Gate.Status.IMPROVEMENT);
        assertThat(plain.failing()).isFalse();
        assertThat(plain.why()).isEqualTo("the baseline has fail, this run pass/strict");
        Gate.Line stale = only(now, b, new Gate.Policy(false, false, false, true));
        assertThat(stale.failing()).isTrue();
        assertThat(stale.why()).contains("--fail-stale-baseline");
        Gate.Line exact = only(now, b, new Gate.Policy(false, false, true, false));
        assertThat(exact.status()).as("exact: both directions named as what they are")
                .isEqualTo(Gate.Status.IMPROVEMENT);
        assertThat(exact.failing()).isTrue();
        Gate.Line worse = only(result("a", Result.Verdict.ERROR, null), b, new Gate.Policy(false, false, true,
                false));
        assertThat(worse.status()).isEqualTo(Gate.Status.REGRESSION);
    }

    @Test
    void aBaselineWithoutAGradeAcceptsAnyGradeOfItsVerdictUnlessExact() throws Exception {
        Baseline b = baseline("{\"scenarios\": {\"a\": \"pass\"}}");
        assertThat(only(result("a", Result.Verdict.PASS, Result.Grade.LENIENT), b, Gate.Policy.defaults()).status())
                .isEqualTo(Gate.Status.PASSED);
    }

    @Test
    void aSoftPassTheBaselineRecordsIsWaivedUnderStrict() throws Exception {
        Baseline b = baseline("{\"scenarios\": {\"a\": {\"verdict\": \"pass\", \"grade\": \"lenient\","
                + " \"reason\": \"closes instead of a Terminate\"}}}");
        Gate.Line l = only(result("a", Result.Verdict.PASS, Result.Grade.LENIENT), b,
                new Gate.Policy(true, false, false, false));
        assertThat(l.status()).isEqualTo(Gate.Status.WAIVED);
        assertThat(l.why()).isEqualTo("closes instead of a Terminate");
    }
}
