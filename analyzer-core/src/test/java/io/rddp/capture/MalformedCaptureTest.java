package io.rddp.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static io.rddp.capture.TestCaptures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every way a capture can lie ends in a CaptureException naming the offset of the bad record and the frame number
 * it would have had, after every good frame before it was returned; through the mapped file and through a stream.
 */
class MalformedCaptureTest {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    @TempDir
    Path dir;

    /** A little-endian µs pcap with 3 good 40-byte records (offsets 24, 80, 136), then {@code tail}. */
    private static byte[] pcapWithTail(long snapLen, byte... tail) {
        ByteBuffer b = ByteBuffer.allocate(24 + 3 * 56 + tail.length).order(LE);
        b.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt((int) snapLen)
                .putInt(1);
        for (int i = 0; i < 3; i++) {
            b.putInt(1000 + i).putInt(5).putInt(40).putInt(40).put(new byte[40]);
        }
        return b.put(tail).array();
    }

    private static byte[] record(long captured, int present) {
        ByteBuffer b = ByteBuffer.allocate(16 + present).order(LE);
        return b.putInt(2000).putInt(0).putInt((int) captured).putInt((int) captured).array();
    }

    /** Reads the bytes as a mapped file and as a stream; both must stop at the same place. */
    private Outcome readBothWays(byte[] file) throws IOException {
        Outcome mapped = readAll(CaptureReaders.open(write(dir, "bad", file)));
        Outcome streamed = readAll(CaptureReaders.open(new ByteArrayInputStream(file), "-", 16));
        assertThat(streamed.frames()).isEqualTo(mapped.frames());
        assertThat(streamed.failure()).isNotNull();
        assertThat(streamed.failure().fileOffset()).isEqualTo(mapped.failure().fileOffset());
        assertThat(streamed.failure().frame()).isEqualTo(mapped.failure().frame());
        return mapped;
    }

    private static void assertStopsAt(Outcome o, int goodFrames, long offset, long frame, String message) {
        assertThat(o.frames()).hasSize(goodFrames);
        assertThat(o.frames()).extracting(Got::number)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, goodFrames).boxed().toList());
        assertThat(o.failure()).as("failure").isNotNull();
        assertThat(o.failure().fileOffset()).as("offset").isEqualTo(offset);
        assertThat(o.failure().frame()).as("frame").isEqualTo(frame);
        assertThat(o.failure()).hasMessageContaining(message)
                .hasMessageContaining("at file offset " + offset);
    }

    // ---- pcap ----

    @Test
    void pcapRecordLengthOverFourGigabytesMinusOneIsALie() throws IOException {
        assertStopsAt(readBothWays(pcapWithTail(65535, record(0xFFFFFFFFL, 8))), 3, 192, 4,
                "claims 4294967295 captured bytes");
    }

    @Test
    void pcapRecordLengthBeyondSnapLenSanityIsALie() throws IOException {
        assertStopsAt(readBothWays(pcapWithTail(65535, record(262145, 100))), 3, 192, 4,
                "more than the limit of 262144");
    }

    @Test
    void pcapRecordRunningPastTheEndIsATruncatedFile() throws IOException {
        assertStopsAt(readBothWays(pcapWithTail(65535, record(100, 60))), 3, 192, 4,
                "runs past the end of the file, which has only 60");
    }

    @Test
    void pcapRecordHeaderCutShortIsATruncatedFile() throws IOException {
        assertStopsAt(readBothWays(pcapWithTail(65535, (byte) 1, (byte) 2, (byte) 3, (byte) 4, (byte) 5)), 3, 192, 4,
                "file ends 5 bytes into a 16-byte record header");
    }

    @Test
    void aFailedReaderKeepsFailingTheSameWay() throws IOException {
        try (CaptureReader r = CaptureReaders.open(write(dir, "bad", pcapWithTail(65535, record(100, 1))))) {
            Frame f = new Frame();
            for (int i = 0; i < 3; i++) assertThat(r.next(f)).isTrue();
            CaptureException first = org.junit.jupiter.api.Assertions.assertThrows(CaptureException.class,
                    () -> r.next(f));
            assertThatThrownBy(() -> r.next(f)).isSameAs(first);
        }
    }

    @Test
    void pcapHeaderProblemsAreReportedAtOpen() throws IOException {
        byte[] good = pcapWithTail(65535);
        byte[] badMagic = good.clone();
        badMagic[0] = 0x00;
        byte[] version1 = good.clone();
        version1[4] = 1;
        assertOpenFails(badMagic, "magic 0x00c3b2a1 is neither pcap, pcapng nor gzip");
        assertOpenFails(version1, "pcap version 1.4 is not 2.x");
        assertOpenFails(Arrays.copyOf(good, 10), "file ends after 10 bytes, inside the 24-byte pcap file header");
        assertOpenFails(new byte[0], "file of 0 bytes is too short");
        assertOpenFails(new byte[]{(byte) 0xD4, (byte) 0xC3}, "file of 2 bytes is too short");
    }

    private void assertOpenFails(byte[] file, String message) throws IOException {
        Path p = write(dir, "bad", file);
        assertThatThrownBy(() -> CaptureReaders.open(p)).isInstanceOf(CaptureException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((CaptureException) e).fileOffset()).isZero());
        assertThatThrownBy(() -> CaptureReaders.open(new ByteArrayInputStream(file), "-"))
                .isInstanceOf(CaptureException.class).hasMessageContaining(message);
    }

    @Test
    void aHeaderAloneIsAnEmptyCapture() throws IOException {
        byte[] file = Arrays.copyOf(pcapWithTail(65535), 24);
        assertThat(readAll(CaptureReaders.open(write(dir, "empty", file))).frames()).isEmpty();
        assertThat(readAll(CaptureReaders.open(write(dir, "empty", file))).failure()).isNull();
    }

    @Test
    void fcsBitsOfThePcapLinkTypeFieldAreMasked() throws IOException {
        byte[] file = pcapWithTail(65535);
        // FCS len 2 (4 octets), P bit: draft-ietf-opsawg-pcap §4 Figure 2.
        ByteBuffer.wrap(file).order(LE).putInt(20, 0x2400_0000 | LinkType.ETHERNET);
        assertThat(frames(CaptureReaders.open(write(dir, "fcs", file))))
                .hasSize(3).allSatisfy(g -> assertThat(g.linkType()).isEqualTo(LinkType.ETHERNET));
    }

    // ---- pcapng ----

    private static final byte[] P = new byte[40];
    private static final int NEXT = 196;

    /** SHB (0..28), IDB (28..52), EPBs of 72 bytes at 52 and 124; the next block starts at {@link #NEXT}. */
    private static PcapngBuilder twoGoodPackets() {
        PcapngBuilder b = new PcapngBuilder().shb(LE).idb(LinkType.ETHERNET, 0, null, null)
                .epb(0, 1, P, 40).epb(0, 2, P, 40);
        assertThat(b.offset()).isEqualTo(NEXT);
        return b;
    }

    /** A block header claiming {@code length}, then {@code body} bytes, no trailer. */
    private static byte[] blockHead(int type, long length, int body) {
        return ByteBuffer.allocate(8 + body).order(LE).putInt(type).putInt((int) length).array();
    }

    private static byte[] withEpbPatched(int at, int value) {
        byte[] file = twoGoodPackets().epb(0, 3, P, 40).bytes();
        ByteBuffer.wrap(file).order(LE).putInt(NEXT + at, value);
        return file;
    }

    @Test
    void blockLengthNotAMultipleOfFour() throws IOException {
        assertStopsAt(readBothWays(withEpbPatched(4, 70)), 2, NEXT, 3, "block total length 70 is not a multiple of 4");
    }

    @Test
    void blockLengthShorterThanTheBlockTypeNeeds() throws IOException {
        assertStopsAt(readBothWays(twoGoodPackets().raw(blockHead(0x12345, 8, 8)).bytes()), 2, NEXT, 0,
                "block total length 8 is less than the 12 bytes");
        assertStopsAt(readBothWays(withEpbPatched(4, 28)), 2, NEXT, 3, "block total length 28 is less than the 32");
    }

    @Test
    void blockLengthBeyondTheEndOfTheFile() throws IOException {
        assertStopsAt(readBothWays(twoGoodPackets().raw(blockHead(6, 400, 100)).bytes()), 2, NEXT, 3,
                "block total length 400 runs past the end of the file, 108 bytes after the block start");
    }

    @Test
    void blockLengthOverTheRecordLimitIsALieEvenBeforeLookingForTheBytes() throws IOException {
        assertStopsAt(readBothWays(twoGoodPackets().raw(blockHead(6, 0xFFFFFFF0L, 100)).bytes()), 2, NEXT, 3,
                "block total length 4294967280 is over the limit");
    }

    @Test
    void trailingLengthDifferentFromTheLeadingOne() throws IOException {
        assertStopsAt(readBothWays(withEpbPatched(68, 76)), 2, NEXT, 3,
                "trailing block total length 76 differs from the leading 72");
    }

    @Test
    void capturedLengthLargerThanTheBlock() throws IOException {
        assertStopsAt(readBothWays(withEpbPatched(20, 41)), 2, NEXT, 3,
                "captured length 41 does not fit in a block of 72 bytes");
    }

    @Test
    void packetOnAnUnknownInterface() throws IOException {
        assertStopsAt(readBothWays(withEpbPatched(8, 1)), 2, NEXT, 3,
                "packet refers to interface 1 but the section has 1 interface(s)");
    }

    @Test
    void simplePacketBeforeAnyInterface() throws IOException {
        byte[] file = new PcapngBuilder().shb(LE).spb(40, P).bytes();
        assertStopsAt(readBothWays(file), 0, 28, 1, "Simple Packet Block refers to interface 0");
    }

    @Test
    void optionRunningPastTheBlock() throws IOException {
        byte[] file = twoGoodPackets().epb(0, 3, P, 40, "comment").bytes();
        ByteBuffer.wrap(file).order(LE).putShort(NEXT + 68 + 2, (short) 200);
        assertStopsAt(readBothWays(file), 2, NEXT, 3, "option 1 claims 200 bytes, only 12 left in the block");
    }

    @Test
    void blockHeaderCutShortAtTheEnd() throws IOException {
        assertStopsAt(readBothWays(twoGoodPackets().raw(new byte[]{6, 0, 0, 0, 72, 0}).bytes()), 2, NEXT, 0,
                "file ends 6 bytes into a block header");
    }

    @Test
    void laterSectionWithABadByteOrderMagic() throws IOException {
        byte[] file = twoGoodPackets().shb(LE).bytes();
        file[NEXT + 8] = 0x4E;
        assertStopsAt(readBothWays(file), 2, NEXT, 0, "byte-order magic 0x4e3c2b1a is neither");
    }

    @Test
    void timestampResolutionBeyondWhatCanBeRepresented() throws IOException {
        byte[] file = twoGoodPackets().idb(LinkType.RAW, 0, 0x13, null).epb(1, 1, P, 40).bytes();
        assertStopsAt(readBothWays(file), 2, NEXT, 0, "if_tsresol 0x13 is finer than this reader can represent");
    }

    @Test
    void firstSectionHeaderProblemsAreReportedAtOpen() throws IOException {
        byte[] file = twoGoodPackets().bytes();
        file[8] = 0;
        assertOpenFails(file, "byte-order magic 0x003c2b1a");
        byte[] cut = Arrays.copyOf(twoGoodPackets().bytes(), 20);
        assertOpenFails(cut, "block total length 28 runs past the end of the file, 20 bytes");
    }

    // ---- gzip ----

    private static byte[] gzip(byte[] plain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        }
        return out.toByteArray();
    }

    @Test
    void truncatedGzipStopsAtTheFirstFrameItCannotComplete() throws IOException {
        Path source = resource("rev2-crc.pcap.gz");
        byte[] whole = Files.readAllBytes(source);
        List<Got> all = frames(CaptureReaders.open(source));
        byte[] cut = Arrays.copyOf(whole, whole.length / 2);
        Outcome o = readAll(CaptureReaders.open(write(dir, "cut.pcap.gz", cut)));
        int good = o.frames().size();
        assertThat(good).isBetween(1, all.size() - 1);
        assertThat(o.frames()).isEqualTo(all.subList(0, good));
        assertThat(o.failure().frame()).isEqualTo(good + 1);
        assertThat(o.failure().fileOffset()).isEqualTo(all.get(good).fileOffset());
        assertThat(o.failure()).hasMessageContaining("Unexpected end of ZLIB input stream");
    }

    @Test
    void corruptGzipStopsAfterTheFramesDecompressedBeforeTheDamage() throws IOException {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        java.util.Random random = new java.util.Random(42);
        try (PcapWriter w = new PcapWriter(plain, LinkType.ETHERNET, false)) {
            for (int i = 0; i < 400; i++) {
                byte[] p = new byte[60 + random.nextInt(200)];
                for (int k = 0; k < p.length; k++) p[k] = (byte) random.nextInt(16);   // compressible, not trivial
                w.writePacket(i * 1000L, p);
            }
        }
        Path good = write(dir, "good.pcap", plain.toByteArray());
        List<Got> all = frames(CaptureReaders.open(good));
        byte[] gz = gzip(plain.toByteArray());
        for (int i = gz.length / 2; i < gz.length / 2 + 64; i++) gz[i] = (byte) 0xFF;
        Outcome o = readAll(CaptureReaders.open(write(dir, "corrupt.pcap.gz", gz)));
        int got = o.frames().size();
        assertThat(got).isBetween(100, all.size() - 1);
        assertThat(o.frames()).isEqualTo(all.subList(0, got));
        assertThat(o.failure()).hasCauseInstanceOf(java.util.zip.ZipException.class);
        assertThat(o.failure().frame()).isEqualTo(got + 1);
        assertThat(o.failure().fileOffset()).isEqualTo(all.get(got).fileOffset());
    }

    @Test
    void gzipDamagedRightAfterItsHeaderIsRejectedAtOpen() throws IOException {
        byte[] gz = gzip(pcapWithTail(65535, new byte[5000]));
        for (int i = 10; i < gz.length - 8; i++) gz[i] = (byte) 0xFF;
        assertOpenFails(gz, "cannot decompress");
    }

    @Test
    void gzipOfSomethingElseIsRejectedAtOpen() throws IOException {
        byte[] gz = gzip("hello, world".getBytes());
        assertOpenFails(gz, "magic 0x68656c6c is neither pcap, pcapng nor gzip");
        assertOpenFails(new byte[]{0x1F, (byte) 0x8B, 8, 0, 0}, "bad gzip header");
    }

    @Test
    void errorsNameTheFile() throws IOException {
        Path p = write(dir, "named.pcap", pcapWithTail(65535, record(100, 1)));
        assertThat(readAll(CaptureReaders.open(p)).failure()).hasMessageStartingWith(p + ": ");
    }
}
