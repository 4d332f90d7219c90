package io.rddp.bench;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduListener;
import io.rddp.generate.Generator;
import io.rddp.generate.Scenario;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The whole decode path (mmap read → link/IP/TCP → reassembly → MPA → DDP → RDMAP) over a generated capture held
 * in the page cache. The "bytes" counter is capture bytes per second: the number to hold against 1 GB/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
public class DecodeBenchmark {

    @Param({"write-stream", "rping", "mixed"})
    public String scenario;

    @Param({"256"})
    public int sizeMiB;

    private Path file;
    private long fileBytes;

    /** Capture bytes decoded, reported by JMH per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;
    }

    @Setup(Level.Trial)
    public void generate() throws IOException {
        file = Files.createTempFile("rddp-bench-" + scenario, ".pcap");
        try (PcapWriter w = PcapWriter.create(file, LinkType.ETHERNET, true)) {
            Generator.generate(Scenario.byId(scenario),
                    new Generator.Options((long) sizeMiB << 20, 0, 65536, 1460, false, 1), w);
        }
        fileBytes = Files.size(file);
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        Files.deleteIfExists(file);
    }

    @Benchmark
    public void decode(Bytes counter, Blackhole bh) throws IOException {
        try (CaptureReader r = CaptureReaders.open(file)) {
            new DecodePipeline(new PduListener() {
                @Override
                public void onPdu(Pdu pdu) {
                    bh.consume(pdu);
                }
            }).run(r);
        }
        counter.bytes += fileBytes;
    }
}
