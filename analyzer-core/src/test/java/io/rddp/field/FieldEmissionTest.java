package io.rddp.field;

import io.rddp.testing.RepoPaths;
import io.rddp.testing.VlanTagged;
import org.junit.jupiter.api.io.TempDir;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.FieldSink;
import io.rddp.decode.PduFields;
import io.rddp.filter.DisplayFilter;
import io.rddp.filter.FieldRecord;
import io.rddp.filter.FilterFields;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.UlpInfo;
import io.rddp.rpcrdma.RpcRdmaFields;
import io.rddp.rpcrdma.RpcRdmaListener;
import io.rddp.rpcrdma.RpcRdmaMessage;
import io.rddp.rpcrdma.RpcRdmaStage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the describers emit on every bundled capture is what the registry declares: each value under a registered
 * filter name, by the sink call its type and base ask for, with its label; each group a registered layer. And what
 * the registry declares is emitted: the bundled captures show every field but those of RPC replies denied and of
 * RPC messages that do not decode, which {@link #describeWhatNoCaptureShows} makes.
 */
class FieldEmissionTest {

    private static final List<String> problems = new ArrayList<>();
    private static final Set<Field> emitted = new LinkedHashSet<>();
    private static final Set<String> emittedNames = new TreeSet<>();
    private static final Set<String> recordNames = new TreeSet<>();

    /** Checks each call against the registry, tracking the filter name as FieldRecord builds it. */
    private static final class CheckingSink implements FieldSink {
        private final Deque<String> paths = new ArrayDeque<>(List.of(""));

        private String child(String key) {
            String p = paths.peek();
            return key == null ? p : p.isEmpty() ? key : p + "." + key;
        }

        private void group(String key, boolean list) {
            String n = child(key);
            if (key != null) {
                FilterName f = FieldRegistry.byName(n);
                boolean ok = list ? (f == null && layer(n, Layer.Shape.LIST)) || (f != null && !f.isLayer())
                        : f != null && f.isLayer();
                if (!ok) problems.add((list ? "list " : "group ") + n + " is not a registered "
                        + (list ? "list" : "layer"));
            }
            paths.push(n);
        }

        private static boolean layer(String key, Layer.Shape shape) {
            return FieldRegistry.layers().stream().anyMatch(l -> l.key().equals(key) && l.shape() == shape);
        }

        private void value(String key, String label, String call, FieldType... types) {
            String n = child(key);
            emittedNames.add(n);
            Field f = FieldRegistry.field(n);
            if (f == null) {
                problems.add(n + " (" + label + ") is emitted but not registered");
                return;
            }
            emitted.add(f);
            if (!List.of(types).contains(f.type())) problems.add(n + " is " + f.type() + " but emitted by " + call);
            if (call.equals("id32") && f.base() != Base.HEX) problems.add(n + " is shown in hex but its base is dec");
            if (!label.equals(f.label()) && !label.equals(MpaField.CRC_UNCHECKED_LABEL)
                    && !label.equals(RpcRdmaField.REBUILT_LENGTH_LABEL)) {
                problems.add(n + " is labelled '" + label + "', registered as '" + f.label() + "'");
            }
        }

        @Override
        public void begin(String key, String label) {
            group(key, false);
        }

        @Override
        public void beginList(String key, String label) {
            group(key, true);
        }

        @Override
        public void end() {
            paths.pop();
        }

        @Override
        public void number(String key, String label, long value) {
            // a header cut short shows identifiers in decimal (FieldSink.decimal), so any number may come here
            value(key, label, "number", FieldType.NUMBER);
        }

        @Override
        public void id32(String key, String label, long value) {
            value(key, label, "id32", FieldType.NUMBER);
        }

        @Override
        public void hexNumber(String key, String label, long value, int digits) {
            value(key, label, "id32", FieldType.NUMBER);
            Field f = FieldRegistry.field(child(key));
            if (f != null && f.hexDigits() != digits) problems.add(child(key) + " shown with " + digits + " digits");
        }

        @Override
        public void address(String key, String label, byte[] octets) {
            value(key, label, "address", octets.length == 4 ? FieldType.IPV4 : octets.length == 16 ? FieldType.IPV6
                    : FieldType.ETHER);
        }

        @Override
        public void unsigned64(String key, String label, long value) {
            value(key, label, "unsigned64", FieldType.UINT64);
        }

        @Override
        public void bool(String key, String label, boolean value) {
            value(key, label, "bool", FieldType.BOOLEAN);
        }

        @Override
        public void text(String key, String label, String value) {
            value(key, label, "text", FieldType.TEXT);
        }

        @Override
        public void time(String key, String label, long nanos) {
            value(key, label, "time", FieldType.TIME);
        }

        @Override
        public void hex(String key, String label, byte[] value) {
            value(key, label, "hex", FieldType.BYTES);
        }
    }

    @TempDir
    static Path tmp;

    @BeforeAll
    static void describeEveryBundledCapture() throws IOException {
        List<Path> captures = new ArrayList<>();
        try (Stream<Path> s = Files.walk(RepoPaths.root().resolve("pcaps"))) {
            s.filter(p -> p.toString().matches(".*\\.pcap(ng)?(\\.gz)?$")).sorted().forEach(captures::add);
        }
        // none of the bundled captures has a VLAN tag
        captures.add(VlanTagged.write(RepoPaths.pcaps().resolve("generated/rping.pcap"), tmp.resolve("vlan.pcap"), 1,
                7));
        FieldRecord record = new FieldRecord();
        for (Path p : captures) {
            try (CaptureReader reader = CaptureReaders.open(p)) {
                new DecodePipeline(new RpcRdmaStage((RpcRdmaListener) (pdu, m, mv) -> {
                    CheckingSink sink = new CheckingSink();
                    PduFields.describe(pdu, sink);
                    RpcRdmaFields.describe(m, mv, sink);
                    assertThat(sink.paths).containsExactly("");
                    DisplayFilter.describe(pdu, m, mv, List.of("x"), List.of("error"), record);
                    recordNames.addAll(record.all().keySet());
                }, RpcRdmaStage.DecodeAs.AUTO)).frameHeaders(true).run(reader);
            } catch (CaptureException e) {
                // a truncated regression capture: what was read counts
            }
        }
        describeWhatNoCaptureShows();
    }

    /** RPC replies denied (RPC_MISMATCH, AUTH_ERROR), a COMPOUND decoded in part, an RPC message not decoded. */
    private static void describeWhatNoCaptureShows() {
        UlpInfo compound = new UlpInfo(List.of("SEQUENCE", "PUTFH"), 3, -1, -1, -1, -1, -1, "too many operations");
        RpcMessage mismatch = new RpcMessage(7, false, -1, -1, -1, -1, -1, -1, 1, -1, 0, 2, 2, -1, 0, 24, null);
        RpcMessage authError = new RpcMessage(8, false, -1, -1, -1, -1, -1, -1, 1, -1, 1, -1, -1, 1, 0, 20, compound);
        for (RpcMessage rpc : List.of(mismatch, authError)) {
            RpcRdmaMessage m = new RpcRdmaMessage(RpcRdmaMessage.Source.INLINE, false, (int) rpc.length(), null, null,
                    rpc, null, RpcRdmaMessage.Recognition.FORCED);
            RpcRdmaFields.describe(m, null, new CheckingSink());
        }
        RpcRdmaFields.describe(new RpcRdmaMessage(RpcRdmaMessage.Source.INLINE, true, 8, null, null, null,
                "4 octets where the XID needs 4 and the message type 4", RpcRdmaMessage.Recognition.FORCED), null,
                new CheckingSink());
    }

    @Test
    void everyEmittedValueIsARegisteredFieldByItsTypeAndLabel() {
        assertThat(problems).isEmpty();
        assertThat(emittedNames).contains("rdmap.opcode", "ddp.msn", "ddp.truncated", "rpcrdma.reads.handle",
                "rpc.ops", "mpa.privateData", "time");
    }

    @Test
    void everyNameAFilterCanAskOfAPduIsAFilterName() {
        assertThat(recordNames).filteredOn(n -> FilterFields.get(n) == null).isEmpty();
        assertThat(recordNames).contains("tcp.port", "ip.addr", "violation.check", "violation.severity");
    }

    @Test
    void everyRegisteredFieldIsEmitted() {
        Set<String> missing = new TreeSet<>();
        for (Field f : FieldRegistry.fields()) {
            if (!emitted.contains(f) && !CaptureField.all().contains(f)) missing.add(f.key());
        }
        assertThat(missing).isEmpty();
        // and the names from outside the PDU are what a filter can ask
        for (Field f : CaptureField.all()) assertThat(recordNames).contains(f.key());
    }
}
