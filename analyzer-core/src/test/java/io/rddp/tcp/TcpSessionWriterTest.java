package io.rddp.tcp;

import io.rddp.capture.LinkType;
import io.rddp.tcp.TcpSessionWriter.Faults;
import io.rddp.tcp.TcpSessionWriter.Options;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.rddp.tcp.Direction.CLIENT_TO_SERVER;
import static io.rddp.tcp.Direction.SERVER_TO_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TcpSessionWriterTest {
    static final Endpoint C = TcpReassemblerTest.CLIENT;
    static final Endpoint S = TcpReassemblerTest.SERVER;

    final Capture cap = new Capture();

    /** Every frame decoded, as "src> [flags] seq ack len". */
    List<String> summary() {
        List<String> out = new ArrayList<>();
        PacketDecoder decoder = new PacketDecoder(n -> { });
        TcpSegment seg = new TcpSegment();
        for (int i = 0; i < cap.frames.size(); i++) {
            assertThat(decoder.decode(Capture.frame(i + 1, LinkType.ETHERNET, cap.frames.get(i)), seg)).isTrue();
            out.add((seg.source().equals(C) ? "c" : "s") + " [" + TcpHeader.flagNames(seg.flags()) + "] "
                    + seg.sequence() + " " + seg.acknowledgment() + " " + seg.payloadLength());
        }
        return out;
    }

    @Test
    void handshakeDataAndCloseCarryConsistentSequenceAndAcknowledgmentNumbers() {
        TcpSessionWriter w = new TcpSessionWriter(C, S, new Options(100, 5000, 1000, 0, 1, 0), cap);
        w.handshake();
        assertThat(w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(2500), 1000)).isEqualTo(3);
        w.send(SERVER_TO_CLIENT, ByteBuffer.allocate(10), 1000);
        w.close(CLIENT_TO_SERVER);
        w.ack(SERVER_TO_CLIENT);
        w.close(SERVER_TO_CLIENT);
        w.ack(CLIENT_TO_SERVER);
        assertThat(summary()).containsExactly(
                "c [SYN] 100 0 0",
                "s [SYN, ACK] 5000 101 0",
                "c [ACK] 101 5001 0",
                "c [ACK] 101 5001 1000",
                "c [ACK] 1101 5001 1000",
                "c [PSH, ACK] 2101 5001 500",
                "s [PSH, ACK] 5001 2601 10",
                "c [FIN, ACK] 2601 5011 0",
                "s [ACK] 5011 2602 0",
                "s [FIN, ACK] 5011 2602 0",
                "c [ACK] 2602 5012 0");
        assertThat(cap.timestamps).startsWith(0L, 1L, 2L);
        assertThat(w.framesWritten()).isEqualTo(11);
        assertThat(w.nextOffset(CLIENT_TO_SERVER)).isEqualTo(2500);
    }

    @Test
    void faultsReorderDuplicateAndDropSegments() {
        TcpSessionWriter w = new TcpSessionWriter(C, S, new Options(0, 0, 1000, 0, 1, 0), cap);
        w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(400), 100, Faults.sequence(3, 1, 1, 0));
        w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(300), 100, Faults.none().reversed().drop(1).duplicate(0));
        assertThat(summary()).extracting(s -> s.split("] ")[1].split(" ")[0]).containsExactly(
                "301", "101", "101", "1",     // segment 2 (201) is dropped
                "601", "401", "401");          // 2, (1 dropped), 0 twice
    }

    @Test
    void receiverAcknowledgesDroppedSegmentsButNotUnsentOnes() {
        TcpSessionWriter w = new TcpSessionWriter(C, S, new Options(0, 0, 1000, 0, 1, 2), cap);
        w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(500), 100, Faults.sequence(2, 0, 4));
        // 1 and 3 were sent but not captured: after 2 and 0 the peer holds 0..3
        assertThat(summary()).containsExactly(
                "c [ACK] 201 1 100",
                "c [ACK] 1 1 100",
                "s [ACK] 1 401 0",
                "c [PSH, ACK] 401 1 100",
                "s [ACK] 1 501 0");
    }

    @Test
    void isnNearTheWrapMakesSequenceNumbersWrap() {
        TcpSessionWriter w = new TcpSessionWriter(C, S,
                Options.defaults().withIsn(CLIENT_TO_SERVER, 0xffffffffL - 50), cap);
        w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(200), 100);
        assertThat(summary()).extracting(s -> s.split("] ")[1].split(" ")[0]).containsExactly("4294967246", "50");
        assertThat(w.sequenceAt(CLIENT_TO_SERVER, 50)).isZero();
    }

    @Test
    void keepAliveAndRetransmitDoNotMoveTheStream() {
        TcpSessionWriter w = new TcpSessionWriter(C, S, new Options(0, 0, 1000, 0, 1, 0), cap);
        w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(100), 100);
        w.keepAlive(CLIENT_TO_SERVER, true);
        w.retransmit(CLIENT_TO_SERVER, 50, ByteBuffer.allocate(70));
        w.advertiseWindow(SERVER_TO_CLIENT, 0);
        w.reset(SERVER_TO_CLIENT);
        assertThat(summary()).containsExactly(
                "c [PSH, ACK] 1 1 100",
                "c [ACK] 100 1 1",
                "c [PSH, ACK] 51 1 70",
                "s [ACK] 1 101 0",
                "s [RST, ACK] 1 101 0");
        assertThat(w.nextOffset(CLIENT_TO_SERVER)).isEqualTo(100);
    }

    @Test
    void faultsNamingMissingSegmentsAreRefused() {
        TcpSessionWriter w = new TcpSessionWriter(C, S, cap);
        assertThatThrownBy(() -> w.send(CLIENT_TO_SERVER, ByteBuffer.allocate(100), 50, Faults.sequence(0, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("segment 2 of 2");
    }
}
