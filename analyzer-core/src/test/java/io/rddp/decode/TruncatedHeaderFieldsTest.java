package io.rddp.decode;

import io.rddp.testing.RepoPaths;
import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.filter.FieldRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A DDP or RDMAP header cut short by the ULPDU_Length still shows every field that lies inside the ULPDU, flagged as
 * truncated, in the field registry (JSON, -V, display filters); tshark shows these fields too.
 */
class TruncatedHeaderFieldsTest {

    /** The fields of every FPDU of a pcaps/violations capture, as the registry gives them. */
    private static List<Map<String, List<Object>>> fpdus(String name) throws IOException {
        List<Map<String, List<Object>>> out = new ArrayList<>();
        try (CaptureReader r = CaptureReaders.open(RepoPaths.root().resolve("pcaps/violations/" + name))) {
            new DecodePipeline(pdu -> {
                if (pdu.fpdu() == null) return;
                FieldRecord rec = new FieldRecord();
                PduFields.describe(pdu, rec);
                out.add(Map.copyOf(rec.all()));
            }).run(r);
        }
        return out;
    }

    private static Map<String, List<Object>> cut(List<Map<String, List<Object>>> fpdus) {
        List<Map<String, List<Object>>> cut = fpdus.stream().filter(f -> f.containsKey("problem")).toList();
        assertThat(cut).hasSize(1);
        return cut.get(0);
    }

    @Test
    void anUntaggedDdpHeaderCutAtTenOctetsShowsItsControlRsvdUlpAndQn() throws IOException {
        // ddp-header-short: a 10-octet ULPDU whose first octet 0x41 announces an untagged header (18 octets)
        Map<String, List<Object>> f = cut(fpdus("ddp-header-short.pcap"));
        assertThat(f.get("mpa.ulpduLength")).containsExactly(10L);
        assertThat(f.get("ddp.tagged")).containsExactly(false);
        assertThat(f.get("ddp.last")).containsExactly(true);
        assertThat(f.get("ddp.version")).containsExactly(1L);
        assertThat(f.get("ddp.truncated")).containsExactly(true);
        assertThat(f.get("ddp.headerLength")).containsExactly(18L);
        assertThat(f).containsKeys("ddp.rsvdUlp", "ddp.qn", "rdmap.opcode", "rdmap.version", "rdmap.truncated");
        // MSN (octets 10-13) and MO (14-17) lie outside the ULPDU: not shown, not guessed
        assertThat(f).doesNotContainKeys("ddp.msn", "ddp.mo");
    }

    @Test
    void aReadRequestHeaderCutShortShowsTheFieldsItsPayloadHolds() throws IOException {
        // rdmap-header-short: a Read Request (opcode 1, QN 1) with 10 octets where its header needs 28
        Map<String, List<Object>> f = cut(fpdus("rdmap-header-short.pcap"));
        assertThat(f.get("ddp.truncated")).isNull();
        assertThat(f.get("ddp.qn")).containsExactly(1L);
        assertThat(f.get("rdmap.opcode")).containsExactly(1L);
        assertThat(f.get("rdmap.truncated")).containsExactly(true);
        assertThat(f.get("rdmap.headerLength")).containsExactly(28L);
        // Data Sink STag (octets 0-3) is inside, the Data Sink TO (4-11) is not
        assertThat(f).containsKey("rdmap.readRequest.sinkStag");
        assertThat(f).doesNotContainKeys("rdmap.readRequest.sinkTo", "rdmap.readRequest.size",
                "rdmap.readRequest.srcStag", "rdmap.readRequest.srcTo");
    }

    @Test
    void wholeHeadersAreNotFlagged() throws IOException {
        for (Map<String, List<Object>> f : fpdus("msn-skipped-terminated.pcap")) {
            assertThat(f).doesNotContainKeys("ddp.truncated", "rdmap.truncated", "problem");
        }
    }
}
