package io.rddp.rnic;

import io.rddp.rnic.link.Recorder;
import io.rddp.sink.Severity;
import io.rddp.sink.Violation;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Two emulated RNICs connected over loopback: {@code server} listens (automatic accept), {@code client} connects. */
final class Pair implements AutoCloseable {
    static final Set<Access> ALL = Set.of(Access.values());

    final Rnic server;
    final Rnic client;
    final RnicListener listener;
    final QueuePair clientQp;
    final QueuePair serverQp;
    final Recorder recorder;

    Pair(RnicConfig serverConfig, RnicConfig clientConfig, Path pcap) throws Exception {
        recorder = pcap == null ? null : Recorder.create(pcap);
        server = new Rnic(serverConfig, recorder);
        client = new Rnic(clientConfig, null);
        listener = server.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), false,
                ConnectionSettings.defaults(server).withRecv(16, 4096));
        clientQp = client.connect(listener.address(), ConnectionSettings.defaults(client).withRecv(16, 4096), 5000);
        serverQp = listener.accept(5000, null);
        assertThat(serverQp).as("server side of the connection").isNotNull();
        assertThat(serverQp.awaitEstablished(5000)).isTrue();
    }

    Pair() throws Exception {
        this(RnicConfig.defaults(), RnicConfig.defaults(), null);
    }

    /** Waits for the next completion of {@code qp} on {@code rnic}. */
    static WorkCompletion next(Rnic rnic, QueuePair qp) throws InterruptedException {
        List<WorkCompletion> wcs = rnic.completions().poll(qp.qpn(), 1, 1, 5000);
        assertThat(wcs).as("a completion on " + qp).hasSize(1);
        return wcs.get(0);
    }

    /** Errors the models of both sides found: what a clean exchange must not have. */
    List<String> errors() {
        return java.util.stream.Stream.concat(clientQp.violations().stream(), serverQp.violations().stream())
                .filter(v -> v.severity() == Severity.ERROR).map(Violation::toString).collect(Collectors.toList());
    }

    @Override
    public void close() throws Exception {
        client.close();
        server.close();
        if (recorder != null) recorder.close();
    }
}
