package io.rddp.gui.vm;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.gui.model.CaptureSession;
import io.rddp.testing.RepoPaths;
import javafx.scene.control.TreeItem;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The detail tree shows a number in hex and decimal when its field's display base is hex, else in decimal. */
class TreeBuilderTest {

    private static List<String> lines(TreeItem<FieldNode> item, List<String> out) {
        for (TreeItem<FieldNode> c : item.getChildren()) {
            out.add(c.getValue().text());
            lines(c, out);
        }
        return out;
    }

    @Test
    void identifiersAreShownInHexByTheirFieldsBaseWhereverTheyAre() {
        TreeBuilder b = new TreeBuilder();
        b.begin("mpa", "MPA FPDU");
        b.number("crc", "CRC32c", 0xdeadbeefL);
        b.number("ulpduLength", "ULPDU length", 28);
        b.end();
        b.begin("ddp", "DDP");
        b.number("stag", "STag", 0x1234);
        b.number("msn", "Message sequence number", 2);
        b.end();
        b.begin("rdmap", "RDMAP");
        b.begin("terminate", "Terminate");
        b.begin("ddpHeader", "Terminated DDP");
        b.number("stag", "STag", 255);
        b.end();
        b.end();
        b.end();
        b.begin("rpcrdma", "RPC-over-RDMA");
        b.beginList("reads", "Read list");
        b.begin(null, "Read segment");
        b.number("handle", "Handle (STag)", 16);
        b.number("length", "Length", 16);
        b.end();
        b.endList();
        b.end();
        b.number("notAField", "Not a field", 16);
        assertThat(lines(b.root, new ArrayList<>())).containsExactly("MPA FPDU", "CRC32c: 0xdeadbeef (3735928559)",
                "ULPDU length: 28", "DDP", "STag: 0x1234 (4660)", "Message sequence number: 2", "RDMAP",
                "Terminate", "Terminated DDP", "STag: 0xff (255)", "RPC-over-RDMA", "Read list", "Read segment",
                "Handle (STag): 0x10 (16)", "Length: 16", "Not a field: 16");
    }

    @Test
    void theTreeShowsTheFramesEthernetIpAndTcpLayersBeforeMpa() throws Exception {
        // pcaps/siw/siw-rping-lo: frame 4, the MPA Request (values as tshark -V shows them)
        try (CaptureSession s = new CaptureSession("t", Long.MAX_VALUE);
             CaptureReader r = CaptureReaders.open(RepoPaths.pcap("siw/siw-rping-lo.pcap"))) {
            s.load(r, 500, n -> { });
            long row = s.rowOfFrame(4);
            TreeBuilder b = new TreeBuilder();
            s.store().replay(s.index().detail(row), b);
            List<String> lines = lines(b.root, new ArrayList<>());
            assertThat(lines).containsSubsequence("Ethernet II", "Destination: 00:00:00:00:00:00",
                    "Source: 00:00:00:00:00:00", "Type: 0x0800 (2048)", "Internet Protocol Version 4",
                    "Version: 4", "Header Length: 20", "Differentiated Services Field: 0x00 (0)", "Total Length: 76",
                    "Identification: 0x98f8 (39160)", "Don't fragment: yes", "More fragments: no",
                    "Time to Live: 64", "Protocol: 6", "Header Checksum: 0x8996 (35222)",
                    "Source Address: 10.0.2.15", "Destination Address: 10.0.2.15", "Transmission Control Protocol",
                    "Source Port: 39655", "Destination Port: 7174", "Sequence Number: 1",
                    "Sequence Number (raw): 3915058297", "Acknowledgment Number: 1",
                    "Acknowledgment number (raw): 1835487076", "Header Length: 32", "Flags: 0x0018 (24)",
                    "Push: yes", "Syn: no", "Window: 512", "Checksum: 0x185c (6236)", "Urgent Pointer: 0",
                    "TCP Segment Len: 24", "MPA Request Frame (RFC 5044 §7.1)");
        }
    }
}
