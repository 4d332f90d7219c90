package io.rddp.sink;

import io.rddp.analyze.Analysis;
import io.rddp.analyze.Analyzer;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.generate.RpcRdmaWriter;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rpcrdma.RpcRdmaHeader;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import static io.rddp.generate.RpcRdmaWriter.REQUESTER;
import static io.rddp.generate.RpcRdmaWriter.RESPONDER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RFC 8166 §4.5.2: a call whose transport header does not parse is answered RDMA_ERROR ERR_CHUNK with its XID. The
 * analyzer cannot read that XID from the header it could not parse, so the ERR_CHUNK answers the unparsed call
 * rather than being "an RDMA_ERROR that matches no request" (rpcrdma.error-echo); one unparsed call excuses one.
 */
class RpcRdmaErrChunkEchoTest {

    @TempDir
    Path dir;

    /** A header of version 1 whose rdma_proc (7) no procedure has: an XDR error (§4.5.2), 28 octets. */
    private static byte[] undefinedProc(long xid) {
        return new XdrWriter().u32(xid).u32(1).u32(8).u32(7).u32(0).u32(0).u32(0).toByteArray();
    }

    private List<String> ids(Consumer<RpcRdmaWriter> traffic) throws IOException {
        Path f = dir.resolve("c" + System.nanoTime() + ".pcap");
        try (PcapWriter pcap = PcapWriter.create(f, LinkType.ETHERNET, true)) {
            IwarpConnectionWriter w = new IwarpConnectionWriter(new Endpoint(new byte[]{10, 9, 0, 1}, 40123),
                    new Endpoint(new byte[]{10, 9, 0, 2}, 20049), IwarpConnectionWriter.Config.defaults(),
                    TcpSessionWriter.Options.defaults(), (bytes, ts) -> {
                        try {
                            pcap.writePacket(ts, bytes);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
            w.open(new byte[0], new byte[0]);
            traffic.accept(new RpcRdmaWriter(w, 0x5500, 0x10_0000));
            w.close();
        }
        try (CaptureReader r = CaptureReaders.open(f)) {
            Analysis a = new Analyzer(SinkModel.Options.defaults(), StagRegistry.empty()).run(r, () -> { });
            return a.violations().stream().map(Violation::id).toList();
        }
    }

    @Test
    void anErrChunkAnsweringACallWhoseHeaderDoesNotParseIsNoEchoError() throws IOException {
        List<String> ids = ids(w -> {
            w.sendRaw(REQUESTER, undefinedProc(0x77));
            w.send(RESPONDER, RpcRdmaHeader.error(0x77, 1, 8, RpcRdmaHeader.ERR_CHUNK, 0, 0), new byte[0]);
        });
        assertThat(ids).contains("rpcrdma.header-xdr").doesNotContain("rpcrdma.error-echo");
    }

    @Test
    void aSecondErrChunkForOneUnparsedCallIsStillAnEchoError() throws IOException {
        List<String> ids = ids(w -> {
            w.sendRaw(REQUESTER, undefinedProc(0x77));
            w.send(RESPONDER, RpcRdmaHeader.error(0x77, 1, 8, RpcRdmaHeader.ERR_CHUNK, 0, 0), new byte[0]);
            w.send(RESPONDER, RpcRdmaHeader.error(0x78, 1, 8, RpcRdmaHeader.ERR_CHUNK, 0, 0), new byte[0]);
        });
        assertThat(ids).containsOnlyOnce("rpcrdma.error-echo");
    }
}
