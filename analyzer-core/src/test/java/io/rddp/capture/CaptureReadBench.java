package io.rddp.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Sanity benchmark, not a test: walks the frames of a capture several times and prints frames/s, MB/s and heap
 * bytes allocated per frame.
 *
 * <pre>
 * java -cp analyzer-core/target/classes:analyzer-core/target/test-classes io.rddp.capture.CaptureReadBench [file...]
 * </pre>
 * Without arguments it writes pcap, pcapng and gzipped pcap files of 5 million 60..124-byte frames to the temp dir.
 */
public final class CaptureReadBench {
    private CaptureReadBench() {
    }

    public static void main(String[] args) throws IOException {
        Path[] files;
        if (args.length > 0) {
            files = new Path[args.length];
            for (int i = 0; i < args.length; i++) files[i] = Paths.get(args[i]);
        } else {
            Path dir = Paths.get(System.getProperty("java.io.tmpdir"));
            files = new Path[]{generate(dir.resolve("rddp-bench.pcap"), false),
                    generate(dir.resolve("rddp-bench.pcapng"), true),
                    generate(dir.resolve("rddp-bench.pcap.gz"), false)};
        }
        for (Path f : files) {
            for (int run = 0; run < 5; run++) {
                walk(f);
            }
        }
    }

    private static Path generate(Path p, boolean pcapng) throws IOException {
        if (Files.exists(p)) return p;
        byte[] frame = new byte[124];
        for (int i = 0; i < frame.length; i++) frame[i] = (byte) i;
        try (CaptureWriter w = pcapng ? PcapngWriter.create(p, LinkType.ETHERNET)
                : PcapWriter.create(p, LinkType.ETHERNET, false)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(frame);
            for (int i = 0; i < 5_000_000; i++) {
                b.limit(60 + (i & 63));
                w.writePacket(1_700_000_000_000_000_000L + i * 1000L, b);
            }
        }
        System.out.println("wrote " + p + " (" + Files.size(p) / (1 << 20) + " MiB)");
        return p;
    }

    private static void walk(Path p) throws IOException {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long allocated0 = mx.getThreadAllocatedBytes(tid);
        long t0 = System.nanoTime();
        long frames = 0;
        long bytes = 0;
        long check = 0;
        try (CaptureReader r = CaptureReaders.open(p)) {
            Frame f = new Frame();
            while (r.next(f)) {
                frames++;
                bytes += f.capturedLength();
                check += f.data.get(0) + f.timestampNanos;
            }
            long t = System.nanoTime() - t0;
            long allocated = mx.getThreadAllocatedBytes(tid) - allocated0;
            System.out.printf("%-40s %-11s %,12d frames %8.2f Mframes/s %8.0f MB/s (file) %6.1f B alloc/frame [%d]%n",
                    p.getFileName(), r.format(), frames, frames * 1e3 / t, r.size() * 1e3 / t,
                    (double) allocated / Math.max(1, frames), check & 0xF);
        }
    }
}
