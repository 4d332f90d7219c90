package io.rddp.tcp;

import io.rddp.capture.Frame;
import io.rddp.capture.LinkType;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames of the real capture /work/shared/pcaps/siw/siw-rping-lo.pcap (siw rping over loopback), as tshark dumped
 * them, decoded and reassembled here and compared with tshark's own field values and its "follow tcp" output.
 */
class SiwRpingFramesTest {

    static List<String[]> lines(String resource) throws IOException {
        List<String[]> out = new ArrayList<>();
        try (InputStream in = SiwRpingFramesTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("#")) out.add(line.split("[ \t]"));
            }
        }
        return out;
    }

    static List<Frame> frames() throws IOException {
        List<Frame> frames = new ArrayList<>();
        for (String[] f : lines("siw-rping-lo.frames.txt")) {
            Frame frame = Capture.frame(Long.parseLong(f[0]), LinkType.ETHERNET, HexFormat.of().parseHex(f[3]),
                    Integer.parseInt(f[2]));
            frame.timestampNanos = Long.parseLong(f[1]);
            frames.add(frame);
        }
        return frames;
    }

    @Test
    void everyFrameDecodesToTsharksFieldValues() throws IOException {
        List<Frame> frames = frames();
        List<String[]> expected = lines("siw-rping-lo.tshark-fields.tsv");
        assertThat(frames).hasSize(90);
        assertThat(expected).hasSize(90);
        PacketDecoder decoder = new PacketDecoder(n -> {
            throw new AssertionError(n.toString());
        });
        TcpSegment seg = new TcpSegment();
        for (int i = 0; i < frames.size(); i++) {
            String[] t = expected.get(i);
            assertThat(decoder.decode(frames.get(i), seg)).isTrue();
            assertThat(seg.frame()).isEqualTo(Long.parseLong(t[0]));
            assertThat(seg.source().addressString()).isEqualTo(t[1]);
            assertThat(seg.source().port()).isEqualTo(Integer.parseInt(t[2]));
            assertThat(seg.destination().addressString()).isEqualTo(t[3]);
            assertThat(seg.destination().port()).isEqualTo(Integer.parseInt(t[4]));
            assertThat(seg.sequence()).as("seq of frame %s", t[0]).isEqualTo(Long.parseLong(t[5]));
            assertThat(seg.acknowledgment()).as("ack of frame %s", t[0]).isEqualTo(Long.parseLong(t[6]));
            assertThat(seg.flags()).as("flags of frame %s", t[0]).isEqualTo(Integer.decode(t[7]));
            assertThat(seg.window()).isEqualTo(Integer.parseInt(t[8]));
            assertThat(seg.payloadLength()).as("tcp.len of frame %s", t[0]).isEqualTo(Integer.parseInt(t[10]));
            assertThat(seg.capturedPayloadLength()).isEqualTo(seg.payloadLength());
            // tcp.hdr_len: the payload starts that far after the TCP header (Ethernet 14 + IPv4 20 here)
            assertThat(seg.payload().position()).isEqualTo(14 + 20 + Integer.parseInt(t[9]));
        }
    }

    @Test
    void frame8CarriesTheFirstDdpSendAfterTheMpaExchange() throws IOException {
        Frame f = frames().get(7);
        TcpSegment seg = new TcpSegment();
        assertThat(new PacketDecoder(n -> { }).decode(f, seg)).isTrue();
        // tshark: 39655 -> 7174 [PSH, ACK] Seq=3915058321 Ack=1835487100 Win=512 Len=40
        assertThat(seg.toString()).isEqualTo("frame 8 10.0.2.15:39655 -> 10.0.2.15:7174 [PSH, ACK] seq=3915058321"
                + " ack=1835487100 win=512 len=40");
        assertThat(seg.timestampNanos()).isEqualTo(1795334147589929000L);
        // first bytes of the payload: MPA ULPDU_Length 0x0022, then the DDP/RDMAP control byte 0x41
        assertThat(seg.payload().getShort(seg.payload().position())).isEqualTo((short) 0x0022);
        assertThat(seg.payload().get(seg.payload().position() + 2)).isEqualTo((byte) 0x41);
    }

    @Test
    void reassembledStreamEqualsTsharksFollowOutput() throws IOException {
        List<String[]> follow = lines("siw-rping-lo.follow-0.txt");
        byte[] c2s = HexFormat.of().parseHex(follow.get(0)[1]);
        byte[] s2c = HexFormat.of().parseHex(follow.get(1)[1]);
        Recorder r = new Recorder();
        TcpReassembler reassembler = new TcpReassembler(r);
        PacketDecoder decoder = new PacketDecoder(r.notices::add);
        TcpSegment seg = new TcpSegment();
        List<Frame> frames = frames();
        for (Frame f : frames) {
            if (decoder.decode(f, seg)) reassembler.accept(seg);
        }
        reassembler.finish(frames.size());
        assertThat(r.connections).singleElement().satisfies(c -> {
            assertThat(c.client().toString()).isEqualTo("10.0.2.15:39655");
            assertThat(c.server().toString()).isEqualTo("10.0.2.15:7174");
            assertThat(c.synSeen(Direction.CLIENT_TO_SERVER)).isTrue();
            assertThat(c.initialSequence(Direction.CLIENT_TO_SERVER)).isEqualTo(3915058297L);
            assertThat(c.initialSequence(Direction.SERVER_TO_CLIENT)).isEqualTo(1835487076L);
        });
        assertThat(r.bytes(0, Direction.CLIENT_TO_SERVER)).isEqualTo(c2s);
        assertThat(r.bytes(0, Direction.SERVER_TO_CLIENT)).isEqualTo(s2c);
        assertThat(r.gaps).isEmpty();
        assertThat(r.notices).isEmpty();
        // tshark: FIN of 39655 in frame 88 at relative seq 1665, of 7174 in frame 89 at 2185 (offsets one less)
        assertThat(r.closes).containsExactly(
                new Recorder.Close(0, Direction.CLIENT_TO_SERVER, 1664, false, 88),
                new Recorder.Close(0, Direction.SERVER_TO_CLIENT, 2184, false, 89));
        // the MPA request (24 bytes) came in frame 4, the reply in frame 6, the first DDP segment in frame 8
        assertThat(r.data(0, Direction.CLIENT_TO_SERVER).get(0)).satisfies(d -> {
            assertThat(d.offset()).isZero();
            assertThat(d.bytes()).hasSize(24);
            assertThat(d.frame()).isEqualTo(4);
        });
        assertThat(r.data(0, Direction.SERVER_TO_CLIENT).get(0).frame()).isEqualTo(6);
        assertThat(r.data(0, Direction.CLIENT_TO_SERVER).get(1).frame()).isEqualTo(8);
        assertThat(r.data(0, Direction.CLIENT_TO_SERVER).get(1).offset()).isEqualTo(24);
    }
}
