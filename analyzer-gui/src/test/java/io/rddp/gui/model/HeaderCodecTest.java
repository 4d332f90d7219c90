package io.rddp.gui.model;

import io.rddp.decode.FrameHeaderFields;
import io.rddp.filter.FieldRecord;
import io.rddp.tcp.EthernetHeader;
import io.rddp.tcp.FrameHeaders;
import io.rddp.tcp.Ipv4Header;
import io.rddp.tcp.Ipv6Header;
import io.rddp.tcp.TcpHeader;
import io.rddp.tcp.VlanTag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The window stores a frame's headers as their values and describes them when shown: the same fields either way. */
class HeaderCodecTest {

    private static final byte[] MAC_A = {2, 0, 10, 0, 2, 15}, MAC_B = {2, 0, 10, 0, 2, 2};

    @Test
    void ipv4WithOptionsAndTwoVlanTagsComesBackFieldForField() throws Exception {
        FrameHeaders h = new FrameHeaders(new EthernetHeader(MAC_A, MAC_B, 0x8100),
                List.of(VlanTag.of(0xA00A, 0x8100), VlanTag.of(0x1FFF, 0x0800)),
                new Ipv4Header(6, 0xB8, 1500, 0xBEEF, Ipv4Header.FLAG_DF, 0, 63, 6, 0x1234, new byte[]{10, 0, 2, 15},
                        new byte[]{10, 0, 2, 2}, new byte[]{1, 1, 1, 0}),
                null, new TcpHeader(40000, 7174, 0xFFFF_FFF0L, 0x8000_0001L, 8, 0x018, 65535, 0xABCD, 0,
                new byte[]{1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}), 1448, 0xFFFF_FFFFL, 0);
        assertThat(fields(roundTrip(h))).isEqualTo(fields(h));
    }

    @Test
    void ipv6WithoutEthernetComesBackFieldForField() throws Exception {
        byte[] a = new byte[16], b = new byte[16];
        a[15] = 1;
        b[0] = (byte) 0xFE;
        b[1] = (byte) 0x80;
        FrameHeaders h = new FrameHeaders(null, List.of(), null, new Ipv6Header(0x20, 0xABCDE, 1240, 6, 255, a, b),
                new TcpHeader(20049, 50000, 1, 2, 5, 0x011, 1024, 0, 0, new byte[0]), 0, 1, 1);
        assertThat(fields(roundTrip(h))).isEqualTo(fields(h));
    }

    @Test
    void aRecordMuchSmallerThanItsFields() throws Exception {
        RecordBuffer out = new RecordBuffer();
        HeaderCodec.write(new FrameHeaders(new EthernetHeader(MAC_A, MAC_B, 0x0800), List.of(),
                new Ipv4Header(5, 0, 76, 0x98F8, Ipv4Header.FLAG_DF, 0, 64, 6, 0x8996, new byte[]{10, 0, 2, 15},
                        new byte[]{10, 0, 2, 15}, new byte[0]),
                null, new TcpHeader(39655, 7174, 3915058297L, 1835487076L, 8, 0x018, 512, 0x185C, 0,
                new byte[]{1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}), 24, 1, 1), out);
        // Ethernet 14, IPv4 about 24 with its addresses, TCP about 35 with a Linux TCP's 12 octets of options
        assertThat(out.size()).isLessThan(90);
    }

    @Test
    void headersKeptAsTheDecodersOctetsComeBackFieldForField() throws Exception {
        // every PDU's headers of an IPv4 and an IPv6 capture, as the pipeline hands them over: their octets
        int kept = 0;
        for (String name : new String[]{"siw/siw-rping-lo.pcap", "generated/mixed.pcap"}) {
            List<FrameHeaders> all = new java.util.ArrayList<>();
            try (io.rddp.capture.CaptureReader r = io.rddp.capture.CaptureReaders.open(
                    io.rddp.testing.RepoPaths.pcap(name))) {
                new io.rddp.analyze.Analyzer(io.rddp.analyze.AnalysisLimits.defaults(),
                        io.rddp.sink.StagRegistry.empty(), io.rddp.analyze.UlpProfile.NONE).frameHeaders(true)
                        .observe(new io.rddp.analyze.Analyzer.Observer() {
                            @Override
                            public void onPdu(io.rddp.decode.Pdu pdu, io.rddp.rpcrdma.RpcRdmaMessage m,
                                              io.rddp.rpcrdma.ChunkMove move) {
                                if (pdu.headers() != null) all.add(pdu.headers());
                            }
                        }).threads(1).run(r, () -> { });
            }
            for (FrameHeaders h : all) {
                assertThat(h.octets()).as("kept as octets").isNotNull();
                RecordBuffer out = new RecordBuffer();
                HeaderCodec.write(h, out);
                // the octets and 20 more: the kind, their length, five offsets, the IP version, three numbers
                assertThat(out.size()).isEqualTo(h.octets().length + 20);
                assertThat(fields(roundTrip(h))).as(name).isEqualTo(fields(h));
                kept++;
            }
        }
        assertThat(kept).isGreaterThan(50);
    }

    private static FrameHeaders roundTrip(FrameHeaders h) throws Exception {
        RecordBuffer out = new RecordBuffer();
        HeaderCodec.write(h, out);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(out.array(), 0, out.size()));
        FrameHeaders back = HeaderCodec.read(in);
        assertThat(in.available()).as("every octet read").isZero();
        return back;
    }

    /** Every field FrameHeaderFields describes, by name, values printed (octet arrays by content). */
    private static Map<String, String> fields(FrameHeaders h) {
        FieldRecord r = new FieldRecord();
        FrameHeaderFields.describe(h, r);
        Map<String, String> out = new TreeMap<>();
        r.all().forEach((k, vs) -> out.put(k, vs.stream()
                .map(v -> v instanceof byte[] b ? Arrays.toString(b) : String.valueOf(v)).toList().toString()));
        assertThat(out).containsKeys("tcp.seq", "tcp.flags.push");
        return out;
    }
}
