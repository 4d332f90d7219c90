package io.rddp.sink;

import io.rddp.MalformedException;
import io.rddp.ddp.DdpSegment;
import io.rddp.ddp.SiwFixtures;
import io.rddp.rdmap.Opcode;
import io.rddp.tcp.Direction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model over real traffic: the siw captures (Linux soft-iWARP, kernel 6.1) and a public softiwarp capture, as
 * the MPA layer hands them over (the *.events fixtures) and as the DDP fixtures hold them (tshark's view, without
 * the MPA startup).
 */
class SiwCapturesTest {

    static List<String> captures() {
        return Events.ALL;
    }

    @ParameterizedTest
    @MethodSource("captures")
    void realCapturesHaveNoErrorsAndTheModelNeverFails(String name) {
        Recorder r = Events.run(name);
        assertThat(r.failures()).isEmpty();
        assertThat(r.at(Severity.ERROR)).as(r.dump()).isEmpty();
        if (name.startsWith("siw") || name.startsWith("host-to-siw")) {
            assertThat(r.at(Severity.WARNING)).as(r.dump()).isEmpty();
        }
        // every FPDU with L set completes one message: the deliveries are exactly those
        long lastSegments = Events.load(name).stream()
                .filter(e -> e.kind().equals("FPDU") && (e.bytes()[0] & 0x40) != 0).count();
        assertThat(r.deliveries).hasSize((int) lastSegments);
    }

    @Test
    void rpingIsCleanAndOnlyItsStagsAreUnverifiable() {
        Recorder r = Events.run("siw-rping-lo.events");
        assertThat(r.violations).extracting(Violation::id, Violation::frame, Violation::severity)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("rdmap.remote-access.stag", 9L, Severity.INFO),
                        org.assertj.core.groups.Tuple.tuple("ddp.tagged.stag", 13L, Severity.INFO));
        StreamSummary s = r.summaries.get(0);
        assertThat(s.initiator()).isEqualTo(Direction.CLIENT_TO_SERVER);
        assertThat(s.request().enhanced().ird()).isEqualTo(1);
        assertThat(s.clientToServer().messagesByOpcode())
                .isEqualTo(Map.of(Opcode.SEND, 20L, Opcode.RDMA_READ_RESPONSE, 10L));
        assertThat(s.serverToClient().messagesByOpcode())
                .isEqualTo(Map.of(Opcode.SEND, 20L, Opcode.RDMA_READ_REQUEST, 10L, Opcode.RDMA_WRITE, 10L));
        assertThat(s.clientToServer().bytesPlaced()).isEqualTo(10 * 64);
    }

    @Test
    void rpingWithItsStagsRegisteredIsCleanEvenInStrictMode() {
        // the buffers rping advertises (read from the capture): client source 0x2e281c00 and sink 0x575be400,
        // server sink 0x5fb74500; TOs are virtual addresses, so the whole TO space is registered
        StagRegistry reg = StagRegistry.empty()
                .add(new StagRegistration(0x2e281c00L, 0, -1, Set.of(StagRegistration.Access.READ), Side.CLIENT,
                        Set.of(0), 0, Long.MAX_VALUE))
                .add(new StagRegistration(0x575be400L, 0, -1, Set.of(StagRegistration.Access.WRITE), Side.CLIENT,
                        Set.of(0), 0, Long.MAX_VALUE))
                .add(new StagRegistration(0x5fb74500L, 0, -1, Set.of(), Side.SERVER, Set.of(0), 0,
                        Long.MAX_VALUE));
        Recorder r = Events.run("siw-rping-lo.events", SinkModel.Options.defaults().withStrict(true), reg);
        assertThat(r.violations).isEmpty();
    }

    @Test
    void strictModeWithoutRegistrationHoldsSiwToAccountForUnknownStags() {
        Recorder r = Events.run("siw-rping-lo.events", SinkModel.Options.defaults().withStrict(true),
                StagRegistry.empty());
        // the client (Data Source of the server's reads, owner of the written buffer) owes a Terminate
        assertThat(r.ids()).containsExactly("rdmap.remote-access.stag", "ddp.tagged.stag",
                "rdmap.terminate.missing");
        assertThat(r.at(Severity.ERROR)).hasSize(3);
        assertThat(r.violations.get(2).direction()).isEqualTo(Direction.CLIENT_TO_SERVER);
    }

    @Test
    void readBandwidthCaptureMatchesEveryResponseToItsRequest() {
        Recorder r = Events.run("siw-read-bw-lo.events");
        StreamSummary data = r.summaries.stream().filter(s -> s.stream() == 1).findFirst().orElseThrow();
        assertThat(data.clientToServer().messagesByOpcode()).containsEntry(Opcode.RDMA_READ_REQUEST, 50L);
        assertThat(data.serverToClient().messagesByOpcode()).containsEntry(Opcode.RDMA_READ_RESPONSE, 50L);
        assertThat(data.request().enhanced().ird()).isEqualTo(128);
        assertThat(r.violations).extracting(Violation::id).containsExactly("rdmap.remote-access.stag");
    }

    @Test
    void publicSoftiwarpCaptureLeavesAReadRequestUnanswered() {
        // finding: the softiwarp client answers the server's RDMA Read Request of frame 10 with nothing, sends two
        // more Sends (frames 12, 13), and the server resets the connection (RFC 5040 §5.2.1: MUST respond)
        Recorder r = Events.run("softuiwarp-uiwarp.events");
        assertThat(r.problems()).extracting(Violation::id, Violation::frame, Violation::direction)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("rdmap.read.unanswered", 10L,
                        Direction.SERVER_TO_CLIENT));
    }

    @Test
    void ddpFixturesSeenWithoutTheMpaStartupAreClean() {
        for (String file : SiwFixtures.ALL) {
            Recorder rec = new Recorder();
            SinkModel model = new SinkModel(rec);
            Map<String, Integer> clientPort = new HashMap<>();
            for (SiwFixtures.Row row : SiwFixtures.load(file)) {
                int stream = Integer.parseInt(row.get("tcp.stream"));
                int port = Integer.parseInt(row.get("tcp.srcport"));
                // the Initiator sends the first FPDU (RFC 5044 §7.1.2), and in these captures it is the client
                int client = clientPort.computeIfAbsent(row.get("tcp.stream"), k -> port);
                Direction dir = port == client ? Direction.CLIENT_TO_SERVER : Direction.SERVER_TO_CLIENT;
                try {
                    model.onSegment(stream, dir, row.frame(), null, DdpSegment.parse(row.ulpdu()), null);
                } catch (MalformedException e) {
                    throw new AssertionError(row + ": " + e.getMessage(), e);
                }
            }
            model.onEnd();
            assertThat(rec.failures()).as(file).isEmpty();
            assertThat(rec.problems()).as(file + "\n" + rec.dump()).isEmpty();
            assertThat(rec.deliveries).as(file).isNotEmpty();
        }
    }
}
