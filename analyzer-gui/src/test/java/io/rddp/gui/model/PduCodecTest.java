package io.rddp.gui.model;

import io.rddp.analyze.AnalysisLimits;
import io.rddp.analyze.Analyzer;
import io.rddp.analyze.UlpProfile;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.FieldSink;
import io.rddp.decode.Pdu;
import io.rddp.rpcrdma.ChunkMove;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.sink.StagRegistry;
import io.rddp.testing.RepoPaths;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The window keeps most FPDUs as their framing and header octets and describes them when shown ({@link PduCodec});
 * the rest as their described fields. Over every capture of pcaps/, each FPDU kept both ways must read back to the
 * same row (protocol, info, endpoints, octets) and the same field tree, call for call.
 */
class PduCodecTest {

    @Test
    void everyFpduKeptAsOctetsReadsBackAsItsDescribedFields() throws Exception {
        List<Path> captures;
        try (Stream<Path> s = Files.walk(RepoPaths.pcaps())) {
            captures = s.filter(p -> p.toString().matches(".*\\.(pcap|pcapng|pcap\\.gz)$")).sorted().toList();
        }
        assertThat(captures).hasSizeGreaterThan(100);
        long compared = 0, described = 0;
        for (Path capture : captures) {
            long[] counts = compare(capture);
            compared += counts[0];
            described += counts[1];
        }
        System.out.printf("PduCodecTest: %d captures, %d PDUs kept as octets and compared, %d kept as fields only%n",
                captures.size(), compared, described);
        // most PDUs of the corpus are plain FPDUs; MPA Request/Reply frames and RPC-over-RDMA keep their fields
        assertThat(compared).isGreaterThan(10_000);
        assertThat(described).isGreaterThan(1_000);
    }

    @Test
    void aPduOfAConnectionBeyondTheTableKeepsItsFields() throws Exception {
        // the store remembers at most MAX_CONNECTIONS connections' endpoints; past that a PDU is described at load
        try (DetailStore store = new DetailStore();
             CaptureReader r = CaptureReaders.open(RepoPaths.pcap("siw/siw-rping-lo.pcap"))) {
            List<Pdu> kept = new ArrayList<>();
            new Analyzer(AnalysisLimits.defaults(), StagRegistry.empty(), UlpProfile.NONE).frameHeaders(true)
                    .observe(new Analyzer.Observer() {
                        @Override
                        public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
                            if (kept.isEmpty() && PduCodec.fits(pdu)) {
                                kept.add(pdu);
                                try {
                                    assertThat(store.appendPdu(pdu)).isGreaterThanOrEqualTo(0);
                                    for (int i = 1; i <= DetailStore.MAX_CONNECTIONS; i++) {
                                        Pdu other = new Pdu(pdu.frame(), pdu.timestampNanos(), pdu.relativeNanos(),
                                                new PduCodec.Connection(pdu.stream() + i, pdu.connection().client(),
                                                        pdu.connection().server()), pdu.direction(), null, pdu.fpdu(),
                                                pdu.ddp(), pdu.rdmap(), null, pdu.headers());
                                        long at = store.appendPdu(other);
                                        assertThat(at >= 0).as("connection %d of %d", i + 1,
                                                DetailStore.MAX_CONNECTIONS).isEqualTo(i < DetailStore.MAX_CONNECTIONS);
                                    }
                                } catch (IOException e) {
                                    throw new java.io.UncheckedIOException(e);
                                }
                            }
                        }
                    }).threads(1).run(r, () -> { });
            assertThat(kept).hasSize(1);
        }
    }

    /** Loads {@code capture} keeping each PDU both ways; returns {compared, described only}. */
    private static long[] compare(Path capture) throws IOException {
        List<long[]> pairs = new ArrayList<>();
        long[] describedOnly = {0};
        try (DetailStore store = new DetailStore(); CaptureReader r = CaptureReaders.open(capture)) {
            new Analyzer(AnalysisLimits.defaults(), StagRegistry.empty(), UlpProfile.NONE).frameHeaders(true)
                    .observe(new Analyzer.Observer() {
                        @Override
                        public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
                            try {
                                long fields = store.appendDescribed(pdu, message, move);
                                long octets = message == null && move == null ? store.appendPdu(pdu) : -1;
                                if (octets >= 0) pairs.add(new long[]{pdu.frame(), fields, octets});
                                else describedOnly[0]++;
                            } catch (IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        }
                    }).threads(1).run(r, () -> { });
            store.flush();
            for (long[] p : pairs) {
                Calls a = new Calls(), b = new Calls();
                DetailStore.Header ha = store.replay(p[1], a), hb = store.replay(p[2], b);
                String where = capture.getFileName() + " frame " + p[0];
                assertThat(row(hb)).as(where).isEqualTo(row(ha));
                assertThat(b.calls).as(where).isEqualTo(a.calls);
                assertThat(store.header(p[2]).info()).as(where).isEqualTo(ha.info());
            }
        }
        return new long[]{pairs.size(), describedOnly[0]};
    }

    private static String row(DetailStore.Header h) {
        return h.protocol() + " | " + h.info() + " | " + h.source() + " > " + h.destination() + " | "
                + HexFormat.of().formatHex(h.bytes());
    }

    /**
     * Every call a sink gets, with its key, label and value, in order. A time comes as its text either way: the
     * store keeps it as the number and hands a sink the text {@link FieldSink#time} makes.
     */
    private static final class Calls implements FieldSink {
        final List<String> calls = new ArrayList<>();

        private void add(String op, String key, String label, Object value) {
            calls.add(op + " " + key + " [" + label + "] " + value);
        }

        @Override
        public void begin(String key, String label) {
            add("begin", key, label, "");
        }

        @Override
        public void end() {
            calls.add("end");
        }

        @Override
        public void beginList(String key, String label) {
            add("list", key, label, "");
        }

        @Override
        public void endList() {
            calls.add("endList");
        }

        @Override
        public void number(String key, String label, long value) {
            add("number", key, label, value);
        }

        @Override
        public void id32(String key, String label, long value) {
            add("id32", key, label, value);
        }

        @Override
        public void hexNumber(String key, String label, long value, int digits) {
            add("hex" + digits, key, label, value);
        }

        @Override
        public void address(String key, String label, byte[] octets) {
            add("address", key, label, HexFormat.of().formatHex(octets));
        }

        @Override
        public void unsigned64(String key, String label, long value) {
            add("u64", key, label, value);
        }

        @Override
        public void bool(String key, String label, boolean value) {
            add("bool", key, label, value);
        }

        @Override
        public void text(String key, String label, String value) {
            add("text", key, label, value);
        }

        @Override
        public void hex(String key, String label, byte[] value) {
            add("hex", key, label, HexFormat.of().formatHex(value));
        }
    }
}
