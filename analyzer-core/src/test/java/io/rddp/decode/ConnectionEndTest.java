package io.rddp.decode;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.Generator;
import io.rddp.generate.Scenario;
import io.rddp.mpa.MpaDecoder;
import io.rddp.tcp.TcpReassembler;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** State of a connection is freed by every layer when TCP forgets the connection, so memory follows open streams. */
class ConnectionEndTest {

    @Test
    void evictedConnectionsLeaveNoMpaStateBehindAndStillDecode() throws Exception {
        // mixed: three interleaved connections; allow TCP to track only one at a time so two are always evicted
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, LinkType.ETHERNET, true)) {
            Generator.generate(Scenario.MIXED, new Generator.Options(0, 4, 500, 1460, false, 3), w);
        }
        Path f = Files.createTempFile("mixed", ".pcap");
        Files.write(f, bytes.toByteArray());
        List<Long> framesWithPdus = new ArrayList<>();
        int[] mostHeld = {0};
        try (CaptureReader r = CaptureReaders.open(f)) {
            DecodePipeline p = new DecodePipeline(pdu -> framesWithPdus.add(pdu.frame()),
                    TcpReassembler.Limits.defaults().withMaxConnections(1));
            MpaDecoder mpa = p.mpa();
            p.run(r, () -> mostHeld[0] = Math.max(mostHeld[0], mpa.openConnections()));
            assertThat(mpa.openConnections()).isZero();
        } finally {
            Files.delete(f);
        }
        assertThat(framesWithPdus).isNotEmpty();
        // no connection closes before the end of the capture, so without the TCP layer's end signal the MPA layer
        // would hold all three; with it, no more than TCP tracks
        assertThat(mostHeld[0]).isEqualTo(1);
    }
}
