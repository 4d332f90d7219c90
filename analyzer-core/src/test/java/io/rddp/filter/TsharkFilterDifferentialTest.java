package io.rddp.filter;

import io.rddp.decode.TsharkDifferentialTest;
import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Second opinion on the address, CIDR and set filters: on captures with IPv4 and IPv6 connections, the frames whose
 * PDUs a filter selects are the frames tshark selects with the same filter and {@code iwarp_mpa} (the frames that
 * carry iWARP). The filters are written as tshark 4.0 reads them: set elements separated by commas.
 */
class TsharkFilterDifferentialTest {

    private static final List<String> CAPTURES = List.of("pcaps/generated/mixed.pcap", "pcaps/siw/siw-rping-lo.pcap",
            "pcaps/public/softuiwarp-uiwarp.pcap");

    private static final List<String> FILTERS = List.of(
            "ip.addr == 10.0.2.15", "ip.src == 10.0.0.1", "ip.dst == 10.10.1.2", "ip.addr == 10.0.2.0/24",
            "ip.addr == 10.0.0.0/8", "ip.src != 10.0.0.0/24", "ip.addr != 10.0.2.15", "ip.dst > 10.0.0.1",
            "ip.src in {10.0.0.1, 10.0.2.1..10.0.2.9}", "ip.addr in {192.0.2.0/24, 10.10.1.1}",
            "ipv6.addr == fd00::4", "ipv6.src == fd00::/8", "ipv6.addr == fd00::/10", "ipv6.dst != fd00::4",
            "ipv6.addr in {fd00::1..fd00::3}", "ipv6.addr == ::ffff:10.0.0.1", "tcp.port in {4791, 7174}",
            "tcp.dstport in {1..5000}", "tcp.srcport in {1..1024}");

    @TestFactory
    Stream<DynamicTest> addressAndSetFiltersSelectTheFramesTsharkSelects() {
        assumeThat(io.rddp.testing.TsharkFields.available())
                .as("tshark is not installed: differential test skipped (apt-get install tshark)").isTrue();
        return CAPTURES.stream().flatMap(cap -> FILTERS.stream().map(f -> DynamicTest.dynamicTest(cap + ": " + f,
                () -> assertThat(ours(cap, f)).as("frames of %s with %s", cap, f).containsExactlyElementsOf(tshark(cap, f)))));
    }

    private static TreeSet<Long> ours(String capture, String filter) throws Exception {
        return new TreeSet<>(DisplayFilterCaptureTest.frames(capture, filter));
    }

    private static TreeSet<Long> tshark(String capture, String filter) throws IOException, InterruptedException {
        Path cap = RepoPaths.root().resolve(capture);
        Process p = new ProcessBuilder("tshark", "-r", cap.toString(), "-Y", "(" + filter + ") && iwarp_mpa",
                "-T", "fields", "-e", "frame.number").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("tshark finished").isTrue();
        assertThat(p.exitValue()).as("tshark's exit code for %s", filter).isZero();
        TreeSet<Long> frames = new TreeSet<>();
        out.lines().filter(l -> !l.isBlank()).forEach(l -> frames.add(Long.parseLong(l.trim())));
        return frames;
    }
}
