package io.rddp.rnic;

import io.rddp.analyze.Analysis;
import io.rddp.sink.Severity;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;

import static io.rddp.rnic.Pair.ALL;
import static io.rddp.rnic.Pair.next;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both MPA revisions with CRC and Markers on and off and every RTR type: two emulated RNICs exchange every kind of
 * message over loopback, and the recorded connection analyses without a warning.
 */
class WireVariantsTest {

    static Stream<Arguments> variants() {
        RnicConfig d = RnicConfig.defaults();
        return Stream.of(
                Arguments.of("rev 2", d, d),
                Arguments.of("rev 1", d.withRevisions(Set.of(1)), d),
                Arguments.of("rev 2 CRC", d.withCrc(true), d),
                Arguments.of("rev 1 CRC asked by the responder", d.withRevisions(Set.of(1)), d.withCrc(true)),
                Arguments.of("Markers both ways", d.withMarkers(true), d.withMarkers(true)),
                Arguments.of("Markers toward the client only", d.withMarkers(true), d),
                Arguments.of("Markers and CRC, small MSS", d.withMarkers(true).withCrc(true).withMss(600),
                        d.withMarkers(true).withMss(600)),
                Arguments.of("peer-to-peer, RTR Write", d.withPeerToPeer(true, EnumSet.of(RnicConfig.Rtr.WRITE)), d),
                Arguments.of("peer-to-peer, RTR Send", d.withPeerToPeer(true, EnumSet.of(RnicConfig.Rtr.SEND)), d),
                Arguments.of("peer-to-peer, RTR Read", d.withPeerToPeer(true, EnumSet.of(RnicConfig.Rtr.READ)), d));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyVerbRunsAndTheRecordingAnalysesClean(String name, RnicConfig clientConfig, RnicConfig serverConfig,
                                                   @TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("conn.pcapng");
        try (Pair p = new Pair(serverConfig, clientConfig, pcap)) {
            MemoryRegion remote = p.server.register(p.server.defaultPd(), 8192, ALL);
            MemoryRegion local = p.client.register(p.client.defaultPd(), 8192, ALL);
            local.fill(new byte[]{1, 2, 3, 4, 5, 6, 7});
            p.clientQp.postSend(WorkRequest.send(1, local, 0, 3001, false));
            p.clientQp.postSend(WorkRequest.write(2, local, 0, 5003, null, remote.stag(), remote.baseTo() + 10));
            p.clientQp.postSend(WorkRequest.read(3, local, 6000, 2000, remote.stag(), remote.baseTo()));
            p.clientQp.postSend(WorkRequest.fetchAdd(4, local, 8000, remote.stag(), remote.baseTo() + 8000, 5));
            p.clientQp.postSend(WorkRequest.immediate(5, 77, false));
            for (int i = 1; i <= 5; i++) {
                WorkCompletion wc = next(p.client, p.clientQp);
                assertThat(wc.status()).as(wc.toString()).isEqualTo(WcStatus.SUCCESS);
                assertThat(wc.wrId()).isEqualTo(i);
            }
            assertThat(next(p.server, p.serverQp).byteLength()).isEqualTo(3001);
            assertThat(next(p.server, p.serverQp).immediate()).isEqualTo(77);
            // the server answers in kind: a Send and a Read of what was written
            p.serverQp.postSend(WorkRequest.send(6, remote, 0, 100, true));
            assertThat(next(p.server, p.serverQp).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(next(p.client, p.clientQp).byteLength()).isEqualTo(100);
            assertThat(local.copy(6000, 2000)).isEqualTo(remote.copy(0, 2000));
            assertThat(p.errors()).isEmpty();
            p.clientQp.close();
            assertThat(p.serverQp.awaitClosed(5000)).isTrue();
            assertThat(p.clientQp.awaitClosed(5000)).isTrue();
        }
        Analysis a = Recordings.analyze(pcap);
        assertThat(Recordings.ids(a, Severity.WARNING)).as(Recordings.dump(a)).isEmpty();
        assertThat(a.error()).isNull();
        assertThat(a.streams()).hasSize(1);
        assertThat(a.pdus()).isGreaterThan(10);
    }
}
