package io.rddp.conformance;

import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicListener;
import io.rddp.rnic.app.Rping;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rping profile waits on the DUT's readiness between connections ({@code rddp conform --ready-cmd}) instead of the
 * fixed restart pacing, and falls back to that pacing when readiness cannot tell.
 */
class RpingReadinessTest {

    private static final List<String> TWO = List.of("positive.write-then-read", "positive.read.1");

    @Test
    void aReadyDutIsConnectedAtOnceAndReadinessIsAskedBeforeEveryConnection() throws Exception {
        List<Long> asked = new ArrayList<>();
        Readiness ready = limitMs -> {
            asked.add(limitMs);
            return true;
        };
        // a pacing of ten minutes: the run can only finish in time by trusting readiness
        List<Result> results = run(new RpingDutFactory(600_000, ready));
        assertThat(results).extracting(Result::verdict).containsOnly(Result.Verdict.PASS);
        assertThat(asked).as("one question per connection, the first included, bounded by the connect wait")
                .isNotEmpty().allMatch(l -> l == Timeouts.defaults().connect());
    }

    @Test
    void readinessThatCannotTellFallsBackToThePacing() throws Exception {
        List<Long> asked = new ArrayList<>();
        Readiness unknown = limitMs -> {
            asked.add(limitMs);
            return false;
        };
        List<Result> results = run(new RpingDutFactory(50, unknown));
        assertThat(results).extracting(Result::verdict).containsOnly(Result.Verdict.PASS);
        assertThat(asked).isNotEmpty();
    }

    private record RpingDutFactory(int restartMs, Readiness ready) {
        RpingDut at(InetSocketAddress address) {
            return new RpingDut(address, Set.of("mpa-rev2", "crc"), restartMs, ready);
        }
    }

    private static List<Result> run(RpingDutFactory factory) throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = rnic.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    Rping.serverSettings(rnic));
            Thread server = Rping.serveInBackground(rnic, l);
            try {
                List<Scenario> scenarios = Catalog.load().scenarios().stream()
                        .filter(s -> TWO.contains(s.info().id())).toList();
                assertThat(scenarios).hasSize(TWO.size());
                return new Runner(factory.at(l.address()), Timeouts.defaults(), null, r -> { }).run(scenarios);
            } finally {
                server.interrupt();
            }
        }
    }
}
