package io.rddp.gui;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

class PacketListModelTest {

    private static Path bundled(String name) {
        Path root = Path.of(System.getProperty("rddp.root", ".."));
        return root.resolve("pcaps/siw").resolve(name);
    }

    @Test
    void rowsOfTheRpingCaptureMatchWhatTsharkShowsPerFrame() throws Exception {
        Path file = bundled("siw-rping-lo.pcap");
        assumeThat(Files.exists(file)).as("bundled capture %s", file).isTrue();
        PacketListModel model = new PacketListModel(10_000);
        try (CaptureReader reader = CaptureReaders.open(file)) {
            new DecodePipeline(model).run(reader);
        }
        // tshark shows MPA Request in frame 4, Reply in 6, then Send / Read Request / Read Response in 8, 9, 10.
        assertThat(model.rows()).extracting(PacketRow::frame).startsWith(4L, 6L, 8L, 9L, 10L);
        assertThat(model.rows().get(0).info()).startsWith("Request Frame rev 2");
        assertThat(model.rows().get(3).protocol()).isEqualTo("RDMAP");
        assertThat(model.rows().get(3).info()).startsWith("RDMA Read Request QN 1 MSN 1 MO 0 L");
        assertThat(model.rows().get(0).source()).isEqualTo("10.0.2.15:39655");
        assertThat(model.dropped()).isZero();
    }

    @Test
    void dropsTheOldestRowsBeyondTheCapAndCountsThem() throws Exception {
        Path file = bundled("siw-rping-lo.pcap");
        assumeThat(Files.exists(file)).as("bundled capture %s", file).isTrue();
        PacketListModel model = new PacketListModel(10);
        try (CaptureReader reader = CaptureReaders.open(file)) {
            new DecodePipeline(model).run(reader);
        }
        assertThat(model.rows()).hasSizeLessThanOrEqualTo(10);
        assertThat(model.dropped() + model.rows().size()).isGreaterThan(10);
        assertThat(model.rows()).extracting(PacketRow::frame).isSorted();
    }
}
