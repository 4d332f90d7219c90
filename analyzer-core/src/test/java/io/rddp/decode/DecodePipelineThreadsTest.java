package io.rddp.decode;

import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.CaptureWriter;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.Generator;
import io.rddp.generate.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The second thread above MPA ({@link DecodePipeline#threads}) when the file or the listener fails part way. */
class DecodePipelineThreadsTest {

    @TempDir
    Path dir;

    private Path busy(long bytes) throws IOException {
        Path p = dir.resolve("busy.pcap");
        try (CaptureWriter w = PcapWriter.create(p, LinkType.ETHERNET, false)) {
            Generator.generate(Scenario.BUSY_RNIC, new Generator.Options(bytes, 0, 0, 0, true, 3, 8), w);
        }
        return p;
    }

    /** What the listener saw, in order: PDUs, messages, closes and ends as text. */
    private static List<String> events(Path capture, int threads, Class<? extends Exception> expected) throws IOException {
        List<String> seen = new ArrayList<>();
        PduListener l = new PduListener() {
            @Override
            public void onPdu(Pdu pdu) {
                seen.add(pdu.frame() + " " + pdu.stream() + " " + pdu.direction() + " "
                        + (pdu.rdmap() != null ? pdu.rdmap().opcode() : pdu.problem()));
            }

            @Override
            public void onMessage(io.rddp.tcp.TcpConnection c, io.rddp.tcp.Direction d, io.rddp.ddp.DdpMessage m) {
                seen.add("message " + c.index() + " " + d + " " + m.end());
            }

            @Override
            public void onConnectionEnd(io.rddp.tcp.TcpConnection c, long frame, boolean captureEnded) {
                seen.add("end " + c.index() + " " + frame + " " + captureEnded);
            }
        };
        try (CaptureReader r = CaptureReaders.open(capture)) {
            new DecodePipeline(l).threads(threads).run(r);
            assertThat(expected).isNull();
        } catch (Exception e) {
            assertThat(e).isInstanceOf(expected);
        }
        return seen;
    }

    @Test
    void aFileCutShortIsDecodedUpToTheCutOnTwoThreadsAsOnOne() throws IOException {
        Path whole = busy(2 << 20);
        Path cut = dir.resolve("cut.pcap");
        byte[] b = Files.readAllBytes(whole);
        Files.write(cut, java.util.Arrays.copyOf(b, b.length * 2 / 3 + 7)); // ends inside a record
        List<String> one = events(cut, 1, CaptureException.class);
        List<String> two = events(cut, 2, CaptureException.class);
        assertThat(one).hasSizeGreaterThan(1000).anyMatch(e -> e.startsWith("end ") && e.endsWith(" true"));
        assertThat(two).isEqualTo(one);
    }

    @Test
    @Timeout(30)
    void aListenerThatFailsOnTheSecondThreadFailsTheRunInsteadOfHangingIt() throws IOException {
        Path capture = busy(8 << 20); // far more events than the hand-over queue holds
        PduListener failing = new PduListener() {
            int n;

            @Override
            public void onPdu(Pdu pdu) {
                if (++n == 100) throw new IllegalStateException("listener bug at PDU 100");
            }
        };
        try (CaptureReader r = CaptureReaders.open(capture)) {
            assertThat(r.stableViews()).isTrue();
            assertThatThrownBy(() -> new DecodePipeline(failing).threads(2).run(r))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("listener bug at PDU 100");
        }
    }
}
