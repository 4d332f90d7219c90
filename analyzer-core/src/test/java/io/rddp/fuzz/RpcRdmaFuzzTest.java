package io.rddp.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rddp.MalformedException;
import io.rddp.analyze.Analysis;
import io.rddp.analyze.AnalysisLimits;
import io.rddp.analyze.Analyzer;
import io.rddp.analyze.UlpProfile;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.generate.RpcRdmaWriter;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.XdrReader;
import io.rddp.rpcrdma.Proc;
import io.rddp.rpcrdma.RdmaSegment;
import io.rddp.rpcrdma.ReadSegment;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.rpcrdma.RpcRdmaStage;
import io.rddp.sink.StagRegistry;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RPC-over-RDMA (RFC 8166) and ONC RPC (RFC 5531) on hostile input: the transport header parser and the RPC/NFS
 * decoder either decode or throw {@link MalformedException}; a parsed header writes back the same octets; and the
 * whole analyzer on an NFS/RDMA connection (port 20049) whose Sends and RDMA operations the fuzzer chooses
 * finishes with an {@link Analysis}.
 */
class RpcRdmaFuzzTest {

    /** A Send's bytes (seeds: every Send of pcaps/generated/nfs-rdma-crc.pcap). */
    @FuzzTest(maxDuration = "10s")
    void decodeSend(byte[] data) {
        ByteBuffer buf = ByteBuffer.wrap(data).asReadOnlyBuffer();
        try {
            RpcRdmaHeader h = RpcRdmaHeader.parse(buf);
            assertThat(buf.position()).isZero();
            assertThat(h.length()).isBetween(16, data.length);
            if (h.version() == 1 && h.proc() != Proc.RDMA_DONE) {
                // one definition of every field: the header writes back exactly the octets it was parsed from
                ByteBuffer out = ByteBuffer.allocate(h.length());
                h.writeTo(out);
                assertThat(out.array()).isEqualTo(java.util.Arrays.copyOf(data, h.length()));
            }
            if (h.proc() == Proc.RDMA_MSG && h.version() == 1) rpc(buf.duplicate().position(h.length()), h.readList());
        } catch (MalformedException expected) {
            assertThat(expected.getMessage()).isNotEmpty();
        }
        rpc(buf.duplicate(), List.of());
    }

    private static void rpc(ByteBuffer payload, List<ReadSegment> reads) {
        XdrReader.Builder b = XdrReader.builder();
        int at = payload.position();
        if (!reads.isEmpty() && reads.get(0).position() <= payload.remaining()) {
            int p = (int) reads.get(0).position();
            b.add(payload.duplicate().limit(at + p)).addHole(Math.min(reads.get(0).target().length(), 1L << 30))
                    .add(payload.duplicate().position(at + p));
        } else {
            b.add(payload);
        }
        try {
            RpcMessage m = RpcMessage.parse(b.build(), xid -> new RpcMessage.CallKey(100003, xid & 1 | 3, xid % 23),
                    () -> payload.remaining() % 3 == 0 ? -1 : payload.remaining());
            assertThat(m.summary()).isNotEmpty();
        } catch (MalformedException expected) {
            assertThat(expected.getMessage()).isNotEmpty();
        }
    }

    /** An NFS/RDMA connection of fuzzer-chosen Sends, chunks, RDMA Reads and Writes, through the whole analyzer. */
    @FuzzTest(maxDuration = "10s")
    void analyzeRpcRdmaConnection(FuzzedDataProvider in) throws IOException {
        ByteArrayOutputStream capture = new ByteArrayOutputStream();
        try (PcapWriter pcap = new PcapWriter(capture, LinkType.ETHERNET, true)) {
            IwarpConnectionWriter w = new IwarpConnectionWriter(new Endpoint(new byte[]{10, 0, 0, 1}, 40000),
                    new Endpoint(new byte[]{10, 0, 0, 2}, RpcRdmaStage.NFS_RDMA_PORT),
                    IwarpConnectionWriter.Config.defaults().withMss(in.consumeInt(200, 9000)),
                    TcpSessionWriter.Options.defaults(), (frame, nanos) -> {
                try {
                    pcap.writePacket(nanos, frame);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            w.open(in.consumeBytes(in.consumeInt(0, 16)), in.consumeBytes(in.consumeInt(0, 16)));
            RpcRdmaWriter r = new RpcRdmaWriter(w, 0x7700, 0x1000);
            for (int n = 0; n < 24 && in.remainingBytes() > 0; n++) {
                Direction d = in.consumeBoolean() ? RpcRdmaWriter.REQUESTER : RpcRdmaWriter.RESPONDER;
                switch (in.consumeInt(0, 4)) {
                    case 0 -> r.sendRaw(d, in.consumeBytes(in.consumeInt(0, 3000)));
                    case 1 -> r.send(d, header(in), in.consumeBytes(in.consumeInt(0, 1500)));
                    case 2 -> r.readRequest(in.consumeInt(0, 7), in.consumeLong(0, 64), in.consumeInt(0, 4096));
                    case 3 -> r.write(in.consumeInt(0, 7), in.consumeLong(0, 64), in.consumeBytes(in.consumeInt(0, 3000)));
                    default -> r.pull(List.of(new ReadSegment(0, new RdmaSegment(in.consumeInt(0, 7), in.consumeInt(0, 512),
                            in.consumeLong(0, 64)))), in.consumeBytes(in.consumeInt(0, 512)));
                }
            }
        }
        try (CaptureReader reader = CaptureReaders.open(new ByteArrayInputStream(capture.toByteArray()), "fuzz")) {
            Analysis a = new Analyzer(AnalysisLimits.defaults(), StagRegistry.empty(), UlpProfile.NONE)
                    .run(reader, () -> { });
            assertThat(a.frames()).isPositive();
        }
    }

    private static RpcRdmaHeader header(FuzzedDataProvider in) {
        long xid = in.consumeInt(0, 7);
        List<ReadSegment> reads = new ArrayList<>();
        for (int i = in.consumeInt(0, 3); i > 0; i--) {
            reads.add(new ReadSegment(in.consumeInt(0, 300), segment(in)));
        }
        List<List<RdmaSegment>> writes = new ArrayList<>();
        for (int i = in.consumeInt(0, 2); i > 0; i--) {
            List<RdmaSegment> chunk = new ArrayList<>();
            for (int j = in.consumeInt(0, 2); j > 0; j--) chunk.add(segment(in));
            writes.add(chunk);
        }
        List<RdmaSegment> reply = in.consumeBoolean() ? List.of(segment(in)) : null;
        Proc proc = in.consumeBoolean() ? Proc.RDMA_MSG : Proc.RDMA_NOMSG;
        return RpcRdmaHeader.message(xid, in.consumeInt(0, 40), proc, reads, writes, reply);
    }

    private static RdmaSegment segment(FuzzedDataProvider in) {
        return new RdmaSegment(in.consumeInt(0, 7), in.consumeInt(0, 8192), in.consumeLong(0, 64));
    }
}
