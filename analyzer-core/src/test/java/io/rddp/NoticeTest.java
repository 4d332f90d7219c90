package io.rddp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NoticeTest {
    @Test
    void printsWhereTheProblemIsBeforeTheMessage() {
        Notice n = new Notice(Notice.Severity.WARNING, "tcp", 12, 3, 4096, "gap of 100 bytes");
        assertThat(n).hasToString("warning tcp frame 12 stream 3 offset 4096: gap of 100 bytes");
    }

    @Test
    void leavesOutUnknownPlaces() {
        assertThat(new Notice(Notice.Severity.ERROR, "capture", 0, -1, -1, "bad magic"))
                .hasToString("error capture: bad magic");
    }
}
