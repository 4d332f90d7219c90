package io.rddp.rpcrdma;

import io.rddp.MalformedException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class RpcRdmaHeaderTest {

    // ---------------------------------------------------------------- generators

    static Arbitrary<Long> u32() {
        return Arbitraries.oneOf(Arbitraries.of(0L, 1L, 2L, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL),
                Arbitraries.longs().between(0, 0xFFFF_FFFFL));
    }

    static Arbitrary<RdmaSegment> segments() {
        Arbitrary<Long> u64 = Arbitraries.oneOf(Arbitraries.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE),
                Arbitraries.longs());
        return Combinators.combine(u32(), u32(), u64).as(RdmaSegment::new);
    }

    static Arbitrary<ReadSegment> readSegments() {
        return Combinators.combine(u32(), segments()).as(ReadSegment::new);
    }

    static Arbitrary<RpcRdmaHeader> messages() {
        Arbitrary<List<ReadSegment>> reads = readSegments().list().ofMinSize(0).ofMaxSize(5);
        Arbitrary<List<List<RdmaSegment>>> writes = segments().list().ofMinSize(0).ofMaxSize(4).list().ofMinSize(0)
                .ofMaxSize(3);
        Arbitrary<List<RdmaSegment>> reply = segments().list().ofMinSize(0).ofMaxSize(4).injectNull(0.4);
        return Combinators.combine(u32(), u32(), Arbitraries.of(Proc.RDMA_MSG, Proc.RDMA_NOMSG), reads, writes, reply)
                .as(RpcRdmaHeader::message);
    }

    static Arbitrary<RpcRdmaHeader> errors() {
        Arbitrary<RpcRdmaHeader> vers = Combinators.combine(u32(), u32(), u32(), u32(), u32())
                .as((xid, version, credits, low, high) ->
                        RpcRdmaHeader.error(xid, version, credits, RpcRdmaHeader.ERR_VERS, low, high));
        Arbitrary<RpcRdmaHeader> chunk = Combinators.combine(u32(), u32(), u32())
                .as((xid, version, credits) -> RpcRdmaHeader.error(xid, version, credits, RpcRdmaHeader.ERR_CHUNK, 0, 0));
        return Arbitraries.oneOf(vers, chunk);
    }

    @Provide
    Arbitrary<RpcRdmaHeader> headers() {
        return Arbitraries.oneOf(messages(), errors());
    }

    // ---------------------------------------------------------------- round trip

    @Property(tries = 500)
    void everyGeneratedHeaderSurvivesToBytesAndParse(@ForAll("headers") RpcRdmaHeader h) throws Exception {
        byte[] bytes = h.toBytes();
        assertThat(bytes).hasSize(h.length());
        RpcRdmaHeader back = RpcRdmaHeader.parse(ByteBuffer.wrap(bytes));
        assertThat(back).isEqualTo(h);
        assertThat(back.length()).isEqualTo(bytes.length);
    }

    @Property(tries = 200)
    void parseReadsAtThePositionWithoutMovingItAndIgnoresTrailingPayload(@ForAll("headers") RpcRdmaHeader h)
            throws Exception {
        byte[] bytes = h.toBytes();
        ByteBuffer b = ByteBuffer.allocate(bytes.length + 12);
        b.putInt(0xDEADBEEF).put(bytes).putInt(0x12345678).putInt(0).position(4);
        RpcRdmaHeader back = RpcRdmaHeader.parse(b);
        assertThat(b.position()).isEqualTo(4);
        assertThat(back).isEqualTo(h);
    }

    @Property(tries = 200)
    void writeToAdvancesThePositionByLength(@ForAll("headers") RpcRdmaHeader h) {
        ByteBuffer b = ByteBuffer.allocate(h.length() + 8).position(8);
        h.writeTo(b);
        assertThat(b.position()).isEqualTo(8 + h.length());
    }

    @Test
    void rdmaMsgpKeepsAlignAndThresholdWordsBeforeTheLists() throws Exception {
        // RFC 8166 §4.1.2 rdma_padded: rdma_align, rdma_thresh, then the three lists
        byte[] bytes = words(7, 1, 3, 2, 64, 4096, 0, 0, 0);
        RpcRdmaHeader h = RpcRdmaHeader.parse(ByteBuffer.wrap(bytes));
        assertThat(h.proc()).isEqualTo(Proc.RDMA_MSGP);
        assertThat(h.align()).isEqualTo(64);
        assertThat(h.threshold()).isEqualTo(4096);
        assertThat(h.noChunks()).isTrue();
        assertThat(h.length()).isEqualTo(36);
        ByteBuffer out = ByteBuffer.allocate(36);
        h.writeTo(out);
        assertThat(out.array()).isEqualTo(bytes);
    }

    @Test
    void rdmaDoneIsTheFourFixedWordsOnly() throws Exception {
        // RFC 8166 §4.1.2: RDMA_DONE has a void body
        RpcRdmaHeader h = RpcRdmaHeader.parse(ByteBuffer.wrap(words(9, 1, 5, 3, 0xFFFFFFFF)));
        assertThat(h.proc()).isEqualTo(Proc.RDMA_DONE);
        assertThat(h.length()).isEqualTo(16);
        assertThat(h.noChunks()).isTrue();
    }

    @Test
    void errorFactoryComputesItsLengthAndDropsRangeForErrChunk() {
        // RFC 8166 §4.1.2 rpc_rdma_errvers: ERR_VERS carries low/high (28 octets), ERR_CHUNK nothing (20)
        RpcRdmaHeader vers = RpcRdmaHeader.error(1, 2, 3, RpcRdmaHeader.ERR_VERS, 1, 1);
        RpcRdmaHeader chunk = RpcRdmaHeader.error(1, 1, 3, RpcRdmaHeader.ERR_CHUNK, 5, 6);
        assertThat(vers.length()).isEqualTo(28);
        assertThat(vers.toBytes()).isEqualTo(words(1, 2, 3, 4, 1, 1, 1));
        assertThat(chunk.length()).isEqualTo(20);
        assertThat(chunk.versLow()).isEqualTo(-1);
        assertThat(chunk.versHigh()).isEqualTo(-1);
        assertThat(chunk.toBytes()).isEqualTo(words(1, 1, 3, 4, 2));
    }

    @Test
    void messageFactoryCopiesListsAndNamesTheProcedure() {
        List<ReadSegment> reads = new ArrayList<>(List.of(new ReadSegment(0, new RdmaSegment(1, 2, 3))));
        RpcRdmaHeader h = RpcRdmaHeader.message(5, 32, Proc.RDMA_NOMSG, reads, List.of(), null);
        reads.clear();
        assertThat(h.readList()).hasSize(1);
        assertThat(h.procValue()).isEqualTo(1);
        assertThat(h.proc()).isEqualTo(Proc.RDMA_NOMSG);
        assertThat(h.version()).isEqualTo(1);
        assertThat(h.noChunks()).isFalse();
        assertThat(RpcRdmaHeader.message(5, 32, Proc.RDMA_MSG, List.of(), List.of(), List.of()).noChunks())
                .as("an empty Reply chunk is still present (RFC 8166 §4.3.3)").isFalse();
    }

    @Test
    void procOfNamesTheFiveProceduresAndNothingElse() {
        // RFC 8166 §4.2.4
        assertThat(Proc.of(0)).isEqualTo(Proc.RDMA_MSG);
        assertThat(Proc.of(4)).isEqualTo(Proc.RDMA_ERROR);
        assertThat(Proc.of(5)).isNull();
        assertThat(Proc.of(-1)).isNull();
        assertThat(Proc.of(0x1_0000_0000L)).isNull();
    }

    @Test
    void segmentEndAndToStringShowHandleLengthAndOffset() {
        RdmaSegment s = new RdmaSegment(0xABCDL, 4096, 0x10000L);
        assertThat(s.end()).isEqualTo(0x11000L);
        assertThat(s.toString()).isEqualTo("0xabcd:4096@0x10000");
        assertThat(new ReadSegment(120, s).toString()).isEqualTo("P120 0xabcd:4096@0x10000");
        assertThat(RpcRdmaHeader.length(List.of(s, new RdmaSegment(1, 100, 0)))).isEqualTo(4196);
    }

    // ---------------------------------------------------------------- RFC 8166 §4.7 examples

    private static final int[] H1 = {0x11, 100, 0, 0x1000}, H2 = {0x22, 200, 0, 0x2000},
            H3 = {0x33, 300, 0x7, 0x3000}, H4 = {0x44, 400, 0, 0x4000}, H5 = {0x55, 500, 0xFFFFFFFF, 0xFFFFFFF0};

    private static RdmaSegment seg(int[] hloo) {
        return new RdmaSegment(hloo[0] & 0xFFFF_FFFFL, hloo[1] & 0xFFFF_FFFFL,
                (long) hloo[2] << 32 | (hloo[3] & 0xFFFF_FFFFL));
    }

    @Test
    void readListOfTwoSegmentsIsOnePhlooOnePhlooZero() throws Exception {
        // RFC 8166 §4.7: "1 PHLOO 1 PHLOO 0" (same P for the segments of one Read chunk)
        RpcRdmaHeader h = RpcRdmaHeader.message(0xCAFE, 16, Proc.RDMA_MSG,
                List.of(new ReadSegment(96, seg(H1)), new ReadSegment(96, seg(H2))), List.of(), null);
        byte[] expected = words(0xCAFE, 1, 16, 0,
                1, 96, H1[0], H1[1], H1[2], H1[3],
                1, 96, H2[0], H2[1], H2[2], H2[3],
                0, // end of Read list
                0, // empty Write list: a single zero (§4.7)
                0); // no Reply chunk
        assertThat(h.toBytes()).isEqualTo(expected);
        assertThat(RpcRdmaHeader.parse(ByteBuffer.wrap(expected))).isEqualTo(h);
    }

    @Test
    void writeListOfThreeAndTwoSegmentChunksIsCountedArraysInOptionalData() throws Exception {
        // RFC 8166 §4.7: "1 3 HLOO HLOO HLOO 1 2 HLOO HLOO 0"
        RpcRdmaHeader h = RpcRdmaHeader.message(7, 1, Proc.RDMA_MSG, List.of(),
                List.of(List.of(seg(H1), seg(H2), seg(H3)), List.of(seg(H4), seg(H5))), null);
        byte[] expected = words(7, 1, 1, 0,
                0, // empty Read list
                1, 3, H1[0], H1[1], H1[2], H1[3], H2[0], H2[1], H2[2], H2[3], H3[0], H3[1], H3[2], H3[3],
                1, 2, H4[0], H4[1], H4[2], H4[3], H5[0], H5[1], H5[2], H5[3],
                0,
                0);
        assertThat(h.toBytes()).isEqualTo(expected);
        RpcRdmaHeader back = RpcRdmaHeader.parse(ByteBuffer.wrap(expected));
        assertThat(back).isEqualTo(h);
        assertThat(back.writeList().get(0).get(2).offset()).isEqualTo(0x7_0000_3000L);
        assertThat(back.writeList().get(1).get(1).offset()).isEqualTo(0xFFFF_FFFF_FFFF_FFF0L);
        assertThat(back.writeList().get(1).get(1).length()).isEqualTo(500);
    }

    @Test
    void replyChunkOfTwoSegmentsIsOneTwoHlooHloo() throws Exception {
        // RFC 8166 §4.7: "1 2 HLOO HLOO"
        RpcRdmaHeader h = RpcRdmaHeader.message(8, 2, Proc.RDMA_MSG, List.of(), List.of(), List.of(seg(H1), seg(H2)));
        byte[] expected = words(8, 1, 2, 0, 0, 0,
                1, 2, H1[0], H1[1], H1[2], H1[3], H2[0], H2[1], H2[2], H2[3]);
        assertThat(h.toBytes()).isEqualTo(expected);
        assertThat(RpcRdmaHeader.parse(ByteBuffer.wrap(expected))).isEqualTo(h);
    }

    @Test
    void noChunksIsFourFixedWordsAndThreeZeros() throws Exception {
        // RFC 8166 §4.7: "three 32-bit fields that contain zero"; §4.5: the minimal header is 28 octets
        RpcRdmaHeader h = RpcRdmaHeader.message(0xFFFF_FFFFL, 128, Proc.RDMA_MSG, List.of(), List.of(), null);
        byte[] expected = words(0xFFFFFFFF, 1, 128, 0, 0, 0, 0);
        assertThat(h.toBytes()).isEqualTo(expected);
        assertThat(h.length()).isEqualTo(RpcRdmaHeader.MIN_LENGTH);
        RpcRdmaHeader back = RpcRdmaHeader.parse(ByteBuffer.wrap(expected));
        assertThat(back.xid()).isEqualTo(0xFFFF_FFFFL);
        assertThat(back.noChunks()).isTrue();
    }

    // ---------------------------------------------------------------- hostile headers

    @Property(tries = 200)
    void everyTruncationThrowsMalformedAndNothingElse(@ForAll("headers") RpcRdmaHeader h) {
        byte[] bytes = h.toBytes();
        for (int n = 0; n < bytes.length; n++) {
            ByteBuffer cut = ByteBuffer.wrap(bytes, 0, n);
            Throwable t = catchThrowable(() -> RpcRdmaHeader.parse(cut));
            assertThat(t).as("header of %d octets cut to %d", bytes.length, n).isInstanceOf(MalformedException.class);
        }
    }

    @Test
    void truncationAfterAWholeFieldIsReportedWithItsOffset() {
        byte[] bytes = words(1, 1, 1, 0, 1, 0, 0x11, 100, 0, 0x1000, 0, 0, 0);
        assertThatThrownBy(() -> RpcRdmaHeader.parse(ByteBuffer.wrap(bytes, 0, 24)))
                .isInstanceOf(MalformedException.class)
                .hasMessageContaining("ends after 24 octets")
                .satisfies(e -> assertThat(((MalformedException) e).offset()).isEqualTo(24));
    }

    @Test
    void listDiscriminatorTwoIsNotAnXdrBool() {
        // RFC 4506 §4.4 / RFC 8166 §4.1.2 optional-data: the discriminator is 0 or 1
        assertThatThrownBy(() -> RpcRdmaHeader.parse(ByteBuffer.wrap(words(1, 1, 1, 0, 2, 0, 0))))
                .isInstanceOf(MalformedException.class).hasMessageContaining("Read list discriminator is 2");
        assertThatThrownBy(() -> RpcRdmaHeader.parse(ByteBuffer.wrap(words(1, 1, 1, 0, 0, 2, 0))))
                .isInstanceOf(MalformedException.class).hasMessageContaining("Write list discriminator is 2");
        assertThatThrownBy(() -> RpcRdmaHeader.parse(ByteBuffer.wrap(words(1, 1, 1, 0, 0, 0, 2))))
                .isInstanceOf(MalformedException.class).hasMessageContaining("Reply chunk discriminator is 2");
    }

    @Test
    void hugeWriteChunkCountThrowsWithoutSizingAnAllocation() {
        // A count of 0x7FFFFFFF segments would ask for a 32 GiB list; only 16 octets follow.
        byte[] bytes = words(1, 1, 1, 0, 0, 1, 0x7FFFFFFF, 1, 2, 3, 4);
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long[] allocated = new long[1];
        Throwable t = assertTimeoutPreemptively(Duration.ofMillis(500), () -> {
            long before = mx.getCurrentThreadAllocatedBytes();
            Throwable thrown = catchThrowable(() -> RpcRdmaHeader.parse(ByteBuffer.wrap(bytes)));
            allocated[0] = mx.getCurrentThreadAllocatedBytes() - before;
            return thrown;
        });
        assertThat(allocated[0]).as("octets allocated while rejecting the count").isLessThan(1 << 20);
        assertThat(t).isInstanceOf(MalformedException.class)
                .hasMessageContaining("counts 2147483647 segments but only 16 octets follow");
        byte[] all = words(1, 1, 1, 0, 0, 0, 1, 0xFFFFFFFF);
        assertThat(catchThrowable(() -> RpcRdmaHeader.parse(ByteBuffer.wrap(all))))
                .isInstanceOf(MalformedException.class).hasMessageContaining("Reply chunk counts 4294967295");
    }

    @Test
    void undefinedProcedureFiveIsMalformed() {
        // RFC 8166 §4.2.4 defines rdma_proc 0..4
        assertThatThrownBy(() -> RpcRdmaHeader.parse(ByteBuffer.wrap(words(1, 1, 1, 5, 0, 0, 0))))
                .isInstanceOf(MalformedException.class).hasMessageContaining("rdma_proc 5");
    }

    @Test
    void errorCodeThreeIsMalformed() {
        // RFC 8166 §4.1.2 rpc_rdma_errcode: ERR_VERS = 1, ERR_CHUNK = 2
        assertThatThrownBy(() -> RpcRdmaHeader.parse(ByteBuffer.wrap(words(1, 1, 1, 4, 3, 0, 0))))
                .isInstanceOf(MalformedException.class).hasMessageContaining("rdma_err 3");
    }

    @Test
    void versionTwoHeaderReadsOnlyTheFourFixedWords() throws Exception {
        // RFC 8166 §4.2: only xid, vers, credit and proc keep their meaning in other versions; what follows
        // (here a word that would be a bad discriminator in version 1) is not read.
        RpcRdmaHeader h = RpcRdmaHeader.parse(ByteBuffer.wrap(words(0x42, 2, 8, 0, 7, 7, 7)));
        assertThat(h.version()).isEqualTo(2);
        assertThat(h.xid()).isEqualTo(0x42);
        assertThat(h.credits()).isEqualTo(8);
        assertThat(h.length()).isEqualTo(16);
        assertThat(h.noChunks()).isTrue();
        assertThat(RpcRdmaHeader.parse(ByteBuffer.wrap(words(0x42, 2, 8, 0))).length()).isEqualTo(16);
        // even an undefined procedure of another version is just carried
        assertThat(RpcRdmaHeader.parse(ByteBuffer.wrap(words(0x42, 3, 8, 9))).procValue()).isEqualTo(9);
    }

    @Test
    void versionTwoErrVersBodyIsStillDecoded() throws Exception {
        // RFC 8166 §4.1.2: the RDMA_ERROR body is the same in every version (a reply to a version probe)
        RpcRdmaHeader h = RpcRdmaHeader.parse(ByteBuffer.wrap(words(0x42, 2, 8, 4, 1, 1, 1)));
        assertThat(h.errorCode()).isEqualTo(RpcRdmaHeader.ERR_VERS);
        assertThat(h.versLow()).isEqualTo(1);
        assertThat(h.versHigh()).isEqualTo(1);
        assertThat(h.length()).isEqualTo(28);
    }

    static byte[] words(int... w) {
        ByteBuffer b = ByteBuffer.allocate(4 * w.length);
        for (int v : w) b.putInt(v);
        return b.array();
    }
}
