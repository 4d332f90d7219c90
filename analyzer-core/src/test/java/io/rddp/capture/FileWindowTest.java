package io.rddp.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static io.rddp.capture.TestCaptures.*;
import static org.assertj.core.api.Assertions.assertThat;

/** Windows far smaller than the file: records straddling window ends are remapped and read whole. */
class FileWindowTest {
    @TempDir
    Path dir;

    /** Records of 0..96 captured bytes (headers make them 16..112 bytes), content from their number. */
    private Path pcap(int records) throws IOException {
        Path p = dir.resolve("many.pcap");
        try (OutputStream out = Files.newOutputStream(p); PcapWriter w = new PcapWriter(out, LinkType.RAW, true)) {
            for (int i = 0; i < records; i++) {
                w.writePacket(1_000_000_000L * i + i, content(i, (i * 7) % 97));
            }
        }
        return p;
    }

    private Path pcapng(int records) throws IOException {
        Path p = dir.resolve("many.pcapng");
        try (OutputStream out = Files.newOutputStream(p); PcapngWriter w = new PcapngWriter(out, LinkType.RAW)) {
            for (int i = 0; i < records; i++) {
                w.writePacket(i, content(i, (i * 7) % 97), i % 3 == 0 ? "c" + i : null);
            }
        }
        return p;
    }

    private static byte[] content(int i, int length) {
        byte[] b = new byte[length];
        for (int k = 0; k < length; k++) b[k] = (byte) (i * 31 + k);
        return b;
    }

    private static CaptureReader mapped(Path p, long window) throws IOException {
        FileWindowSource source = new FileWindowSource(FileChannel.open(p, StandardOpenOption.READ), window);
        return p.toString().endsWith("ng")
                ? new PcapngReader(source, p.toString(), "pcapng", source.size(), null)
                : new PcapReader(source, p.toString(), "pcap", source.size(), null);
    }

    @Test
    void pcapRecordsStraddlingWindowEndsAreReadWhole() throws IOException {
        Path p = pcap(3000);
        List<Got> reference = frames(CaptureReaders.open(Files.newInputStream(p), "-"));
        assertThat(reference).hasSize(3000);
        for (int window : new int[]{112, 113, 127, 128, 200, 333, 4096}) {
            try (CaptureReader r = mapped(p, window)) {
                assertThat(frames(r)).as("window %d", window).containsExactlyElementsOf(reference);
                int mappings = ((FileWindowSource) sourceOf(r)).mappings();
                assertThat(mappings).as("windows mapped").isGreaterThan((int) (Files.size(p) / window) - 1);
            }
        }
    }

    @Test
    void pcapngBlocksStraddlingWindowEndsAreReadWhole() throws IOException {
        Path p = pcapng(3000);
        List<Got> reference = frames(CaptureReaders.open(Files.newInputStream(p), "-"));
        assertThat(reference).hasSize(3000);
        assertThat(reference.get(3).comment()).isEqualTo("c3");
        // The largest block is 144 bytes.
        for (int window : new int[]{144, 145, 150, 256, 1000}) {
            try (CaptureReader r = mapped(p, window)) {
                assertThat(frames(r)).as("window %d", window).containsExactlyElementsOf(reference);
            }
        }
    }

    private static ByteSource sourceOf(CaptureReader r) {
        return ((SourceReader) r).source;
    }

    @Test
    void aFileOfManyWindowsIsReadToTheEnd() throws IOException {
        Path p = pcap(20000);
        try (CaptureReader r = mapped(p, 4096)) {
            Frame f = new Frame();
            long n = 0;
            while (r.next(f)) {
                n++;
                assertThat(f.number).isEqualTo(n);
                assertThat(f.timestampNanos).isEqualTo(1_000_000_000L * (n - 1) + n - 1);
            }
            assertThat(n).isEqualTo(20000);
            assertThat(r.bytesRead()).isEqualTo(Files.size(p));
        }
    }

    @Test
    void aRecordLargerThanTheWindowIsACaptureExceptionAfterTheFramesBeforeIt() throws IOException {
        Path p = dir.resolve("big.pcap");
        try (OutputStream out = Files.newOutputStream(p); PcapWriter w = new PcapWriter(out, LinkType.RAW, false)) {
            w.writePacket(1000, new byte[10]);
            w.writePacket(2000, new byte[10]);
            w.writePacket(3000, new byte[500]);
        }
        Outcome o = readAll(mapped(p, 256));
        assertThat(o.frames()).hasSize(2);
        assertThat(o.failure().frame()).isEqualTo(3);
        assertThat(o.failure().fileOffset()).isEqualTo(24 + 2 * 26);
        assertThat(o.failure()).hasMessageContaining("record of 516 bytes is larger than the read window of 256 bytes");

        Path ng = dir.resolve("big.pcapng");
        try (OutputStream out = Files.newOutputStream(ng); PcapngWriter w = new PcapngWriter(out, LinkType.RAW)) {
            w.writePacket(1000, new byte[10]);
            w.writePacket(2000, new byte[500]);
        }
        o = readAll(mapped(ng, 256));
        assertThat(o.frames()).hasSize(1);
        assertThat(o.failure().frame()).isEqualTo(2);
        assertThat(o.failure()).hasMessageContaining("block of 532 bytes is larger than the read window of 256 bytes");
    }

    /** 1000 bytes, each its offset's low byte. */
    private Path countingBytes() throws IOException {
        Path p = dir.resolve("bytes");
        byte[] bytes = new byte[1000];
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) i;
        return Files.write(p, bytes);
    }

    // reads every frame with recycling on, releasing each window at once, and compares it with the reference
    private static void readRecyclingAndCompare(CaptureReader r, List<Got> reference) throws IOException {
        assertThat(r.recycleWindows()).isTrue();
        Frame f = new Frame();
        int n = 0;
        while (r.next(f)) {
            assertThat(got(f)).as("frame %d", f.number).isEqualTo(reference.get(n++));
            r.release(r.window()); // the frame's bytes are done with once compared
        }
        assertThat(n).isEqualTo(reference.size());
    }

    @Test
    void theSourceRemapsOnlyWhenARequestLeavesTheWindow() throws IOException {
        Path p = countingBytes();
        try (FileWindowSource s = new FileWindowSource(FileChannel.open(p), 100)) {
            assertThat(s.ensure(0, 10)).isEqualTo(10);
            assertThat(s.ensure(50, 50)).isEqualTo(50);
            assertThat(s.mappings()).isEqualTo(1);
            assertThat(s.ensure(95, 10)).isEqualTo(10);             // straddles: remapped at 95
            assertThat(s.mappings()).isEqualTo(2);
            assertThat(s.base()).isEqualTo(95);
            assertThat(s.buffer().get((int) (104 - s.base()))).isEqualTo((byte) 104);
            assertThat(s.ensure(950, 100)).isEqualTo(50);           // file ends
            assertThat(s.atEof()).isTrue();
            assertThat(s.ensure(990, 20)).isEqualTo(10);            // no remap once the window reaches the end
            assertThat(s.mappings()).isEqualTo(3);
            assertThat(s.ensure(1000, 16)).isZero();
            assertThat(s.ensure(300, 101)).isEqualTo(100);          // larger than the window, file goes on
            assertThat(s.atEof()).isFalse();
        }
    }

    @Test
    void aRecyclingSourceReusesOnlyReleasedWindowsAndFallsBackToFreshOnesWhenThePoolIsHeld() throws IOException {
        Path p = countingBytes();
        try (FileWindowSource s = new FileWindowSource(FileChannel.open(p), 100, 300, 100)) {
            assertThat(s.recycle()).isTrue();
            s.ensure(0, 10);
            ByteBuffer w0 = s.buffer();
            assertThat(s.window()).isZero();
            s.ensure(100, 10);
            ByteBuffer w1 = s.buffer();
            s.ensure(200, 10);
            ByteBuffer w2 = s.buffer();
            assertThat(s.window()).isEqualTo(2);
            // nothing released and the pool (3 windows) in use: a fresh heap window, whose views stay valid
            s.ensure(300, 10);
            ByteBuffer w3 = s.buffer();
            assertThat(w3).isNotSameAs(w0).isNotSameAs(w1).isNotSameAs(w2);
            assertThat(s.pooledBuffers()).as("the pool did not grow past its 300 bytes").isEqualTo(3);
            assertThat(w0.get(5)).as("an unreleased window keeps its bytes").isEqualTo((byte) 5);
            s.release(2); // windows 0 and 1 are done
            s.ensure(400, 10);
            ByteBuffer w4 = s.buffer();
            assertThat(w4).as("the oldest released window is reused").isSameAs(w0);
            assertThat(w4.get(5)).isEqualTo((byte) 405);
            assertThat(w2.get(5)).as("window 2 was not released").isEqualTo((byte) 205);
        }
    }

    @Test
    void recordsLargerThanAPooledWindowAreReadWholeInWindowsOfTheirOwn() throws IOException {
        Path p = dir.resolve("mixed.pcap");
        try (OutputStream out = Files.newOutputStream(p); PcapWriter w = new PcapWriter(out, LinkType.RAW, true)) {
            for (int i = 0; i < 2000; i++) {
                w.writePacket(i, content(i, i % 10 == 0 ? 300 + i % 700 : i % 97)); // some beyond 256 bytes
            }
        }
        List<Got> reference = frames(CaptureReaders.open(Files.newInputStream(p), "-"));
        FileWindowSource source = new FileWindowSource(FileChannel.open(p, StandardOpenOption.READ), 4096, 4096, 256);
        try (CaptureReader r = new PcapReader(source, p.toString(), "pcap", source.size(), null)) {
            readRecyclingAndCompare(r, reference);
        }
    }

    @Test
    void theLastWindowOfARecyclingSourceEndsWhereTheFileEnds() throws IOException {
        Path p = pcap(3000);
        List<Got> reference = frames(CaptureReaders.open(Files.newInputStream(p), "-"));
        try (CaptureReader r = mapped(p, 4096)) {
            readRecyclingAndCompare(r, reference);
            assertThat(((FileWindowSource) sourceOf(r)).pooledBuffers()).as("two pooled windows do").isEqualTo(2);
        }
    }

    /**
     * A sparse pcap of 3 GiB: records at offsets beyond 2^31 and beyond int range, read with the default window.
     * The holes cost no disk; only the record headers are touched.
     */
    @Test
    void aFileLargerThanTwoGigabytesIsReadThroughMovingWindows() throws IOException {
        Path p = dir.resolve("huge.pcap");
        int captured = PcapWriter.DEFAULT_SNAPLEN;
        int record = PcapRecord.HEADER + captured;
        long size = 3L << 30;
        int records = (int) ((size - PcapFileHeader.LENGTH) / record);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer h = ByteBuffer.allocate(PcapFileHeader.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            new PcapFileHeader(ByteOrder.LITTLE_ENDIAN, false, 2, 4, captured, LinkType.RAW).writeTo(h);
            ch.write(h.flip(), 0);
            ByteBuffer r = ByteBuffer.allocate(PcapRecord.HEADER + 4).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < records; i++) {
                r.clear();
                PcapRecord.writeHeader(r, i, 0, captured, captured);
                r.order(ByteOrder.BIG_ENDIAN).putInt(i).order(ByteOrder.LITTLE_ENDIAN);   // mark the data
                ch.write(r.flip(), PcapFileHeader.LENGTH + (long) i * record);
            }
            ch.write(ByteBuffer.allocate(1), PcapFileHeader.LENGTH + (long) records * record - 1);
        }
        assertThat(Files.size(p)).isGreaterThan(Integer.MAX_VALUE * 1L + 1);
        try (CaptureReader r = CaptureReaders.open(p)) {
            Frame f = new Frame();
            long n = 0;
            while (r.next(f)) {
                assertThat(f.data.getInt(0)).isEqualTo((int) n);
                assertThat(f.fileOffset).isEqualTo(PcapFileHeader.LENGTH + n * record);
                n++;
            }
            assertThat(n).isEqualTo(records);
            assertThat(r.bytesRead()).isEqualTo(Files.size(p)).isGreaterThan(3_000_000_000L);
        }
    }
}
