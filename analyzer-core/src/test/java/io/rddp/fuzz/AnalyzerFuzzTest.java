package io.rddp.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rddp.MalformedException;
import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.analyze.UlpProfile;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.rdmap.AtomicRequest;
import io.rddp.rdmap.AtomicResponse;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.Terminate;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagRegistry;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole analyzer (decode pipeline and the Data Sink model) on hostile input. {@link Analyzer#run} documents
 * that a capture turning bad is reported in the {@link Analysis}, not thrown; opening may throw
 * {@link CaptureException}. Nothing else may escape.
 */
class AnalyzerFuzzTest {
    static final int MAX_EVENTS = 48;
    static final int MAX_DATA = 3000;

    /** Any bytes as a capture file (seeds: real and generated captures). */
    @FuzzTest(maxDuration = "10s")
    void analyzeCapture(byte[] data) throws IOException {
        analyze(data, data.length > 0 && (data[data.length - 1] & 1) != 0);
    }

    /**
     * One iWARP connection written by the project's encoder from fuzzer-chosen parameters: MSS, Markers, CRC, MPA
     * revision, IRD/ORD, initial sequence numbers (wraps included), then RDMAP messages of every opcode with
     * fuzzer-chosen header fields, damaged FPDUs, retransmissions, zero windows, resets and closes. This reaches the
     * sink model's rules with well-framed but wrong traffic. {@link FuzzSeeds} writes seeds in the order consumed.
     */
    @FuzzTest(maxDuration = "10s")
    void analyzeGeneratedConnection(FuzzedDataProvider in) throws IOException {
        ByteArrayOutputStream capture = new ByteArrayOutputStream();
        try (PcapWriter pcap = new PcapWriter(capture, LinkType.ETHERNET, true)) {
            TcpSessionWriter.Options tcp = TcpSessionWriter.Options.defaults()
                    .withIsn(Direction.CLIENT_TO_SERVER, in.consumeLong(0, 0xFFFF_FFFFL))
                    .withIsn(Direction.SERVER_TO_CLIENT, in.consumeLong(0, 0xFFFF_FFFFL));
            IwarpConnectionWriter.Config config = new IwarpConnectionWriter.Config(in.consumeInt(64, 9000),
                    in.consumeBoolean(), in.consumeBoolean(), in.consumeBoolean(), in.consumeInt(1, 2),
                    in.consumeInt(0, 0x3FFF), in.consumeInt(0, 0x3FFF));
            IwarpConnectionWriter w = new IwarpConnectionWriter(new Endpoint(new byte[]{10, 0, 0, 1}, 40000),
                    new Endpoint(new byte[]{10, 0, 0, 2}, 4791), config, tcp, (frame, nanos) -> {
                try {
                    pcap.writePacket(nanos, frame);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            w.open();
            for (int n = 0; n < MAX_EVENTS && in.remainingBytes() > 0; n++) {
                event(in, w);
            }
            if (in.consumeBoolean()) w.close();
        }
        analyze(capture.toByteArray(), in.consumeBoolean());
    }

    /** Consumes one event's choices (in this order: see FuzzSeeds.analyzerEvent). */
    static void event(FuzzedDataProvider in, IwarpConnectionWriter w) {
        Direction d = in.consumeBoolean() ? Direction.SERVER_TO_CLIENT : Direction.CLIENT_TO_SERVER;
        int kind = in.consumeInt(0, 12);
        if (kind >= 9) {
            TcpSessionWriter tcp = w.tcp();
            switch (kind) {
                case 9 -> {
                    long next = tcp.nextOffset(d);
                    tcp.retransmit(d, Math.max(0, next - in.consumeInt(0, 4096)),
                            ByteBuffer.wrap(in.consumeBytes(in.consumeInt(0, 1460))));
                }
                case 10 -> tcp.advertiseWindow(d, in.consumeInt(0, 0xFFFF));
                case 11 -> tcp.keepAlive(d, in.consumeBoolean());
                default -> {
                    if (in.consumeBoolean()) tcp.reset(d);
                    else tcp.close(d);
                }
            }
            return;
        }
        long stag = in.consumeLong(0, 0xFFFF_FFFFL);
        long to = in.consumeLong(0, Long.MAX_VALUE);
        ByteBuffer data = ByteBuffer.wrap(in.consumeBytes(in.consumeInt(0, MAX_DATA)));
        RdmapEncoder.Builder b;
        try {
            b = switch (kind) {
                case 0 -> w.send(d, data);
                case 1 -> w.write(d, stag, to, data);
                case 2 -> w.readRequest(d, ReadRequest.parse(ByteBuffer.wrap(in.consumeBytes(ReadRequest.LENGTH))));
                case 3 -> w.readResponse(d, stag, to, data);
                case 4 -> w.terminate(d, Terminate.parse(ByteBuffer.wrap(in.consumeBytes(64))));
                case 5 -> w.immediateData(d, to);
                case 6 -> w.atomicRequest(d, AtomicRequest.parse(ByteBuffer.wrap(
                        in.consumeBytes(AtomicRequest.LENGTH))));
                case 7 -> w.atomicResponse(d, AtomicResponse.parse(ByteBuffer.wrap(
                        in.consumeBytes(AtomicResponse.LENGTH))));
                default -> w.sendWithInvalidate(d, data, stag);
            };
        } catch (MalformedException tooShort) {
            return;
        }
        // header fields the encoder would set right, set wrong (each within its field's width)
        int overrides = in.consumeInt(0, 3);
        for (int i = 0; i < overrides; i++) {
            switch (in.consumeInt(0, 9)) {
                case 0 -> b.opcode(in.consumeInt(0, 15));
                case 1 -> b.rdmaVersion(in.consumeInt(0, 3));
                case 2 -> b.ddpVersion(in.consumeInt(0, 3));
                case 3 -> b.tagged(in.consumeBoolean());
                case 4 -> b.qn(in.consumeLong(0, 0xFFFF_FFFFL));
                case 5 -> b.msn(in.consumeLong(0, 0xFFFF_FFFFL));
                case 6 -> b.mo(in.consumeLong(0, 0xFFFF_FFFFL));
                case 7 -> b.lastFlag(in.consumeBoolean());
                case 8 -> b.mulpdu(in.consumeInt(32, 0xFFFF));
                default -> b.ddpReserved(in.consumeInt(0, 15));
            }
        }
        int damageAt = in.consumeInt(0, 1 << 16);
        int damage = in.consumeInt(0, 255);
        w.ulpdus(d, b.ulpdus(), (fpdu, offset) -> {
            if (damage != 0 && damageAt < fpdu.length) fpdu[damageAt] ^= (byte) damage;
            return fpdu;
        });
    }

    static Analysis analyze(byte[] capture, boolean strict) throws IOException {
        CaptureReader reader;
        try {
            reader = CaptureReaders.open(new ByteArrayInputStream(capture), "fuzz");
        } catch (CaptureException notACapture) {
            return null;
        }
        try (reader) {
            Analysis a = new Analyzer(SinkModel.Options.defaults().withStrict(strict), StagRegistry.empty(),
                    strict ? UlpProfile.RPING : UlpProfile.NONE).run(reader, () -> { });
            assertThat(a.frames()).isGreaterThanOrEqualTo(0);
            assertThat(a.violations()).allSatisfy(v -> assertThat(v.toString()).isNotEmpty());
            return a;
        }
    }
}
