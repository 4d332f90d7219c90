package io.rddp.rnic;

import io.rddp.analyze.Analysis;
import io.rddp.rnic.link.Recorder;
import io.rddp.rnic.app.Rping;
import io.rddp.sink.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The rping server and client of the emulated RNIC against each other, recorded and analysed. */
class RpingTest {

    @Test
    void tenVerifiedPingsAndTheRecordingAnalysesClean(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("rping.pcapng");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        try (Recorder rec = Recorder.create(pcap); Rnic server = new Rnic(RnicConfig.defaults(), rec);
             Rnic client = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                    Rping.serverSettings(server));
            Thread t = new Thread(() -> {
                try {
                    Rping.serve(server, l, 1, true, out);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            Rping.client(client, l.address(), 10, 64, true, true, out);
            t.join(10_000);
            assertThat(t.isAlive()).isFalse();
        }
        String text = log.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr")
                .contains("ping data: rdma-ping-9: J").contains("done");
        Analysis a = Recordings.analyze(pcap);
        assertThat(Recordings.ids(a, Severity.WARNING)).as(Recordings.dump(a)).isEmpty();
        // per ping: 2 Sends, a Read Request and its Response, a Write, 2 go-aheads
        assertThat(a.messages()).isEqualTo(10 * 7);
    }

    @Test
    void pingDataIsRpingsPattern() {
        byte[] b = Rping.pingData(9, 64);
        String s = new String(b, 0, 63, StandardCharsets.US_ASCII);
        assertThat(s).startsWith("rdma-ping-9: JKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyzA");
        assertThat(b[63]).isZero();
    }
}
