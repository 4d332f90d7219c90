package io.rddp.gui.model;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A Terminate's arrow on the ladder says what it reports: layer, error type and code (RFC 5040 §4.8). */
class TerminateArrowTest {

    @Test
    void theTerminateArrowNamesItsLayerErrorTypeAndCode() throws Exception {
        // pcaps/violations/msn-skipped-terminated: an MSN skipped, answered by a DDP Untagged Buffer Terminate
        try (CaptureSession s = new CaptureSession("t", Long.MAX_VALUE);
             CaptureReader r = CaptureReaders.open(RepoPaths.pcap("violations/msn-skipped-terminated.pcap"))) {
            s.load(r, 500, n -> { });
            List<LadderEvent> terminates = s.ladderStreams().stream().flatMap(st -> s.ladder(st).stream())
                    .filter(e -> e.kind().equals("Terminate")).toList();
            assertThat(terminates).singleElement().extracting(LadderEvent::label)
                    .isEqualTo("Terminate DDP Untagged Buffer Error: Invalid MSN - MSN range is not valid");
        }
    }
}
