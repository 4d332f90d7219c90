package io.rddp.conformance;

import io.rddp.mpa.Fpdu;
import io.rddp.mpa.FpduEncoder;
import io.rddp.mpa.MpaDecoder;
import io.rddp.mpa.MpaListener;
import io.rddp.mpa.MpaStartFrame;
import io.rddp.rdmap.RdmapDecoder;
import io.rddp.rdmap.RdmapEncoder;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SocketStreamDecoderTest {

    /** A peer on a real loopback socket sends an MPA Request, then Sends with Markers and CRC; we decode them. */
    @Test
    void decodesWhatAPeerSendsOverARealLoopbackSocket() throws Exception {
        List<String> seen = new ArrayList<>();
        List<Boolean> crcs = new ArrayList<>();
        MpaDecoder mpa = new MpaDecoder(new MpaListener() {
            @Override
            public void onStartFrame(TcpConnection c, Direction d, MpaStartFrame f, long offset, long first, long frame) {
                seen.add(f.kind() + " M=" + f.markers() + " C=" + f.crc());
            }

            @Override
            public void onFpdu(TcpConnection c, Direction d, Fpdu fpdu) {
                try {
                    var pdu = RdmapDecoder.decode(fpdu.ulpdu());
                    seen.add(pdu.opcode().rfcName() + " " + StandardCharsets.US_ASCII.decode(pdu.payload().duplicate()));
                    crcs.add(fpdu.crcOk());
                } catch (Exception e) {
                    seen.add("undecodable: " + e.getMessage());
                }
            }
        });

        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // The peer is the MPA responder: it reads our Request, replies with C=1 (CRCs on both ways, RFC 5044
            // §7.1.1, no Markers), then sends three Sends.
            Thread peer = new Thread(() -> {
                try (Socket s = server.accept()) {
                    s.getInputStream().readNBytes(MpaStartFrame.HEADER_LENGTH);
                    OutputStream out = s.getOutputStream();
                    MpaStartFrame rep = MpaStartFrame.reply(false, true, false, 2, null, new byte[0]);
                    ByteBuffer rb = ByteBuffer.allocate(rep.length());
                    rep.writeTo(rb);
                    out.write(rb.array());
                    FpduEncoder enc = new FpduEncoder(false, true, rep.length());
                    for (int msn = 1; msn <= 3; msn++) {
                        ByteBuffer data = ByteBuffer.wrap(("hello " + msn).getBytes(StandardCharsets.US_ASCII));
                        for (ByteBuffer ulpdu : RdmapEncoder.send(msn, data, 1024).ulpdus()) out.write(enc.encode(ulpdu));
                    }
                    out.flush();
                    s.getInputStream().read(); // wait for our close
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            peer.start();
            try (Socket ours = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                ours.setSoTimeout(10_000);
                SocketStreamDecoder dec = new SocketStreamDecoder(ours, true, mpa);
                MpaStartFrame req = MpaStartFrame.request(false, false, 2, null, new byte[0]);
                ByteBuffer qb = ByteBuffer.allocate(req.length());
                req.writeTo(qb);
                dec.send(qb.array());
                assertThat(dec.readUntil(() -> seen.size() >= 5)).as("peer still open").isTrue();
            }
            peer.join(10_000);
        }
        assertThat(seen).containsExactly("REQUEST M=false C=false", "REPLY M=false C=true", "Send hello 1", "Send hello 2", "Send hello 3");
        assertThat(crcs).containsOnly(true);
    }
}
