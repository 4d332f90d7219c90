package io.rddp.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static io.rddp.capture.TestCaptures.*;
import static org.assertj.core.api.Assertions.assertThat;

class PcapngBlocksTest {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    @TempDir
    Path dir;

    private static byte[] packet(int length, int seed) {
        byte[] p = new byte[length];
        for (int i = 0; i < length; i++) p[i] = (byte) (seed + i);
        return p;
    }

    private List<Got> read(PcapngBuilder b) throws IOException {
        return frames(CaptureReaders.open(write(dir, "t.pcapng", b.bytes())));
    }

    @Test
    void simpleAndObsoletePacketBlocksAreFramesAndOtherBlocksAreSkipped() throws IOException {
        // The same blocks as a file checked with tshark 4.0, which printed frames 1, 2, (3 journal), 4, 5, 6 with
        // times 1700000000.123456789, none, -, 1700000000.223456789, 0.000001000, none.
        byte[] p = packet(60, 0);
        PcapngBuilder b = new PcapngBuilder().shb(LE).idb(LinkType.ETHERNET, 64, 9, null);
        long epb1 = b.offset();
        b.epb(0, 1700000000123456789L, p, 60, "hello");
        long spb1 = b.offset();
        b.spb(60, p)
                .block(0x12345, "abcd".getBytes(StandardCharsets.US_ASCII))
                .block(9, "__REALTIME_TIMESTAMP=1234567\nMESSAGE=hi\n".getBytes(StandardCharsets.US_ASCII))
                .epb(0, 1700000000223456789L, p, 60)
                .block(5, new byte[20]);
        long opb = b.offset();
        b.opb(0, 0, 1000, p, "opb comment").spb(60, p);

        List<Got> frames = read(b);
        String md5 = md5(java.nio.ByteBuffer.wrap(p));
        assertThat(frames).extracting(Got::number).containsExactly(1L, 2L, 4L, 5L, 6L);
        assertThat(frames).extracting(Got::timestampNanos).containsExactly(1700000000123456789L,
                1700000000123456789L, 1700000000223456789L, 1000L, 1000L);
        assertThat(frames).extracting(Got::comment).containsExactly("hello", null, null, "opb comment", null);
        assertThat(frames).allSatisfy(g -> {
            assertThat(g.md5()).isEqualTo(md5);
            assertThat(g.originalLength()).isEqualTo(60);
        });
        assertThat(frames).extracting(Got::fileOffset).startsWith(epb1, spb1).contains(opb);
    }

    @Test
    void customSysdigAndJournalBlocksUseUpFrameNumbersAsInTshark() throws IOException {
        // tshark 4.0 on this sequence numbered the EPBs 1, 3, 5, 6, 8, 9.
        byte[] p = packet(60, 7);
        byte[] custom = {(byte) 0xD9, 0x7E, 0, 0, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
        PcapngBuilder b = new PcapngBuilder().shb(LE).idb(LinkType.ETHERNET, 0, 9, null)
                .epb(0, 0, p, 60).block(0x00000BAD, custom)
                .epb(0, 1, p, 60).block(0x40000BAD, custom)
                .epb(0, 2, p, 60).block(0x0A, new byte[12])
                .epb(0, 3, p, 60).block(0x204, new byte[24])
                .epb(0, 4, p, 60).block(4, new byte[4])
                .epb(0, 5, p, 60);
        assertThat(read(b)).extracting(Got::number).containsExactly(1L, 3L, 5L, 6L, 8L, 9L);
    }

    @Test
    void simplePacketBlockCapturedLengthIsOriginalCutToSnapLenAndBlock() throws IOException {
        PcapngBuilder b = new PcapngBuilder().shb(LE).idb(LinkType.RAW, 32, null, null)
                .spb(100, packet(40, 1))      // the block holds 40 bytes, SnapLen says 32
                .spb(21, packet(24, 2))       // 21 bytes and 3 of padding
                .shb(LE).idb(LinkType.RAW, 0, null, null)
                .spb(100, packet(40, 3));     // no SnapLen: what the block holds
        List<Got> frames = read(b);
        assertThat(frames).extracting(Got::capturedLength).containsExactly(32, 21, 40);
        assertThat(frames).extracting(Got::originalLength).containsExactly(100, 21, 100);
        assertThat(frames.get(0).md5()).isEqualTo(md5(java.nio.ByteBuffer.wrap(packet(40, 1), 0, 32)));
        assertThat(frames.get(1).md5()).isEqualTo(md5(java.nio.ByteBuffer.wrap(packet(24, 2), 0, 21)));
        assertThat(frames).extracting(Got::linkType).containsOnly(LinkType.RAW);
    }

    @Test
    void eachInterfaceHasItsOwnResolutionOffsetAndLinkType() throws IOException {
        byte[] p = packet(20, 0);
        PcapngBuilder b = new PcapngBuilder().shb(BE)
                .idb(LinkType.ETHERNET, 0, null, null)          // 0: default 10^-6
                .idb(LinkType.RAW, 0, 9, null)                  // 1: 10^-9
                .idb(LinkType.IPV4, 0, 0x80 | 20, null)         // 2: 2^-20
                .idb(LinkType.LINUX_SLL, 0, 3, 1000L)           // 3: 10^-3, +1000 s
                .idb(LinkType.LINUX_SLL2, 0, 0x80, -10L)        // 4: 2^0 = 1 s, -10 s
                .idb(LinkType.IPV6, 0, 12, null)                // 5: 10^-12 (picoseconds)
                .epb(0, 1_500_000L, p, 20)
                .epb(1, 1_500_000_123L, p, 20)
                .epb(2, (5L << 20) | (1L << 19) | 1, p, 20)     // 5.5 s + 2^-20 s = 953.67.. ns
                .epb(3, 2_250L, p, 20)
                .epb(4, 100L, p, 20)
                .epb(5, 1_000_000_000_999L, p, 20);
        List<Got> frames = read(b);
        assertThat(frames).extracting(Got::interfaceId).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(frames).extracting(Got::linkType).containsExactly(LinkType.ETHERNET, LinkType.RAW,
                LinkType.IPV4, LinkType.LINUX_SLL, LinkType.LINUX_SLL2, LinkType.IPV6);
        assertThat(frames).extracting(Got::timestampNanos).containsExactly(
                1_500_000_000L, 1_500_000_123L, 5_500_000_953L, 1_002_250_000_000L, 90_000_000_000L,
                1_000_000_000L);
    }

    @Test
    void interfacesBelongToTheirSection() throws IOException {
        byte[] p = packet(30, 0);
        PcapngBuilder b = new PcapngBuilder().shb(LE).idb(LinkType.ETHERNET, 0, null, null)
                .idb(LinkType.RAW, 0, null, null).epb(1, 1, p, 30)
                .shb(BE).idb(LinkType.LINUX_SLL, 0, null, null).epb(0, 2, p, 30);
        long bad = b.offset();
        b.epb(1, 3, p, 30);
        Outcome o = readAll(CaptureReaders.open(write(dir, "t.pcapng", b.bytes())));
        assertThat(o.frames()).extracting(Got::linkType).containsExactly(LinkType.RAW, LinkType.LINUX_SLL);
        assertThat(o.failure().fileOffset()).isEqualTo(bad);
        assertThat(o.failure().frame()).isEqualTo(3);
        assertThat(o.failure()).hasMessageContaining("interface 1").hasMessageContaining("1 interface");
    }

    @Test
    void aSectionOfAnotherMajorVersionIsSkippedWhole() throws IOException {
        byte[] p = packet(30, 0);
        PcapngBuilder b = new PcapngBuilder().shb(LE).idb(LinkType.ETHERNET, 0, null, null).epb(0, 1, p, 30)
                .shb(LE, 2, -1).idb(LinkType.RAW, 0, null, null).epb(7, 2, p, 30).epb(0, 3, p, 30)
                .shb(BE, 1, 80).idb(LinkType.RAW, 0, null, null).epb(0, 4, p, 30);
        List<Got> frames = read(b);
        assertThat(frames).extracting(Got::number).containsExactly(1L, 2L);
        assertThat(frames).extracting(Got::timestampNanos).containsExactly(1000L, 4000L);
        assertThat(frames).extracting(Got::linkType).containsExactly(LinkType.ETHERNET, LinkType.RAW);
    }

    @Test
    void repeatedCommentsAreJoinedAndAZeroOctetEndsOne() throws IOException {
        byte[] p = packet(13, 0);
        PcapngBuilder b = new PcapngBuilder().shb(LE).idb(LinkType.ETHERNET, 0, null, null)
                .epb(0, 1, p, 13, "one", "two\r\nlines")
                .epb(0, 2, p, 13, "cut\0here")
                .epb(0, 3, p, 13, "");
        assertThat(read(b)).extracting(Got::comment).containsExactly("one\ntwo\r\nlines", "cut", "");
    }

    @Test
    void aSectionWithoutPacketsIsAnEmptyCapture() throws IOException {
        byte[] file = new PcapngBuilder().shb(BE).idb(LinkType.ETHERNET, 0, null, null).bytes();
        try (CaptureReader r = CaptureReaders.open(new ByteArrayInputStream(file), "-")) {
            assertThat(r.format()).isEqualTo("pcapng");
            assertThat(r.next(new Frame())).isFalse();
            assertThat(r.next(new Frame())).isFalse();
            assertThat(r.bytesRead()).isEqualTo(file.length);
        }
    }

    @Test
    void frameDataIsAViewFromZeroToTheCapturedLengthInBigEndianOrder() throws IOException {
        byte[] p = packet(50, 9);
        byte[] file = new PcapngBuilder().shb(LE).idb(LinkType.ETHERNET, 0, null, null).epb(0, 1, p, 50).bytes();
        try (CaptureReader r = CaptureReaders.open(write(dir, "v.pcapng", file))) {
            Frame f = new Frame();
            assertThat(r.next(f)).isTrue();
            assertThat(f.data.position()).isZero();
            assertThat(f.data.limit()).isEqualTo(50);
            assertThat(f.data.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
            assertThat(f.data.array().length).as("a view of the read window, not a copy of the frame")
                    .isEqualTo(file.length);
            assertThat(f.data.getShort(0)).isEqualTo((short) ((9 << 8) | 10));
            byte[] got = new byte[50];
            f.data.get(0, got);
            assertThat(Arrays.equals(got, p)).isTrue();
        }
    }
}
