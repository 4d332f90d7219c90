package io.rddp.conformance;

import io.rddp.rnic.Rnic;
import io.rddp.rnic.RnicConfig;
import io.rddp.rnic.RnicControl;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rddp.conformance.ControlClient;
import io.rddp.dut.ControlServer;
import io.rddp.dut.DutException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Two emulated RNICs driven only through the DUT control protocol, as the tester drives a DUT. */
class RnicControlTest {

    private static ControlServer serve(Rnic rnic) throws Exception {
        return new ControlServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                () -> new RnicControl(rnic, "test"));
    }

    private static ObjectNode req(String op) {
        return ControlClient.request(op);
    }

    @Test
    void aSendAndAWriteRunThroughTheControlChannel() throws Exception {
        try (Rnic a = new Rnic(RnicConfig.defaults(), null); Rnic b = new Rnic(RnicConfig.defaults(), null);
             ControlServer ca = serve(a); ControlServer cb = serve(b);
             ControlClient ta = ControlClient.connect(ca.address(), 2000);
             ControlClient tb = ControlClient.connect(cb.address(), 2000)) {
            JsonNode hello = ta.hello("test");
            assertThat(hello.path("caps").path("mpa_revisions").toString()).isEqualTo("[1,2]");
            assertThat(hello.path("caps").path("atomic_byte_order").asText()).isEqualTo("big");
            tb.hello("test");

            ObjectNode listen = req("listen").put("port", 0).put("host", "127.0.0.1");
            listen.putObject("recv").put("count", 4).put("length", 4096);
            int port = ta.call(listen).path("port").asInt();
            JsonNode qpb = tb.call(req("connect").put("host", "127.0.0.1").put("port", port).put("timeout_ms", 5000));
            assertThat(qpb.path("state").asText()).isEqualTo("rts");
            assertThat(qpb.path("mpa").path("rev").asInt()).isEqualTo(2);
            JsonNode qpa = ta.call(req("accept").put("listener", 1).put("timeout_ms", 5000));

            tb.call(req("post_send").put("qp", qpb.path("qp").asInt()).put("opcode", "send").put("data", "68656c6c6f"));
            JsonNode wcs = ta.call(req("poll").put("qp", qpa.path("qp").asInt()).put("timeout_ms", 5000));
            JsonNode wc = wcs.path("completions").get(0);
            assertThat(wc.path("status").asText()).isEqualTo("success");
            assertThat(wc.path("opcode").asText()).isEqualTo("recv");
            assertThat(wc.path("data").asText()).isEqualTo("68656c6c6f");

            ObjectNode reg = req("register").put("length", 64).put("fill", "cafebabe");
            reg.putArray("access").add("local_write").add("remote_write").add("remote_read");
            JsonNode mr = ta.call(reg);
            ObjectNode write = req("post_send").put("qp", qpb.path("qp").asInt()).put("opcode", "write")
                    .put("data", "0102030405");
            write.putObject("remote").put("stag", mr.path("stag").asLong()).put("to", mr.path("to").asText());
            tb.call(write);
            assertThat(tb.call(req("poll").put("qp", qpb.path("qp").asInt()).put("timeout_ms", 5000))
                    .path("completions").get(0).path("status").asText()).isEqualTo("success");
            // RFC 5040 §5.5: once a later Send is delivered, the Write before it is placed
            tb.call(req("post_send").put("qp", qpb.path("qp").asInt()).put("opcode", "send").put("data", "00"));
            assertThat(ta.call(req("poll").put("qp", qpa.path("qp").asInt()).put("timeout_ms", 5000))
                    .path("completions").get(0).path("byte_len").asInt()).isEqualTo(1);
            String mem = ta.call(req("read_mem").put("mr", mr.path("mr").asInt()).put("length", 8))
                    .path("data").asText();
            assertThat(mem).isEqualTo("0102030405febabe");
            assertThat(ta.call(req("events").put("timeout_ms", 0)).path("events").toString())
                    .contains("established");

            ta.call(req("reset"));
            assertThatThrownBy(() -> ta.call(req("read_mem").put("mr", mr.path("mr").asInt()).put("length", 1)))
                    .isInstanceOf(DutException.class).hasMessageContaining("no memory region");
            ta.call(req("bye"));
        }
    }

    @Test
    void badRequestsGetAnErrorCodeNotAHangup() throws Exception {
        try (Rnic a = new Rnic(RnicConfig.defaults(), null); ControlServer ca = serve(a);
             ControlClient ta = ControlClient.connect(ca.address(), 2000)) {
            assertThatThrownBy(() -> ta.call(req("register").put("length", 1))).isInstanceOf(DutException.class)
                    .hasMessageContaining("hello");
            ta.hello("test");
            assertThatThrownBy(() -> ta.call(req("frobnicate"))).isInstanceOf(DutException.class)
                    .extracting(e -> ((DutException) e).code()).isEqualTo("unknown-op");
            assertThatThrownBy(() -> ta.call(req("register").put("length", 1 << 30)))
                    .extracting(e -> ((DutException) e).code()).isEqualTo("resource-limit");
            assertThatThrownBy(() -> ta.call(req("accept").put("listener", 99)))
                    .extracting(e -> ((DutException) e).code()).isEqualTo("not-found");
            assertThatThrownBy(() -> ta.call(req("poll").put("max", -3)))
                    .extracting(e -> ((DutException) e).code()).isEqualTo("bad-request");
            // a second session is refused while the first lasts
            try (ControlClient other = ControlClient.connect(ca.address(), 2000)) {
                assertThatThrownBy(() -> other.hello("test"))
                        .isInstanceOf(Exception.class);
            }
            assertThat(ta.call(req("hello").put("version", 2)).path("ok").asBoolean()).isTrue();
        }
    }
}
