package io.rddp.cli;

import io.rddp.testing.RepoPaths;
import io.rddp.live.LiveCapture;
import io.rddp.live.LiveCaptureException;
import io.rddp.testing.LoopbackReplay;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rddp analyze -i lo} while the siw rping capture's bytes go over a loopback socket (until {@code rddp peer}
 * exists). Skipped with the reason where libpcap or the capture capabilities are missing (CI runs as root).
 */
class LiveCommandTest {

    @TempDir
    Path tmp;

    private static Object[] run(String... args) {
        PrintStream oldErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int rc = Main.run(args);
            return new Object[]{rc, err.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setErr(oldErr);
        }
    }

    private static int freePort() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void analyzeOnTheLoopbackInterfaceForADuration() throws Exception {
        int port = freePort();
        try {
            LiveCapture.open(new LiveCapture.Options("lo", "tcp port " + port, 1, 1)).close();
        } catch (LiveCaptureException e) {
            Assumptions.abort("live capture on lo not possible here: " + e.getMessage());
        }
        var chunks = LoopbackReplay.chunks(RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap"));
        Path report = tmp.resolve("report.json");
        Path annotated = tmp.resolve("annotated.pcapng");
        CompletableFuture<Object[]> cli = CompletableFuture.supplyAsync(() -> run("analyze", "-i", "lo", "-f",
                "tcp port " + port, "--duration", "3", "--format", "json", "-o", report.toString(),
                "--annotate", annotated.toString()));
        Thread.sleep(1000); // the command has opened the interface by then (it prints 'capturing on lo')
        LoopbackReplay.replay(chunks, port);
        Object[] r = cli.get(30, TimeUnit.SECONDS);
        assertThat((String) r[1]).contains("rddp: capturing on lo with filter 'tcp port " + port + "'",
                "rddp: captured 70 frames on lo");
        assertThat(r[0]).as("stderr: %s", r[1]).isEqualTo(0);
        String json = Files.readString(report);
        assertThat(json).contains("\"pdus\" : 72", "\"streams\" : 1", "\"file\" : \"-i lo\"");
        assertThat(Files.size(annotated)).isGreaterThan(1000);
    }

    @Test
    void liveOptionsNeedTheInterface() {
        Object[] r = run("analyze", "-f", "tcp", RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap").toString());
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[1]).contains("-f and --duration go with -i");
        Object[] both = run("decode", "-i", "lo", RepoPaths.pcaps().resolve("siw/siw-rping-lo.pcap").toString());
        assertThat(both[0]).isEqualTo(2);
        assertThat((String) both[1]).contains("give either FILEs (or -r FILE) or -i IFACE, not both");
    }
}
