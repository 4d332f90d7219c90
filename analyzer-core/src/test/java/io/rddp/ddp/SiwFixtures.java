package io.rddp.ddp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * FPDUs of the siw captures in /work/shared/pcaps/siw as tshark 4.0 decodes them, stored as test resources by
 * make_fixtures.py (beside the .tsv files): the ULPDU bytes cut from the TCP stream plus tshark's iwarp_ddp.* and
 * iwarp_rdma.* field values. The bulk-transfer captures keep only the first 64 ULPDU bytes; {@link Row#ulpdu()}
 * pads them back to the real length with zeros, which is all header parsing and message assembly look at.
 */
public final class SiwFixtures {

    public static final String RPING = "siw-rping-lo.tsv";
    public static final String MPA_REV2 = "host-to-siw-mpa-rev2.tsv";
    public static final String P2P_WRITE = "host-to-siw-mpa-rev2-p2p-write.tsv";
    public static final String SEND_BW = "siw-send-bw-lo.tsv";
    public static final String WRITE_BW = "siw-write-bw-lo.tsv";
    public static final String READ_BW = "siw-read-bw-lo.tsv";
    public static final List<String> ALL = List.of(RPING, MPA_REV2, P2P_WRITE, SEND_BW, WRITE_BW, READ_BW);

    private SiwFixtures() {
    }

    /** One FPDU: tshark's field values by field name, and the ULPDU bytes. */
    public record Row(String file, Map<String, String> fields, byte[] stored) {

        public String get(String field) {
            return fields.get(field);
        }

        public long frame() {
            return Long.parseLong(get("frame.number"));
        }

        public int ulpduLength() {
            return Integer.parseInt(get("iwarp_mpa.ulpdulength"));
        }

        /** "stream/srcport": one direction of one TCP connection. */
        public String direction() {
            return get("tcp.stream") + "/" + get("tcp.srcport");
        }

        /** The ULPDU, position 0, limit = the FPDU's ULPDU_Length. */
        public ByteBuffer ulpdu() {
            ByteBuffer b = ByteBuffer.allocate(ulpduLength());
            b.put(stored, 0, Math.min(stored.length, b.capacity()));
            return b.clear();
        }

        /** A tshark number field: decimal, or hex with 0x; -1 when tshark showed no such field. */
        public long number(String field) {
            String v = get(field);
            if (v == null || v.isEmpty()) return -1;
            return v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
        }

        @Override
        public String toString() {
            return file + " frame " + frame();
        }
    }

    public static List<Row> load(String file) {
        InputStream in = SiwFixtures.class.getResourceAsStream(file);
        if (in == null) throw new IllegalStateException("missing test resource io/rddp/ddp/" + file);
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            List<Row> rows = new ArrayList<>();
            String[] names = null;
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("#")) continue;
                String[] cols = line.split("\t", -1);
                if (names == null) {
                    names = cols;
                    continue;
                }
                Map<String, String> fields = new LinkedHashMap<>();
                for (int i = 1; i < names.length; i++) fields.put(names[i], i < cols.length ? cols[i] : "");
                rows.add(new Row(file, fields, HexFormat.of().parseHex(cols[0])));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
