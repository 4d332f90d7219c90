package io.rddp.conformance;

import io.rddp.rnic.Bug;
import io.rddp.rnic.RnicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The suite has teeth: every bug knob of the emulated RNIC makes at least one scenario fail. */
// whole suites, not unit tests: the 10 s default of the fuzz-regression execution (which -Dtest also runs) is too short
@org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class SuiteTeethTest {

    @ParameterizedTest
    @EnumSource(Bug.class)
    void everyBugKnobIsCaughtByAScenario(Bug bug) throws Exception {
        List<Result> rs = PeerSuiteTest.runAgent(RnicConfig.defaults().withBugs(Set.of(bug)), true);
        List<String> failed = rs.stream().filter(r -> r.verdict() == Result.Verdict.FAIL).map(Result::id)
                .collect(Collectors.toList());
        assertThat(failed).as("scenarios failing with --bug " + bug.knob() + "\n" + PeerSuiteTest.table(rs))
                .isNotEmpty();
        assertThat(rs).as("no scenario may err (the suite's own fault) with --bug " + bug.knob())
                .noneMatch(r -> r.verdict() == Result.Verdict.ERROR);
    }
}
