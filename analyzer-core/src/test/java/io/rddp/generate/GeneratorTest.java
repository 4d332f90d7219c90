package io.rddp.generate;

import io.rddp.Notice;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.rdmap.Opcode;
import io.rddp.rdmap.Terminate;
import io.rddp.tcp.Direction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GeneratorTest {

    private record Decoded(List<Pdu> pdus, List<String> opcodes, List<Notice> notices) {
    }

    private static byte[] generate(Scenario s, Generator.Options o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, LinkType.ETHERNET, true)) {
            Generator.generate(s, o, w);
        }
        return bytes.toByteArray();
    }

    private static Decoded decode(byte[] pcap) throws IOException {
        Path f = Files.createTempFile("gen", ".pcap");
        try {
            Files.write(f, pcap);
            List<Pdu> pdus = new ArrayList<>();
            List<String> ops = new ArrayList<>();
            List<Notice> notices = new ArrayList<>();
            try (CaptureReader r = CaptureReaders.open(f)) {
                new DecodePipeline(new PduListener() {
                    @Override
                    public void onPdu(Pdu pdu) {
                        pdus.add(pdu); // views are not used after the callback
                        if (pdu.rdmap() != null) ops.add(pdu.rdmap().opcode().shortName());
                    }

                    @Override
                    public void onNotice(Notice n) {
                        notices.add(n);
                    }
                }).run(r);
            }
            return new Decoded(pdus, ops, notices);
        } finally {
            Files.delete(f);
        }
    }

    private static Generator.Options count(long n, int size) {
        return new Generator.Options(0, n, size, 1460, false, 7);
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void everyScenarioDecodesCleanlyWithOurDecoder(Scenario s) throws IOException {
        Decoded d = decode(generate(s, count(5, 3000)));
        assertThat(d.notices()).as("decode notices").isEmpty();
        assertThat(d.pdus()).allSatisfy(p -> assertThat(p.problem()).isNull());
        assertThat(d.pdus().stream().filter(p -> p.startFrame() != null)).hasSize(s == Scenario.MIXED ? 6 : s == Scenario.BUSY_RNIC ? 128 : 2);
        assertThat(d.opcodes()).isNotEmpty();
    }

    @Test
    void rpingRepeatsTheSevenMessagesOfRealRpingPerIteration() throws IOException {
        Decoded d = decode(generate(Scenario.RPING, count(2, 0)));
        List<String> round = List.of("Send", "Read Request", "Read Response", "Send", "Send", "Write", "Send");
        List<String> expected = new ArrayList<>(round);
        expected.addAll(round);
        assertThat(d.opcodes()).containsExactlyElementsOf(expected);
    }

    @Test
    void writeStreamSegmentsEachMessageToFitTheMss() throws IOException {
        Decoded d = decode(generate(Scenario.WRITE_STREAM, new Generator.Options(0, 3, 10_000, 1000, false, 1)));
        // MULPDU = 1000 - 2 (length) - 4 (CRC field) rounded down to 4 = 992 (RFC 5044 §4.1); 10000 bytes of Write
        // payload with a 14-byte tagged header per segment: ceil(10000 / 978) = 11 segments per message.
        long writes = d.pdus().stream().filter(p -> p.rdmap() != null && p.rdmap().opcode() == Opcode.RDMA_WRITE).count();
        assertThat(writes).isEqualTo(3 * 11);
        assertThat(d.pdus()).filteredOn(p -> p.fpdu() != null).allSatisfy(p -> assertThat(p.fpdu().ulpduLength()).isLessThanOrEqualTo(992));
    }

    @Test
    void markersGoOnlyTowardTheSideThatAskedAndEveryCrcIsGood() throws IOException {
        Decoded d = decode(generate(Scenario.MARKERS_CRC, count(4, 3000)));
        List<Pdu> fpdus = d.pdus().stream().filter(p -> p.fpdu() != null).toList();
        assertThat(fpdus).allSatisfy(p -> assertThat(p.fpdu().crcOk()).isTrue());
        assertThat(fpdus).filteredOn(p -> p.direction() == Direction.CLIENT_TO_SERVER)
                .allSatisfy(p -> assertThat(p.fpdu().markerCount()).isZero());
        assertThat(fpdus).filteredOn(p -> p.direction() == Direction.SERVER_TO_CLIENT)
                .extracting(p -> p.fpdu().markerCount()).contains(1, 2, 3);
    }

    @Test
    void terminateScenarioEndsWithTerminateForTheSkippedMsn() throws IOException {
        Decoded d = decode(generate(Scenario.TERMINATE, count(0, 0)));
        assertThat(d.opcodes()).containsExactly("Send", "Send", "Send", "Send", "Terminate");
        Pdu last = d.pdus().get(d.pdus().size() - 1);
        Terminate t = (Terminate) last.rdmap().body();
        assertThat(List.of(t.layer(), t.errorType(), t.errorCode())).containsExactly(1, 2, 3);
    }

    @Test
    void busyRnicInterleavesCrcFpdusOfManyConnectionsAtTheMss() throws IOException {
        Decoded d = decode(generate(Scenario.BUSY_RNIC, new Generator.Options(3_000_000, 0, 0, 0, false, 5, 16)));
        List<Pdu> fpdus = d.pdus().stream().filter(p -> p.fpdu() != null).toList();
        assertThat(d.notices()).isEmpty();
        assertThat(fpdus).allSatisfy(p -> {
            assertThat(p.problem()).isNull();
            assertThat(p.fpdu().crcOk()).isTrue(); // MPA rev 2 with CRC on every connection
            assertThat(p.fpdu().wireLength()).isLessThanOrEqualTo(1448); // one FPDU per segment of MSS 1448
        });
        assertThat(fpdus.stream().map(Pdu::stream).distinct()).hasSize(16);
        long switches = 0;
        for (int i = 1; i < fpdus.size(); i++) if (fpdus.get(i).stream() != fpdus.get(i - 1).stream()) switches++;
        assertThat(switches).as("consecutive FPDUs of different connections").isGreaterThan(fpdus.size() * 8L / 10);
        assertThat(d.opcodes()).contains("Send", "Write", "Read Request", "Read Response");
        assertThat(fpdus.stream().map(p -> p.ddp().payloadLength()).toList())
                .anySatisfy(n -> assertThat(n).isLessThan(64)).anySatisfy(n -> assertThat(n).isGreaterThan(1300));
    }

    @Test
    void sameSeedGivesTheSameBytesAndAnotherSeedDoesNot() throws IOException {
        byte[] a = generate(Scenario.MIXED, count(3, 500));
        assertThat(generate(Scenario.MIXED, count(3, 500))).isEqualTo(a);
        assertThat(generate(Scenario.MIXED, new Generator.Options(0, 3, 500, 1460, false, 8))).isNotEqualTo(a);
    }

    @Test
    void sizeTargetIsMetWithinOneMessage() throws IOException {
        long target = 300_000;
        byte[] pcap = generate(Scenario.WRITE_STREAM, new Generator.Options(target, 0, 8192, 1460, false, 1));
        assertThat((long) pcap.length).isBetween(target, target + 8192 + 8 * 1600 + 200);
    }
}
