package io.rddp.conformance;

import io.rddp.capture.CaptureReader;
import io.rddp.capture.CaptureReaders;
import io.rddp.decode.DecodePipeline;
import io.rddp.decode.FieldSink;
import io.rddp.decode.FieldSpans;
import io.rddp.decode.Pdu;
import io.rddp.decode.PduFields;
import io.rddp.decode.PduListener;
import io.rddp.decode.PduSummary;
import io.rddp.tcp.Direction;
import io.rddp.tcp.TcpConnection;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.rddp.conformance.ReportHtml.x;

/**
 * A scenario's recorded exchange as a ladder diagram (SVG) and, per PDU, its wire bytes decoded field by field (the
 * analyzer's own field registry, {@link PduFields}, as {@code rddp decode -V} prints it), for report.html. The PDU
 * whose fields the tester set to a faulty value carries ⚡ on the ladder and its fields are highlighted; so are the
 * fields of the DUT's PDUs the judge found at fault.
 */
final class Ladder {

    /** Ladder rows drawn per scenario at most. */
    static final int MAX_LADDER = 120;
    /** Octets of one PDU shown in the wire bytes at most. */
    static final int MAX_BYTES = 96;
    /** PDUs decoded field by field per scenario at most (marked ones first; the rest show their octets only). */
    static final int MAX_DECODED = 40;
    /** Field rows of one PDU at most. */
    static final int MAX_FIELDS = 48;
    /** Fields recorded per PDU but not shown: the rung says them. */
    private static final Set<String> SKIP = Set.of("frame", "stream", "src", "dst", "time");

    private Ladder() {
    }

    /**
     * One field of a PDU: its filter name, label, value as the field tree prints it (null: a layer), octets, depth.
     */
    record Field(String name, String label, String value, String octets, int depth) {
    }

    /** One PDU (or a close) for the ladder. */
    private record Rung(long frame, boolean fromTester, String text, String hex, List<Field> fields,
                        List<WireMark> marks) {

        List<WireMark> marks(WireMark.Kind k) {
            return marks.stream().filter(m -> m.kind() == k).toList();
        }

        boolean injected() {
            return !marks(WireMark.Kind.INJECTED).isEmpty() || !marks(WireMark.Kind.TESTER_FAULT).isEmpty();
        }

        boolean offending() {
            return !marks(WireMark.Kind.OFFENDING).isEmpty();
        }

        /** The mark class of a field: "inj", "off" or null, by the marks that name it or a layer it is in. */
        String markOf(String name) {
            String cls = null;
            for (WireMark m : marks) {
                for (String f : m.fields()) {
                    if (name.equals(f) || name.startsWith(f + ".")) {
                        if (m.kind() == WireMark.Kind.OFFENDING) return "off";
                        if (m.kind() != WireMark.Kind.CONNECTION) cls = "inj";
                    }
                }
            }
            return cls;
        }
    }

    /** A ladder diagram (SVG) of the recorded exchange and its PDUs field by field, unmarked. */
    static void render(StringBuilder sb, Path pcap) {
        render(sb, pcap, List.of(), "x");
    }

    /**
     * A ladder diagram (SVG) of the recorded exchange and its PDUs field by field, with the scenario's marks.
     *
     * @param anchor prefix of the PDUs' element ids (unique in the page)
     */
    static void render(StringBuilder sb, Path pcap, List<WireMark> marks, String anchor) {
        List<Rung> rungs = new ArrayList<>();
        int[] decoded = {0};
        try (CaptureReader reader = CaptureReaders.open(pcap)) {
            new DecodePipeline(new PduListener() {
                @Override
                public void onPdu(Pdu pdu) {
                    if (rungs.size() >= MAX_LADDER) return;
                    boolean tester = fromTester(pdu.connection(), pdu.direction(), marks);
                    long offset = pdu.startFrame() != null ? 0 : pdu.fpdu().offset();
                    List<WireMark> on = new ArrayList<>();
                    for (WireMark m : marks) {
                        if (m.kind() == WireMark.Kind.CONNECTION || !m.covers(offset)) continue;
                        boolean mine = m.kind() != WireMark.Kind.OFFENDING;
                        if (sameConnection(pdu.connection(), pdu.direction(), m, mine)) on.add(m);
                    }
                    String text = (pdu.stream() > 0 ? "[" + pdu.stream() + "] " : "")
                            + PduSummary.info(pdu, new StringBuilder());
                    List<Field> fields = List.of();
                    if (!on.isEmpty() || decoded[0] < MAX_DECODED && scenarioConnection(pdu.connection(), marks)) {
                        decoded[0]++;
                        fields = fields(pdu);
                    }
                    rungs.add(new Rung(pdu.frame(), tester, text, bytes(pdu), fields, on));
                }

                @Override
                public void onClose(TcpConnection c, Direction d, boolean reset, long frame) {
                    if (rungs.size() >= MAX_LADDER) return;
                    rungs.add(new Rung(frame, fromTester(c, d, marks), (c.index() > 0 ? "[" + c.index() + "] " : "")
                            + (reset ? "RST" : "FIN"), "", List.of(), List.of()));
                }
            }).run(reader);
        } catch (IOException | RuntimeException e) {
            sb.append("<p class=\"note\">the recording could not be read: ").append(x(e.toString())).append("</p>");
            return;
        }
        int h = 24 * rungs.size() + 30;
        sb.append("<svg class=\"ladder\" width=\"1100\" height=\"").append(h).append("\">")
                .append("<text x=\"40\" y=\"14\">tester</text><text x=\"690\" y=\"14\">DUT</text>")
                .append("<line x1=\"60\" y1=\"20\" x2=\"60\" y2=\"").append(h).append("\"/>")
                .append("<line x1=\"700\" y1=\"20\" x2=\"700\" y2=\"").append(h).append("\"/>");
        int y = 36;
        for (Rung r : rungs) {
            boolean bad = r.text.contains("Terminate") || r.text.contains("BAD CRC") || r.text.equals("RST")
                    || r.text.endsWith("] RST") || r.offending();
            String cls = r.injected() ? "inj" : bad ? "bad" : "ok";
            int x1 = r.fromTester ? 60 : 700, x2 = r.fromTester ? 700 : 60;
            sb.append("<line class=\"").append(cls).append("\" x1=\"").append(x1).append("\" y1=\"").append(y)
                    .append("\" x2=\"").append(x2).append("\" y2=\"").append(y).append("\" marker-end=\"url(#a)\"/>");
            String label = "#" + r.frame + " " + (r.injected() ? "⚡ " : "") + r.text + markText(r, true);
            if (!r.hex.isEmpty()) {
                sb.append("<a href=\"#").append(x(anchor + "-f" + r.frame)).append("\">");
            }
            sb.append("<text class=\"").append(cls).append("\" x=\"70\" y=\"").append(y - 4).append("\">")
                    .append(x(label)).append("</text>");
            if (!r.hex.isEmpty()) sb.append("</a>");
            y += 24;
        }
        sb.append("<defs><marker id=\"a\" markerWidth=\"8\" markerHeight=\"8\" refX=\"8\" refY=\"4\" orient=\"auto\""
                + " markerUnits=\"userSpaceOnUse\"><path d=\"M0,0 L8,4 L0,8 z\"/></marker></defs></svg>");
        sb.append("<div class=\"pdus\"><p class=\"note\">wire bytes, field by field (⚡ the tester's injected fault,"
                + " red the DUT's fields the judge found at fault):</p>");
        for (Rung r : rungs) {
            if (r.hex.isEmpty()) continue;
            boolean marked = r.injected() || r.offending();
            sb.append("<details class=\"pdu").append(r.injected() ? " inj" : "").append(r.offending() ? " off" : "")
                    .append("\" id=\"").append(x(anchor + "-f" + r.frame)).append('"').append(marked ? " open" : "")
                    .append("><summary>").append(x("#" + r.frame + (r.fromTester ? " tester → DUT  "
                            : " DUT → tester  ") + (r.injected() ? "⚡ " : "") + r.text + markText(r, false)))
                    .append("</summary>");
            if (!r.fields.isEmpty()) {
                sb.append("<table class=\"fields\">");
                for (Field f : r.fields) {
                    if (f.value == null) {
                        String m = r.markOf(f.name);
                        sb.append("<tr class=\"layer").append(m == null ? "" : " " + m).append("\"><th colspan=\"3\"")
                                .append(" title=\"").append(x(f.name)).append("\">").append(x(f.label))
                                .append("</th></tr>");
                        continue;
                    }
                    String m = r.markOf(f.name);
                    sb.append("<tr").append(m == null ? "" : " class=\"" + m + "\"").append("><td")
                            .append(f.depth > 1 ? " class=\"d" + Math.min(f.depth, 3) + "\"" : "").append(" title=\"")
                            .append(x(f.name)).append("\">").append(m == null ? "" : m.equals("inj") ? "⚡ " : "✗ ")
                            .append(x(f.label)).append("</td><td>").append(x(f.value)).append("</td><td>")
                            .append(x(f.octets)).append("</td></tr>");
                }
                sb.append("</table>");
            }
            sb.append("<pre>").append(x(r.hex)).append("</pre></details>");
        }
        sb.append("</div>");
    }

    /** What the marks on a PDU say: the injected fields, the checks the DUT's PDU broke (short: the ladder's). */
    private static String markText(Rung r, boolean shortly) {
        StringBuilder sb = new StringBuilder();
        List<WireMark> inj = r.marks(WireMark.Kind.INJECTED);
        List<WireMark> judged = r.marks(WireMark.Kind.TESTER_FAULT);
        Set<String> words = new LinkedHashSet<>();
        for (WireMark m : inj) words.add(m.what());
        if (inj.isEmpty() || !shortly) {
            for (WireMark m : judged) words.add(shortly ? check(m.what()) : "judge: " + m.what());
        }
        if (!words.isEmpty()) sb.append(" — injected: ").append(String.join("; ", words));
        Set<String> off = new LinkedHashSet<>();
        for (WireMark m : r.marks(WireMark.Kind.OFFENDING)) off.add(shortly ? check(m.what()) : m.what());
        if (!off.isEmpty()) sb.append(" — at fault: ").append(String.join("; ", off));
        return sb.toString();
    }

    /** The check id a violation's text starts with ("ddp.tagged.bounds: ..."). */
    private static String check(String what) {
        int colon = what.indexOf(": ");
        return colon > 0 ? what.substring(0, colon) : what;
    }

    /**
     * Whether {@code c} is one of the scenario's own connections (not the liveness check's), when the marks say which
     * those are.
     */
    private static boolean scenarioConnection(TcpConnection c, List<WireMark> marks) {
        boolean known = false;
        for (WireMark m : marks) {
            if (m.kind() != WireMark.Kind.CONNECTION) continue;
            known = true;
            if (sameConnection(c, Direction.CLIENT_TO_SERVER, m, true) || sameConnection(c,
                    Direction.CLIENT_TO_SERVER, m, false)) {
                return true;
            }
        }
        return !known;
    }

    /**
     * Whether the octets of {@code d} on {@code c} are the tester's: by a scenario connection's ports, else the
     * client's.
     */
    private static boolean fromTester(TcpConnection c, Direction d, List<WireMark> marks) {
        for (WireMark m : marks) {
            if (m.kind() != WireMark.Kind.CONNECTION) continue;
            if (sameConnection(c, d, m, true)) return true;
            if (sameConnection(c, d, m, false)) return false;
        }
        return d == Direction.CLIENT_TO_SERVER;
    }

    /** Whether the octets of {@code d} on {@code c} go tester → DUT ({@code tester}) or back, per {@code m}. */
    private static boolean sameConnection(TcpConnection c, Direction d, WireMark m, boolean tester) {
        int src = c.source(d).port(), dst = c.destination(d).port();
        return tester ? src == m.testerPort() && dst == m.dutPort() : src == m.dutPort() && dst == m.testerPort();
    }

    /** The PDU's fields as the analyzer describes them, each with its octets where it has a place of its own. */
    static List<Field> fields(Pdu pdu) {
        byte[] octets = FieldSpans.bytes(pdu, MAX_BYTES);
        boolean start = pdu.startFrame() != null;
        boolean tagged = pdu.ddp() != null && pdu.ddp().header().tagged();
        int pd = start ? pdu.startFrame().privateData().length : 0;
        List<Field> out = new ArrayList<>();
        PduFields.describe(pdu, new FieldSink() {
            private final List<String> path = new ArrayList<>();

            private String name(String key) {
                String p = String.join(".", path);
                if (key == null) return p;
                return p.isEmpty() ? key : p + "." + key;
            }

            private void add(String key, String label, String value) {
                String name = name(key);
                if (out.size() >= MAX_FIELDS || path.isEmpty() && SKIP.contains(name)) return;
                String hex = "";
                if (value != null) {
                    FieldSpans.Span s = FieldSpans.of(name, start, tagged, pd);
                    if (s != null && s.length() > 0 && s.offset() + s.length() <= octets.length) {
                        hex = HexFormat.of().formatHex(octets, s.offset(), s.offset() + s.length());
                    }
                }
                out.add(new Field(name, label, value, hex, path.size()));
            }

            @Override
            public void begin(String key, String label) {
                add(key, label, null);
                path.add(key == null ? "" : key);
            }

            @Override
            public void end() {
                path.remove(path.size() - 1);
            }

            @Override
            public void number(String key, String label, long value) {
                add(key, label, Long.toString(value));
            }

            @Override
            public void id32(String key, String label, long value) {
                add(key, label, "0x" + HexFormat.of().toHexDigits((int) value));
            }

            @Override
            public void unsigned64(String key, String label, long value) {
                add(key, label, "0x" + HexFormat.of().toHexDigits(value));
            }

            @Override
            public void bool(String key, String label, boolean value) {
                add(key, label, value ? "yes" : "no");
            }

            @Override
            public void text(String key, String label, String value) {
                add(key, label, value);
            }

            @Override
            public void hex(String key, String label, byte[] value) {
                add(key, label, value.length == 0 ? "(none)" : HexFormat.ofDelimiter(":").formatHex(value,
                        0, Math.min(value.length, 32)) + (value.length > 32 ? "…" : ""));
            }
        });
        return out;
    }

    private static String bytes(Pdu pdu) {
        byte[] b = FieldSpans.bytes(pdu, MAX_BYTES + 3);
        int n = Math.min(b.length, MAX_BYTES + 2);
        return HexFormat.of().formatHex(b, 0, n) + (b.length > n ? "…" : "");
    }
}
