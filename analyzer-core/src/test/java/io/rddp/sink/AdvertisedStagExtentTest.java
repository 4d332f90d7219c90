package io.rddp.sink;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.CaptureWriter;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.generate.RpcRdmaWriter;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import static io.rddp.generate.RpcRdmaWriter.REQUESTER;
import static io.rddp.generate.RpcRdmaWriter.RESPONDER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An STag names one memory region with one base and one bound (RFC 5040 §2.1, §5.1); a Requester may advertise
 * several segments of that region under the same STag, in one chunk or in several (RFC 8166 §3.4.3: "a segment"
 * is a handle, a length and an offset, nothing makes handles unique per segment). Each advertisement proves that
 * much of the region exists, so the region the Data Sink model learns is at least the span of all of them, and a
 * Write into the second segment is no bounds violation; a Write outside every advertisement of the STag still is
 * (RFC 5041 §7.1 tagged checks 3-4, once the region is known from the wire).
 */
class AdvertisedStagExtentTest {

    private static final long NFS = 100003, H = 0x4400_0000L, O = 0x7e00_0000_0000L;

    private static byte[] capture(Consumer<RpcRdmaWriter> body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CaptureWriter pcap = new PcapWriter(out, LinkType.ETHERNET, true)) {
            long[] n = {0};
            TcpSessionWriter.FrameSink sink = (frame, ts) -> {
                try {
                    pcap.writePacket(1_700_000_000_000_000_000L + 1_000 * n[0]++, ByteBuffer.wrap(frame));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            IwarpConnectionWriter w = new IwarpConnectionWriter(new Endpoint(new byte[]{(byte) 192, 0, 2, 1}, 40001),
                    new Endpoint(new byte[]{(byte) 192, 0, 2, 2}, 20049),
                    new IwarpConnectionWriter.Config(1460, false, false, false, 2, 2, 2),
                    TcpSessionWriter.Options.defaults(), sink);
            w.open();
            body.accept(new RpcRdmaWriter(w, 0x5500_0000L, 0x7100_0000_0000L));
            w.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static List<String> errorsAndWarnings(byte[] pcap) throws IOException {
        Analysis a;
        try (CaptureReader r = CaptureReaders.open(new ByteArrayInputStream(pcap), "extent.pcap")) {
            a = new Analyzer(SinkModel.Options.defaults(), StagRegistry.empty()).run(r, () -> { });
        }
        return a.violations().stream().filter(v -> v.severity() != Severity.INFO)
                .map(v -> v.check().id() + " frame " + v.frame()).toList();
    }

    /** NFSv3 READ of {@code size} octets, its data item in a Write chunk (RFC 8166 §3.4.6, RFC 8267 §4.3). */
    private static byte[] readCall(long xid, int size) {
        byte[] fh = new XdrWriter().opaque(new byte[32]).toByteArray();
        return RpcEncoder.call(xid, NFS, 3, 6, new XdrWriter().raw(fh).u64(0).u32(size).toByteArray());
    }

    private static byte[] readReply(long xid, int size) {
        return RpcEncoder.acceptedReply(xid, 0, new XdrWriter().u32(0).bool(false).u32(size).bool(true).u32(size)
                .toByteArray());
    }

    private static RpcRdmaHeader call(long xid, List<RdmaSegment> writeChunk) {
        return RpcRdmaHeader.message(xid, 8, Proc.RDMA_MSG, List.of(), List.of(writeChunk), null);
    }

    private static RpcRdmaHeader reply(long xid, List<RdmaSegment> writeChunk) {
        return RpcRdmaHeader.message(xid, 8, Proc.RDMA_MSG, List.of(), List.of(writeChunk), null);
    }

    @Test
    void twoSegmentsOfOneRegionUnderOneStagAreBothWritable() throws IOException {
        // one 8 KiB region, advertised as two 4 KiB segments of one Write chunk under the same STag
        List<RdmaSegment> chunk = List.of(new RdmaSegment(H, 4096, O), new RdmaSegment(H, 4096, O + 4096));
        byte[] pcap = capture(r -> {
            r.send(REQUESTER, call(1, chunk), readCall(1, 8192));
            List<RdmaSegment> returned = r.push(chunk, new byte[8192]);
            r.send(RESPONDER, reply(1, returned), readReply(1, 8192));
        });
        assertThat(errorsAndWarnings(pcap)).isEmpty();
    }

    @Test
    void segmentsOfOneStagInSuccessiveCallsWidenItsRegion() throws IOException {
        // the region advertised again by a later call, further in: RFC 8166 §3.4.3 lets a Requester reuse a
        // registration; the second READ's data lands after the first one's
        List<RdmaSegment> first = List.of(new RdmaSegment(H, 1024, O));
        List<RdmaSegment> second = List.of(new RdmaSegment(H, 1024, O + 1024));
        byte[] pcap = capture(r -> {
            r.send(REQUESTER, call(1, first), readCall(1, 1024));
            r.send(RESPONDER, reply(1, r.push(first, new byte[1024])), readReply(1, 1024));
            r.send(REQUESTER, call(2, second), readCall(2, 1024));
            r.send(RESPONDER, reply(2, r.push(second, new byte[1024])), readReply(2, 1024));
        });
        assertThat(errorsAndWarnings(pcap)).isEmpty();
    }

    @Test
    void aWriteBeyondEveryAdvertisementOfTheStagIsStillOutOfBounds() throws IOException {
        List<RdmaSegment> chunk = List.of(new RdmaSegment(H, 4096, O), new RdmaSegment(H, 4096, O + 4096));
        byte[] pcap = capture(r -> {
            r.send(REQUESTER, call(1, chunk), readCall(1, 8192));
            r.push(chunk, new byte[8192]);
            r.write(H, O + 8192, new byte[64]);   // past the span of both segments
            r.send(RESPONDER, reply(1, chunk), readReply(1, 8192));
        });
        assertThat(errorsAndWarnings(pcap)).anyMatch(l -> l.startsWith(Check.DDP_BOUNDS.id()));
    }

    @Test
    void aWriteBeforeTheFirstAdvertisedOffsetIsStillOutOfBounds() throws IOException {
        List<RdmaSegment> chunk = List.of(new RdmaSegment(H, 4096, O + 4096), new RdmaSegment(H, 4096, O + 8192));
        byte[] pcap = capture(r -> {
            r.send(REQUESTER, call(1, chunk), readCall(1, 8192));
            r.write(H, O, new byte[64]);          // below the lowest advertised offset
            r.send(RESPONDER, reply(1, r.push(chunk, new byte[8192])), readReply(1, 8192));
        });
        assertThat(errorsAndWarnings(pcap)).anyMatch(l -> l.startsWith(Check.DDP_BOUNDS.id()));
    }

    @Test
    void aDeclaredRegistrationStaysTheWholeTruthBesideAdvertisements() {
        // `--stags` (or the tester's own knowledge) gives the region itself, RFC 5040 §3.2: an advertisement of a
        // wider piece does not widen it, so a real bounds violation against the declaration is still one
        StagRegistry reg = StagRegistry.empty()
                .add(new StagRegistration(H, O, 64, Set.of(StagRegistration.Access.WRITE), Side.CLIENT, Set.of(), 0,
                        Long.MAX_VALUE))
                .advertise(new StagRegistration(H, O, 4096, Set.of(StagRegistration.Access.WRITE), Side.CLIENT,
                        Set.of(0), 10, Long.MAX_VALUE));
        StagRegistration r = reg.resolve(H, Side.CLIENT, 0, 20).registration();
        assertThat(r.length()).isEqualTo(64);
        assertThat(r.contains(O + 100, 1)).isFalse();
        assertThat(reg.registrations(H)).hasSize(2);
    }

    @Test
    void aRevokedAdvertisementNoLongerWidensTheRegion() {
        // RFC 5040 §5.3 / RFC 8166 §4.4.1: after the owner invalidated the STag, what it advertised before is gone
        StagRegistry reg = StagRegistry.empty()
                .advertise(new StagRegistration(H, O, 4096, Set.of(StagRegistration.Access.WRITE), Side.CLIENT,
                        Set.of(0), 10, Long.MAX_VALUE))
                .revoke(H, 15)
                .advertise(new StagRegistration(H, O + 8192, 100, Set.of(StagRegistration.Access.WRITE), Side.CLIENT,
                        Set.of(0), 20, Long.MAX_VALUE));
        StagRegistration r = reg.resolve(H, Side.CLIENT, 0, 25).registration();
        assertThat(r.baseTo()).isEqualTo(O + 8192);
        assertThat(r.length()).isEqualTo(100);
    }

    @Test
    void theRegistryResolvesAnStagAdvertisedTwiceToTheSpanOfBoth() {
        StagRegistry reg = StagRegistry.empty()
                .advertise(new StagRegistration(H, O, 4096, Set.of(StagRegistration.Access.WRITE), Side.CLIENT,
                        Set.of(0), 10, Long.MAX_VALUE))
                .advertise(new StagRegistration(H, O + 8192, 100, Set.of(StagRegistration.Access.WRITE), Side.CLIENT,
                        Set.of(0), 20, Long.MAX_VALUE));
        StagRegistration atFrame15 = reg.resolve(H, Side.CLIENT, 0, 15).registration();
        StagRegistration atFrame25 = reg.resolve(H, Side.CLIENT, 0, 25).registration();
        assertThat(atFrame15.baseTo()).isEqualTo(O);
        assertThat(atFrame15.length()).as("only the first advertisement is known at frame 15").isEqualTo(4096);
        assertThat(atFrame25.baseTo()).isEqualTo(O);
        assertThat(atFrame25.length()).isEqualTo(8192 + 100);
        assertThat(atFrame25.contains(O + 4096, 64)).as("between the two: inside the one region").isTrue();
        assertThat(atFrame25.contains(O + 8292, 1)).isFalse();
    }
}
