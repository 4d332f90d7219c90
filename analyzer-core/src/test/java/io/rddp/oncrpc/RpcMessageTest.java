package io.rddp.oncrpc;

import io.rddp.MalformedException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.function.LongFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RpcMessageTest {

    private static final long NFS = RpcNames.NFS;

    private static RpcMessage parse(byte[] msg) throws MalformedException {
        return RpcMessage.parse(XdrReader.of(ByteBuffer.wrap(msg)), null, null);
    }

    private static RpcMessage parseReply(byte[] msg, long prog, long vers, long proc, java.util.function.LongSupplier chunks)
            throws MalformedException {
        LongFunction<RpcMessage.CallKey> calls = xid -> xid == 0x77 ? new RpcMessage.CallKey(prog, vers, proc) : null;
        return RpcMessage.parse(XdrReader.of(ByteBuffer.wrap(msg)), calls, chunks);
    }

    private static byte[] fh3() {
        return new XdrWriter().opaque(new byte[32]).toByteArray();
    }

    /** RFC 1813 §2.6 fattr3: 84 octets. */
    private static byte[] fattr3() {
        return new byte[84];
    }

    // ---------------------------------------------------------------- call header (RFC 5531 §9)

    @Test
    void callHeaderFieldsAndBodyOffset() throws Exception {
        byte[] args = fh3();
        byte[] call = RpcEncoder.call(0x1234_5678L, NFS, 3, 1, args);
        RpcMessage m = parse(call);
        assertThat(m.xid()).isEqualTo(0x1234_5678L);
        assertThat(m.call()).isTrue();
        assertThat(m.rpcVersion()).isEqualTo(2);
        assertThat(m.program()).isEqualTo(NFS);
        assertThat(m.version()).isEqualTo(3);
        assertThat(m.procedure()).isEqualTo(1);
        assertThat(m.credFlavor()).isEqualTo(RpcEncoder.AUTH_SYS);
        assertThat(m.verfFlavor()).isEqualTo(RpcEncoder.AUTH_NONE);
        assertThat(m.replyStat()).isEqualTo(-1);
        assertThat(m.bodyOffset()).isEqualTo(call.length - args.length);
        assertThat(m.length()).isEqualTo(call.length);
        assertThat(m.procedureName()).isEqualTo("NFSv3 GETATTR");
        // GETATTR3args (RFC 1813 §3.3.1): nothing the analysis sizes
        assertThat(m.ulp().maxReplyBytes()).isEqualTo(-1);
        assertThat(m.ulp().dataLength()).isEqualTo(-1);
        assertThat(m.ulp().problem()).isNull();
        assertThat(m.summary()).isEqualTo("Call NFSv3 GETATTR");
    }

    @Test
    void credentialBodyLongerThan400OctetsIsMalformed() {
        // RFC 5531 §8.2: opaque_auth bodies are at most 400 octets
        byte[] call = new XdrWriter().u32(1).u32(0).u32(2).u32(NFS).u32(3).u32(0).u32(1).opaque(new byte[404])
                .u32(0).u32(0).toByteArray();
        assertThatThrownBy(() -> parse(call)).isInstanceOf(MalformedException.class)
                .hasMessageContaining("credential body length 404 exceeds its limit 400");
    }

    @Test
    void callWithRpcVersionOtherThanTwoIsNotDecodedFurther() throws Exception {
        byte[] call = new XdrWriter().u32(1).u32(0).u32(3).u32(NFS).u32(3).u32(6).u32(0).u32(0).u32(0).u32(0)
                .raw(new XdrWriter().raw(fh3()).u64(0).u32(8192).toByteArray()).toByteArray();
        RpcMessage m = parse(call);
        assertThat(m.rpcVersion()).isEqualTo(3);
        assertThat(m.ulp()).isNull();
    }

    @Test
    void msgTypeSevenIsMalformed() {
        // RFC 5531 §9: msg_type is CALL (0) or REPLY (1)
        byte[] msg = new XdrWriter().u32(1).u32(7).u32(0).u32(0).toByteArray();
        assertThatThrownBy(() -> parse(msg)).isInstanceOf(MalformedException.class)
                .hasMessage("RPC msg_type 7 is neither CALL (0) nor REPLY (1)")
                .satisfies(e -> assertThat(((MalformedException) e).offset()).isEqualTo(4));
    }

    @Test
    void replyStatTwoAndRejectStatTwoAreMalformed() {
        assertThatThrownBy(() -> parse(new XdrWriter().u32(1).u32(1).u32(2).toByteArray()))
                .isInstanceOf(MalformedException.class).hasMessageContaining("reply_stat 2");
        assertThatThrownBy(() -> parse(new XdrWriter().u32(1).u32(1).u32(1).u32(2).toByteArray()))
                .isInstanceOf(MalformedException.class).hasMessageContaining("reject_stat 2");
    }

    @Test
    void truncatedCallThrowsMalformed() {
        byte[] call = RpcEncoder.call(5, NFS, 3, 0, new byte[0]);
        for (int n = 0; n < call.length; n++) {
            byte[] cut = java.util.Arrays.copyOf(call, n);
            assertThatThrownBy(() -> parse(cut)).as("cut to %d", n).isInstanceOf(MalformedException.class);
        }
    }

    // ---------------------------------------------------------------- NFSv3 calls (RFC 1813 §3.3)

    @Test
    void nfs3ReadCallGivesTheCountAsMostReplyData() throws Exception {
        byte[] call = RpcEncoder.call(1, NFS, 3, 6, new XdrWriter().raw(fh3()).u64(1 << 20).u32(32768).toByteArray());
        RpcMessage m = parse(call);
        assertThat(m.procedureName()).isEqualTo("NFSv3 READ");
        assertThat(m.ulp().maxReplyBytes()).isEqualTo(32768);
        assertThat(m.ulp().dataOffset()).isEqualTo(-1);
    }

    @Test
    void nfs3WriteCallLocatesItsDdpEligibleData() throws Exception {
        // RFC 1813 §3.3.7 WRITE3args: file, offset, count, stable, data; RFC 8267 §3.1: data is DDP-eligible
        byte[] data = new byte[1001];
        byte[] args = new XdrWriter().raw(fh3()).u64(0).u32(1001).u32(2).opaque(data).toByteArray();
        byte[] call = RpcEncoder.call(2, NFS, 3, 7, args);
        RpcMessage m = parse(call);
        long body = call.length - args.length;
        assertThat(m.ulp().dataOffset()).isEqualTo(body + 36 + 8 + 4 + 4 + 4);
        assertThat(m.ulp().dataLength()).isEqualTo(1001);
        assertThat(m.ulp().problem()).isNull();
        assertThat(m.summary()).isEqualTo("Call NFSv3 WRITE data 1001");
    }

    @Test
    void nfs3WriteCallWithDataInAHoleIsStillSized() throws Exception {
        // The data item reduced to a Read chunk (RFC 8166 §3.4.5) is a hole in the stream; it is skipped
        byte[] head = RpcEncoder.call(2, NFS, 3, 7, new XdrWriter().raw(fh3()).u64(0).u32(4096).u32(2).u32(4096)
                .toByteArray());
        XdrReader x = XdrReader.builder().add(ByteBuffer.wrap(head)).addHole(4096).build();
        RpcMessage m = RpcMessage.parse(x, null, null);
        assertThat(m.ulp().dataOffset()).isEqualTo(head.length);
        assertThat(m.ulp().dataLength()).isEqualTo(4096);
        assertThat(m.length()).isEqualTo(head.length + 4096);
    }

    @Test
    void nfs3WriteCallWithDataLongerThanTheMessageReportsAProblem() throws Exception {
        byte[] args = new XdrWriter().raw(fh3()).u64(0).u32(100).u32(2).u32(100).u32(0).toByteArray();
        RpcMessage m = parse(RpcEncoder.call(2, NFS, 3, 7, args));
        assertThat(m.ulp().dataLength()).isEqualTo(100);
        assertThat(m.ulp().problem()).contains("runs past the end");
    }

    @Test
    void nfs3ReaddirplusCallGivesMaxcount() throws Exception {
        // RFC 1813 §3.3.17 READDIRPLUS3args: dir, cookie, cookieverf, dircount, maxcount
        byte[] args = new XdrWriter().raw(fh3()).u64(0).fixed(new byte[8]).u32(1024).u32(8192).toByteArray();
        RpcMessage m = parse(RpcEncoder.call(3, NFS, 3, 17, args));
        assertThat(m.procedureName()).isEqualTo("NFSv3 READDIRPLUS");
        assertThat(m.ulp().maxReplyBytes()).isEqualTo(8192);
        byte[] readdir = new XdrWriter().raw(fh3()).u64(0).fixed(new byte[8]).u32(4000).toByteArray();
        assertThat(parse(RpcEncoder.call(3, NFS, 3, 16, readdir)).ulp().maxReplyBytes()).isEqualTo(4000);
    }

    @Test
    void fileHandleLongerThan64OctetsStopsTheDecodeWithAProblem() throws Exception {
        // RFC 1813 §2.5: nfs_fh3 is at most NFS3_FHSIZE = 64 octets
        byte[] args = new XdrWriter().opaque(new byte[68]).u64(0).u32(4096).toByteArray();
        RpcMessage m = parse(RpcEncoder.call(3, NFS, 3, 6, args));
        assertThat(m.ulp().maxReplyBytes()).isEqualTo(-1);
        assertThat(m.ulp().problem()).contains("nfs_fh3 length 68 exceeds its limit 64");
    }

    // ---------------------------------------------------------------- NFSv3 replies

    private static byte[] read3Reply(long count, byte[] inlineData) {
        XdrWriter r = new XdrWriter().u32(0).bool(true).raw(fattr3()).u32(count).bool(true);
        if (inlineData != null) r.opaque(inlineData);
        else r.u32(count); // data reduced to a Write chunk: its length word stays (RFC 8166 §3.4.4.1)
        return r.toByteArray();
    }

    @Test
    void nfs3ReadReplyWithInlineData() throws Exception {
        byte[] results = read3Reply(300, new byte[300]);
        byte[] reply = RpcEncoder.acceptedReply(0x77, 0, results);
        RpcMessage m = parseReply(reply, NFS, 3, 6, () -> -1);
        assertThat(m.call()).isFalse();
        assertThat(m.replyStat()).isZero();
        assertThat(m.acceptStat()).isZero();
        assertThat(m.procedureName()).isEqualTo("NFSv3 READ");
        long body = reply.length - results.length;
        assertThat(m.bodyOffset()).isEqualTo(body);
        assertThat(m.ulp().status()).isZero();
        assertThat(m.ulp().dataOffset()).isEqualTo(body + 4 + 4 + 84 + 4 + 4 + 4);
        assertThat(m.ulp().dataLength()).isEqualTo(300);
        assertThat(m.ulp().chunkLength()).isEqualTo(-1);
        assertThat(m.ulp().problem()).isNull();
        assertThat(m.summary()).isEqualTo("Reply NFSv3 READ OK data 300");
    }

    @Test
    void nfs3ReadReplyWithDataInAWriteChunk() throws Exception {
        // RFC 8166 §3.4.6: the Write chunk's returned length says how much data was written
        byte[] results = read3Reply(4096, null);
        RpcMessage m = parseReply(RpcEncoder.acceptedReply(0x77, 0, results), NFS, 3, 6, () -> 4096);
        assertThat(m.ulp().dataLength()).isEqualTo(4096);
        assertThat(m.ulp().chunkLength()).isEqualTo(4096);
        assertThat(m.ulp().problem()).isNull();
        assertThat(m.summary()).isEqualTo("Reply NFSv3 READ OK data 4096 (in Write chunk)");
    }

    @Test
    void nfs3ReadReplyClaimingMoreInlineDataThanThereIsReportsAProblem() throws Exception {
        byte[] results = read3Reply(4096, null); // length word 4096 but no octets, and no Write chunk
        RpcMessage m = parseReply(RpcEncoder.acceptedReply(0x77, 0, results), NFS, 3, 6, () -> -1);
        assertThat(m.ulp().status()).isZero();
        assertThat(m.ulp().problem()).isEqualTo("data length 4096 but only 0 octets follow");
    }

    @Test
    void nfs3ErrorReplyCarriesItsStatus() throws Exception {
        byte[] reply = RpcEncoder.acceptedReply(0x77, 0, new XdrWriter().u32(70).bool(false).toByteArray());
        RpcMessage m = parseReply(reply, NFS, 3, 6, null);
        assertThat(m.ulp().status()).isEqualTo(70);
        assertThat(m.summary()).isEqualTo("Reply NFSv3 READ STALE");
    }

    @Test
    void replyWhoseCallWasNotSeenHasNoProcedure() throws Exception {
        RpcMessage m = parse(RpcEncoder.acceptedReply(0x99, 0, read3Reply(4, new byte[4])));
        assertThat(m.program()).isEqualTo(-1);
        assertThat(m.procedureName()).isNull();
        assertThat(m.ulp()).isNull();
        assertThat(m.summary()).isEqualTo("Reply (call not seen)");
    }

    @Test
    void progMismatchReplyCarriesTheRange() throws Exception {
        // RFC 5531 §9: accepted reply, PROG_MISMATCH with mismatch_info
        byte[] reply = new XdrWriter().u32(0x77).u32(1).u32(0).u32(0).u32(0).u32(2).u32(3).u32(4).toByteArray();
        RpcMessage m = parseReply(reply, NFS, 2, 0, null);
        assertThat(m.acceptStat()).isEqualTo(2);
        assertThat(m.mismatchLow()).isEqualTo(3);
        assertThat(m.mismatchHigh()).isEqualTo(4);
        assertThat(m.ulp()).isNull();
        assertThat(m.summary()).isEqualTo("Reply NFSv2 NULL PROG_MISMATCH");
    }

    // ---------------------------------------------------------------- denied replies (RFC 5531 §9)

    @Test
    void rpcMismatchDenialCarriesLowAndHigh() throws Exception {
        RpcMessage m = parse(RpcEncoder.rpcMismatch(0x55, 2, 2));
        assertThat(m.replyStat()).isEqualTo(1);
        assertThat(m.rejectStat()).isZero();
        assertThat(m.mismatchLow()).isEqualTo(2);
        assertThat(m.mismatchHigh()).isEqualTo(2);
        assertThat(m.authStat()).isEqualTo(-1);
        assertThat(m.acceptStat()).isEqualTo(-1);
        assertThat(m.length()).isEqualTo(24);
        assertThat(m.summary()).isEqualTo("Reply (call not seen) DENIED RPC_MISMATCH");
    }

    @Test
    void authErrorDenialNamesTheAuthStat() throws Exception {
        byte[] reply = new XdrWriter().u32(0x77).u32(1).u32(1).u32(1).u32(5).toByteArray();
        RpcMessage m = parseReply(reply, NFS, 3, 1, null);
        assertThat(m.rejectStat()).isEqualTo(1);
        assertThat(m.authStat()).isEqualTo(5);
        assertThat(m.mismatchLow()).isEqualTo(-1);
        assertThat(m.summary()).isEqualTo("Reply NFSv3 GETATTR DENIED AUTH_TOOWEAK");
        assertThat(RpcNames.authStat(1)).isEqualTo("AUTH_BADCRED");
        assertThat(RpcNames.authStat(13)).isEqualTo("RPCSEC_GSS_CREDPROBLEM");
        assertThat(RpcNames.authStat(99)).isEqualTo("auth_stat 99");
    }

    // ---------------------------------------------------------------- NFSv4 COMPOUND (RFC 8881 §16.2, §18)

    private static byte[] compound(int count, XdrWriter ops) {
        return new XdrWriter().string("tag").u32(1).u32(count).raw(ops.toByteArray()).toByteArray();
    }

    private static XdrWriter sequenceArgs(XdrWriter w) {
        return w.u32(53).fixed(new byte[16]).u32(7).u32(0).u32(0).bool(false);
    }

    @Test
    void compoundCallListsItsOperationsAndTheReadCount() throws Exception {
        XdrWriter ops = sequenceArgs(new XdrWriter())
                .u32(22).opaque(new byte[28]) // PUTFH
                .u32(25).fixed(new byte[16]).u64(0).u32(65536) // READ: stateid, offset, count
                .u32(9).u32(2).u32(0x0010_011A).u32(0x0030_A23A); // GETATTR: bitmap4 of two words
        RpcMessage m = parse(RpcEncoder.call(10, NFS, 4, 1, compound(4, ops)));
        assertThat(m.procedureName()).isEqualTo("NFSv4 COMPOUND");
        assertThat(m.ulp().operations()).containsExactly("SEQUENCE", "PUTFH", "READ", "GETATTR");
        assertThat(m.ulp().moreOperations()).isZero();
        assertThat(m.ulp().maxReplyBytes()).isEqualTo(65536);
        assertThat(m.ulp().problem()).isNull();
        assertThat(m.summary()).isEqualTo("Call NFSv4 COMPOUND [SEQUENCE, PUTFH, READ, GETATTR]");
    }

    @Test
    void compoundReplyListsOperationsWithTheirStatus() throws Exception {
        XdrWriter res = new XdrWriter()
                .u32(53).u32(0).fixed(new byte[16]).u32(7).u32(0).u32(63).u32(63).u32(0) // SEQUENCE4resok
                .u32(22).u32(0) // PUTFH
                .u32(25).u32(0).bool(true).opaque(new byte[10]) // READ4resok: eof, data
                .u32(9).u32(0).u32(1).u32(0x12).opaque(new byte[12]); // GETATTR: fattr4
        byte[] results = new XdrWriter().u32(0).string("tag").u32(4).raw(res.toByteArray()).toByteArray();
        RpcMessage m = parseReply(RpcEncoder.acceptedReply(0x77, 0, results), NFS, 4, 1, () -> -1);
        assertThat(m.ulp().operations()).containsExactly("SEQUENCE OK", "PUTFH OK", "READ OK", "GETATTR OK");
        assertThat(m.ulp().status()).isZero();
        assertThat(m.ulp().dataLength()).isEqualTo(10);
        assertThat(m.ulp().problem()).isNull();
        assertThat(m.summary()).isEqualTo("Reply NFSv4 COMPOUND [SEQUENCE OK, PUTFH OK, READ OK, GETATTR OK] data 10");
    }

    @Test
    void compoundReplyStopsAtTheFailedOperation() throws Exception {
        // RFC 8881 §16.2.3: the COMPOUND ends at the first failed operation; its status is the COMPOUND's
        XdrWriter res = new XdrWriter()
                .u32(53).u32(0).fixed(new byte[16]).u32(7).u32(0).u32(63).u32(63).u32(0)
                .u32(22).u32(70); // PUTFH NFS4ERR_STALE
        byte[] results = new XdrWriter().u32(70).string("").u32(2).raw(res.toByteArray()).toByteArray();
        RpcMessage m = parseReply(RpcEncoder.acceptedReply(0x77, 0, results), NFS, 4, 1, null);
        assertThat(m.ulp().operations()).containsExactly("SEQUENCE OK", "PUTFH STALE");
        assertThat(m.ulp().status()).isEqualTo(70);
        assertThat(m.summary()).isEqualTo("Reply NFSv4 COMPOUND [SEQUENCE OK, PUTFH STALE] STALE");
    }

    @Test
    void compoundReadReplyWithDataInAWriteChunk() throws Exception {
        XdrWriter res = new XdrWriter().u32(22).u32(0).u32(25).u32(0).bool(false).u32(8192);
        byte[] results = new XdrWriter().u32(0).string("").u32(2).raw(res.toByteArray()).toByteArray();
        RpcMessage m = parseReply(RpcEncoder.acceptedReply(0x77, 0, results), NFS, 4, 1, () -> 8000);
        assertThat(m.ulp().dataLength()).isEqualTo(8192);
        assertThat(m.ulp().chunkLength()).isEqualTo(8000);
    }

    @Test
    void compoundWithAnOperationTheDecoderCannotSizeCountsTheRest() throws Exception {
        // LOCK (12) has arguments this decoder does not walk: the two operations after it are only counted (OPEN,
        // the example here before, is decoded since the Linux client's OPENs showed up in pcaps/nfs-rdma/)
        XdrWriter ops = new XdrWriter().u32(12).fixed(new byte[40]).u32(10).u32(9).u32(0);
        RpcMessage m = parse(RpcEncoder.call(11, NFS, 4, 1, compound(3, ops)));
        assertThat(m.ulp().operations()).containsExactly("LOCK");
        assertThat(m.ulp().moreOperations()).isEqualTo(2);
        assertThat(m.ulp().problem()).isEqualTo("arguments of LOCK not decoded");
        assertThat(m.summary()).isEqualTo("Call NFSv4 COMPOUND [LOCK, +2 more]");
    }

    @Test
    void compoundCountLargerThanTheMessageIsMalformed() {
        byte[] args = new XdrWriter().string("").u32(1).u32(0xFFFF_FFFFL).u32(53).toByteArray();
        assertThatThrownBy(() -> parse(RpcEncoder.call(12, NFS, 4, 1, args))).isInstanceOf(MalformedException.class)
                .hasMessageContaining("COMPOUND operations: count 4294967295 does not fit");
    }

    @Test
    void unknownAndIllegalOperationNumbersAreNamed() throws Exception {
        // RFC 8881 §18.50 OP_ILLEGAL = 10044
        XdrWriter ops = new XdrWriter().u32(10044);
        assertThat(parse(RpcEncoder.call(13, NFS, 4, 1, compound(1, ops))).ulp().operations())
                .containsExactly("ILLEGAL");
        assertThat(parse(RpcEncoder.call(13, NFS, 4, 1, compound(1, new XdrWriter().u32(999)))).ulp().operations())
                .containsExactly("op 999");
    }

    @Property(tries = 200)
    void truncatedCompoundCallsNeverThrowAnythingButMalformed(@ForAll @IntRange(min = 0, max = 200) int cut) {
        XdrWriter ops = sequenceArgs(new XdrWriter()).u32(22).opaque(new byte[28]).u32(25).fixed(new byte[16])
                .u64(0).u32(65536).u32(9).u32(2).u32(1).u32(2);
        byte[] call = RpcEncoder.call(10, NFS, 4, 1, compound(4, ops));
        byte[] part = java.util.Arrays.copyOf(call, Math.min(cut, call.length));
        try {
            RpcMessage m = parse(part);
            if (part.length < call.length) {
                assertThat(m.ulp() == null || m.ulp().problem() != null || m.ulp().moreOperations() > 0
                        || m.ulp().operations().size() < 4).as("a cut call is not decoded whole").isTrue();
            }
        } catch (MalformedException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    // ---------------------------------------------------------------- names

    @Test
    void describeNamesKnownProgramsAndProcedures() {
        assertThat(RpcNames.describe(NFS, 3, 6)).isEqualTo("NFSv3 READ");
        assertThat(RpcNames.describe(NFS, 4, 1)).isEqualTo("NFSv4 COMPOUND");
        assertThat(RpcNames.describe(NFS, 2, 8)).isEqualTo("NFSv2 WRITE");
        assertThat(RpcNames.describe(RpcNames.MOUNT, 3, 1)).isEqualTo("MOUNT v3 MNT");
        assertThat(RpcNames.describe(RpcNames.NLM, 4, 2)).isEqualTo("NLM v4 LOCK");
        assertThat(RpcNames.describe(RpcNames.PORTMAP, 2, 3)).isEqualTo("portmap v2 GETPORT");
        assertThat(RpcNames.describe(RpcNames.PORTMAP, 4, 3)).isEqualTo("portmap v4 GETADDR");
        assertThat(RpcNames.describe(RpcNames.NFS4_CALLBACK, 1, 1)).isEqualTo("NFSv4 callback v1 CB_COMPOUND");
    }

    @Test
    void describeFallsBackToNumbers() {
        assertThat(RpcNames.describe(400123, 1, 7)).isEqualTo("program 400123 v1 proc 7");
        assertThat(RpcNames.describe(NFS, 3, 22)).isEqualTo("NFSv3 proc 22");
        assertThat(RpcNames.describe(NFS, 5, 0)).isEqualTo("NFSv5 proc 0");
        assertThat(RpcNames.describe(RpcNames.NLM, 4, 16)).as("a gap in the NLM table").isEqualTo("NLM v4 proc 16");
        assertThat(RpcNames.program(400123)).isNull();
        assertThat(RpcNames.procedure(NFS, 3, -1)).isNull();
    }

    @Property(tries = 300)
    void describeAlwaysNamesSomething(@ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long program,
                                      @ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long version,
                                      @ForAll @LongRange(min = 0, max = 0xFFFF_FFFFL) long procedure) {
        String d = RpcNames.describe(program, version, procedure);
        assertThat(d).isNotBlank().doesNotContain("null");
    }

    @Test
    void statusNames() {
        assertThat(RpcNames.acceptStat(0)).isEqualTo("SUCCESS");
        assertThat(RpcNames.acceptStat(4)).isEqualTo("GARBAGE_ARGS");
        assertThat(RpcNames.acceptStat(9)).isEqualTo("accept_stat 9");
        assertThat(RpcNames.nfsStatus(10008)).isEqualTo("DELAY");
        assertThat(RpcNames.nfsStatus(12345)).isEqualTo("status 12345");
        assertThat(RpcNames.authFlavor(6)).isEqualTo("RPCSEC_GSS");
        assertThat(RpcNames.authFlavor(390003)).isEqualTo("flavor 390003");
    }

    @Test
    void encoderWritesTheRfc5531CallLayout() {
        byte[] call = RpcEncoder.call(0xA, NFS, 3, 0, new byte[0]);
        ByteBuffer b = ByteBuffer.wrap(call);
        // xid, CALL, rpcvers 2, prog, vers, proc, AUTH_SYS
        assertThat(new long[]{b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getInt(20),
                b.getInt(24)}).containsExactly(0xA, 0, 2, NFS, 3, 0, RpcEncoder.AUTH_SYS);
        assertThat(call.length % 4).isZero();
        byte[] reply = RpcEncoder.acceptedReply(0xB, 3, new byte[0]);
        assertThat(reply).hasSize(24);
        assertThat(ByteBuffer.wrap(reply).getInt(20)).isEqualTo(3);
    }

    @Test
    void ulpInfoCopiesItsOperations() {
        java.util.List<String> ops = new java.util.ArrayList<>(java.util.List.of("PUTFH"));
        UlpInfo u = new UlpInfo(ops, 0, -1, -1, -1, -1, -1, null);
        ops.add("READ");
        assertThat(u.operations()).containsExactly("PUTFH");
    }
}
