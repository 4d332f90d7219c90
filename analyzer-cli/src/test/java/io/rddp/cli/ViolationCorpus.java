package io.rddp.cli;

import io.rddp.capture.CaptureWriter;
import io.rddp.capture.LinkType;
import io.rddp.capture.PcapWriter;
import io.rddp.ddp.UntaggedHeader;
import io.rddp.generate.IwarpConnectionWriter;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.ReadRequest;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.rdmap.Terminate;
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
import java.util.Map;
import java.util.function.Consumer;

import static io.rddp.tcp.Direction.CLIENT_TO_SERVER;
import static io.rddp.tcp.Direction.SERVER_TO_CLIENT;

/**
 * The captures of pcaps/violations/: each breaks one rule, built with the project's encoder and nothing else
 * wrong. Deterministic, so {@code ViolationCorpusTest} checks that the checked-in files are exactly what this writes.
 * Rewrite them with: mvn -pl analyzer-cli test -Dtest=ViolationCorpusTest -Drddp.updateCorpus=true
 */
final class ViolationCorpus {
    private ViolationCorpus() {
    }

    static final Map<String, Consumer<IwarpConnectionWriter>> CASES = new LinkedHashMap<>();

    private static final long STAG = 0x1234_5600L, TO = 0x7f00_0000_1000L;

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
    }

    /** The capture of one case: a normal TCP and MPA rev 2 start (CRC on, Markers toward the client), then the case. */
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
                    new Endpoint(new byte[]{(byte) 192, 0, 2, 1}, 40001), new Endpoint(new byte[]{(byte) 192, 0, 2, 2}, 4791),
                    cfg, TcpSessionWriter.Options.defaults(), sink);
            w.open();
            CASES.get(name).accept(w);
            w.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static Path dir() {
        return Repo.pcaps().resolve("violations");
    }

    static void writeAll() throws IOException {
        Files.createDirectories(dir());
        for (String name : CASES.keySet()) Files.write(dir().resolve(name + ".pcap"), build(name));
    }

    static String expectedFile(String name) {
        return name + ".expected";
    }

    static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;
}
