package io.rddp.gui.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The packet index: columns read back, flags, and the ring of a live capture dropping whole chunks. */
class PduIndexTest {

    @Test
    void rowsReadBackAndTheRingDropsTheOldestChunks() {
        PduIndex x = new PduIndex(2L * PduIndex.CHUNK);
        long rows = 5L * PduIndex.CHUNK + 7;
        for (long i = 0; i < rows; i++) {
            x.add(i + 1, i * 1000, (int) (i % 3), PduIndex.flags(i % 2 == 1, "RDMAP", 3), 40, i * 100);
        }
        assertThat(x.size()).isEqualTo(rows);
        // at most maxRows kept, the oldest dropped a whole chunk at a time
        assertThat(x.first()).isEqualTo(4L * PduIndex.CHUNK);
        assertThat(x.size() - x.first()).isLessThanOrEqualTo(2L * PduIndex.CHUNK);
        long r = rows - 1;
        assertThat(x.frame(r)).isEqualTo(rows);
        assertThat(x.time(r)).isEqualTo(r * 1000);
        assertThat(x.stream(r)).isEqualTo((int) (r % 3));
        assertThat(x.detail(r)).isEqualTo(r * 100);
        assertThat(PduIndex.protocol(x.flags(r))).isEqualTo("RDMAP");
        assertThat(PduIndex.opcode(x.flags(r))).isEqualTo(3);
        assertThat(x.flags(r) & PduIndex.FLAG_SERVER_TO_CLIENT).isEqualTo(r % 2 == 1 ? 1 : 0);
        x.mark(r, PduIndex.FLAG_VIOLATION);
        assertThat(x.flags(r) & PduIndex.FLAG_VIOLATION).isNotZero();
        assertThat(x.frame(x.first())).isEqualTo(x.first() + 1);
        assertThatThrownBy(() -> x.frame(x.first() - 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aLiveSessionKeepsOnlyItsRing() throws Exception {
        try (CaptureSession s = new CaptureSession("ring", PduIndex.CHUNK)) {
            assertThat(s.rowOfFrame(1)).isEqualTo(-1);
        }
    }
}
