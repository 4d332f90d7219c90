package io.rddp.stats;

import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.generate.RpcRdmaWriter;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Writes a capture of RPC-over-RDMA connections to port 20049 (RFC 8166 §5), client ports 40000, 40001, ...: the
 * clients are the Requesters. The traffic sets the frame times: {@link Traffic#now} is the next frame's time, and
 * every frame after it is a microsecond later.
 */
final class RpcRdmaCapture {
    static final long T0 = 1_700_000_000_000_000_000L;
    static final long STEP = 1_000;

    private RpcRdmaCapture() {
    }

    static final class Traffic {
        final RpcRdmaWriter[] connections;
        long now = T0;

        Traffic(int n) {
            connections = new RpcRdmaWriter[n];
        }

        /** Connection {@code i}. */
        RpcRdmaWriter c(int i) {
            return connections[i];
        }

        /** Sets the next frame's time, in microseconds after T0. */
        Traffic at(long micros) {
            now = T0 + micros * 1_000;
            return this;
        }
    }

    static Path write(Path file, int connections, Consumer<Traffic> traffic) throws IOException {
        try (PcapWriter pcap = PcapWriter.create(file, LinkType.ETHERNET, true)) {
            Traffic t = new Traffic(connections);
            for (int i = 0; i < connections; i++) {
                IwarpConnectionWriter w = new IwarpConnectionWriter(
                        new Endpoint(new byte[]{10, 0, 0, 1}, 40000 + i), new Endpoint(new byte[]{10, 0, 0, 2}, 20049),
                        IwarpConnectionWriter.Config.defaults(), TcpSessionWriter.Options.defaults(), (bytes, ts) -> {
                    try {
                        pcap.writePacket(ts, bytes);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                w.tcp().clock(() -> {
                    long now = t.now;
                    t.now += STEP;
                    return now;
                });
                w.open();
                t.connections[i] = new RpcRdmaWriter(w, 0x5500 + i, 0x10_0000);
            }
            traffic.accept(t);
            for (RpcRdmaWriter c : t.connections) c.connection().close();
        }
        return file;
    }
}
