package io.rddp.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code rddp conform --ready-cmd}: the command's exit code is the answer, and what it says reaches the console. */
class ShellReadinessTest {

    private final StringWriter console = new StringWriter();

    private boolean ask(String command, long limitMs) throws InterruptedException {
        return new ShellReadiness(command, new PrintWriter(console, true)).await(limitMs);
    }

    @Test
    void aCommandThatExitsZeroMeansReadyAndItsLinesAreShownPrefixed() throws Exception {
        assertThat(ask("echo 'restarted a stuck rping -s'; echo; echo second >&2", 10_000)).isTrue();
        assertThat(console.toString().lines())
                .containsExactly("rddp conform: --ready-cmd: restarted a stuck rping -s",
                        "rddp conform: --ready-cmd: second");
    }

    @Test
    void aCommandThatFailsMeansCannotTell() throws Exception {
        assertThat(ask("exit 1", 10_000)).isFalse();
        assertThat(console.toString()).isEmpty();
    }

    @Test
    void aCommandThatOutlivesTheLimitIsStoppedAndMeansCannotTell() throws Exception {
        long t0 = System.nanoTime();
        assertThat(ask("echo waiting; sleep 30", 300)).isFalse();
        assertThat((System.nanoTime() - t0) / 1_000_000).as("stopped near the limit, not after 30 s").isLessThan(10_000);
        assertThat(console.toString()).contains("--ready-cmd: waiting");
    }

    @Test
    void aTalkativeCommandIsShownOnlyUpToTheCap() throws Exception {
        assertThat(ask("yes 0123456789 | head -c 100000", 10_000)).isTrue();
        // 100,000 octets of 11-octet lines: only the first MAX_SHOWN octets are read
        assertThat(console.toString().lines().count()).isBetween(1L, ShellReadiness.MAX_SHOWN / 11L + 1);
    }
}
