package io.rddp.rpcrdma;

import io.rddp.testing.RepoPaths;
import io.rddp.Notice;
import io.rddp.capture.CaptureException;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.FieldSink;
import io.rddp.decode.Pdu;
import io.rddp.generate.Generator;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.generate.RpcRdmaWriter;
import io.rddp.generate.Scenario;
import io.rddp.oncrpc.RpcEncoder;
import io.rddp.oncrpc.RpcMessage;
import io.rddp.oncrpc.RpcNames;
import io.rddp.oncrpc.XdrWriter;
import io.rddp.rdmap.Opcode;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.rddp.generate.RpcRdmaWriter.REQUESTER;
import static io.rddp.generate.RpcRdmaWriter.RESPONDER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

class RpcRdmaStageTest {

    @TempDir
    Path dir;

    /** What the stage said about one PDU (values only: the PDU's views die with the callback). */
    record Event(long frame, Opcode op, Direction direction, boolean last, long msn, RpcRdmaMessage message,
                 ChunkMove move) {
        boolean send() {
            return op == Opcode.SEND || op == Opcode.SEND_WITH_INVALIDATE || op == Opcode.SEND_WITH_SE
                    || op == Opcode.SEND_WITH_SE_AND_INVALIDATE;
        }
    }

    record Decoded(List<Event> events, List<Notice> notices) {
        List<RpcRdmaMessage> messages() {
            return events.stream().map(Event::message).filter(m -> m != null).toList();
        }

        List<ChunkMove> moves() {
            return events.stream().map(Event::move).filter(m -> m != null).toList();
        }

        List<Event> ofOp(Opcode op) {
            return events.stream().filter(e -> e.op == op).toList();
        }
    }

    static Decoded decode(Path capture, RpcRdmaStage.DecodeAs mode) throws IOException {
        List<Event> events = new ArrayList<>();
        List<Notice> notices = new ArrayList<>();
        RpcRdmaListener l = new RpcRdmaListener() {
            @Override
            public void onPdu(Pdu pdu, RpcRdmaMessage message, ChunkMove move) {
                Opcode op = pdu.rdmap() == null ? null : pdu.rdmap().opcode();
                boolean last = pdu.ddp() != null && pdu.ddp().header().last();
                long msn = pdu.ddp() != null && pdu.ddp().header() instanceof UntaggedHeader u ? u.msn() : -1;
                events.add(new Event(pdu.frame(), op, pdu.direction(), last, msn, message, move));
            }

            @Override
            public void onNotice(Notice notice) {
                notices.add(notice);
            }
        };
        try (CaptureReader r = CaptureReaders.open(capture)) {
            new DecodePipeline(new RpcRdmaStage(l, mode)).run(r);
        } catch (CaptureException e) {
            // a capture cut short: what was read counts
        }
        return new Decoded(events, notices);
    }

    static Path root() {
        return RepoPaths.root();
    }

    // ---------------------------------------------------------------- a) no false positives

    @Test
    void realCapturesOfOtherUlpsYieldNoRpcOverRdma() throws IOException {
        Path root = root();
        assumeThat(root).as("repository root with pcaps/ not found: real captures skipped").isNotNull();
        List<Path> caps;
        try (Stream<Path> s = Stream.concat(Files.list(root.resolve("pcaps/siw")), Files.list(root.resolve("pcaps/public")))) {
            caps = s.filter(p -> p.toString().endsWith(".pcap")).sorted().toList();
        }
        assertThat(caps).hasSizeGreaterThanOrEqualTo(10);
        long sends = 0;
        for (Path cap : caps) {
            Decoded d = decode(cap, RpcRdmaStage.DecodeAs.AUTO);
            assertThat(d.messages()).as("RPC-over-RDMA messages in %s", cap.getFileName()).isEmpty();
            assertThat(d.moves()).as("chunk moves in %s", cap.getFileName()).isEmpty();
            sends += d.events().stream().filter(Event::send).count();
        }
        assertThat(sends).as("Sends the heuristic had to turn down").isGreaterThan(100);
    }

    @Test
    void perftestSendBwSendsStayOpaque() throws IOException {
        Path root = root();
        assumeThat(root).isNotNull();
        Decoded d = decode(root.resolve("pcaps/siw/siw-send-bw-lo.pcap"), RpcRdmaStage.DecodeAs.AUTO);
        assertThat(d.ofOp(Opcode.SEND)).hasSizeGreaterThan(100);
        assertThat(d.messages()).isEmpty();
        // forced, the same Sends are decoded as (malformed) RPC-over-RDMA: the stage does look at them
        Decoded forced = decode(root.resolve("pcaps/siw/siw-send-bw-lo.pcap"), RpcRdmaStage.DecodeAs.RPCRDMA);
        assertThat(forced.messages()).isNotEmpty()
                .allSatisfy(m -> assertThat(m.recognition()).isEqualTo(RpcRdmaMessage.Recognition.FORCED));
    }

    // ---------------------------------------------------------------- b) the generated NFS capture

    private Path generatedNfs() throws IOException {
        Path f = dir.resolve("nfs-rdma.pcap");
        try (PcapWriter w = PcapWriter.create(f, LinkType.ETHERNET, true)) {
            Generator.generate(Scenario.NFS_RDMA, new Generator.Options(0, 16, 3000, 1460, false, 7), w);
        }
        return f;
    }

    @Test
    void generatedNfsCaptureEverySendCarriesAMessageRecognisedByPort() throws IOException {
        Decoded d = decode(generatedNfs(), RpcRdmaStage.DecodeAs.AUTO);
        List<Event> sends = d.events().stream().filter(Event::send).toList();
        // 16 transactions, two Sends each (RFC 8166 §3.5: call and reply, whatever moves in chunks)
        assertThat(sends).hasSize(32);
        for (Event e : sends) {
            assertThat(e.message()).as("Send in frame %d", e.frame()).isNotNull();
            assertThat(e.message().recognition()).isEqualTo(RpcRdmaMessage.Recognition.PORT);
            assertThat(e.message().header()).isNotNull();
            // a Long Reply is shown at its RDMA_NOMSG Send (RFC 8166 §3.5.3); every other Send is its own message
            boolean longReply = e.direction() == RESPONDER && e.message().header().proc() == Proc.RDMA_NOMSG;
            assertThat(e.message().source()).isEqualTo(longReply
                    ? RpcRdmaMessage.Source.REPLY_CHUNK : RpcRdmaMessage.Source.INLINE);
            assertThat(e.message().headerProblem()).isNull();
            assertThat(e.message().fromRequester()).isEqualTo(e.direction() == REQUESTER);
        }
        assertThat(d.notices()).noneMatch(n -> "rpcrdma".equals(n.layer()));
    }

    @Test
    void generatedNfsCaptureRebuildsTheLongCallAtItsReadResponse() throws IOException {
        Decoded d = decode(generatedNfs(), RpcRdmaStage.DecodeAs.AUTO);
        List<Event> longCalls = d.events().stream().filter(e -> e.message() != null
                && e.message().source() == RpcRdmaMessage.Source.POSITION_ZERO_READ_CHUNK).toList();
        assertThat(longCalls).hasSize(2); // kind 4 of NfsRdmaTraffic, twice in 16 steps
        for (Event e : longCalls) {
            assertThat(e.op()).isEqualTo(Opcode.RDMA_READ_RESPONSE);
            assertThat(e.move()).isNotNull();
            assertThat(e.move().chunk()).isEqualTo(ChunkMove.Chunk.READ);
            RpcRdmaMessage m = e.message();
            assertThat(m.header().proc()).isEqualTo(Proc.RDMA_NOMSG); // RFC 8166 §3.5.3: a Long Call is RDMA_NOMSG
            assertThat(m.header().readList()).hasSize(1);
            assertThat(m.header().readList().get(0).position()).isZero();
            assertThat(m.rpcProblem()).isNull();
            RpcMessage rpc = m.rpc();
            assertThat(rpc.call()).isTrue();
            assertThat(rpc.xid()).isEqualTo(m.header().xid());
            assertThat(rpc.procedureName()).isEqualTo("NFSv4 COMPOUND");
            assertThat(rpc.ulp().operations()).containsExactly("SEQUENCE", "PUTFH", "WRITE");
            assertThat(rpc.ulp().dataLength()).isEqualTo(6000);
            assertThat(m.sendLength()).isEqualTo(m.header().readList().get(0).target().length());
            assertThat(m.sendLength()).isEqualTo(rpc.length());
        }
    }

    @Test
    void generatedNfsCaptureRebuildsTheLongReplyFromTheReplyChunk() throws IOException {
        Decoded d = decode(generatedNfs(), RpcRdmaStage.DecodeAs.AUTO);
        List<RpcRdmaMessage> longReplies = d.messages().stream()
                .filter(m -> m.source() == RpcRdmaMessage.Source.REPLY_CHUNK).toList();
        assertThat(longReplies).hasSize(2);
        for (RpcRdmaMessage m : longReplies) {
            assertThat(m.fromRequester()).isFalse();
            assertThat(m.header().proc()).isEqualTo(Proc.RDMA_NOMSG);
            assertThat(m.rpcProblem()).isNull();
            assertThat(m.rpc().call()).isFalse();
            assertThat(m.rpc().xid()).isEqualTo(m.header().xid());
            assertThat(m.rpc().procedureName()).isEqualTo("NFSv3 READDIRPLUS");
            assertThat(m.rpc().ulp().status()).isZero();
            assertThat(m.rpc().length()).isEqualTo(RpcRdmaHeader.length(m.header().replyChunk()));
        }
    }

    @Test
    void generatedNfsCaptureMatchesEveryRdmaOperationToAChunkInBounds() throws IOException {
        Decoded d = decode(generatedNfs(), RpcRdmaStage.DecodeAs.AUTO);
        List<Event> rdma = d.events().stream().filter(e -> e.op() == Opcode.RDMA_READ_REQUEST
                || e.op() == Opcode.RDMA_READ_RESPONSE || e.op() == Opcode.RDMA_WRITE).toList();
        assertThat(rdma).hasSizeGreaterThan(10);
        for (Event e : rdma) {
            assertThat(e.move()).as("%s in frame %d", e.op(), e.frame()).isNotNull();
            assertThat(e.move().matched()).as("%s in frame %d", e.op(), e.frame()).isTrue();
            assertThat(e.move().inBounds()).as("%s in frame %d", e.op(), e.frame()).isTrue();
            assertThat(e.move().afterReply()).isFalse();
            assertThat(e.move().op().name()).isEqualTo(e.op() == Opcode.RDMA_WRITE ? "WRITE"
                    : e.op() == Opcode.RDMA_READ_REQUEST ? "READ_REQUEST" : "READ_RESPONSE");
        }
        // RFC 8166 §3.4.5: Read chunks are read; Writes go to Write chunks (NFSv3 READ) and Reply chunks
        assertThat(d.moves()).extracting(ChunkMove::chunk)
                .contains(ChunkMove.Chunk.READ, ChunkMove.Chunk.WRITE, ChunkMove.Chunk.REPLY);
        // the NFSv3 WRITE's Read chunk has two segments at the same Position: both are read
        assertThat(d.moves()).filteredOn(m -> m.op() == ChunkMove.Op.READ_REQUEST && m.chunk() == ChunkMove.Chunk.READ)
                .extracting(ChunkMove::segment).contains(0, 1);
    }

    @Test
    void generatedNfsCaptureReadReplyReturnsItsDataInTheWriteChunk() throws IOException {
        Decoded d = decode(generatedNfs(), RpcRdmaStage.DecodeAs.AUTO);
        List<RpcRdmaMessage> readReplies = d.messages().stream().filter(m -> m.rpc() != null && !m.rpc().call()
                && "NFSv3 READ".equals(m.rpc().procedureName())).toList();
        assertThat(readReplies).hasSize(2);
        for (RpcRdmaMessage m : readReplies) {
            assertThat(m.header().writeList()).hasSize(1);
            assertThat(m.rpc().ulp().dataLength()).isEqualTo(3000);
            assertThat(m.rpc().ulp().chunkLength()).isEqualTo(m.rpc().ulp().dataLength());
            assertThat(m.rpc().ulp().chunkLength()).isEqualTo(RpcRdmaHeader.length(m.header().writeList().get(0)));
            StringBuilder info = RpcRdmaFields.info(m, null, new StringBuilder());
            assertThat(info.toString()).isEqualTo(" | RDMA_MSG xid 0x" + Long.toHexString(m.header().xid())
                    + " cr 32 writes 1 | Reply NFSv3 READ OK data 3000 (in Write chunk)");
            assertThat(RpcRdmaFields.protocol(m)).isEqualTo("NFS");
        }
    }

    @Test
    void generatedNfsCaptureVersionProbeIsAnsweredWithErrVers() throws IOException {
        Decoded d = decode(generatedNfs(), RpcRdmaStage.DecodeAs.AUTO);
        List<RpcRdmaMessage> errors = d.messages().stream()
                .filter(m -> m.header() != null && m.header().proc() == Proc.RDMA_ERROR).toList();
        assertThat(errors).hasSize(2);
        for (RpcRdmaMessage m : errors) {
            // RFC 8166 §4.5.1: ERR_VERS echoes the version it could not handle and gives the supported range
            assertThat(m.header().version()).isEqualTo(2);
            assertThat(m.header().errorCode()).isEqualTo(RpcRdmaHeader.ERR_VERS);
            assertThat(m.header().versLow()).isEqualTo(1);
            assertThat(m.header().versHigh()).isEqualTo(1);
            assertThat(m.rpc()).isNull();
            assertThat(m.fromRequester()).isFalse();
            assertThat(RpcRdmaFields.protocol(m)).isEqualTo("RPCoRDMA");
        }
    }

    @Test
    void fieldsOfADecodedMessageUseStableKeys() throws IOException {
        Decoded d = decode(generatedNfs(), RpcRdmaStage.DecodeAs.AUTO);
        RpcRdmaMessage call = d.messages().stream().filter(m -> m.rpc() != null && m.rpc().call()
                && "NFSv3 WRITE".equals(m.rpc().procedureName())).findFirst().orElseThrow();
        List<String> fields = new ArrayList<>();
        RpcRdmaFields.describe(call, null, new KeySink(fields));
        assertThat(fields).contains("rpcrdma.source=send", "rpcrdma.role=requester", "rpcrdma.recognition=port",
                "rpcrdma.procName=RDMA_MSG", "rpcrdma.credits=32", "rpc.msgType=call", "rpc.programName=NFS",
                "rpc.procedureName=NFSv3 WRITE", "rpc.dataLength=3000", "rpc.credFlavorName=AUTH_SYS");
        assertThat(fields).filteredOn(f -> f.startsWith("rpcrdma.reads.position=")).hasSize(2);
        ChunkMove move = d.moves().get(0);
        List<String> moveFields = new ArrayList<>();
        RpcRdmaFields.describe(null, move, new KeySink(moveFields));
        assertThat(moveFields).contains("chunk.matched=true", "chunk.xid=" + move.xid(),
                "chunk.kind=" + move.chunk().name().toLowerCase(), "chunk.inBounds=true");
    }

    /** Flattens fields to "group.key=value" (list items are keyless and keep their list's path). */
    static final class KeySink implements FieldSink {
        private final List<String> out;
        private final List<String> path = new ArrayList<>();

        KeySink(List<String> out) {
            this.out = out;
        }

        @Override
        public void begin(String key, String label) {
            path.add(key);
        }

        @Override
        public void end() {
            path.remove(path.size() - 1);
        }

        private void add(String key, Object value) {
            StringBuilder sb = new StringBuilder();
            for (String p : path) if (p != null) sb.append(p).append('.');
            out.add(sb.append(key).append('=').append(value).toString());
        }

        @Override
        public void number(String key, String label, long value) {
            add(key, value);
        }

        @Override
        public void unsigned64(String key, String label, long value) {
            add(key, Long.toUnsignedString(value));
        }

        @Override
        public void bool(String key, String label, boolean value) {
            add(key, value);
        }

        @Override
        public void text(String key, String label, String value) {
            add(key, value);
        }

        @Override
        public void hex(String key, String label, byte[] value) {
            add(key, java.util.HexFormat.of().formatHex(value));
        }
    }

    // ---------------------------------------------------------------- c) recognition

    private Path write(String name, int serverPort, byte[] privateData, IwarpConnectionWriter.Config cfg,
                       Consumer<RpcRdmaWriter> traffic) throws IOException {
        Path f = dir.resolve(name);
        try (PcapWriter pcap = PcapWriter.create(f, LinkType.ETHERNET, true)) {
            IwarpConnectionWriter w = new IwarpConnectionWriter(new Endpoint(new byte[]{10, 9, 0, 1}, 40123),
                    new Endpoint(new byte[]{10, 9, 0, 2}, serverPort), cfg, TcpSessionWriter.Options.defaults(),
                    (bytes, ts) -> {
                        try {
                            pcap.writePacket(ts, bytes);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
            w.open(privateData, privateData);
            traffic.accept(new RpcRdmaWriter(w, 0x5500, 0x10_0000));
            w.close();
        }
        return f;
    }

    private Path write(String name, int serverPort, Consumer<RpcRdmaWriter> traffic) throws IOException {
        return write(name, serverPort, new byte[0], IwarpConnectionWriter.Config.defaults(), traffic);
    }

    private static RpcRdmaHeader msg(long xid) {
        return RpcRdmaHeader.message(xid, 16, Proc.RDMA_MSG, List.of(), List.of(), null);
    }

    /** An NFSv3 GETATTR call whose RPC XID is {@code rpcXid} in an RDMA_MSG whose rdma_xid is {@code rdmaXid}. */
    private static void getattr(RpcRdmaWriter w, long rdmaXid, long rpcXid) {
        w.send(REQUESTER, msg(rdmaXid), RpcEncoder.call(rpcXid, RpcNames.NFS, 3, 1,
                new XdrWriter().opaque(new byte[32]).toByteArray()));
    }

    @Test
    void sendWhoseRpcXidRepeatsTheRdmaXidIsRecognised() throws IOException {
        // RFC 8166 §4.2.1: the rdma_xid and the RPC message's XID are the same
        Path f = write("xid.pcap", 4791, w -> {
            getattr(w, 0xABC, 0xABC);
            w.send(RESPONDER, msg(0xABC), RpcEncoder.acceptedReply(0xABC, 0,
                    new XdrWriter().u32(0).toByteArray()));
        });
        Decoded d = decode(f, RpcRdmaStage.DecodeAs.AUTO);
        assertThat(d.messages()).hasSize(2);
        RpcRdmaMessage call = d.messages().get(0), reply = d.messages().get(1);
        assertThat(call.recognition()).isEqualTo(RpcRdmaMessage.Recognition.CONSISTENT_XID);
        assertThat(call.fromRequester()).isTrue();
        assertThat(call.rpc().procedureName()).isEqualTo("NFSv3 GETATTR");
        assertThat(reply.recognition()).isEqualTo(RpcRdmaMessage.Recognition.CONSISTENT_XID);
        assertThat(reply.fromRequester()).isFalse();
        assertThat(reply.rpc().procedureName()).as("the reply is named by its call").isEqualTo("NFSv3 GETATTR");
        assertThat(reply.rpc().ulp().status()).isZero();
    }

    @Test
    void sendWhoseRpcXidDiffersLeavesTheConnectionOpaque() throws IOException {
        Path f = write("badxid.pcap", 4791, w -> {
            getattr(w, 0xABC, 0xABD);
            w.send(RESPONDER, msg(0xABC), RpcEncoder.acceptedReply(0xABD, 0, new XdrWriter().u32(0).toByteArray()));
        });
        Decoded d = decode(f, RpcRdmaStage.DecodeAs.AUTO);
        assertThat(d.events().stream().filter(Event::send)).hasSize(2);
        assertThat(d.messages()).isEmpty();
    }

    @Test
    void decodeAsRpcRdmaForcesTheConnection() throws IOException {
        Path f = write("forced.pcap", 4791, w -> getattr(w, 0xABC, 0xABD));
        Decoded d = decode(f, RpcRdmaStage.DecodeAs.RPCRDMA);
        assertThat(d.messages()).hasSize(1);
        RpcRdmaMessage m = d.messages().get(0);
        assertThat(m.recognition()).isEqualTo(RpcRdmaMessage.Recognition.FORCED);
        assertThat(m.header().xid()).isEqualTo(0xABC);
        assertThat(m.rpc().xid()).isEqualTo(0xABD);
    }

    @Test
    void decodeAsNoneDisablesEvenPort20049() throws IOException {
        Path f = write("none.pcap", RpcRdmaStage.NFS_RDMA_PORT, w -> getattr(w, 0xABC, 0xABC));
        assertThat(decode(f, RpcRdmaStage.DecodeAs.NONE).messages()).isEmpty();
        Decoded auto = decode(f, RpcRdmaStage.DecodeAs.AUTO);
        assertThat(auto.messages()).hasSize(1);
        assertThat(auto.messages().get(0).recognition()).isEqualTo(RpcRdmaMessage.Recognition.PORT);
    }

    @Test
    void rfc8797PrivateDataRecognisesTheConnection() throws IOException {
        byte[] pd = new CmPrivateData(1, false, 1024, 1024).toBytes();
        Path f = write("pd.pcap", 4791, pd, IwarpConnectionWriter.Config.defaults(), w -> getattr(w, 1, 2));
        Decoded d = decode(f, RpcRdmaStage.DecodeAs.AUTO);
        assertThat(d.messages()).hasSize(1);
        assertThat(d.messages().get(0).recognition()).isEqualTo(RpcRdmaMessage.Recognition.PRIVATE_DATA);
    }

    @Test
    void heuristicGivesUpAfterItsTriesAndNotBefore() throws IOException {
        byte[] noise = new byte[40];
        java.util.Arrays.fill(noise, (byte) 0x5A);
        Path late = write("late.pcap", 4791, w -> {
            for (int i = 0; i < RpcRdmaStage.HEURISTIC_TRIES; i++) w.sendRaw(REQUESTER, noise);
            getattr(w, 7, 7);
        });
        assertThat(decode(late, RpcRdmaStage.DecodeAs.AUTO).messages()).isEmpty();
        Path inTime = write("intime.pcap", 4791, w -> {
            for (int i = 0; i < RpcRdmaStage.HEURISTIC_TRIES - 1; i++) w.sendRaw(REQUESTER, noise);
            getattr(w, 7, 7);
        });
        assertThat(decode(inTime, RpcRdmaStage.DecodeAs.AUTO).messages()).hasSize(1);
    }

    // ---------------------------------------------------------------- chunk moves

    @Test
    void writesAreMatchedToTheWriteChunkAndCheckedAgainstIt() throws IOException {
        long h = 0x7700, to = 0x4000_0000L;
        List<RdmaSegment> chunk = List.of(new RdmaSegment(h, 1000, to), new RdmaSegment(h + 1, 500, to + 0x10000));
        Path f = write("writes.pcap", RpcRdmaStage.NFS_RDMA_PORT, w -> {
            w.send(REQUESTER, RpcRdmaHeader.message(0x10, 8, Proc.RDMA_MSG, List.of(), List.of(chunk), null),
                    RpcEncoder.call(0x10, RpcNames.NFS, 3, 6,
                            new XdrWriter().opaque(new byte[32]).u64(0).u32(1500).toByteArray()));
            w.write(h, to, new byte[1000]);            // segment 0, whole
            w.write(h + 1, to + 0x10000 + 100, new byte[400]); // segment 1 from octet 100 to its end
            w.write(h + 1, to + 0x10000 + 400, new byte[104]); // runs 4 octets past segment 1
            w.write(0x9999, to, new byte[8]);          // no chunk advertised this handle
            w.send(RESPONDER, msg(0x10), RpcEncoder.acceptedReply(0x10, 0, new XdrWriter().u32(5).toByteArray()));
            w.write(h, to, new byte[8]);               // after the reply (RFC 8166 §3.5.2 forbids)
        });
        List<ChunkMove> moves = decode(f, RpcRdmaStage.DecodeAs.AUTO).moves();
        assertThat(moves).containsExactly(
                new ChunkMove(ChunkMove.Op.WRITE, 0x10, ChunkMove.Chunk.WRITE, 0, 0, 0, 1000, true, false),
                new ChunkMove(ChunkMove.Op.WRITE, 0x10, ChunkMove.Chunk.WRITE, 0, 1, 100, 400, true, false),
                new ChunkMove(ChunkMove.Op.WRITE, 0x10, ChunkMove.Chunk.WRITE, 0, 1, 400, 104, false, false),
                new ChunkMove(ChunkMove.Op.WRITE, -1, null, -1, -1, -1, 8, false, false),
                new ChunkMove(ChunkMove.Op.WRITE, 0x10, ChunkMove.Chunk.WRITE, 0, 0, 0, 8, true, true));
        assertThat(moves.get(3).matched()).isFalse();
    }

    @Test
    void readsAreMatchedToTheReadChunkSegmentTheyName() throws IOException {
        long h = 0x3300, to = 0x8000_0000_0000L;
        // WRITE3args with its data reduced: the length word stays inline (RFC 8166 §3.4.4.1), the Read chunk's
        // Position is where the data item's octets were (§3.4.5): here at the end of the inline call
        byte[] call = RpcEncoder.call(0x20, RpcNames.NFS, 3, 7,
                new XdrWriter().opaque(new byte[28]).u64(0).u32(128).u32(2).u32(128).toByteArray());
        long position = call.length;
        List<ReadSegment> chunk = List.of(new ReadSegment(position, new RdmaSegment(h, 64, to)),
                new ReadSegment(position, new RdmaSegment(h + 1, 64, to + 4096)));
        Path f = write("reads.pcap", RpcRdmaStage.NFS_RDMA_PORT, w -> {
            w.send(REQUESTER, RpcRdmaHeader.message(0x20, 8, Proc.RDMA_MSG, chunk, List.of(), null), call);
            w.readRequest(h + 1, to + 4096 + 16, 32);
        });
        Decoded d = decode(f, RpcRdmaStage.DecodeAs.AUTO);
        assertThat(d.moves()).containsExactly(
                new ChunkMove(ChunkMove.Op.READ_REQUEST, 0x20, ChunkMove.Chunk.READ, 0, 1, 16, 32, true, false));
        // the call's data item is a hole of 128 octets at its Position: located and sized all the same
        RpcMessage rpc = d.messages().get(0).rpc();
        assertThat(rpc.ulp().dataLength()).isEqualTo(128);
        assertThat(rpc.ulp().dataOffset()).isEqualTo(position);
        assertThat(rpc.ulp().problem()).isNull();
        assertThat(rpc.length()).isEqualTo(call.length + 128);
    }

    /** An NFSv4 COMPOUND SEQUENCE, PUTFH, WRITE call carrying {@code data}. */
    private static byte[] compoundWrite(long xid, byte[] data) {
        XdrWriter ops = new XdrWriter().string("").u32(1).u32(3)
                .u32(53).fixed(new byte[16]).u32(1).u32(0).u32(0).bool(false)
                .u32(22).opaque(new byte[28])
                .u32(38).fixed(new byte[16]).u64(0).u32(2).opaque(data);
        return RpcEncoder.call(xid, RpcNames.NFS, 4, 1, ops.toByteArray());
    }

    @Test
    void pipelinedReadsIntoOneSinkStagAreEachMatchedToTheirSegment() throws IOException {
        // RFC 5040 §5.2/§6: a Responder may have several RDMA Read Requests outstanding, and nothing keeps them
        // from naming the same Data Sink STag at different TOs; each Read Response belongs to the request whose
        // sink range holds its TO.
        byte[] call = compoundWrite(0x40, new byte[3000]);
        long h = 0x6600, to = 0x7000_0000L, sinkStag = 0x5500, sinkTo = 0x10_0000;
        int first = 1024;
        List<ReadSegment> chunk = List.of(new ReadSegment(0, new RdmaSegment(h, first, to)),
                new ReadSegment(0, new RdmaSegment(h + 1, call.length - first, to + 0x10000)));
        Path f = write("pipelined.pcap", RpcRdmaStage.NFS_RDMA_PORT, w -> {
            IwarpConnectionWriter c = w.connection();
            w.send(REQUESTER, RpcRdmaHeader.message(0x40, 8, Proc.RDMA_NOMSG, chunk, List.of(), null), new byte[0]);
            c.message(RESPONDER, c.readRequest(RESPONDER,
                    new io.rddp.rdmap.ReadRequest(sinkStag, sinkTo, first, h, to)));
            c.message(RESPONDER, c.readRequest(RESPONDER,
                    new io.rddp.rdmap.ReadRequest(sinkStag, sinkTo + first, call.length - first, h + 1, to + 0x10000)));
            c.message(REQUESTER, c.readResponse(REQUESTER, sinkStag, sinkTo, ByteBuffer.wrap(call, 0, first).slice()));
            c.message(REQUESTER, c.readResponse(REQUESTER, sinkStag, sinkTo + first,
                    ByteBuffer.wrap(call, first, call.length - first).slice()));
        });
        Decoded d = decode(f, RpcRdmaStage.DecodeAs.AUTO);
        List<ChunkMove> responses = d.moves().stream().filter(m -> m.op() == ChunkMove.Op.READ_RESPONSE).toList();
        assertThat(responses).as("every Read Response segment is matched").hasSize(d.ofOp(Opcode.RDMA_READ_RESPONSE).size())
                .allSatisfy(m -> {
                    assertThat(m.xid()).isEqualTo(0x40);
                    assertThat(m.inBounds()).isTrue();
                });
        assertThat(responses.get(0).segment()).isZero();
        assertThat(responses.get(responses.size() - 1).segment()).isEqualTo(1);
        RpcRdmaMessage longCall = d.messages().stream()
                .filter(m -> m.source() == RpcRdmaMessage.Source.POSITION_ZERO_READ_CHUNK).findFirst().orElseThrow();
        assertThat(longCall.rpcProblem()).isNull();
        assertThat(longCall.rpc().ulp().operations()).containsExactly("SEQUENCE", "PUTFH", "WRITE");
        assertThat(longCall.rpc().ulp().dataLength()).isEqualTo(3000);
    }

    @Test
    void longCallLargerThanWhatIsRetainedIsStillSized() throws IOException {
        // The stage keeps MAX_RETAINED octets of a rebuilt message; the rest is a hole the decode can skip
        byte[] call = compoundWrite(0x41, new byte[100_000]);
        assertThat(call.length).isGreaterThan(RpcRdmaStage.MAX_RETAINED);
        List<ReadSegment> chunk = List.of(new ReadSegment(0, new RdmaSegment(0x6700, call.length, 0x1000)));
        Path f = write("biglongcall.pcap", RpcRdmaStage.NFS_RDMA_PORT, w -> {
            w.send(REQUESTER, RpcRdmaHeader.message(0x41, 8, Proc.RDMA_NOMSG, chunk, List.of(), null), new byte[0]);
            w.pull(chunk, call);
        });
        RpcRdmaMessage longCall = decode(f, RpcRdmaStage.DecodeAs.AUTO).messages().stream()
                .filter(m -> m.source() == RpcRdmaMessage.Source.POSITION_ZERO_READ_CHUNK).findFirst().orElseThrow();
        assertThat(longCall.sendLength()).isEqualTo(call.length);
        assertThat(longCall.rpcProblem()).isNull();
        assertThat(longCall.rpc().length()).isEqualTo(call.length);
        assertThat(longCall.rpc().ulp().dataLength()).isEqualTo(100_000);
    }

    @Test
    void twoReadChunksGoBackAtTheirUnreducedPositions() throws IOException {
        // RFC 8166 §3.4.5: Positions count in the unreduced Payload stream; §3.4.4.4: the reduced stream drops the
        // roundup of each reduced item, so the second Position lies 8 octets (5 of data + 3 of padding) further
        XdrWriter head = new XdrWriter().string("").u32(1).u32(5)
                .u32(53).fixed(new byte[16]).u32(1).u32(0).u32(0).bool(false)
                .u32(22).opaque(new byte[28])
                .u32(38).fixed(new byte[16]).u64(0).u32(2).u32(5);
        byte[] callHead = RpcEncoder.call(0x50, RpcNames.NFS, 4, 1, head.toByteArray());
        byte[] middle = new XdrWriter().u32(38).fixed(new byte[16]).u64(4096).u32(2).u32(100).toByteArray();
        byte[] tail = new XdrWriter().u32(9).u32(1).u32(0x12).toByteArray();
        long p1 = callHead.length, p2 = p1 + 8 + middle.length;
        byte[] reduced = ByteBuffer.allocate(callHead.length + middle.length + tail.length).put(callHead).put(middle)
                .put(tail).array();
        List<ReadSegment> reads = List.of(new ReadSegment(p1, new RdmaSegment(0x1, 5, 0x1000)),
                new ReadSegment(p2, new RdmaSegment(0x2, 100, 0x2000)));
        Path f = write("tworeads.pcap", RpcRdmaStage.NFS_RDMA_PORT,
                w -> w.send(REQUESTER, RpcRdmaHeader.message(0x50, 8, Proc.RDMA_MSG, reads, List.of(), null), reduced));
        RpcMessage rpc = decode(f, RpcRdmaStage.DecodeAs.AUTO).messages().get(0).rpc();
        assertThat(rpc.ulp().operations()).containsExactly("SEQUENCE", "PUTFH", "WRITE", "WRITE", "GETATTR");
        assertThat(rpc.ulp().problem()).isNull();
        assertThat(rpc.ulp().dataOffset()).isEqualTo(p2);
        assertThat(rpc.ulp().dataLength()).isEqualTo(100);
        assertThat(rpc.length()).isEqualTo(reduced.length + 8 + 100);
    }

    // ---------------------------------------------------------------- d) Sends over several DDP segments

    @ParameterizedTest
    @ValueSource(ints = {RpcRdmaStage.NFS_RDMA_PORT, 4791})
    void messageSplitOverSeveralDdpSegmentsIsReassembled(int port) throws IOException {
        byte[] data = new byte[520];
        for (int i = 0; i < data.length; i++) data[i] = (byte) i;
        byte[] call = RpcEncoder.call(0x31, RpcNames.NFS, 3, 7,
                new XdrWriter().opaque(new byte[32]).u64(0).u32(data.length).u32(2).opaque(data).toByteArray());
        Path f = write("split.pcap", port, new byte[0], IwarpConnectionWriter.Config.defaults().withMss(200),
                w -> w.send(REQUESTER, msg(0x31), call));
        Decoded d = decode(f, RpcRdmaStage.DecodeAs.AUTO);
        List<Event> segments = d.events().stream().filter(Event::send).toList();
        assertThat(RpcRdmaHeader.MIN_LENGTH + call.length).isGreaterThan(600);
        assertThat(segments).as("DDP segments of the one Send").hasSizeGreaterThanOrEqualTo(4)
                .extracting(Event::msn).containsOnly(1L);
        for (Event e : segments.subList(0, segments.size() - 1)) assertThat(e.message()).isNull();
        Event last = segments.get(segments.size() - 1);
        assertThat(last.last()).isTrue();
        RpcRdmaMessage m = last.message();
        assertThat(m).isNotNull();
        assertThat(m.recognition()).isEqualTo(port == RpcRdmaStage.NFS_RDMA_PORT
                ? RpcRdmaMessage.Recognition.PORT : RpcRdmaMessage.Recognition.CONSISTENT_XID);
        assertThat(m.sendLength()).isEqualTo(RpcRdmaHeader.MIN_LENGTH + call.length);
        assertThat(m.rpc().procedureName()).isEqualTo("NFSv3 WRITE");
        assertThat(m.rpc().ulp().dataLength()).isEqualTo(520);
        assertThat(m.rpc().length()).isEqualTo(call.length);
        assertThat(m.rpcProblem()).isNull();
    }

    @Test
    void sendWithAMissingSegmentIsReportedIncomplete() throws IOException {
        byte[] call = RpcEncoder.call(0x32, RpcNames.NFS, 3, 7,
                new XdrWriter().opaque(new byte[32]).u64(0).u32(520).u32(2).opaque(new byte[520]).toByteArray());
        Path f = write("hole.pcap", RpcRdmaStage.NFS_RDMA_PORT, new byte[0],
                IwarpConnectionWriter.Config.defaults().withMss(200), w -> {
                    IwarpConnectionWriter c = w.connection();
                    byte[] hdr = msg(0x32).toBytes();
                    ByteBuffer all = ByteBuffer.allocate(hdr.length + call.length).put(hdr).put(call).flip();
                    List<ByteBuffer> ulpdus = new ArrayList<>(c.send(REQUESTER, all).ulpdus());
                    ulpdus.remove(1); // the second DDP segment never went on the wire
                    c.ulpdus(REQUESTER, ulpdus);
                });
        Decoded d = decode(f, RpcRdmaStage.DecodeAs.AUTO);
        assertThat(d.messages()).hasSize(1);
        RpcRdmaMessage m = d.messages().get(0);
        assertThat(m.header()).isNull();
        assertThat(m.headerProblem()).startsWith("Send message incomplete in the capture");
        assertThat(m.sendLength()).isEqualTo(hdr(0x32) + call.length);
    }

    private static int hdr(long xid) {
        return msg(xid).length();
    }
}
