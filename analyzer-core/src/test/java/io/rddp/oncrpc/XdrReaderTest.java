package io.rddp.oncrpc;

import io.rddp.MalformedException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XdrReaderTest {

    @Test
    void readsBigEndianUnitsAcrossPieceBoundaries() throws Exception {
        // RFC 4506 §3: big-endian 4-octet units; here the pieces split words in the middle
        XdrReader x = XdrReader.builder()
                .add(ByteBuffer.wrap(new byte[]{0x01, 0x02, 0x03}))
                .add(ByteBuffer.wrap(new byte[]{0x04, (byte) 0xFF}))
                .add(ByteBuffer.wrap(new byte[]{(byte) 0xFF, (byte) 0xFF, (byte) 0xFE, 0, 0, 0, 1, 0, 0, 0, 2}))
                .build();
        assertThat(x.length()).isEqualTo(16);
        assertThat(x.u32()).isEqualTo(0x01020304L);
        assertThat(x.u32()).isEqualTo(0xFFFF_FFFEL);
        assertThat(x.i32()).isEqualTo(1);
        assertThat(x.position()).isEqualTo(12);
        assertThat(x.remaining()).isEqualTo(4);
        assertThat(x.hasHoles()).isFalse();
    }

    @Test
    void u64IsHighWordFirst() throws Exception {
        XdrReader x = XdrReader.of(new XdrWriter().u64(0xFEDC_BA98_7654_3210L).toBuffer());
        assertThat(x.u64()).isEqualTo(0xFEDC_BA98_7654_3210L);
    }

    @Test
    void ofReadsTheRemainingOctetsWithoutMovingTheBuffer() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(new byte[]{9, 9, 9, 9, 0, 0, 0, 7, 8, 8});
        b.position(4).limit(8);
        XdrReader x = XdrReader.of(b);
        assertThat(x.length()).isEqualTo(4);
        assertThat(x.u32()).isEqualTo(7);
        assertThat(b.position()).isEqualTo(4);
        assertThat(b.limit()).isEqualTo(8);
    }

    @Test
    void holeCanBeSkippedButNotRead() throws Exception {
        // RFC 8166 §3.4.1: a reduced data item's octets are not in the stream the capture holds
        XdrReader x = XdrReader.builder().add(ByteBuffer.wrap(new byte[]{0, 0, 0, 8})).addHole(8)
                .add(ByteBuffer.wrap(new byte[]{0, 0, 0, 5})).build();
        assertThat(x.hasHoles()).isTrue();
        assertThat(x.length()).isEqualTo(16);
        assertThat(x.u32()).isEqualTo(8);
        assertThatThrownBy(x::u32).isInstanceOf(MalformedException.class)
                .hasMessageContaining("lies in data the capture does not hold")
                .satisfies(e -> assertThat(((MalformedException) e).offset()).isEqualTo(4));
        XdrReader y = XdrReader.builder().add(ByteBuffer.wrap(new byte[]{0, 0, 0, 8})).addHole(8)
                .add(ByteBuffer.wrap(new byte[]{0, 0, 0, 5})).build();
        assertThat(y.skipOpaque(100, "data")).isEqualTo(8);
        assertThat(y.position()).isEqualTo(12);
        assertThat(y.u32()).isEqualTo(5);
        assertThat(y.remaining()).isZero();
    }

    @Test
    void skipCanEndInsideAHoleAndResumeAfterIt() throws Exception {
        XdrReader x = XdrReader.builder().addHole(6).add(ByteBuffer.wrap(new byte[]{1, 2, 3, 4})).build();
        x.skip(3);
        x.skip(3);
        assertThat(x.position()).isEqualTo(6);
        assertThat(x.u32()).isEqualTo(0x0102_0304L);
    }

    @Test
    void emptyPiecesAndHolesAreDropped() throws Exception {
        XdrReader x = XdrReader.builder().add(ByteBuffer.allocate(0)).addHole(0)
                .add(ByteBuffer.wrap(new byte[]{0, 0, 0, 1})).build();
        assertThat(x.hasHoles()).isFalse();
        assertThat(x.length()).isEqualTo(4);
        assertThat(x.bool()).isTrue();
        assertThatThrownBy(() -> XdrReader.builder().addHole(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void boolRejectsTwo() throws Exception {
        // RFC 4506 §4.4: a bool is an enum { FALSE = 0, TRUE = 1 }
        XdrReader x = XdrReader.of(new XdrWriter().u32(0).u32(1).u32(2).toBuffer());
        assertThat(x.bool()).isFalse();
        assertThat(x.bool()).isTrue();
        assertThatThrownBy(x::bool).isInstanceOf(MalformedException.class)
                .hasMessage("XDR bool is 2, must be 0 or 1")
                .satisfies(e -> assertThat(((MalformedException) e).offset()).isEqualTo(8));
    }

    @Test
    void paddedRoundsUpToFour() {
        // RFC 4506 §3 / RFC 8166 §2.2.4.2 XDR roundup
        assertThat(XdrReader.padded(0)).isZero();
        assertThat(XdrReader.padded(1)).isEqualTo(4);
        assertThat(XdrReader.padded(4)).isEqualTo(4);
        assertThat(XdrReader.padded(5)).isEqualTo(8);
        assertThat(XdrReader.padded(0xFFFF_FFFFL)).isEqualTo(0x1_0000_0000L);
    }

    @Test
    void lengthIsCheckedAgainstItsLimitAndTheOctetsLeft() throws Exception {
        XdrReader x = XdrReader.of(new XdrWriter().u32(500).toBuffer());
        assertThatThrownBy(() -> x.length(400, "credential body")).isInstanceOf(MalformedException.class)
                .hasMessage("credential body length 500 exceeds its limit 400");
        XdrReader y = XdrReader.of(new XdrWriter().u32(9).u32(0).toBuffer());
        assertThatThrownBy(() -> y.length(1000, "name")).isInstanceOf(MalformedException.class)
                .hasMessage("name length 9 but only 4 octets follow");
        XdrReader z = XdrReader.of(new XdrWriter().u32(0xFFFF_FFFFL).toBuffer());
        assertThatThrownBy(() -> z.opaque(Integer.MAX_VALUE, "blob")).isInstanceOf(MalformedException.class)
                .hasMessageContaining("exceeds its limit");
        XdrReader w = XdrReader.of(new XdrWriter().u32(4).u32(0xAABBCCDDL).toBuffer());
        assertThat(w.length(4, "exact")).isEqualTo(4);
    }

    @Test
    void lengthThatFitsButWhosePaddingDoesNotIsRejectedOnSkip() throws Exception {
        // 5 octets of data need 8 with their padding (RFC 4506 §4.10); only 5 are there
        XdrReader x = XdrReader.of(ByteBuffer.wrap(new byte[]{0, 0, 0, 5, 1, 2, 3, 4, 5}));
        assertThatThrownBy(() -> x.skipOpaque(100, "data")).isInstanceOf(MalformedException.class)
                .hasMessageContaining("runs past the end (5 left)");
    }

    @Test
    void readingPastTheEndSaysWhereTheStreamEnds() {
        XdrReader x = XdrReader.of(ByteBuffer.wrap(new byte[]{1, 2}));
        assertThatThrownBy(x::u32).isInstanceOf(MalformedException.class).hasMessage("XDR stream ends after 2 octets");
        XdrReader y = XdrReader.of(ByteBuffer.allocate(4));
        assertThatThrownBy(() -> y.skip(-1)).isInstanceOf(MalformedException.class);
        assertThatThrownBy(() -> y.skip(5)).isInstanceOf(MalformedException.class);
    }

    @Test
    void opaqueStringAndFixedWithPaddingRoundTrip() throws Exception {
        byte[] bytes = new XdrWriter().string("file-7").opaque(new byte[]{1, 2, 3, 4}).fixed(new byte[]{9})
                .u32(77).toByteArray();
        // RFC 4506 §4.11 string: length 6, "file-7", two zero octets of padding
        assertThat(bytes).startsWith(0, 0, 0, 6, 'f', 'i', 'l', 'e', '-', '7', 0, 0, 0, 0, 0, 4, 1, 2, 3, 4, 9, 0, 0, 0);
        XdrReader x = XdrReader.of(ByteBuffer.wrap(bytes));
        assertThat(x.string(100, "name")).isEqualTo("file-7");
        assertThat(x.opaque(4, "blob")).containsExactly(1, 2, 3, 4);
        x.skip(4);
        assertThat(x.u32()).isEqualTo(77);
    }

    @Provide
    Arbitrary<List<byte[]>> chunks() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(40).list().ofMaxSize(6);
    }

    @Property(tries = 300)
    void opaqueItemsSurviveAnyPieceSplit(@ForAll("chunks") List<byte[]> items,
                                         @ForAll @IntRange(min = 1, max = 13) int pieceSize) throws Exception {
        XdrWriter w = new XdrWriter();
        for (byte[] b : items) w.opaque(b);
        byte[] stream = w.toByteArray();
        assertThat(stream.length % 4).isZero();
        XdrReader.Builder builder = XdrReader.builder();
        for (int at = 0; at < stream.length; at += pieceSize) {
            builder.add(ByteBuffer.wrap(stream, at, Math.min(pieceSize, stream.length - at)));
        }
        XdrReader x = builder.build();
        for (byte[] b : items) assertThat(x.opaque(1000, "item")).isEqualTo(b);
        assertThat(x.remaining()).isZero();
    }

    @Property(tries = 300)
    void wordsSurviveTheWriterAndReader(@ForAll long a, @ForAll("u32s") long b, @ForAll boolean c) throws Exception {
        XdrReader x = XdrReader.of(new XdrWriter().u64(a).u32(b).bool(c).toBuffer());
        assertThat(x.u64()).isEqualTo(a);
        assertThat(x.u32()).isEqualTo(b);
        assertThat(x.bool()).isEqualTo(c);
        assertThat(x.remaining()).isZero();
    }

    @Provide
    Arbitrary<Long> u32s() {
        return Arbitraries.longs().between(0, 0xFFFF_FFFFL);
    }

    @Test
    void writerRawAddsNoLengthOrPadding() {
        XdrWriter w = new XdrWriter().raw(new byte[]{1, 2, 3});
        assertThat(w.size()).isEqualTo(3);
        assertThat(w.toBuffer().remaining()).isEqualTo(3);
    }
}
