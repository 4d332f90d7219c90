package io.rddp.gui.model;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.PcapWriter;
import io.rddp.capture.LinkType;
import io.rddp.generate.Generator;
import io.rddp.generate.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GUI's model loads a capture far larger than its heap: surefire runs this class alone with -Xmx96m (see the
 * pom). A 512 MiB write-stream capture has about 355,000 PDUs: as row objects with their strings (the old packet
 * list model, some 380 bytes each) they would need over 130 MiB; the index needs 32 bytes each (11 MiB), and the
 * field trees go to a file.
 * Not a timed test: it prints how long the load took and how much the field file holds, for the README.
 */
class LargeCaptureMemoryTest {

    @TempDir
    Path tmp;

    @Test
    void loadsAWriteStreamCaptureLargerThanTheHeap() throws Exception {
        long maxHeap = Runtime.getRuntime().maxMemory();
        long size = Long.getLong("rddp.memoryTest.bytes", 512L << 20);
        Path file = tmp.resolve("write-stream.pcap");
        Generator.Summary g;
        try (PcapWriter w = PcapWriter.create(file, LinkType.ETHERNET, false)) {
            g = Generator.generate(Scenario.WRITE_STREAM, new Generator.Options(size, 0, 65536, 1460, false, 1), w);
        }
        long t0 = System.nanoTime();
        try (CaptureSession s = new CaptureSession("big", Long.MAX_VALUE);
             CaptureReader reader = CaptureReaders.open(file)) {
            s.load(reader, 500, n -> { });
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.gc();
            long used = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
            System.out.printf("LargeCaptureMemoryTest: %d MiB capture, %d frames, %d PDUs loaded in %.1f s (%.0f MB/s);"
                            + " heap max %d MiB, used after GC %d MiB; field file %d MiB (%d bytes/PDU)%n",
                    Files.size(file) >> 20, g.frames(), s.pdus(), seconds, Files.size(file) / seconds / 1e6,
                    maxHeap >> 20, used >> 20, s.store().size() >> 20, s.store().size() / Math.max(1, s.pdus()));
            assertThat(s.error()).isNull();
            assertThat(s.pdus()).isGreaterThan(350_000);
            assertThat(s.index().size()).isEqualTo(s.pdus());
            // the index: 32 bytes per PDU, in whole chunks
            assertThat(used).isLessThan(maxHeap);
            assertThat(s.rowOfFrame(s.index().frame(s.index().size() / 2))).isGreaterThanOrEqualTo(0);
            assertThat(s.store().header(s.index().detail(s.index().size() - 1)).info()).startsWith("RDMA Write");
        }
    }
}
