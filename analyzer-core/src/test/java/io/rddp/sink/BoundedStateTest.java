package io.rddp.sink;

import io.rddp.Notice;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapControl;
import io.rddp.rdmap.RdmapEncoder;
import org.junit.jupiter.api.Test;

import static io.rddp.sink.Wire.C2S;
import static io.rddp.sink.Wire.data;
import static io.rddp.sink.Wire.read;
import static org.assertj.core.api.Assertions.assertThat;

/** Caps keep the state per stream bounded, and say so when they drop something. */
class BoundedStateTest {

    private static Wire small(int reports, int open, int outstanding, int buffers, int ranges, int learned) {
        return new Wire().with(new SinkModel.Options(false, reports, open, outstanding, buffers, ranges, learned));
    }

    @Test
    void reportsOfOneCheckAreCappedAndTheRestCounted() {
        Wire w = new Wire().with(SinkModel.Options.defaults().withMaxReportsPerCheck(5)).started();
        for (int i = 0; i < 40; i++) w.send(C2S, RdmapEncoder.send(100 + 2L * i, data(4), 1000));
        Recorder r = w.end();
        assertThat(r.ids()).filteredOn("ddp.untagged.msn"::equals).hasSize(5);
        assertThat(r.notices).extracting(Notice::message)
                .contains("35 more ddp.untagged.msn reports suppressed after 5 per stream direction");
    }

    @Test
    void openMessagesBeyondTheCapAreDroppedWithANotice() {
        long ulp = (long) RdmapControl.of(Opcode.SEND).toByte() << 32;
        Wire w = small(1000, 8, 16, 16, 8, 100).started();
        for (int i = 1; i <= 20; i++) w.seg(C2S, new DdpSegment(UntaggedHeader.of(false, ulp, 0, i, 0), data(4)));
        Recorder r = w.end();
        assertThat(r.notices).filteredOn(n -> n.message().startsWith("more than 8 open messages")).hasSize(1);
        assertThat(r.ids()).containsOnly("ddp.message-interleaved", "ddp.message-incomplete");
        assertThat(r.ids()).filteredOn("ddp.message-incomplete"::equals).hasSize(8);
    }

    @Test
    void placementMapsAreCappedPerDirection() {
        Wire w = small(1000, 8, 16, 4, 8, 1000).started().hello();
        for (int i = 0; i < 50; i++) w.send(C2S, RdmapEncoder.write(0x1000 + i, 0, data(8), 1000));
        Recorder r = w.end();
        assertThat(r.notices).filteredOn(n -> n.message().startsWith("placement maps of more than 4")).hasSize(1);
        assertThat(r.failures()).isEmpty();
    }

    @Test
    void placementMapCoarsensInsteadOfGrowing() {
        Wire w = small(1000, 8, 16, 4, 4, 1000).started().hello();
        for (int i = 0; i < 20; i++) w.send(C2S, RdmapEncoder.write(0x42, 100L * i, data(8), 1000));
        Recorder r = w.end();
        assertThat(r.notices).filteredOn(n -> n.message().contains("exceeded 4 ranges")).hasSize(1);
    }

    @Test
    void learnedStagsAreForgottenOldestFirstWithOneNotice() {
        Wire w = small(1000, 8, 16, 4, 8, 10).started().hello();
        for (int i = 0; i < 30; i++) w.send(C2S, RdmapEncoder.write(0x1000 + i, 0, data(8), 1000));
        Recorder r = w.end();
        assertThat(r.notices).filteredOn(n -> n.message().startsWith("more than 10 STags seen")).hasSize(1);
    }

    @Test
    void unansweredRequestsBeyondTheCapMakeMatchingUncertain() {
        Wire w = small(1000, 8, 4, 4, 8, 100).startup(StartFrames.irdOrd(100, 100), StartFrames.irdOrd(100, 100))
                .hello();
        for (int i = 1; i <= 10; i++) w.send(C2S, RdmapEncoder.readRequest(i, read(0x10, 0, 8, 0x20, 0)));
        w.send(Wire.S2C, RdmapEncoder.readResponse(0x99, 0, data(8), 1000));
        Recorder r = w.end();
        assertThat(r.notices).filteredOn(n -> n.message().startsWith("more than 4 unanswered requests")).hasSize(1);
        // after state was dropped the mismatch is not asserted as an error
        assertThat(r.violations).filteredOn(v -> v.id().startsWith("rdmap.read-response"))
                .allMatch(v -> v.severity() == Severity.INFO);
    }

    @Test
    void aGapResetsMessageTrackingAndSaysSo() {
        Wire w = new Wire().started().send(C2S, RdmapEncoder.send(1, data(4), 1000));
        w.model.onGap(0, C2S, ++w.frame);
        Recorder r = w.send(C2S, RdmapEncoder.send(7, data(4), 1000)).end();
        assertThat(r.violations).isEmpty(); // the MSN sequence restarts after the gap
        assertThat(r.notices).singleElement().satisfies(n -> assertThat(n.message()).startsWith("gap in"));
    }
}
