package io.rddp.corpus;

import io.rddp.testing.RepoPaths;
import io.rddp.analyze.Analyzer;
import io.rddp.capture.CaptureWriter;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.Terminate;
import io.rddp.sink.SinkModel;
import io.rddp.sink.StagFile;
import io.rddp.sink.StagRegistration;
import io.rddp.sink.StagRegistry;
import io.rddp.tcp.Direction;
import io.rddp.tcp.Endpoint;
import io.rddp.tcp.TcpSessionWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static io.rddp.tcp.Direction.CLIENT_TO_SERVER;
import static io.rddp.tcp.Direction.SERVER_TO_CLIENT;

/**
 * The captures of pcaps/violations/: each breaks one rule, built with the project's encoder and nothing else
 * wrong. Deterministic, so {@code ViolationCorpusTest} checks that the checked-in files are exactly what this writes.
 * Cases that need STag registrations ship them as NAME.stags.json beside the capture ({@link #STAGS}).
 * Rewrite them with: mvn -pl analyzer-core test -Dtest=ViolationCorpusTest -Drddp.updateCorpus=true
 */
final class ViolationCorpus {
    private ViolationCorpus() {
    }

    static final Map<String, Consumer<IwarpConnectionWriter>> CASES = new LinkedHashMap<>();

    private static final long STAG = 0x1234_5600L, TO = 0x7f00_0000_1000L;
    private static final MpaStartFrame.Enhanced ENHANCED = new MpaStartFrame.Enhanced(2, 2, false, false, false, false);

    private static ByteBuffer bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) (i * 7 + 3);
        return ByteBuffer.wrap(b);
    }

    static {
        // RFC 5041 §5.1/§7.2: MSN 2 is skipped; the Data Sink answers with Terminate 1/2/3 as it must.
        CASES.put("msn-skipped-terminated", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(32)));
            w.send(CLIENT_TO_SERVER, bytes(32)); // MSN 2 consumed, never sent
            var bad = w.send(CLIENT_TO_SERVER, bytes(32));
            w.message(CLIENT_TO_SERVER, bad);
            var seg = bad.segments().get(0);
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT,
                    Terminate.of(1, 2, 3, seg.length(), (UntaggedHeader) seg.header(), null)));
        });
        // The same skipped MSN, but the peer goes on as if nothing happened: the missing Terminate is reported.
        CASES.put("msn-skipped-not-terminated", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(32)));
            w.send(CLIENT_TO_SERVER, bytes(32));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(32)));
            w.message(SERVER_TO_CLIENT, w.send(SERVER_TO_CLIENT, bytes(16)));
        });
        // RFC 5044 §4.4: one CRC octet flipped in the second FPDU.
        CASES.put("crc-bad", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(40)));
            w.ulpdus(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(40)).ulpdus(), (fpdu, offset) -> {
                fpdu[fpdu.length - 1] ^= 0x5a;
                return fpdu;
            });
        });
        // RFC 5044 §4.2: a Marker whose FPDU pointer is off by 4 (the CRC recomputed, so only the Marker is wrong).
        CASES.put("marker-pointer-wrong", w -> {
            w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO, bytes(1000)));
            w.ulpdus(SERVER_TO_CLIENT, w.write(SERVER_TO_CLIENT, STAG + 1, TO, bytes(1200)).ulpdus(), (fpdu, offset) -> {
                long base = w.markerBase(SERVER_TO_CLIENT);
                for (int i = 0; i < fpdu.length; i++) {
                    if (Math.floorMod(offset + i - base, 512) == 0 && offset + i != base) {
                        fpdu[i + 3] += 4; // low octet of FPDUPTR
                        break;
                    }
                }
                java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
                crc.update(fpdu, 0, fpdu.length - 4);
                ByteBuffer.wrap(fpdu, fpdu.length - 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
                return fpdu;
            });
        });
        // RFC 5041 §4.1: DDP version 2.
        CASES.put("ddp-version", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)).ddpVersion(2)));
        // RFC 5040 §4.1: RDMAP version 0 (the RDMA Consortium draft's).
        CASES.put("rdmap-version", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)).rdmaVersion(0)));
        // RFC 5040 §4.1: reserved opcode 13.
        CASES.put("opcode-reserved", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)).opcode(13)));
        // RFC 5041 §7.1 / RFC 5040: untagged QN 7 is no RDMAP queue.
        CASES.put("qn-invalid", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)).qn(7)));
        // RFC 5040 §4.4: the Read Response goes to another STag than the Read Request's sink STag.
        CASES.put("read-response-wrong-stag", w -> {
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG, TO, 64, 0x99_0000L, 0x2000)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG + 0x100, TO, bytes(64)));
        });
        // RFC 5040 §4.4 / RFC 5042 §6: a Read Response that no Read Request asked for.
        CASES.put("read-response-unsolicited", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG, TO, bytes(64)));
        });
        // RFC 5040 §6.1 + RFC 6581 §9.1: three Read Requests outstanding where IRD/ORD 2 was negotiated.
        CASES.put("reads-beyond-ird", w -> {
            for (int i = 0; i < 3; i++) {
                w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER,
                        new ReadRequest(STAG, TO + 64L * i, 64, 0x99_0000L, 0x2000 + 64L * i)));
            }
            for (int i = 0; i < 3; i++) {
                w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG, TO + 64L * i, bytes(64)));
            }
        });
        // RFC 5042 §6.2.2: a Write to an STag its owner already had invalidated by Send with Invalidate.
        CASES.put("write-after-invalidate", w -> {
            w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO, bytes(64)));
            w.message(CLIENT_TO_SERVER, w.sendWithInvalidate(CLIENT_TO_SERVER, bytes(16), STAG));
            w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO, bytes(64)));
        });
        // RFC 5040 §5.4: the side that sent a Terminate sends again.
        CASES.put("traffic-after-terminate", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT, Terminate.of(0, 0, 0)));
            w.message(SERVER_TO_CLIENT, w.send(SERVER_TO_CLIENT, bytes(16)));
        });
        // RFC 5041 §5.2: the first segment of a message has MO 40, not 0.
        CASES.put("mo-not-zero", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)).mo(40)));

        // ---- handshake (these cases write their own start frames: names begin with "start-")
        // RFC 5044 §7.1.1: PD_Length above 512.
        CASES.put("start-pd-length", w -> {
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 2, ENHANCED, new byte[600]));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, ENHANCED, new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 5044 §7.1.1: Rev 3 does not exist.
        CASES.put("start-rev", w -> {
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 3, ENHANCED, new byte[0]));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, ENHANCED, new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 5044 §7.1.1: Res bits other than RFC 6581's enhanced flag are set.
        CASES.put("start-reserved", w -> {
            w.tcp().handshake();
            MpaStartFrame q = MpaStartFrame.request(true, true, 2, ENHANCED, new byte[0]);
            w.startFrame(CLIENT_TO_SERVER, new MpaStartFrame(q.kind(), true, true, true, false, q.reserved() | 0x03,
                    2, q.pdLength(), q.privateData(), q.enhanced()));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, ENHANCED, new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 5044 §7.1.2: the Responder sends an FPDU before the Initiator's first one.
        CASES.put("start-responder-first", w -> {
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 2, ENHANCED, new byte[0]));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, ENHANCED, new byte[0]));
            w.message(SERVER_TO_CLIENT, w.send(SERVER_TO_CLIENT, bytes(16)));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 5044 §7.1.2: the Initiator sends an FPDU before the Reply arrived.
        CASES.put("start-initiator-early", w -> {
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 2, ENHANCED, new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, ENHANCED, new byte[0]));
        });

        // ---- DDP
        // RFC 5041 §4.1: a Reserved bit of the control field set.
        CASES.put("ddp-reserved", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)).ddpReserved(1)));
        // RFC 5041 §4.3: a ULPDU of 10 octets cannot hold the 18-octet untagged header.
        CASES.put("ddp-header-short", w -> w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(bytes(10).put(0, (byte) 0x41))));
        // RFC 5041 §7.1: TO + length wraps past 2^64.
        CASES.put("tagged-to-wrap", w -> w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, 0xFFFF_FFFF_FFFF_FFE0L, bytes(64))));
        // RFC 5041 §5.3: segments of one Write sent out of TO order.
        CASES.put("tagged-to-order", w -> {
            var segs = w.write(CLIENT_TO_SERVER, STAG, TO, bytes(3000)).mulpdu(1024).segments();
            w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(segs.get(0).toByteBuffer(), segs.get(2).toByteBuffer(), segs.get(1).toByteBuffer()));
        });
        // RFC 5041 §5.3: segments of two Sends interleaved.
        CASES.put("untagged-interleaved", w -> {
            var a = w.send(CLIENT_TO_SERVER, bytes(1500)).mulpdu(1024).segments();
            var b = w.send(CLIENT_TO_SERVER, bytes(1500)).mulpdu(1024).segments();
            w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(a.get(0).toByteBuffer(), b.get(0).toByteBuffer(), a.get(1).toByteBuffer(), b.get(1).toByteBuffer()));
        });

        // ---- RDMAP
        // RFC 5040 §4.1: the Rsv bits of the RDMAP control field set.
        CASES.put("rdmap-reserved", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)).rdmapReserved(1)));
        // RFC 5040 §4.1: a Send on the tagged buffer model.
        CASES.put("opcode-wrong-model", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)).tagged(true).stag(STAG).to(TO)));
        // RFC 5040 §4.4: the Read Response is 32 octets short of the size requested.
        CASES.put("read-response-short", w -> {
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG, TO, 64, 0x99_0000L, 0x2000)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG, TO, bytes(32)));
        });
        // RFC 5040 §4.4: the Read Response lands at another TO than the sink TO requested.
        CASES.put("read-response-wrong-to", w -> {
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG, TO, 64, 0x99_0000L, 0x2000)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG, TO + 0x40, bytes(64)));
        });
        // RFC 5040 §5.2.1: a Read Request the peer never answers while it goes on sending.
        CASES.put("read-unanswered", w -> {
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG, TO, 64, 0x99_0000L, 0x2000)));
            w.message(SERVER_TO_CLIENT, w.send(SERVER_TO_CLIENT, bytes(16)));
        });
        // RFC 5040 §7.2: a Read Request whose source TO + size wraps past 2^64.
        CASES.put("read-request-to-wrap", w -> {
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG, TO, 64, 0x99_0000L, 0xFFFF_FFFF_FFFF_FFF0L)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG, TO, bytes(64)));
        });
        // RFC 7306 §5.1: an Atomic Request whose remote TO is not 8-octet aligned.
        CASES.put("atomic-misaligned", w -> {
            w.message(CLIENT_TO_SERVER, w.atomicRequest(CLIENT_TO_SERVER, io.rddp.rdmap.AtomicRequest.fetchAdd(1, STAG, TO + 3, 1, 0)));
            w.message(SERVER_TO_CLIENT, w.atomicResponse(SERVER_TO_CLIENT, new io.rddp.rdmap.AtomicResponse(1, 0)));
        });
        // RFC 7306 §5.2.2: the Atomic Response names another request.
        CASES.put("atomic-response-mismatch", w -> {
            w.message(CLIENT_TO_SERVER, w.atomicRequest(CLIENT_TO_SERVER, io.rddp.rdmap.AtomicRequest.fetchAdd(1, STAG, TO, 1, 0)));
            w.message(SERVER_TO_CLIENT, w.atomicResponse(SERVER_TO_CLIENT, new io.rddp.rdmap.AtomicResponse(9, 0)));
        });
        // RFC 5040 §5.4: a second Terminate from the same side.
        CASES.put("terminate-repeated", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT, Terminate.of(0, 0, 0)));
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT, Terminate.of(0, 0, 0)));
        });
        // RFC 5040 §7.1: a Terminate blaming an error (Invalid MSN) that the peer did not commit.
        CASES.put("terminate-unexplained", w -> {
            var ok = w.send(CLIENT_TO_SERVER, bytes(16));
            w.message(CLIENT_TO_SERVER, ok);
            var seg = ok.segments().get(0);
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT,
                    Terminate.of(1, 2, 3, seg.length(), (UntaggedHeader) seg.header(), null)));
        });
        // RFC 5040 §7.1: the Terminate names the wrong error (1/2/4 Invalid MO) for a skipped MSN (1/2/3).
        CASES.put("terminate-mismatch", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(32)));
            w.send(CLIENT_TO_SERVER, bytes(32));
            var bad = w.send(CLIENT_TO_SERVER, bytes(32));
            w.message(CLIENT_TO_SERVER, bad);
            var seg = bad.segments().get(0);
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT,
                    Terminate.of(1, 2, 4, seg.length(), (UntaggedHeader) seg.header(), null)));
        });
        // RFC 5040 §4.8: the Terminate quotes a DDP header (MSN 9) that is not the offending segment's.
        CASES.put("terminate-wrong-header", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(32)));
            w.send(CLIENT_TO_SERVER, bytes(32));
            var bad = w.send(CLIENT_TO_SERVER, bytes(32));
            w.message(CLIENT_TO_SERVER, bad);
            var seg = bad.segments().get(0);
            UntaggedHeader h = (UntaggedHeader) seg.header();
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT, Terminate.of(1, 2, 3, seg.length(),
                    new UntaggedHeader(h.last(), h.reserved(), h.version(), h.rsvdUlp(), h.qn(), 9, h.mo()), null)));
        });
        // RFC 5040 §5.4 / §4.8: a Terminate on MSN 2 of QN 2 (it must be MSN 1: one Terminate per stream).
        CASES.put("terminate-wrong-msn", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT, Terminate.of(0, 0, 0)).msn(2));
        });
        // RFC 5040 §4.4: a "Read Request" ULPDU too short for its 28-octet header.
        CASES.put("rdmap-header-short", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(10)).opcode(1).qn(1)));
        // RFC 5040 §5.5: two Read Responses in the reverse order of their Requests.
        CASES.put("read-response-order", w -> {
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG, TO, 64, 0x99_0000L, 0x2000)));
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG + 0x100, TO, 64, 0x99_0000L, 0x3000)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG + 0x100, TO, bytes(64)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG, TO, bytes(64)));
        });
        // RFC 7306 §5.2.1: Atomic operation code 1 is reserved.
        CASES.put("atomic-opcode-reserved", w -> {
            w.message(CLIENT_TO_SERVER, w.atomicRequest(CLIENT_TO_SERVER, new io.rddp.rdmap.AtomicRequest(0, 1, 1, STAG, TO, 1, 0, 0, ~0L)));
            w.message(SERVER_TO_CLIENT, w.atomicResponse(SERVER_TO_CLIENT, new io.rddp.rdmap.AtomicResponse(1, 0)));
        });
        // RFC 5041 §4.2: the STag changes in the middle of one tagged message.
        CASES.put("tagged-stag-changed", w -> {
            var segs = w.write(CLIENT_TO_SERVER, STAG, TO, bytes(3000)).mulpdu(1024).segments();
            io.rddp.ddp.TaggedHeader h = (io.rddp.ddp.TaggedHeader) segs.get(1).header();
            var changed = new io.rddp.ddp.DdpSegment(new io.rddp.ddp.TaggedHeader(h.last(), h.reserved(), h.version(),
                    h.rsvdUlp(), STAG + 0x100, h.to()), segs.get(1).payload());
            w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(segs.get(0).toByteBuffer(), changed.toByteBuffer(), segs.get(2).toByteBuffer()));
        });
        // RFC 6581 §9.1: the Responder's ORD exceeds the IRD the Initiator offered.
        CASES.put("start-ord-above-ird", w -> {
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 2, ENHANCED, new byte[0]));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2,
                    new MpaStartFrame.Enhanced(2, 8, false, false, false, false), new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 5044 §7.1: the Request's key is not "MPA ID Req Frame" (one octet changed).
        CASES.put("start-bad-key", w -> {
            w.tcp().handshake();
            MpaStartFrame q = MpaStartFrame.request(true, true, 2, ENHANCED, new byte[0]);
            ByteBuffer b = ByteBuffer.allocate(q.length());
            q.writeTo(b);
            b.put(4, (byte) 'X');
            b.flip();
            w.tcp().send(CLIENT_TO_SERVER, b, 1460);
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, ENHANCED, new byte[0]));
        });
        // RFC 6581 §6: the enhanced flag in a Rev 1 frame.
        CASES.put("start-enhanced-rev1", w -> {
            w.tcp().handshake();
            MpaStartFrame q = MpaStartFrame.request(true, true, 2, ENHANCED, new byte[0]);
            w.startFrame(CLIENT_TO_SERVER, new MpaStartFrame(q.kind(), true, true, true, false, q.reserved(), 1,
                    q.pdLength(), q.privateData(), q.enhanced()));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 1, null, new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 5041 §4.3: the MSN changes between two segments of one message.
        CASES.put("untagged-msn-changed", w -> {
            var segs = w.send(CLIENT_TO_SERVER, bytes(1500)).mulpdu(1024).segments();
            UntaggedHeader h = (UntaggedHeader) segs.get(1).header();
            var changed = new io.rddp.ddp.DdpSegment(new UntaggedHeader(h.last(), h.reserved(), h.version(), h.rsvdUlp(),
                    h.qn(), h.msn() + 1, h.mo()), segs.get(1).payload());
            w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(segs.get(0).toByteBuffer(), changed.toByteBuffer()));
        });
        // RFC 5041 §4.1: L set on a segment that is not the message's last.
        CASES.put("last-flag-early", w -> {
            var segs = w.send(CLIENT_TO_SERVER, bytes(2500)).mulpdu(1024).segments();
            var early = new io.rddp.ddp.DdpSegment(segs.get(1).header().withLast(true), segs.get(1).payload());
            w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(segs.get(0).toByteBuffer(), early.toByteBuffer(), segs.get(2).toByteBuffer()));
        });
        // RFC 5041 §4.3: RsvdULP (RDMAP's control field) changes within one message.
        CASES.put("rsvdulp-changed", w -> {
            var segs = w.send(CLIENT_TO_SERVER, bytes(1500)).mulpdu(1024).segments();
            UntaggedHeader h = (UntaggedHeader) segs.get(1).header();
            var changed = new io.rddp.ddp.DdpSegment(new UntaggedHeader(h.last(), h.reserved(), h.version(),
                    (h.rsvdUlp() & 0x00_FFFF_FFFFL) | (0x45L << 32), h.qn(), h.msn(), h.mo()), segs.get(1).payload());
            w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(segs.get(0).toByteBuffer(), changed.toByteBuffer()));
        });
        // RFC 5040 §4.2: a Read Request carries no ULP payload after its header.
        CASES.put("read-request-payload", w -> {
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG, TO, 64, 0x99_0000L, 0x2000)).data(bytes(8)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG, TO, bytes(64)));
        });
        // RFC 5040 §4.8/§7: Error Code 0x77 is not defined for DDP untagged buffer errors.
        CASES.put("terminate-code-undefined", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT, Terminate.of(1, 2, 0x77)));
        });
        // ---- audit of every check (docs/checks.md): the ones no case above provoked
        // RFC 5041 §4.1: L on a segment that does not carry the highest MO (the last one went out before it).
        CASES.put("last-flag-not-highest", w -> {
            var segs = w.send(CLIENT_TO_SERVER, bytes(2500)).mulpdu(1024).segments();
            var s1 = new io.rddp.ddp.DdpSegment(segs.get(1).header().withLast(true), segs.get(1).payload());
            var s2 = new io.rddp.ddp.DdpSegment(segs.get(2).header().withLast(false), segs.get(2).payload());
            w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(segs.get(0).toByteBuffer(), s2.toByteBuffer(), s1.toByteBuffer()));
        });
        // RFC 5041 §5.4: a Send whose last segment never comes before the connection closes (info: the capture ends it).
        CASES.put("message-incomplete", w -> {
            var segs = w.send(CLIENT_TO_SERVER, bytes(2500)).mulpdu(1024).segments();
            w.ulpdus(CLIENT_TO_SERVER, java.util.List.of(segs.get(0).toByteBuffer(), segs.get(1).toByteBuffer()));
        });
        // RFC 5041 §7.1 tagged checks 3-4: 128 octets into a 64-octet registered buffer (--stags).
        CASES.put("tagged-bounds", w -> w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO, bytes(128))));
        // RFC 5040 §5.5: bytes of a tagged buffer written twice before a Send signals completion (info), to an STag
        // nothing registered (info: unverifiable).
        CASES.put("tagged-overlap", w -> {
            w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO, bytes(64)));
            w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO + 32, bytes(64)));
        });
        // RFC 5041 §7.1 tagged check 1: an RDMA Write to an STag whose registration ended at frame 1 (--stags).
        CASES.put("tagged-stag-expired", w -> w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO, bytes(64))));
        // RFC 5041 §5.2: MO + length reaches 2^32.
        CASES.put("untagged-message-length", w -> w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(32)).mo(0xFFFF_FFF0L)));
        // RFC 5044 §4.1: two Sends whose 2 PAD octets are not zero (CRC recomputed): one violation for the direction.
        CASES.put("pad-not-zero", w -> {
            for (int i = 0; i < 2; i++) {
                w.ulpdus(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(2)).ulpdus(), (fpdu, offset) -> {
                    int ulpdu = ((fpdu[0] & 0xff) << 8) | (fpdu[1] & 0xff);
                    for (int k = 2 + ulpdu; k < fpdu.length - 4; k++) fpdu[k] = (byte) 0xa5;
                    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
                    crc.update(fpdu, 0, fpdu.length - 4);
                    ByteBuffer.wrap(fpdu, fpdu.length - 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
                    return fpdu;
                });
            }
        });
        // RFC 7306 §6.3: Immediate Data with 4 octets after its 8.
        CASES.put("immediate-data-length", w -> w.message(CLIENT_TO_SERVER, w.immediateData(CLIENT_TO_SERVER, 7).data(bytes(4))));
        // RFC 5040 §7.2 item 4a: a Read Request from a Data Source STag whose registration ended (--stags), answered.
        CASES.put("read-source-stag-expired", w -> {
            w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER, new ReadRequest(STAG, TO, 64, 0x99_0000L, 0x2000)));
            w.message(SERVER_TO_CLIENT, w.readResponse(SERVER_TO_CLIENT, STAG, TO, bytes(64)));
        });
        // RFC 5040 §5.3, §7.2 item 4: the same STag invalidated twice, the owner sending nothing in between.
        CASES.put("send-invalidate-twice", w -> {
            w.message(CLIENT_TO_SERVER, w.sendWithInvalidate(CLIENT_TO_SERVER, bytes(16), STAG));
            w.message(CLIENT_TO_SERVER, w.sendWithInvalidate(CLIENT_TO_SERVER, bytes(16), STAG));
        });
        // RFC 5040 Appendix A.6: a Terminate segment without L.
        CASES.put("terminate-not-last", w -> {
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
            w.message(SERVER_TO_CLIENT, w.terminate(SERVER_TO_CLIENT, Terminate.of(0, 0, 0)).lastFlag(false));
        });
        // RFC 5042 §6.3.5: an RDMA Write to a buffer registered for remote read only (--stags): RFC 5041 §7.1 tagged
        // check 2 fails, a Tagged Buffer Error (RFC 5040 Figure 10 has no RDMAP protection error for a Write)
        CASES.put("access-read-only", w -> w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO, bytes(64))));
        // RFC 5042 §6.3.5: an RDMA Read Request of a buffer registered for remote write only (--stags): RDMAP's
        // Access rights violation (RFC 5040 Figure 9)
        CASES.put("access-write-only", w -> w.message(CLIENT_TO_SERVER, w.readRequest(CLIENT_TO_SERVER,
                new ReadRequest(0x99_0000L, 0x2000, 64, STAG, TO))));
        // RFC 5042 §6.1.1: an RDMA Write with an STag registered for another stream only (--stags).
        CASES.put("stag-other-stream", w -> w.message(CLIENT_TO_SERVER, w.write(CLIENT_TO_SERVER, STAG, TO, bytes(64))));
        // RFC 6581 §10: an enhanced MPA Request answered by an unenhanced Reply.
        CASES.put("start-enhanced-unanswered", w -> {
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 2, ENHANCED, new byte[0]));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, null, new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 6581 §9.2: A = 0 (client-server) with the zero-length Send RTR flag B set.
        CASES.put("start-rtr-flags", w -> {
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 2,
                    new MpaStartFrame.Enhanced(2, 2, false, true, false, false), new byte[0]));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, ENHANCED, new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 6581 §9.2: peer-to-peer with the zero-length Send RTR, but the Initiator's first FPDU carries data.
        CASES.put("start-rtr-missing", w -> {
            var p2p = new MpaStartFrame.Enhanced(2, 2, true, true, false, false);
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 2, p2p, new byte[0]));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.reply(false, true, false, 2, p2p, new byte[0]));
            w.message(CLIENT_TO_SERVER, w.send(CLIENT_TO_SERVER, bytes(16)));
        });
        // RFC 5044 §7.1.2 rule 8: both sides send an MPA Request (Initiator/Initiator startup).
        CASES.put("start-sequence", w -> {
            w.tcp().handshake();
            w.startFrame(CLIENT_TO_SERVER, MpaStartFrame.request(true, true, 2, ENHANCED, new byte[0]));
            w.startFrame(SERVER_TO_CLIENT, MpaStartFrame.request(false, true, 2, ENHANCED, new byte[0]));
        });
        RpcRdmaCorpus.addTo(CASES);
    }

    /**
     * The registrations the cases that need them ship beside their capture as NAME.stags.json, what
     * {@code rddp analyze --stags} would be told; the tests read those files, so the CLI and the tests run the same
     * registrations.
     */
    static final Map<String, List<StagRegistration>> STAGS = Map.of(
            "tagged-bounds", List.of(StagRegistration.of(STAG, TO, 64, Set.of(StagRegistration.Access.WRITE))),
            "tagged-stag-expired", List.of(new StagRegistration(STAG, TO, 4096,
                    Set.of(StagRegistration.Access.WRITE), null, Set.of(), 0, 1)),
            "read-source-stag-expired", List.of(new StagRegistration(0x99_0000L, 0, 1 << 20,
                    Set.of(StagRegistration.Access.READ), null, Set.of(), 0, 1)),
            "access-read-only", List.of(StagRegistration.of(STAG, TO, 4096, Set.of(StagRegistration.Access.READ))),
            "access-write-only", List.of(StagRegistration.of(STAG, TO, 4096, Set.of(StagRegistration.Access.WRITE))),
            "stag-other-stream", List.of(new StagRegistration(STAG, TO, 4096,
                    Set.of(StagRegistration.Access.WRITE), null, Set.of(7), 0, Long.MAX_VALUE)));

    /** The sidecar of a case: the registrations `rddp analyze --stags` reads for it (checked in only where needed). */
    static Path stagsFile(String name) {
        return dir().resolve(name + ".stags.json");
    }

    /**
     * The analyzer `rddp analyze [--stags NAME.stags.json] NAME.pcap` is: default options and the registrations of
     * the checked-in sidecar, if the case has one.
     */
    static Analyzer analyzer(String name) throws IOException {
        StagRegistry registry = StagRegistry.empty();
        Path stags = stagsFile(name);
        if (Files.exists(stags)) StagFile.read(stags).forEach(registry::add);
        return new Analyzer(SinkModel.Options.defaults(), registry);
    }

    /**
     * The capture of one case: a normal TCP and MPA rev 2 start (CRC on, Markers toward the client), then the case;
     * "start-" cases write their own start frames, which must announce the same Markers and CRC.
     */
    static byte[] build(String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CaptureWriter pcap = new PcapWriter(out, LinkType.ETHERNET, true)) {
            long[] frames = {0};
            TcpSessionWriter.FrameSink sink = (frame, ts) -> {
                try {
                    pcap.writePacket(1_700_000_000_000_000_000L + 1_000 * frames[0]++, ByteBuffer.wrap(frame));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            IwarpConnectionWriter.Config cfg = new IwarpConnectionWriter.Config(1460, true, false, true, 2, 2, 2);
            IwarpConnectionWriter w = new IwarpConnectionWriter(
                    new Endpoint(new byte[]{(byte) 192, 0, 2, 1}, 40001), new Endpoint(new byte[]{(byte) 192, 0, 2, 2}, name.startsWith("rpcrdma-") ? 20049 : 4791),
                    cfg, TcpSessionWriter.Options.defaults(), sink);
            if (!name.startsWith("start-")) w.open();
            CASES.get(name).accept(w);
            w.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static Path dir() {
        return RepoPaths.pcaps().resolve("violations");
    }

    static void writeAll() throws IOException {
        Files.createDirectories(dir());
        for (String name : CASES.keySet()) {
            Files.write(dir().resolve(name + ".pcap"), build(name));
            if (STAGS.containsKey(name)) Files.writeString(stagsFile(name), StagFile.write(STAGS.get(name)));
            else Files.deleteIfExists(stagsFile(name));
        }
    }

    static String expectedFile(String name) {
        return name + ".expected";
    }

    static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;
}
