package io.rddp.gui.vm;

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
}
