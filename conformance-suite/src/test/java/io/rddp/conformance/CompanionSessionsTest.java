package io.rddp.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.dut.ControlServer;
import io.rddp.dut.DutException;
import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicControl;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Companion sessions of the DUT control protocol (docs/dut-control.md, Sessions) served by the emulated RNIC. */
class CompanionSessionsTest {

    private static ControlServer serve(Rnic rnic, int sessions) throws Exception {
        return new ControlServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                ControlServer.Options.defaults().withSessions(sessions), () -> new RnicControl(rnic, "test"));
    }

    private static ObjectNode listen() {
        ObjectNode l = ControlClient.request("listen").put("port", 0).put("host", "127.0.0.1");
        l.putObject("recv").put("count", 2).put("length", 64);
        return l;
    }

    @Test
    void aCompanionResetsOnlyWhatItMadeAndTheHoldersListenerAndRegionStay() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, 4);
             ControlClient holder = ControlClient.connect(cs.address(), 2000);
             ControlClient companion = ControlClient.connect(cs.address(), 2000)) {
            JsonNode hello = holder.hello("test");
            assertThat(hello.path("caps").path("sessions").asInt()).isEqualTo(4);
            companion.hello("test", hello.path("ticket").asText());
            int port = holder.call(listen()).path("port").asInt();
            int mr = holder.call(ControlClient.request("register").put("length", 64)).path("mr").asInt();
            int theirs = companion.call(listen()).path("port").asInt();
            JsonNode peer = companion.call(ControlClient.request("connect").put("host", "127.0.0.1").put("port", port)
                    .put("timeout_ms", 5000));
            assertThat(peer.path("state").asText()).isEqualTo("rts");

            companion.call("reset");

            assertThat(rnic.listeners()).extracting(l -> l.port()).contains(port).doesNotContain(theirs);
            assertThat(rnic.memory().byId(mr)).isNotNull();
            assertThat(rnic.qps()).extracting(q -> q.qpn()).doesNotContain(peer.path("qp").asInt());
            assertThatThrownBy(() -> companion.call(listen().put("port", port))).isInstanceOf(DutException.class)
                    .hasMessageContaining("another session's listener");
        }
    }

    @Test
    void aWrongTicketOrOneSessionTooManyIsRefusedWithState() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, 2);
             ControlClient holder = ControlClient.connect(cs.address(), 2000);
             ControlClient wrong = ControlClient.connect(cs.address(), 2000);
             ControlClient first = ControlClient.connect(cs.address(), 2000);
             ControlClient second = ControlClient.connect(cs.address(), 2000)) {
            String ticket = holder.hello("test").path("ticket").asText();
            assertThatThrownBy(() -> wrong.hello("test", "00" + ticket.substring(2)))
                    .isInstanceOfSatisfying(DutException.class, e -> assertThat(e.code()).isEqualTo("state"));
            first.hello("test", ticket);
            assertThatThrownBy(() -> second.hello("test", ticket))
                    .isInstanceOfSatisfying(DutException.class, e -> assertThat(e.code()).isEqualTo("state"));
        }
    }

    @Test
    void oneSessionAtATimeGivesNoTicket() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, 1);
             ControlClient holder = ControlClient.connect(cs.address(), 2000)) {
            JsonNode hello = holder.hello("test");
            assertThat(hello.has("ticket")).isFalse();
            assertThat(hello.path("caps").path("sessions").asInt()).isEqualTo(1);
        }
    }

    @Test
    void theHoldersEndEndsItsCompanionsAndCleansUpWhatTheyMade() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, 4);
             ControlClient companion = ControlClient.connect(cs.address(), 2000)) {
            ControlClient holder = ControlClient.connect(cs.address(), 2000);
            companion.hello("test", holder.hello("test").path("ticket").asText());
            int theirs = companion.call(listen()).path("port").asInt();
            holder.call("bye");
            holder.close();
            assertThatThrownBy(() -> companion.call("reset")).isInstanceOf(java.io.IOException.class);
            assertThat(rnic.listeners()).extracting(l -> l.port()).doesNotContain(theirs);
        }
    }

    @Test
    void theAgentProfileOpensAsManyLanesAsTheServerServesSessionsAndSaysWhyNoMore() throws Exception {
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, 3);
             AgentDut dut = new AgentDut(ControlClient.connect(cs.address(), 2000),
                     new InetSocketAddress(InetAddress.getLoopbackAddress(), 1), 1)) {
            assertThat(dut.jobLimit().max()).isEqualTo(3);
            try (AgentDut lane = dut.lane(2)) {
                assertThat(lane.laneNumber()).isEqualTo(2);
                assertThat(lane.capabilities()).isEqualTo(dut.capabilities());
            }
        }
        try (Rnic rnic = new Rnic(RnicConfig.defaults(), null); ControlServer cs = serve(rnic, 1);
             AgentDut dut = new AgentDut(ControlClient.connect(cs.address(), 2000),
                     new InetSocketAddress(InetAddress.getLoopbackAddress(), 1), 1)) {
            assertThat(dut.jobLimit().max()).isEqualTo(1);
            assertThat(dut.jobLimit().why()).contains("one session at a time");
        }
    }
}
