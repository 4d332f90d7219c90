package io.rddp.capture;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** What a writer writes, the readers read back unchanged, through every path: mapped, stream, gzip. */
class WriterRoundTripTest {

    record Packet(long timestampNanos, byte[] data, int extraLength, String comment, boolean direct) {
        ByteBuffer buffer() {
            if (!direct) return ByteBuffer.wrap(data);
            // A direct buffer with a non-zero position: writers must take position..limit and not move it.
            ByteBuffer b = ByteBuffer.allocateDirect(data.length + 3).position(3);
            b.put(data).position(3);
            return b;
        }
    }

    record Read(long number, long timestampNanos, int originalLength, byte[] data, String comment, int linkType) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Read r && r.number == number && r.timestampNanos == timestampNanos
                    && r.originalLength == originalLength && Arrays.equals(r.data, data)
                    && java.util.Objects.equals(r.comment, comment) && r.linkType == linkType;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(number);
        }

        @Override
        public String toString() {
            return "#" + number + " t=" + timestampNanos + " len=" + originalLength + " data=" + data.length
                    + " comment=" + comment + " lt=" + linkType;
        }
    }

    @Provide
    Arbitrary<List<Packet>> packets() {
        return packets(Long.MAX_VALUE);
    }

    @Provide
    Arbitrary<List<Packet>> pcapPackets() {
        return packets(0xFFFFFFFFL * 1_000_000_000L + 999_999_999L);
    }

    private static Arbitrary<List<Packet>> packets(long maxTimestamp) {
        Arbitrary<Long> ts = Arbitraries.oneOf(Arbitraries.longs().between(0, maxTimestamp),
                Arbitraries.longs().between(1_600_000_000_000_000_000L, 1_800_000_000_000_000_000L));
        Arbitrary<byte[]> data = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<Integer> extra = Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(1, 65535));
        // No NUL (pcapng strings end at one, §3.5) and no lone surrogates (not encodable as UTF-8).
        Arbitrary<String> comment = Arbitraries.strings().withCharRange('\u0001', '\uD7FF').ofMaxLength(80)
                .injectNull(0.5);
        Arbitrary<Packet> packet = Combinators.combine(ts, data, extra, comment, Arbitraries.of(true, false))
                .as(Packet::new);
        return packet.list().ofMaxSize(40);
    }

    private static List<Read> readAll(CaptureReader reader) throws IOException {
        List<Read> out = new ArrayList<>();
        Frame f = new Frame();
        try (reader) {
            while (reader.next(f)) {
                byte[] d = new byte[f.capturedLength()];
                f.data.get(0, d);
                out.add(new Read(f.number, f.timestampNanos, f.originalLength, d, f.comment, f.linkType));
            }
        }
        return out;
    }

    /** The same bytes through every reading path must give the same frames. */
    private static List<Read> readEveryWay(byte[] file, String name) throws IOException {
        Path p = Files.createTempFile("rt", name);
        try {
            Files.write(p, file);
            List<Read> mapped = readAll(CaptureReaders.open(p));
            // Larger than any block (300 data + 80 chars of up to 3 UTF-8 bytes + headers), far smaller than the file.
            List<Read> tinyWindow = readAll(CaptureReaders.open(p, 600));
            List<Read> streamed = readAll(CaptureReaders.open(new ByteArrayInputStream(file), "-", 16));
            ByteArrayOutputStream gz = new ByteArrayOutputStream();
            try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
                z.write(file);
            }
            List<Read> gzipped = readAll(CaptureReaders.open(new ByteArrayInputStream(gz.toByteArray()), "-", 16));
            assertThat(tinyWindow).isEqualTo(mapped);
            assertThat(streamed).isEqualTo(mapped);
            assertThat(gzipped).isEqualTo(mapped);
            return mapped;
        } finally {
            Files.delete(p);
        }
    }

    @Property(tries = 200)
    void pcapngWriterToReaderKeepsEveryPacket(@ForAll("packets") List<Packet> packets,
                                              @ForAll boolean bigEndian) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapngWriter w = new PcapngWriter(out, bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN)) {
            w.addInterface(LinkType.LINUX_SLL2);
            for (Packet p : packets) {
                ByteBuffer b = p.buffer();
                int position = b.position();
                w.writePacket(p.timestampNanos(), b, p.data().length + p.extraLength(), p.comment());
                assertThat(b.position()).isEqualTo(position);
            }
        }
        List<Read> expected = new ArrayList<>();
        for (int i = 0; i < packets.size(); i++) {
            Packet p = packets.get(i);
            expected.add(new Read(i + 1, p.timestampNanos(), p.data().length + p.extraLength(), p.data(),
                    p.comment(), LinkType.LINUX_SLL2));
        }
        assertThat(readEveryWay(out.toByteArray(), ".pcapng")).containsExactlyElementsOf(expected);
    }

    @Property(tries = 200)
    void pcapWriterToReaderKeepsEveryPacketAtItsResolution(@ForAll("pcapPackets") List<Packet> packets,
                                                           @ForAll boolean nanos, @ForAll boolean bigEndian)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(out, LinkType.ETHERNET, nanos, 65535,
                bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN)) {
            for (Packet p : packets) {
                w.writePacket(p.timestampNanos(), p.buffer(), p.data().length + p.extraLength(), p.comment());
            }
        }
        List<Read> expected = new ArrayList<>();
        for (int i = 0; i < packets.size(); i++) {
            Packet p = packets.get(i);
            long ts = nanos ? p.timestampNanos() : p.timestampNanos() - p.timestampNanos() % 1000;
            expected.add(new Read(i + 1, ts, p.data().length + p.extraLength(), p.data(), null, LinkType.ETHERNET));
        }
        assertThat(readEveryWay(out.toByteArray(), ".pcap")).containsExactlyElementsOf(expected);
    }

    @Property(tries = 50)
    void copyingFramesIntoPcapngKeepsThemAndTheirLinkTypesAndAddsComments(
            @ForAll @Size(max = 30) List<@net.jqwik.api.constraints.IntRange(min = 0, max = 3) Integer> kinds)
            throws IOException {
        int[] linkTypes = {LinkType.ETHERNET, LinkType.RAW, LinkType.LINUX_SLL, LinkType.IPV6};
        // Source: one pcapng with an interface per link type, packets spread over them.
        PcapngBuilder source = new PcapngBuilder().shb(ByteOrder.BIG_ENDIAN);
        for (int lt : linkTypes) source.idb(lt, 0, 9, null);
        for (int i = 0; i < kinds.size(); i++) {
            source.epb(kinds.get(i), 1_000_000_000L * i, new byte[]{(byte) i, 1, 2}, 10 + i);
        }
        List<Read> original = readEveryWay(source.bytes(), ".pcapng");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path src = Files.createTempFile("copy", ".pcapng");
        Files.write(src, source.bytes());
        try (CaptureReader r = CaptureReaders.open(src); PcapngWriter w = new PcapngWriter(out)) {
            Frame f = new Frame();
            while (r.next(f)) {
                w.writeFrame(f, "frame " + f.number);
            }
        } finally {
            Files.delete(src);
        }
        List<Read> copied = readEveryWay(out.toByteArray(), ".pcapng");
        assertThat(copied).hasSameSizeAs(original);
        for (int i = 0; i < copied.size(); i++) {
            Read o = original.get(i);
            assertThat(copied.get(i)).isEqualTo(new Read(o.number(), o.timestampNanos(), o.originalLength(),
                    o.data(), "frame " + o.number(), o.linkType()));
        }
    }

}
