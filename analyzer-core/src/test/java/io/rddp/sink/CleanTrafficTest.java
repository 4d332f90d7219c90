package io.rddp.sink;

import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.RdmapEncoder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.List;

import static io.rddp.sink.Wire.C2S;
import static io.rddp.sink.Wire.S2C;
import static io.rddp.sink.Wire.data;
import static io.rddp.sink.Wire.read;
import static org.assertj.core.api.Assertions.assertThat;

/** Conforming exchanges draw no violation at all. */
class CleanTrafficTest {

    @Test
    void rpingStyleRoundsWithEveryOperationAreClean() {
        // client advertises its buffers in a Send; server reads the source, writes back, both confirm with Sends
        Wire w = new Wire(Wire.registered(0x100, 0x200, 0x300), false).started();
        for (int round = 0; round < 10; round++) {
            long m = 2L * round;
            w.send(C2S, RdmapEncoder.send(m + 1, data(16), 1000))
                    .send(S2C, RdmapEncoder.readRequest(round + 1, read(0x300, 0x5000, 64, 0x100, 0x7000)))
                    .send(C2S, RdmapEncoder.readResponse(0x300, 0x5000, data(64), 1000))
                    .send(S2C, RdmapEncoder.send(m + 1, data(0), 1000))
                    .send(C2S, RdmapEncoder.send(m + 2, data(16), 1000))
                    .send(S2C, RdmapEncoder.write(0x200, 0x9000, data(64), 1000))
                    .send(S2C, RdmapEncoder.send(m + 2, data(0), 1000));
        }
        Recorder r = w.close(C2S).close(S2C).end();
        assertThat(r.violations).isEmpty();
        assertThat(r.notices).isEmpty();
        StreamSummary s = r.summaries.get(0);
        assertThat(s.clientToServer().messagesByOpcode()).containsEntry(Opcode.SEND, 20L)
                .containsEntry(Opcode.RDMA_READ_RESPONSE, 10L);
        assertThat(s.serverToClient().messagesByOpcode()).containsEntry(Opcode.RDMA_READ_REQUEST, 10L)
                .containsEntry(Opcode.RDMA_WRITE, 10L).containsEntry(Opcode.SEND, 20L);
        assertThat(s.serverToClient().bytesPlaced()).isEqualTo(640);
        assertThat(s.clientToServer().bytesPlaced()).isEqualTo(640);
        assertThat(s.clientToServer().bytesDelivered()).isEqualTo(320);
        assertThat(s.serverToClient().terminateFrame()).isEqualTo(-1);
    }

    @Test
    void stateOfAStreamIsReleasedWhenBothSidesClose() {
        Wire w = new Wire().started().hello().close(C2S);
        assertThat(w.model.summary(0)).isNotNull();
        w.close(S2C);
        assertThat(w.model.summary(0)).isNull();
        assertThat(w.rec.summaries).hasSize(1);
    }

    /**
     * Random conforming conversations: Sends and Immediate Data both ways, Writes to fresh offsets, Reads and
     * Atomics within the negotiated IRD answered in order, any MULPDU.
     */
    @Property(tries = 200)
    void randomConformingConversationsAreClean(@ForAll @Size(min = 1, max = 60) List<@IntRange(max = 6) Integer> ops,
                                               @ForAll @Size(min = 60, max = 60) List<@IntRange(max = 3000) Integer> sizes,
                                               @ForAll @IntRange(min = 19, max = 3000) int mulpdu) {
        Wire w = new Wire(Wire.registered(0x100, 0x200, 0x300), false).started().hello();
        long clientSend = 2, serverSend = 1, readMsn = 1, atomicMsn = 1, to = 0, sinkTo = 0;
        ArrayDeque<long[]> pending = new ArrayDeque<>(); // {kind 0 read / 1 atomic, sinkTo or id, size}
        for (int i = 0; i < ops.size(); i++) {
            int size = sizes.get(i);
            switch (ops.get(i)) {
                case 0 -> w.send(C2S, RdmapEncoder.send(clientSend++, data(size), mulpdu));
                case 1 -> w.send(S2C, RdmapEncoder.send(serverSend++, data(size), mulpdu));
                case 2 -> {
                    w.send(C2S, RdmapEncoder.write(0x200, to, data(size), mulpdu));
                    to += size;
                }
                case 3 -> {
                    if (pending.size() < 4) {
                        w.send(C2S, RdmapEncoder.readRequest(readMsn++, read(0x300, sinkTo, size, 0x100, 0)));
                        pending.add(new long[]{0, sinkTo, size});
                        sinkTo += size;
                    }
                }
                case 4 -> {
                    if (pending.size() < 4) {
                        w.send(C2S, RdmapEncoder.atomicRequest(readMsn++,
                                AtomicRequest.cmpSwap(i, 0x100, 8L * i, 1, -1, 0, -1)));
                        pending.add(new long[]{1, i, 0});
                    }
                }
                case 5 -> {
                    long[] p = pending.poll();
                    if (p != null && p[0] == 0) {
                        w.send(S2C, RdmapEncoder.readResponse(0x300, p[1], data((int) p[2]), mulpdu));
                    } else if (p != null) {
                        w.send(S2C, RdmapEncoder.atomicResponse(atomicMsn++, new AtomicResponse(p[1], 0)));
                    }
                }
                default -> w.send(S2C, RdmapEncoder.immediateDataWithSe(serverSend++, size));
            }
        }
        while (!pending.isEmpty()) {
            long[] p = pending.poll();
            if (p[0] == 0) {
                w.send(S2C, RdmapEncoder.readResponse(0x300, p[1], data((int) p[2]), mulpdu));
            } else {
                w.send(S2C, RdmapEncoder.atomicResponse(atomicMsn++, new AtomicResponse(p[1], 0)));
            }
        }
        Recorder r = w.close(C2S).close(S2C).end();
        assertThat(r.violations).isEmpty();
        assertThat(r.notices).isEmpty();
        for (var d : io.rddp.tcp.Direction.values()) {
            List<Long> seq = r.deliveries.stream().filter(x -> x.direction() == d).map(Delivery::sequence).toList();
            for (int k = 0; k < seq.size(); k++) assertThat(seq.get(k)).isEqualTo(k);
        }
    }
}
