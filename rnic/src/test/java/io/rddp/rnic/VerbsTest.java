package io.rddp.rnic;

import io.rddp.sink.ErrorType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import static io.rddp.rnic.Pair.ALL;
import static io.rddp.rnic.Pair.next;
import static org.assertj.core.api.Assertions.assertThat;

/** Every verb between two emulated RNICs over real loopback sockets. */
class VerbsTest {

    @Test
    void sendLandsInThePostedReceiveWithItsData() throws Exception {
        try (Pair p = new Pair()) {
            byte[] msg = "hello, iWARP".getBytes(StandardCharsets.US_ASCII);
            p.clientQp.postSend(WorkRequest.sendInline(7, msg, false));
            WorkCompletion sent = next(p.client, p.clientQp);
            assertThat(sent.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(sent.wrId()).isEqualTo(7);
            WorkCompletion got = next(p.server, p.serverQp);
            assertThat(got.opcode()).isEqualTo(WcOpcode.RECV);
            assertThat(got.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(got.byteLength()).isEqualTo(msg.length);
            assertThat(got.data()).isEqualTo(msg);
            assertThat(p.errors()).isEmpty();
        }
    }

    @Test
    void writeThenReadBackThroughTheRemoteStag() throws Exception {
        try (Pair p = new Pair()) {
            MemoryRegion target = p.server.register(p.server.defaultPd(), 100_000, ALL);
            MemoryRegion src = p.client.register(p.client.defaultPd(), 100_000, ALL);
            byte[] pattern = new byte[100_000];
            for (int i = 0; i < pattern.length; i++) pattern[i] = (byte) (i * 7);
            src.write(0, pattern);
            p.clientQp.postSend(WorkRequest.write(1, src, 0, 100_000, null, target.stag(), target.baseTo()));
            assertThat(next(p.client, p.clientQp).status()).isEqualTo(WcStatus.SUCCESS);

            MemoryRegion sink = p.client.register(p.client.defaultPd(), 100_000, ALL);
            p.clientQp.postSend(WorkRequest.read(2, sink, 0, 100_000, target.stag(), target.baseTo()));
            WorkCompletion read = next(p.client, p.clientQp);
            assertThat(read.opcode()).isEqualTo(WcOpcode.READ);
            assertThat(read.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(sink.copy(0, 100_000)).isEqualTo(pattern);
            assertThat(target.copy(0, 100_000)).isEqualTo(pattern);
            assertThat(p.errors()).isEmpty();
        }
    }

    @Test
    void atomicsReturnTheOriginalValueAndUpdateMemory() throws Exception {
        try (Pair p = new Pair()) {
            MemoryRegion target = p.server.register(p.server.defaultPd(), 64, ALL);
            target.write(8, ByteBuffer.allocate(8).putLong(40).array());
            MemoryRegion result = p.client.register(p.client.defaultPd(), 16, ALL);
            p.clientQp.postSend(WorkRequest.fetchAdd(1, result, 0, target.stag(), target.baseTo() + 8, 2));
            WorkCompletion fa = next(p.client, p.clientQp);
            assertThat(fa.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(ByteBuffer.wrap(result.copy(0, 8)).getLong()).isEqualTo(40);
            assertThat(ByteBuffer.wrap(target.copy(8, 8)).getLong()).isEqualTo(42);

            p.clientQp.postSend(WorkRequest.cmpSwap(2, result, 8, target.stag(), target.baseTo() + 8, 42, 99));
            assertThat(next(p.client, p.clientQp).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(ByteBuffer.wrap(result.copy(8, 8)).getLong()).isEqualTo(42);
            assertThat(ByteBuffer.wrap(target.copy(8, 8)).getLong()).isEqualTo(99);
            assertThat(p.errors()).isEmpty();
        }
    }

    @Test
    void immediateDataAndSendWithInvalidateComplete() throws Exception {
        try (Pair p = new Pair()) {
            p.clientQp.postSend(WorkRequest.immediate(1, 0x1122334455667788L, true));
            next(p.client, p.clientQp);
            WorkCompletion imm = next(p.server, p.serverQp);
            assertThat(imm.opcode()).isEqualTo(WcOpcode.RECV_IMMEDIATE);
            assertThat(imm.immediate()).isEqualTo(0x1122334455667788L);
            assertThat(imm.solicited()).isTrue();

            MemoryRegion exposed = p.server.register(p.server.defaultPd(), 64, ALL);
            p.clientQp.postSend(WorkRequest.sendInvalidate(2, null, 0, 3, new byte[]{1, 2, 3}, exposed.stag(),
                    false));
            next(p.client, p.clientQp);
            WorkCompletion inv = next(p.server, p.serverQp);
            assertThat(inv.invalidatedStag()).isEqualTo(exposed.stag());
            assertThat(exposed.state()).isEqualTo(MemoryRegion.State.INVALID);
            assertThat(p.errors()).isEmpty();
        }
    }

    @Test
    void writeToAnUnknownStagIsTerminatedWithInvalidStag() throws Exception {
        try (Pair p = new Pair()) {
            p.clientQp.postSend(WorkRequest.write(1, null, 0, 16, new byte[16], 0x12345678L, 0));
            assertThat(p.serverQp.awaitClosed(10_000)).isTrue();
            assertThat(p.client.events().poll(16, 2000)).extracting(AsyncEvent::type)
                    .contains(AsyncEvent.Type.TERMINATE_RECEIVED);
            var sent = p.server.events().poll(16, 0).stream()
                    .filter(e -> e.type() == AsyncEvent.Type.TERMINATE_SENT).findFirst().orElseThrow();
            assertThat(sent.terminate()).isEqualTo(ErrorType.DDP_T_INVALID_STAG);
            assertThat(p.serverQp.ownErrors()).isZero();
        }
    }

    @Test
    void localInvalidateMakesTheStagInvalid() throws Exception {
        try (Pair p = new Pair()) {
            MemoryRegion r = p.server.register(p.server.defaultPd(), 64, Set.of(Access.REMOTE_WRITE));
            p.serverQp.postSend(WorkRequest.localInvalidate(1, r.stag()));
            assertThat(next(p.server, p.serverQp).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(r.state()).isEqualTo(MemoryRegion.State.INVALID);
        }
    }

    @Test
    void aResetKeepsTheListenerButHandsOutNoneOfTheConnectionsItDestroyed() throws Exception {
        try (Rnic server = new Rnic(RnicConfig.defaults(), null); Rnic client = new Rnic(RnicConfig.defaults(), null)) {
            RnicListener l = server.listen(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0),
                    false, ConnectionSettings.defaults(server));
            QueuePair c = client.connect(l.address(), ConnectionSettings.defaults(client), 5000);
            assertThat(c.awaitEstablished(5000)).isTrue();
            server.reset(Set.of(l.id()));
            assertThat(l.accept(200, null)).as("a queue pair destroyed by the reset").isNull();
            QueuePair fresh = client.connect(l.address(), ConnectionSettings.defaults(client), 5000);
            QueuePair accepted = l.accept(5000, null);
            assertThat(accepted).isNotNull();
            assertThat(accepted.awaitEstablished(5000)).isTrue();
            assertThat(fresh.awaitEstablished(5000)).isTrue();
        }
    }
}
